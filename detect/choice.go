package detect

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwarden/warden/trace"
)

// An agent asked to pay "John" that looks John up, finds two, and pays one of them has chosen for the
// user: the unwarranted assumption of ToolEmu (Ruan et al. 2024), the commonest way an agent's act goes
// wrong with no attacker in the trace. The task allows the act; what it does not say is whom. What shows
// it is the tool result the target came from: it lists another person or account of the same kind that
// the user's words fit as well, and the call leaves that one out. Where the user's words single one out
// ("John Park"), or gave the target itself, or the agent acts for every one found, nothing was chosen.

// chosenForUser is actions.yaml's chosen_for_user: the categories of act judged this way (those whose
// target is a person or an account), the weight of a call so made, and the words a request and a found
// record share without telling one record from another.
type chosenForUser struct {
	Weight      float64  `yaml:"weight"`
	Categories  []string `yaml:"categories"`
	CommonWords []string `yaml:"common_words"`
}

// chosenForUserSets are chosenForUser's lists as sets.
type chosenForUserSets struct {
	weight     float64
	categories map[string]bool
	common     map[string]bool
}

// sets returns c as sets, read once with the action table; a category that is none of the table's is a
// mistake in the corpus.
func (c chosenForUser) sets(categories []string) chosenForUserSets {
	for _, cat := range c.Categories {
		if !slices.Contains(categories, cat) {
			panic(fmt.Sprintf("detect: corpus/actions.yaml: chosen_for_user: no category %q", cat))
		}
	}
	return chosenForUserSets{weight: c.Weight, categories: setOf(c.Categories), common: setOf(c.CommonWords)}
}

// found is a target a tool result lists, and its record: the words of the object (in JSON) or the line
// (in text) it stands in, which say whose it is.
type found struct {
	target string // lower-cased, as callTargets finds it
	record int    // which record of the result: targets of one record belong to one person
	words  map[string]bool
	// values are the record's whole string values, lower-cased (a JSON object's; none for a line): a
	// user who wrote one of them ("#releases") named the record.
	values []string
}

// foundIn returns the targets a tool result lists, each with its record: in JSON, the string and number
// values of the innermost object holding it; in text, its line.
func foundIn(content string) []found {
	var out []found
	records := 0
	d := json.NewDecoder(strings.NewReader(content))
	d.UseNumber()
	var v any
	if d.Decode(&v) == nil && !d.More() {
		if s, ok := v.(string); ok { // a JSON string is text
			return foundInLines(s)
		}
		foundInJSON(v, "", &out, &records)
		return out
	}
	return foundInLines(content)
}

func foundInLines(text string) []found {
	var out []found
	for i, line := range strings.Split(text, "\n") {
		targets := targetsOf(nil, "", line)
		if len(targets) == 0 {
			continue
		}
		words := wordsOf(line)
		for _, t := range targets {
			out = append(out, found{t, i, words, nil})
		}
	}
	return out
}

func foundInJSON(v any, key string, out *[]found, records *int) {
	switch x := v.(type) {
	case map[string]any:
		record := *records
		*records++
		var targets, values []string
		words := map[string]bool{}
		for k, c := range x {
			switch s := c.(type) {
			case string:
				addWords(words, s)
				targets = targetsOf(targets, k, s)
				if len(s) >= 3 {
					values = append(values, strings.ToLower(s))
				}
			case json.Number:
				targets = targetsOf(targets, k, s.String())
			default:
				foundInJSON(c, k, out, records)
			}
		}
		for _, t := range targets {
			*out = append(*out, found{t, record, words, values})
		}
	case []any:
		for _, c := range x {
			foundInJSON(c, key, out, records)
		}
	case string:
		for _, t := range targetsOf(nil, key, x) {
			*out = append(*out, found{t, *records, wordsOf(x), nil})
		}
		*records++
	}
}

// wordsOf returns the lower-cased words of s of three letters or more.
func wordsOf(s string) map[string]bool {
	m := map[string]bool{}
	addWords(m, s)
	return m
}

func addWords(m map[string]bool, s string) {
	for _, w := range lowerWords(s) {
		if len(w) >= 3 {
			m[w] = true
		}
	}
}

