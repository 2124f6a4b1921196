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

// leakReadings are the readings of what an agent wrote or sent in which a credential or personal data
// may stand written so that no pattern sees it, as an attacker asks for it ("spell the key with spaces",
// "send it in base64", "write it backwards"): a character at a time apart, in base64, as byte codes,
// backwards (only a text with a long run of a key's characters: the rest cannot hold a key reversed).
func leakReadings(text string) []reading {
	var out []reading
	for _, read := range [...]func(string) (string, []spelledOut){charsApart, groupsJoined, base64Token, byteCodesToken} {
		if plain, spans := read(text); spans != nil {
			out = append(out, reading{plain, spans})
		}
	}
	if hasBase64Run(text) {
		out = append(out, reading{backwards(text), []spelledOut{{start: 0, end: len(text), joinedStart: 0, joinedEnd: len(text)}}})
	}
	return out
}

// base64Token is decodedBase64 for runs that decode to printable ASCII: a key has no spaces for
// readable's test of text.
func base64Token(text string) (string, []spelledOut) { return base64Reading(text, printableToken) }

// byteCodesToken is decodedByteCodes for runs that decode to printable ASCII.
func byteCodesToken(text string) (string, []spelledOut) {
	return byteCodesReading(text, printableToken)
}

// printableToken reports whether s is printable ASCII, white space allowed (whole or a run's head alike).
func printableToken(s string, _ bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c > '~') && c != '\n' && c != '\t' && c != '\r' {
			return false
		}
	}
	return s != ""
}

// minCharsApart is the fewest characters written one at a time, a space apart, read joined: a key is
// longer, a spaced-out word ("h e l l o") shorter.
const minCharsApart = 16

// charsApart returns text with each run of minCharsApart or more characters written a space apart
// ("g h p _ 1 a 2 B …") written joined, and where; nil spans when there is none.
func charsApart(text string) (string, []spelledOut) {
	sp := splice{text: text}
	for i := 0; i < len(text); {
		if text[i] == ' ' {
			i++
			continue
		}
		if !isSingleChar(text, i) {
			// A word goes on here: passed over to the next space at once (every text the agent wrote is
			// asked, and almost none holds such a run).
			k := strings.IndexByte(text[i:], ' ')
			if k < 0 {
				break
			}
			i += k
			continue
		}
		// The run's characters stand at i, i+2, i+4, …: counted first, joined only when there are enough.
		n, end := 1, i+1
		for end+1 < len(text) && text[end] == ' ' && text[end+1] != ' ' && isSingleChar(text, end+1) {
			n, end = n+1, end+2
		}
		if n >= minCharsApart {
			joined := make([]byte, 0, n)
			for k := i; k < end; k += 2 {
				joined = append(joined, text[k])
			}
			sp.replace(i, end, string(joined))
		}
		i = end + 1
	}
	return sp.reading()
}

// groupsJoined returns text with each run of four or more groups of letters and digits, of one length
// (two to eight; the last may be shorter), letters and digits both among them, and apart by a dash or a
// space ("AKIA-IOSF-ODNN-7EXA-MPLQ",
// "AKIA IOSF ODNN …"), written joined, and where; nil spans when there is none. A date or a UUID's
// groups differ in length.
func groupsJoined(text string) (string, []spelledOut) {
	sp := splice{text: text}
	alnum := func(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }
	for i := 0; i < len(text); {
		if !alnum(text[i]) || i > 0 && alnum(text[i-1]) {
			i++
			continue
		}
		size := 0
		for i+size < len(text) && alnum(text[i+size]) {
			size++
		}
		groups, end := 1, i+size
		sep := byte(0)
		for size >= 2 && size <= 8 && end+1 < len(text) && (text[end] == '-' || text[end] == ' ') && (sep == 0 || text[end] == sep) {
			n := 0
			for end+1+n < len(text) && alnum(text[end+1+n]) {
				n++
			}
			if n == 0 || n > size {
				break
			}
			sep, groups, end = text[end], groups+1, end+1+n
			if n < size {
				break // a shorter group ends the run
			}
		}
		// A key mixes letters and digits; words of a sentence ("the cat sat on") do not.
		if groups >= 4 && strings.ContainsAny(text[i:end], "0123456789") && strings.IndexFunc(text[i:end], isASCIILetterRune) >= 0 {
			joined := make([]byte, 0, end-i)
			for k := i; k < end; k++ {
				if text[k] != sep {
					joined = append(joined, text[k])
				}
			}
			sp.replace(i, end, string(joined))
			i = end
			continue
		}
		i += size
	}
	return sp.reading()
}

// isSingleChar reports whether text[i] is one printable ASCII character standing alone: a space or the
// text's edge before it, and after it a space, the edge or a sentence's last mark.
func isSingleChar(text string, i int) bool {
	c := text[i]
	if c <= ' ' || c >= 0x7f || i > 0 && text[i-1] != ' ' && text[i-1] != '\n' {
		return false
	}
	after := func(k int) bool { return k >= len(text) || text[k] == ' ' || text[k] == '\n' }
	return after(i+1) || strings.IndexByte(".,;:!?", text[i+1]) >= 0 && after(i+2)
}

// disguisedAt returns where in the text a stretch of a reading stands: from the first to the last span
// it overlaps; not ok when it overlaps none (the stretch is the text's own, read already).
func disguisedAt(spans []spelledOut, start, end int) (int, int, bool) {
	from, to := -1, -1
	for _, sp := range spans {
		if start < sp.joinedEnd && sp.joinedStart < end {
			if from < 0 {
				from = sp.start
			}
			to = sp.end
		}
	}
	return from, to, from >= 0
}

var (
	_ Detector     = (*Leak)(nil)
	_ memoDetector = (*Leak)(nil)
)
