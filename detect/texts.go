package detect

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/agentwarden/warden/trace"
)

var defaultThresholds = sync.OnceValue(func() map[string]float64 {
	var c struct {
		Name       string             `yaml:"name"`
		Version    int                `yaml:"version"`
		Provenance string             `yaml:"provenance"`
		Thresholds map[string]float64 `yaml:"thresholds"`
	}
	loadCorpus("thresholds.yaml", &c)
	return c.Thresholds
})

// located is a text of a trace and the name of its place.
type located struct {
	where string
	text  string
}

// Place is a text of a trace and the name of its place, as Evidence.Where names it.
type Place struct {
	Where string
	Text  string
}

// Places returns where the texts a detector reads stand, named as evidence names them: what the user
// said (user messages, or else user-message events) and the final answer (Where "output" and Text ""
// when there is none).
func Places(t *trace.Trace) (user []Place, final Place) {
	for _, u := range userTexts(t) {
		user = append(user, Place{u.where, u.text})
	}
	f := finalOutput(t)
	return user, Place{f.where, f.text}
}

// userTexts returns what the user said: user messages, or else user-message events.
func userTexts(t *trace.Trace) []located {
	var out []located
	for i, m := range t.Messages {
		if m.Role == "user" && m.Content != "" {
			out = append(out, located{fmt.Sprintf("messages[%d]", i), m.Content})
		}
	}
	if len(out) == 0 {
		out = eventTexts(t, trace.UserMessage)
	}
	return out
}

// toolResults returns the content of every tool result.
func toolResults(t *trace.Trace) []located { return eventTexts(t, trace.ToolResult) }

// eventTexts returns the content of every event of a type.
func eventTexts(t *trace.Trace, typ trace.EventType) []located {
	var out []located
	for i, e := range t.Events {
		if e.Type == typ && e.Content != "" {
			out = append(out, located{eventWhere(i, "content"), e.Content})
		}
	}
	return out
}

// agentTexts returns what the agent said: the final output and every earlier agent message.
func agentTexts(t *trace.Trace) []located {
	var out []located
	final := t.FinalOutput()
	if t.Output != "" {
		out = append(out, located{"output", t.Output})
	}
	for i, m := range t.Messages {
		if m.Role == "assistant" && m.Content != "" && (t.Output == "" || m.Content != final) {
			out = append(out, located{fmt.Sprintf("messages[%d]", i), m.Content})
		}
	}
	if len(out) == 0 || (len(out) == 1 && t.Output != "") {
		for i, e := range t.Events {
			if e.Type == trace.AgentMessage && e.Content != "" && (t.Output == "" || e.Content != final) {
				out = append(out, located{eventWhere(i, "content"), e.Content})
			}
		}
	}
	return out
}

// finalOutput returns the final answer and its place.
func finalOutput(t *trace.Trace) located {
	if t.Output != "" {
		return located{"output", t.Output}
	}
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].Role == "assistant" && t.Messages[i].Content != "" {
			return located{fmt.Sprintf("messages[%d]", i), t.Messages[i].Content}
		}
	}
	for i := len(t.Events) - 1; i >= 0; i-- {
		if t.Events[i].Type == trace.AgentMessage && t.Events[i].Content != "" {
			return located{eventWhere(i, "content"), t.Events[i].Content}
		}
	}
	return located{"output", ""}
}

// eventWhere names a field of an event: "events[4].content".
func eventWhere(i int, field string) string {
	return "events[" + strconv.Itoa(i) + "]." + field
}

// firstSentence returns the first sentence of text (as sentenceStop ends one) that read holds for, and
// where it stands. read is given where a sentence starts and ends in text, and is called only for a
// sentence whose words, each lower-cased and given to gate until it lets one through, open it: a cheap
// look, a map lookup a word with no copy, so that the costlier reading is made of the few sentences that
// may hold what it looks for. gate is told when a word is the first it sees of a sentence, to forget what
// it saw of the one before.
func firstSentence(text string, gate func(word []byte, first bool) bool, read func(start, end int) bool) (start, end int, ok bool) {
	var buf []byte
	sentence, first, open := 0, true, false
	for i := 0; i < len(text); {
		if n := sentenceStop(text, i); n > 0 {
			if open && read(sentence, i+n) {
				return sentence, i + n, true
			}
			i += n
			sentence, first, open = i, true, false
			continue
		}
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		if !open {
			buf = lowerLetters(buf, text, [2]int{i, j})
			open, first = gate(buf, first), false
		}
		i = j
	}
	if open && read(sentence, len(text)) {
		return sentence, len(text), true
	}
	return 0, 0, false
}

// lowerWords returns the words of s (runs of ASCII letters), lower-cased: slices of one lower-cased copy.
func lowerWords(s string) []string {
	lower := strings.ToLower(s)
	var out []string
	for i := 0; i < len(lower); {
		if !isASCIILetter(lower[i]) {
			i++
			continue
		}
		j := i
		for j < len(lower) && isASCIILetter(lower[j]) {
			j++
		}
		out = append(out, lower[i:j])
		i = j
	}
	return out
}
