// Package redact is the redact stream guardrail: personal data and secrets in a model's streamed text
// (e-mail addresses, phone numbers, US social security numbers, card numbers that pass the Luhn check and begin as an issuer's do,
// IBANs that pass mod 97; AWS, GitHub, OpenAI, Anthropic, Slack and Google keys; JWTs; private key blocks)
// are replaced by typed placeholders such as [EMAIL] before the text is released, even when a match is
// split across deltas. It holds back only what may still become part of a match — the trailing run of
// characters a match can contain — so ordinary prose flows with a delay of a word or so.
//
// Redaction is split-invariant: however the same text is cut into deltas, the released text is the same
// (a fuzz test holds it to redacting the whole text at once). It never logs or records what it removed.
package redact

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.stream.redact",
		New:     func() any { return new(Redact) },
		Summary: "replaces personal data and secrets in streamed text with typed placeholders, across delta boundaries",
	})
}

// Redact replaces personal data and secrets in streamed text.
type Redact struct {
	// Types lists what to redact; empty means every type: email, phone, ssn, card, iban, aws_key,
	// github_token, openai_key, anthropic_key, slack_token, google_key, jwt, private_key.
	Types []string `yaml:"types" json:"types"`
	// Placeholder is what replaces a match; {type} stands for the type in capitals. Default "[{type}]",
	// which gives [EMAIL], [CARD], [OPENAI_KEY], ….
	Placeholder string `yaml:"placeholder" json:"placeholder"`

	active       []*detector
	placeholders []string
	// last remembers the hold of the text CheckPart just produced, which the runner asks Holdback about next;
	// streams running at once only cost each other a recomputation.
	last atomic.Pointer[held]
}

type held struct {
	text string
	hold int
}

var (
	_ warden.StreamGuardrail = (*Redact)(nil)
	_ warden.StreamHoldback  = (*Redact)(nil)
	_ warden.Provisioner     = (*Redact)(nil)
)

// TypeNames lists every type, in the order they run.
func TypeNames() []string {
	names := make([]string, len(detectors))
	for i, d := range detectors {
		names[i] = d.name
	}
	return names
}

// Provision selects the detectors and builds the placeholders.
func (r *Redact) Provision(context.Context) error {
	want := map[string]bool{}
	for _, t := range r.Types {
		want[t] = true
	}
	for _, t := range r.Types {
		found := false
		for _, d := range detectors {
			found = found || d.name == t
		}
		if !found {
			return fmt.Errorf("types: unknown type %q (known: %s)", t, strings.Join(TypeNames(), ", "))
		}
	}
	ph := r.Placeholder
	if ph == "" {
		ph = "[{type}]"
	}
	r.active, r.placeholders = nil, nil
	for _, d := range detectors {
		if len(want) == 0 || want[d.name] {
			r.active = append(r.active, d)
			r.placeholders = append(r.placeholders, strings.ReplaceAll(ph, "{type}", strings.ToUpper(d.name)))
		}
	}
	return nil
}

// CheckPart redacts every match in the pending text that no later delta can change (at the finish part,
// every match), and allows everything else.
func (r *Redact) CheckPart(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
	final := c.Part.Kind == warden.PartFinish
	if c.Part.Kind != warden.PartText && !final {
		return warden.Allow(), nil
	}
	text, found, hold := r.pass(c.Pending, final)
	if !final {
		r.last.Store(&held{text, hold})
	}
	if len(found) == 0 {
		return warden.Allow(), nil
	}
	return warden.Modify(warden.Part{Kind: warden.PartText, Text: text},
		warden.Reason{Code: "redact.redacted", Message: "redacted " + strings.Join(found, ", ")}), nil
}

// Holdback keeps back everything from the earliest place a match may still start or may still be
// overtaken by another type's match.
func (r *Redact) Holdback(pending string) int {
	if h := r.last.Load(); h != nil && h.text == pending {
		return h.hold
	}
	_, _, hold := r.pass(pending, false)
	return hold
}

