package detect

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/agentwarden/warden/guardrail/redact"
	"github.com/agentwarden/warden/internal/jsonwalk"
	"github.com/agentwarden/warden/internal/toolwords"
	"github.com/agentwarden/warden/trace"
)

// An agent that acts on an instruction planted in what a tool returned has left its task even when the
// task allows that kind of act: the indirect prompt injection of InjecAgent (Zhan et al. 2024) and
// AgentDojo (Debenedetti et al. 2024), where a product review, an e-mail or a calendar note asks the agent
// to pay, forward, grant or fetch for the attacker. What shows that a call took its orders from such a
// text is where the call goes: an address, an account, a number or a host that an injected tool result
// names and that the user never gave. A call that only reads, or that goes only where the user said, is
// not one.

// plantedTargetWeight is the weight of a call sent to a target only an injected tool result named: as
// strong as a payment outside the task, since it is what the attacker asked for.
const plantedTargetWeight = 0.85

// plantedActionWeight is the weight of a call that does what only an injected tool result asked (its
// tool's name in the instruction's words): a little less than a planted target, since a name's words are
// a looser trace than an address.
const plantedActionWeight = 0.75

// injectedResultAt is the injection score from which a tool result counts as carrying a planted
// instruction: the injection detector's evidence of an instruction, not its shipped alarm threshold,
// since here a call that follows it is the second half of the proof.
const injectedResultAt = 0.5

// injectedResult is a tool result that reads as an injection, and the part of it that holds the planted
// instruction: from a little before its first piece of evidence to a sentence or two after its last.
type injectedResult struct {
	event int
	near  string // lower-cased
}

// How far around an injection's evidence a call's target counts as the instruction's own: the sentence
// that names the act and the address it gives ("… to my friend Amy (guest_amy01) …"), not the ids and
// dates of the rest of a tool's JSON answer.
const (
	plantedBefore = 80
	plantedAfter  = 240
)

// toolResultInjection returns the injection analysis of each tool result, in event order, computed once
// for every detector that reads it.
func (m *memo) toolResultInjection() []eventScored {
	if !m.haveResultInj {
		m.haveResultInj = true
		for i, e := range m.t.Events {
			if e.Type == trace.ToolResult && e.Content != "" {
				where := eventWhere(i, "content")
				m.resultInj = append(m.resultInj, eventScored{i, analyzeToolResultInjection(e.Content, where)})
			}
		}
	}
	return m.resultInj
}

// eventScored is an analysis of the text of event i.
type eventScored struct {
	event int
	scored
}

// injectedResults returns the tool results that read as injections.
func (m *memo) injectedResults() []injectedResult {
	var out []injectedResult
	for _, r := range m.toolResultInjection() {
		if r.score < injectedResultAt {
			continue
		}
		text := m.t.Events[r.event].Content
		from, to := len(text), 0
		for _, e := range r.evidence {
			if e.End > e.Start {
				from, to = min(from, e.Start), max(to, e.End)
			}
		}
		if from >= to { // evidence without a place: the whole text
			from, to = 0, len(text)
		}
		from, to = max(0, from-plantedBefore), min(len(text), to+plantedAfter)
		out = append(out, injectedResult{r.event, strings.ToLower(text[from:to])})
	}
	return out
}

// callTargets returns where a call's arguments send or point, lower-cased: whom an address argument
// names (to, user, recipient, channel…), e-mail addresses, phone,
// account and card numbers (the redaction finds), the hosts of URLs, numbers of eight digits or more
// (grouped or not: account and order numbers), and identifiers (a user name, an id, a path: a word of five
// characters or more that mixes letters with digits, "_" or "@", or starts with "/" or "~/").
func callTargets(args json.RawMessage) []string {
	var m any
	if json.Unmarshal(args, &m) != nil {
		return nil
	}
	var out []string
	jsonwalk.Strings(m, func(key, s string) bool {
		out = targetsOf(out, key, s)
		return true
	})
	return out
}

// targetsOf appends to out the targets (as callTargets finds them) of one string value under key.
func targetsOf(out []string, key, s string) []string {
	// Whom a call addresses is a target however it is spelled: a plain user name ("amywatson").
	if addressKeys[key] && len(s) >= 3 && !strings.ContainsAny(s, " \t\n") {
		out = append(out, strings.ToLower(s))
	}
	for _, f := range redact.Find(s) {
		out = append(out, strings.ToLower(s[f.Start:f.End]))
	}
	out = append(out, urlHosts(s)...)
	out = append(out, digitGroups(s)...)
	for _, w := range strings.FieldsFunc(s, isTargetSeparator) {
		if identifier(w) {
			out = append(out, strings.ToLower(strings.TrimRight(w, ".:!?")))
		}
	}
	return out
}

