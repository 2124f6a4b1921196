package mcpproxy

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden/guardrail/redact"
)

// Flows is the data-flow policy of an aggregated session: what read from one server may be sent to
// another. Every call's arguments are checked against what the other servers' answers carried, in this
// client session. The zero value denies secrets crossing between servers and keeps nothing else.
type Flows struct {
	// AllowSecrets lets a secret read from one server (a key or token in a known format, the value of a
	// KEY=, TOKEN= or PASSWORD= assignment, a long random-looking token) be sent to another.
	AllowSecrets bool
	// Private names servers whose data stays with them: any value of 16 characters or more that one of
	// their answers carried (a path, an identifier, a URL, a line of a private file) must not be sent to
	// another server.
	Private []string
}

// CodeCrossServerFlow is the reason code of a call denied because its arguments carry data read from
// another server.
const CodeCrossServerFlow = "warden.cross_server_flow"

// maxTaints bounds the values one session remembers; the oldest are forgotten first.
const maxTaints = 4096

// taint is where a remembered value came from.
type taint struct {
	server string
	what   string // "a secret", "data of a private server"
}

// taints are the values a session's answers carried, by value.
type taints struct {
	mu     sync.Mutex
	values map[string]taint
	order  []string
}

func (t *taints) add(value string, tt taint) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.values == nil {
		t.values = map[string]taint{}
	}
	if _, ok := t.values[value]; ok {
		return
	}
	if len(t.order) == maxTaints {
		delete(t.values, t.order[0])
		t.order = t.order[1:]
	}
	t.values[value] = tt
	t.order = append(t.order, value)
}

// crossing gives the first remembered value from a server other than to that text holds.
func (t *taints) crossing(text, to string) (taint, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, v := range t.order {
		if tt := t.values[v]; tt.server != to && strings.Contains(text, v) {
			return tt, true
		}
	}
	return taint{}, false
}

var (
	// assignment is a secret's name and value in a config or environment file, a header, a JSON
	// member: STRIPE_KEY=…, "api_token": "…", Authorization: Bearer ….
	assignment = regexp.MustCompile(`(?i)[A-Za-z0-9_.-]*(?:key|token|secret|passw(?:or)?d|pwd|credential|auth(?:orization)?|session|cookie)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?(?:bearer\s+|basic\s+)?([^\s"',;]{8,})`)
	// longToken is a run of the characters keys and tokens are written in.
	longToken = regexp.MustCompile(`[A-Za-z0-9_+/=.-]{20,}`)
	// urlPassword is the password a URL carries in its user info: postgres://app:PASSWORD@db/app.
	urlPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:([^\s@/]{4,})@`)
	uuid        = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	// privateValue is a value of a private server worth remembering: a run of 16 characters or more
	// without spaces or quotes.
	privateValue = regexp.MustCompile(`[^\s"'<>(),;]{16,}`)
)

// secretsIn gives the secrets text holds: known formats, assigned values, random-looking tokens.
func secretsIn(text string) []string {
	var out []string
	for _, m := range redact.Find(text) {
		if redact.Secret(m.Type) {
			out = append(out, text[m.Start:m.End])
		}
	}
	for _, re := range []*regexp.Regexp{assignment, urlPassword} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	}
	for _, tok := range longToken.FindAllString(text, -1) {
		if randomLooking(tok) {
			out = append(out, tok)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// randomLooking says whether a token looks generated rather than written: three kinds of character
// at least (lower, upper, digits, others) and high entropy, and not a UUID, which names things rather than
// unlocking them.
func randomLooking(tok string) bool {
	if uuid.MatchString(tok) || strings.Count(tok, "/") > 2 || strings.Count(tok, ".") > 2 {
		return false // an identifier, a path, a host name
	}
	var lower, upper, digit, other bool
	counts := map[rune]int{}
	for _, r := range tok {
		counts[r]++
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		default:
			other = true
		}
	}
	kinds := 0
	for _, k := range []bool{lower, upper, digit, other} {
		if k {
			kinds++
		}
	}
	entropy := 0.0
	for _, c := range counts {
		p := float64(c) / float64(len(tok))
		entropy -= p * math.Log2(p)
	}
	return kinds >= 3 && entropy >= 3.5
}

// remember keeps what an answer of server carried that must not reach another server.
func (f *Flows) remember(t *taints, server, text string) {
	if !f.AllowSecrets {
		for _, s := range secretsIn(text) {
			t.add(s, taint{server: server, what: "a secret"})
		}
	}
	if slices.Contains(f.Private, server) {
		for _, v := range privateValue.FindAllString(text, -1) {
			t.add(v, taint{server: server, what: "data of a private server"})
		}
	}
}

// argumentText is every string of a call's arguments, keys included, one a line.
func argumentText(args json.RawMessage) string {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return string(args)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case map[string]any:
			for k, e := range x {
				b.WriteString(k)
				b.WriteByte('\n')
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		default:
			raw, _ := json.Marshal(x)
			b.Write(raw)
			b.WriteByte('\n')
		}
	}
	walk(v)
	return b.String()
}