// pass runs the detectors in order over text and replaces every match that is settled: it lies in a run no
// later text can change, and it ends before any place where an earlier type's match may still start (in the
// whole text that earlier type would have taken the overlap). hold is how many bytes at the end are not
// settled; with final, everything is.
func (r *Redact) pass(text string, final bool) (out string, found []string, hold int) {
	tail := 0 // unsettled bytes at the end; replacements before them do not move them
	trig := triggersOf(text)
	for i, d := range r.active {
		settled := len(text)
		if !final {
			// Nor is a run of d's class that reaches into what an earlier type left unsettled: that type may
			// yet replace part of it, and d would then read the run differently.
			settled = min(d.settled(text), d.runStart(text, len(text)-tail))
			tail = max(tail, len(text)-settled)
		}
		if !d.mayMatch(trig) {
			continue
		}
		spans := d.find(text, settled, trig.digits)
		if len(spans) == 0 {
			continue
		}
		var b strings.Builder
		last, n := 0, 0
		for _, sp := range spans {
			if sp[1] > len(text)-tail {
				tail = max(tail, len(text)-sp[0]) // overtaken later, perhaps: hold it and what follows
				break
			}
			b.WriteString(text[last:sp[0]])
			b.WriteString(r.placeholders[i])
			last = sp[1]
			n++
		}
		if n == 0 {
			continue
		}
		b.WriteString(text[last:])
		text = b.String()
		// The replacement moved what follows it: where the digit runs start is read again, or a later
		// type would look for its numbers at the old places and miss those the text now holds there.
		trig.digits = digitRuns(text)
		found = append(found, fmt.Sprintf("%d %s", n, d.name))
	}
	return text, found, len(text) - r.cut(text, len(text)-tail)
}

// runStart moves a boundary b back to the start of the run of d's class it splits, if it splits one.
func (d *detector) runStart(text string, b int) int {
	if d.class == nil || b <= 0 || b >= len(text) || !d.class[text[b-1]] || !d.class[text[b]] {
		return b
	}
	for b > 0 && d.class[text[b-1]] {
		b--
	}
	return b
}

// digitRuns returns where each run of digits in text starts: the triggers of the detectors of numbers,
// found once for all of them.
func digitRuns(text string) []int {
	var starts []int
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			continue
		}
		starts = append(starts, i)
		for i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9' {
			i++
		}
	}
	return starts
}

// mayMatch is a cheap test that text can hold a match of d at all.
func (d *detector) mayMatch(t textTriggers) bool {
	switch {
	case d.anchors != nil:
		return t.anchored&d.bit != 0
	case d.at:
		return t.at
	}
	return len(t.digits) > 0
}

// cut moves a release boundary back until it splits no run of any type's class: a run cut in two would
// be matched differently from its rest than whole, which would make the result depend on the deltas.
func (r *Redact) cut(text string, b int) int {
	for moved := true; moved && b > 0 && b < len(text); {
		moved = false
		for _, d := range r.active {
			if nb := d.runStart(text, b); nb != b {
				b, moved = nb, true
			}
		}
	}
	return b
}

// settled returns where the text stops being settled for d: the earliest index at which a match that
// involves text not yet received could start.
func (d *detector) settled(text string) int {
	n := len(text)
	if d.class == nil {
		return d.settledBlock(text)
	}
	k := n
	for k > 0 && d.class[text[k-1]] && n-k < holdCap(d) {
		k--
	}
	if d.anchors == nil {
		return k
	}
	run := text[k:]
	start := n - partialSuffix(run, d.anchors)
	for _, a := range d.anchors {
		if i := strings.Index(run, a); i >= 0 {
			start = min(start, k+i)
		}
	}
	return start
}

// settledBlock is settled for private key blocks: a block whose header or end marker has not fully
// arrived holds everything from its opening marker.
func (d *detector) settledBlock(text string) int {
	n := len(text)
	i := strings.LastIndex(text, "-----BEGIN")
	if i < 0 {
		return n - partialSuffix(text, d.anchors)
	}
	rest := text[i+len("-----BEGIN"):]
	h := strings.Index(rest, "-----")
	switch {
	case h < 0:
		return i // the header is still arriving
	case !strings.HasSuffix(rest[:h], "PRIVATE KEY"):
		return n - partialSuffix(text, d.anchors) // a certificate or public key: not redacted
	}
	body := rest[h+5:]
	e := strings.Index(body, "-----END")
	if e < 0 || !strings.Contains(body[e+len("-----END"):], "-----") {
		return i
	}
	return n - partialSuffix(text, d.anchors)
}

// holdCap bounds how far back a trailing run is held: a match longer than that may be released in part.
func holdCap(d *detector) int {
	if d.maxLen > 0 {
		return d.maxLen
	}
	return 1024
}

// partialSuffix returns the length of the longest suffix of s that is a proper prefix of an anchor.
func partialSuffix(s string, anchors []string) int {
	best := 0
	for _, a := range anchors {
		for l := min(len(a)-1, len(s)); l > best; l-- {
			if s[len(s)-l] == a[0] && strings.HasSuffix(s, a[:l]) {
				best = l
				break
			}
		}
	}
	return best
}