func isTargetSeparator(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ',' || r == ';' || r == '"' || r == '\'' ||
		r == '(' || r == ')' || r == '[' || r == ']' || r == '{' || r == '}' || r == '<' || r == '>'
}

// identifier reports whether w reads as a name of one thing rather than a word: a path, or a word that
// mixes letters with digits, "_" or "@".
func identifier(w string) bool {
	if len(w) < 5 || len(w) > 128 {
		return false
	}
	if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") {
		return strings.IndexFunc(w, isASCIILetterRune) > 0
	}
	letter, mark := false, false
	for _, r := range w {
		switch {
		case isASCIILetterRune(r):
			letter = true
		case r >= '0' && r <= '9' || r == '_' || r == '@':
			mark = true
		}
	}
	return letter && mark
}

// urlHosts returns the host of every http(s) URL in s.
func urlHosts(s string) []string {
	var out []string
	for rest := s; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return out
		}
		start := i
		for start > 0 && isSchemeByte(rest[start-1]) {
			start--
		}
		end := i + 3
		for end < len(rest) && !strings.ContainsRune(" \t\r\n\"'<>()[]{}", rune(rest[end])) {
			end++
		}
		if u, err := url.Parse(rest[start:end]); err == nil && u.Hostname() != "" {
			out = append(out, strings.ToLower(u.Hostname()))
		}
		rest = rest[end:]
	}
}

func isSchemeByte(c byte) bool {
	return isASCIILetter(c) || isDigit(c) || c == '+' || c == '-' || c == '.'
}

// digitGroups returns every number of eight digits or more in s, its groups joined by single spaces,
// hyphens or dots as written ("123-1234-1234").
func digitGroups(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j, digits := i, 0
		for j < len(s) {
			if isDigit(s[j]) {
				digits++
				j++
			} else if (s[j] == '-' || s[j] == ' ' || s[j] == '.') && j+1 < len(s) && isDigit(s[j+1]) {
				j++
			} else {
				break
			}
		}
		if digits >= 8 {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// plantedTarget returns the first injected result before event call that names one of the call's targets
// the user's own texts (ownLower, lower-cased) do not hold, or -1.
func plantedTarget(targets []string, injected []injectedResult, call int, ownLower []string) int {
	for _, target := range targets {
		if given(ownLower, target) {
			continue
		}
		for _, r := range injected {
			if r.event < call && strings.Contains(r.near, target) {
				return r.event
			}
		}
	}
	return -1
}

// plantedAction returns the first injected result before event call whose planted instruction names the
// call's own act, or -1: two words or more of the tool's name (four letters or more each, "unlock" and
// "door" of AugustSmartLockUnlockDoor) that the instruction holds as words and the user's texts
// (ownLower) do not. It is plantedTarget for a call that carries no target of its own (unlock the door,
// grant access, delete the data): what it does is then the trace of the order it took.
func plantedAction(name string, injected []injectedResult, call int, ownLower []string) int {
	var words []string
	for _, w := range toolwords.Split(name) {
		if len(w) >= 4 && !slices.Contains(words, w) && !slices.ContainsFunc(ownLower, func(o string) bool { return holdsWord(o, w) }) {
			words = append(words, w)
		}
	}
	if len(words) < 2 {
		return -1
	}
	for _, r := range injected {
		if r.event >= call {
			continue
		}
		n := 0
		for _, w := range words {
			if holdsWord(r.near, w) {
				n++
			}
		}
		if n >= 2 {
			return r.event
		}
	}
	return -1
}

// holdsWord reports whether text holds w as a word, or its plural in -s or -es ("unlock" in "unlock my
// door", "camera" in "the cameras", not "lock" in "unlock").
func holdsWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if strings.HasPrefix(text[end:], "es") {
			end += 2
		} else if strings.HasPrefix(text[end:], "s") {
			end++
		}
		if (start == 0 || !isASCIILetter(text[start-1])) && (end == len(text) || !isASCIILetter(text[end])) {
			return true
		}
		i = start + 1
	}
}
