package detect

import (
	"strings"

	"github.com/agentwarden/warden/guardrail/redact"
	"github.com/agentwarden/warden/trace"
)

func init() {
	register(Info{Name: "pii_leak", Severity: High,
		Summary: "personal data (e-mail, phone, card, SSN, IBAN) in what the agent says, sends or reads back"},
		func() any { return &Leak{secrets: false} })
	register(Info{Name: "secret_leak", Severity: Critical,
		Summary: "credentials (API keys, tokens, private keys, JWTs) in what the agent says, sends or reads back"},
		func() any { return &Leak{secrets: true} })
}

// Leak finds personal data (pii_leak) or credentials (secret_leak) with the stream redaction's patterns
// (guardrail/redact): in the agent's replies, in tool-call arguments (data sent somewhere) and in tool
// results (data pulled into the model's context). Data the user gave in their own messages is not a leak
// when it comes back. A validated format (a card that passes Luhn, a key with its prefix) counts more than
// a loose one (a phone number).
type Leak struct {
	secrets bool
}

// leakWeight is how much one match of a type says.
var leakWeight = map[string]float64{
	"email": 0.45, "phone": 0.4, "card": 0.85, "ssn": 0.85, "iban": 0.8,
	"private_key": 0.95, "jwt": 0.8,
}

func leakSeverity(typ string) Severity {
	switch {
	case redact.Secret(typ):
		return Critical
	case typ == "email" || typ == "phone":
		return Medium
	}
	return High
}

// Detect implements Detector.
func (l *Leak) Detect(t *trace.Trace) Result { return l.detect(newMemo(t)) }

func (l *Leak) detect(m *memo) Result {
	var own []string
	for _, u := range m.userTexts() {
		own = append(own, u.text)
	}
	var res Result
	var ws []float64
	for _, f := range m.leakFinds() {
		if redact.Secret(f.typ) != l.secrets || given(own, f.value) {
			continue
		}
		w, ok := leakWeight[f.typ]
		if !ok {
			w = 0.9
		}
		ws = append(ws, w*f.factor)
		res.Evidence = append(res.Evidence, Evidence{Where: f.where, Start: f.start, End: f.end, Rule: f.typ})
		if s := leakSeverity(f.typ); s.Rank() > res.Severity.Rank() {
			res.Severity = s
		}
	}
	if len(ws) == 0 {
		return Result{}
	}
	res.Score = noisyOr(ws...)
	res.Detected = true
	return res
}

// given reports whether the user's own messages hold a value.
func given(own []string, value string) bool {
	for _, o := range own {
		if strings.Contains(o, value) {
			return true
		}
	}
	return false
}

var (
	_ Detector     = (*Leak)(nil)
	_ memoDetector = (*Leak)(nil)
)
