package detect

import (
	"fmt"
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
func (l *Leak) Detect(t *trace.Trace) Result {
	var own []string
	for _, u := range userTexts(t) {
		own = append(own, u.text)
	}
	// How much a find says depends on where it is: said to the user, sent out in a call's arguments, or
	// only pulled into the model's context by a tool result (a leak only if it goes further).
	type place struct {
		located
		factor float64
	}
	var places []place
	for _, a := range agentTexts(t) {
		places = append(places, place{a, 1})
	}
	for i, e := range t.Events {
		switch {
		case e.Type == trace.ToolCall && len(e.Arguments) > 0:
			places = append(places, place{located{fmt.Sprintf("events[%d].arguments", i), string(e.Arguments)}, 0.9})
		case e.Type == trace.ToolResult && e.Content != "":
			places = append(places, place{located{fmt.Sprintf("events[%d].content", i), e.Content}, 0.7})
		}
	}
	var res Result
	var ws []float64
	for _, p := range places {
		for _, m := range redact.Find(p.text) {
			if redact.Secret(m.Type) != l.secrets {
				continue
			}
			value := p.text[m.Start:m.End]
			if given(own, value) {
				continue
			}
			w, ok := leakWeight[m.Type]
			if !ok {
				w = 0.9
			}
			ws = append(ws, w*p.factor)
			res.Evidence = append(res.Evidence, Evidence{Where: p.where, Start: m.Start, End: m.End, Rule: m.Type})
			if s := leakSeverity(m.Type); s.Rank() > res.Severity.Rank() {
				res.Severity = s
			}
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

var _ Detector = (*Leak)(nil)