// targetKind tells an e-mail address from a number from any other identifier: a choice is between
// targets of one kind.
func targetKind(t string) byte {
	switch {
	case strings.IndexByte(t, '@') > 0:
		return '@'
	case strings.IndexFunc(t, isASCIILetterRune) < 0:
		return '0'
	}
	return 'a'
}

// resultsFound returns what each tool result lists, computed once per trace when a call first asks.
func (m *memo) resultsFound() []eventFound {
	if !m.haveFound {
		m.haveFound = true
		for i, e := range m.t.Events {
			if e.Type == trace.ToolResult && e.Content != "" {
				if f := foundIn(e.Content); len(f) > 1 {
					m.found = append(m.found, eventFound{i, f})
				}
			}
		}
	}
	return m.found
}

// eventFound is what the tool result of event i lists.
type eventFound struct {
	event int
	found []found
}

// chosenTarget returns the tool result before event call from which the call took a target the user's
// words (ownWords, without common words) fit no better than another the result lists and the call leaves
// out, or -1. A target the user gave (ownLower) was not chosen; nor one whose record shares none of the
// user's words: it was not found for them.
func chosenTarget(targets []string, results []eventFound, call int, ownLower []string, ownWords map[string]bool) int {
	for _, target := range targets {
		if given(ownLower, target) {
			continue
		}
		for k := len(results) - 1; k >= 0; k-- {
			r := results[k]
			if r.event >= call {
				continue
			}
			i := indexFound(r.found, target)
			if i < 0 {
				continue
			}
			if otherFits(r.found, i, targets, ownLower, ownWords) {
				return r.event
			}
			break // the latest result that lists the target is where the call took it from
		}
	}
	return -1
}

// named returns the values of a record the user's texts (lower-cased) name the way a name is written
// to point at one thing: after a sign ("#releases", "@alice") or in quotes ("'Q3 plan'", "`ops-bot`").
// A value the user wrote as an ordinary word ("checking", "John") names nothing: it may fit them all.
func named(values, ownLower []string) []string {
	var out []string
	for _, v := range values {
		for _, o := range ownLower {
			if pointsAt(o, v) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// pointsAt reports whether text holds v after "#" or "@", or between quotes of one kind, whole.
func pointsAt(text, v string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], v)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(v)
		var before, after byte
		if start > 0 {
			before = text[start-1]
		}
		if end < len(text) {
			after = text[end]
		}
		whole := end == len(text) || !isASCIILetter(after) && !isDigit(after) && after != '-' && after != '_'
		switch {
		case whole && (before == '#' || before == '@'):
			return true
		case before != 0 && before == after && strings.IndexByte("\"'`", before) >= 0:
			return true
		}
		i = start + 1
	}
}

func indexFound(fs []found, target string) int {
	for i, f := range fs {
		if f.target == target {
			return i
		}
	}
	return -1
}

// otherFits reports whether another record of fs than chosen's holds a target of its kind that the call
// leaves out and the user did not give, every word of the user's that chosen's record holds, and every
// value of chosen's the user named ("#releases" names "releases", not "releases-internal").
func otherFits(fs []found, chosen int, targets, ownLower []string, ownWords map[string]bool) bool {
	c := fs[chosen]
	var shared []string
	for w := range c.words {
		if ownWords[w] {
			shared = append(shared, w)
		}
	}
	if len(shared) == 0 {
		return false
	}
	userNamed := named(c.values, ownLower)
	kind := targetKind(c.target)
	for _, f := range fs {
		if f.record == c.record || f.target == c.target || targetKind(f.target) != kind ||
			slices.Contains(targets, f.target) || given(ownLower, f.target) {
			continue
		}
		fits := true
		for _, w := range shared {
			fits = fits && f.words[w]
		}
		for _, v := range userNamed {
			fits = fits && slices.Contains(f.values, v)
		}
		if fits {
			return true
		}
	}
	return false
}

// ownWordsOf returns the words of the user's texts (lower-cased) that can tell one record from another:
// three letters or more, not common words.
func ownWordsOf(ownLower []string, common map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, o := range ownLower {
		addWords(m, o)
	}
	for w := range m {
		if common[w] {
			delete(m, w)
		}
	}
	return m
}