// find returns the spans of d's valid matches that start before limit, in order.
func (d *detector) find(text string, limit int, digits []int) [][2]int {
	var spans [][2]int
	for _, c := range d.candidates(text, limit, digits) {
		run := text[c[0]:c[1]]
		if d.grouped {
			for _, m := range d.groupedMatches(run) {
				if c[0]+m[0] < limit && !insideToken(text, c[0]+m[0], c[0]+m[1]) {
					spans = append(spans, [2]int{c[0] + m[0], c[0] + m[1]})
				}
			}
			continue
		}
		for _, m := range d.re.FindAllStringIndex(run, -1) {
			s, e := c[0]+m[0], c[0]+m[1]
			if s >= limit || (d.valid != nil && !d.valid(text[s:e])) || d.apart && insideToken(text, s, e) || d.notInURL && inURLUserinfo(text, s) {
				continue
			}
			if d.anchors != nil && !d.inWord && s > 0 && alnum(text[s-1]) {
				continue // a key's prefix starts a word: "SK…" inside "TASK…", "key-…" inside "monkey-…" is none
			}
			spans = append(spans, [2]int{s, e})
		}
	}
	if len(spans) > 1 {
		sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	}
	out := spans[:0]
	for _, s := range spans { // runs found from two anchors may overlap
		if len(out) > 0 && s[0] < out[len(out)-1][1] {
			continue
		}
		out = append(out, s)
	}
	return out
}

// insideToken reports whether the number at text[s:e] is part of a longer token rather than a word of its
// own: glued to a letter, an underscore or more digits (a hex literal's "0x8000000000000000", an
// identifier, a longer number), or a decimal fraction's or an exponent's digits ("0.6366197723675814",
// "7.44e+307", "float64(133875.33628724958)"). A card, an account number, an SSN or a phone number written
// in text stands apart.
func insideToken(text string, s, e int) bool {
	glued := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9'
	}
	digit := func(i int) bool { return i >= 0 && i < len(text) && text[i] >= '0' && text[i] <= '9' }
	if s > 0 && (glued(text[s-1]) || text[s-1] == '.' && digit(s-2)) {
		return true
	}
	return e < len(text) && (glued(text[e]) || text[e] == '.' && digit(e+1))
}

// inURLUserinfo reports whether offset s lies in a URL's user information ("https://user:password@host"):
// the word it stands in opens with a scheme's "://". What stands there is url_credentials' to judge (a
// placeholder password is none), not an e-mail address ("password@host"); "mailto:" has no "//".
func inURLUserinfo(text string, s int) bool {
	start := strings.LastIndexAny(text[:s], " \t\r\n\"'`<>(") + 1
	return strings.Contains(text[start:s], "://")
}

// enough reports whether a run is long enough, and holds digits enough, for a match.
func (d *detector) enough(run string) bool {
	if len(run) < d.minLen {
		return false
	}
	if d.minDigits == 0 {
		return true
	}
	n := 0
	for i := 0; i < len(run); i++ {
		if run[i] >= '0' && run[i] <= '9' {
			if n++; n >= d.minDigits {
				return true
			}
		}
	}
	return false
}

// candidates returns the class runs worth a regex: those holding an anchor or a trigger byte, long enough and
// with digits enough for a match, starting before limit. A private key block is searched from each opening marker.
func (d *detector) candidates(text string, limit int, digits []int) [][2]int {
	var out [][2]int
	if d.class == nil {
		for i := 0; i < limit; {
			j := strings.Index(text[i:], "-----BEGIN")
			if j < 0 || i+j >= limit {
				break
			}
			out = append(out, [2]int{i + j, len(text)})
			i += j + 1
		}
		return out
	}
	runOf := func(i int) (int, int) {
		s, e := i, i
		for s > 0 && d.class[text[s-1]] {
			s--
		}
		for e < len(text) && d.class[text[e]] {
			e++
		}
		return s, e
	}
	add := func(s, e int) {
		if len(out) > 0 && out[len(out)-1][0] == s || !d.enough(text[s:e]) {
			return
		}
		out = append(out, [2]int{s, e})
	}
	if d.anchors != nil {
		for _, a := range d.anchors {
			for i := 0; i < limit; {
				j := strings.Index(text[i:], a)
				if j < 0 || i+j >= limit {
					break
				}
				s, e := runOf(i + j)
				add(s, e)
				i = e
			}
		}
		if len(out) > 1 {
			sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
		}
		return out
	}
	if d.at {
		for i := 0; i < limit; {
			j := strings.IndexByte(text[i:limit], '@')
			if j < 0 {
				break
			}
			s, e := runOf(i + j)
			add(s, e)
			i = max(e, i+j+1)
		}
		return out
	}
	end := 0
	for _, i := range digits {
		if i >= limit {
			break
		}
		if i < end {
			continue // inside the run just added
		}
		s, e := runOf(i)
		add(s, e)
		end = e
	}
	return out
}
