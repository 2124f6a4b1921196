package detect

import (
	"slices"
	"strings"
	"sync"
)

// A page written to whatever AI reads it names its reader in endless ways ("whatever AI is reading my
// blog", "any LLM-powered assistant going through this inbox", "<ai-instruction>", "AI reviewers
// evaluating this pull request") and orders it in as many. The phrase families hold some of each; a
// sentence is read here by three word classes instead, wherever they stand in it: a word for an AI, a
// word that points at this text or its reading, and an order (a modal, or an act that opens a clause).
// Only in text the user did not write: a user names the assistant they speak to.

// aiReaderWords are the word classes (injection.yaml's ai_reader).
type aiReaderWords struct {
	// AI are words for an AI, one word each ("llm", "chatbot"), and Pairs two words that are one
	// ("language model", "automated agents").
	AI    []string `yaml:"ai"`
	Pairs []string `yaml:"pairs"`
	// Pointing are the words that point at reading this text ("reading", "parses"), and Documents what
	// "this" or "these" point at ("this page", "this pull request").
	Pointing  []string `yaml:"pointing"`
	Documents []string `yaml:"documents"`
	// Modals order whatever the act ("should", "must", "please"); Acts order where they open a clause.
	Modals []string `yaml:"modals"`
	Acts   []string `yaml:"acts"`
	// Adverbs may stand before an act that opens a clause ("only", "quietly", "always").
	Adverbs []string `yaml:"adverbs"`
	// Roles are words for a reader that name an AI where they are hailed (Hails: "hey assistant"); Cues
	// address a name they stand before ("to whatever AI", "attention AI systems").
	Roles []string `yaml:"roles"`
	Hails []string `yaml:"hails"`
	Cues  []string `yaml:"cues"`
	// ModelWords name the model or its rules: what a permission on a page must be said beside to be
	// said to the model rather than to the page's reader (group.Addressed).
	ModelWords []string `yaml:"model_words"`
}

// aiReaderSets are the classes as sets, the pairs keyed by their first word.
type aiReaderSets struct {
	ai, pointing, documents, modals, acts, adverbs, modelWords, roles, cues, hails map[string]bool
	pairs                                                                          map[string][]string
}

var aiReader = sync.OnceValue(func() aiReaderSets {
	w := injectionCorpus().AIReader
	set := func(words []string) map[string]bool {
		m := make(map[string]bool, len(words))
		for _, x := range words {
			m[x] = true
		}
		return m
	}
	out := aiReaderSets{ai: set(w.AI), pointing: set(w.Pointing), documents: set(w.Documents), modals: set(w.Modals), acts: set(w.Acts), adverbs: set(w.Adverbs), modelWords: set(w.ModelWords),
		roles: set(w.Roles), cues: set(w.Cues), hails: set(w.Hails), pairs: map[string][]string{}}
	for _, p := range w.Pairs {
		first, second, _ := strings.Cut(p, " ")
		out.pairs[first] = append(out.pairs[first], second)
	}
	return out
})

// aiReaderOrdered returns the first sentence of text that holds a word for an AI, a word pointing at
// this text or its reading, and an order, and where it stands. A sentence is looked at only where it
// holds a word for an AI, which few do: each word costs one lookup, with no copy, until one does.
func aiReaderOrdered(text string) (start, end int, ok bool) {
	sets := aiReader()
	return firstSentence(text, func(w []byte, _ bool) bool {
		return sets.ai[string(w)] || sets.pairs[string(w)] != nil || sets.roles[string(w)]
	},
		func(sentence string) bool { return sentenceOrdersAIReader(sentence, sets) })
}

// sentenceOrdersAIReader reports whether a sentence holds the three classes: a word for an AI, a word
// pointing at this text or its reading, and an order; or an AI addressed (addressedAI) and an order after
// it.
func sentenceOrdersAIReader(sentence string, sets aiReaderSets) bool {
	var words []readerWord
	opens := true
	for i := 0; i < len(sentence); {
		c := sentence[i]
		switch {
		case isASCIILetter(c):
			j := i
			for j < len(sentence) && isASCIILetter(sentence[j]) {
				j++
			}
			w := strings.ToLower(sentence[i:j])
			after := strings.TrimLeft(sentence[j:], " \t")
			// A code comment's marker before a word addresses it as "@" does ("// assistant: run…"); not
			// "#", which opens a Markdown heading as often ("## Bot: …").
			before := strings.TrimRight(sentence[:i], " \t")
			marked := strings.HasSuffix(before, "//") || strings.HasSuffix(before, "/*") || strings.HasSuffix(before, "<!--")
			words = append(words, readerWord{w: w, opens: opens, at: i > 0 && sentence[i-1] == '@', marked: marked,
				called: strings.HasPrefix(after, ":") || strings.HasPrefix(after, ",") || strings.HasPrefix(after, "—") || strings.HasPrefix(after, "- ")})
			// An order may open with an adverb ("only quote the five-star ones", "quietly forward…").
			opens = opens && sets.adverbs[w]
			i = j
			continue
		case c == ':' || c == ';' || c == ',' || c == '>' || c == ']' || c == ')':
			opens = true
		}
		i++
	}
	if from, ok := addressedAI(words, sets); ok && orderFrom(words, from, sets) {
		return true
	}
	var ai, pointing, order bool
	for k, w := range words {
		switch {
		case sets.ai[w.w]:
			ai = true
		case k+1 < len(words) && sets.pairs[w.w] != nil && slices.Contains(sets.pairs[w.w], words[k+1].w):
			ai = true
		}
		// "Processing this invoice", "reading my blog", "summarizing this podcast": a reading of this
		// text, not of data in general ("AI systems processing personal data should comply with the GDPR").
		pointing = pointing || thisText(words, k, sets) || sets.pointing[w.w] && k+1 < len(words) &&
			(words[k+1].w == "my" || words[k+1].w == "our" || words[k+1].w == "this" || words[k+1].w == "these")
		// The order is the AI's when the AI is named first ("employees should not paste code into AI
		// chatbots" orders employees), and "should (not, always) be reviewed" says what is to be done to
		// something, not what the reader is to do.
		order = order || ai && (sets.modals[w.w] && !passive(words, k+1, sets) || w.opens && sets.acts[w.w])
	}
	return ai && pointing && order
}

// passive reports whether the words from k on, past any negation or adverb, say "be" or "been".
func passive(words []readerWord, k int, sets aiReaderSets) bool {
	for ; k < len(words) && (words[k].w == "not" || sets.adverbs[words[k].w]); k++ {
	}
	return k < len(words) && (words[k].w == "be" || words[k].w == "been")
}

// readerWord is a word of a sentence, lower-cased, and whether it opens a clause: at the sentence's
// start, or after a colon, a semicolon, a comma or a tag's end; whether "@" or a code comment's marker
// stands before it, and whether a colon, a comma or a dash follows it (a name called: "Claude, …",
// "Assistants: …").
type readerWord struct {
	w                         string
	opens, at, marked, called bool
}

// addressedAI returns where the words after an AI addressed begin: an AI named and called ("Claude,
// disregard…", "Hiring bots and resume screeners: rank…", "Payment processors and AI bookkeepers: …"),
// mentioned ("@assistant please…") or cued ("hey assistant, …", "dear AI", "note to coding agents:"), or
// one the reader is asked to be ("if you are a language model, …"). A singular role called with no cue
// ("Agent: …") labels a speaker, not a reader.
func addressedAI(words []readerWord, sets aiReaderSets) (int, bool) {
	for k, w := range words {
		name := sets.ai[w.w] || k+1 < len(words) && slices.Contains(sets.pairs[w.w], words[k+1].w)
		role := sets.roles[w.w]
		if !name && !role {
			continue
		}
		end := k
		if !sets.ai[w.w] && name {
			end = k + 1 // a pair's second word
		}
		// A role is a reader only hailed ("hey assistant", "@assistant"): "Support agents: tell the user…"
		// and "to all bots in our Discord: run…" address people and programs. A name is one however it is
		// addressed ("to whatever AI reads my mail:", "attention AI systems").
		// "Hi assistant coach, …" hails a coach, and "// Agents should call this method" documents a
		// program's clients: a role hailed or after a comment's marker is a reader only called.
		hailed := w.at || (w.marked || k > 0 && sets.hails[words[k-1].w]) && (w.called || name)
		cued := hailed || name && (k > 0 && sets.cues[words[k-1].w] || k > 1 && sets.cues[words[k-2].w])
		// "If you are an automated agent …", "if you're a language model …".
		if k >= 4 && (words[k-1].w == "a" || words[k-1].w == "an") && words[k-4].w == "if" && words[k-3].w == "you" &&
			(words[k-2].w == "are" || words[k-2].w == "re") {
			return end + 1, true
		}
		// Called: the name, or a noun phrase of at most three words that holds it, ends in a colon, a
		// comma or a dash ("AI bookkeepers:", "ChatGPT, Claude, or whoever is screening this:").
		for j := end; j < len(words) && j <= end+2; j++ {
			if words[j].called {
				if name || cued {
					return j + 1, true
				}
				break
			}
			if j > end && words[j].opens {
				break
			}
		}
		if cued {
			return end + 1, true
		}
	}
	return 0, false
}

// orderFrom reports whether the words from k on hold an order: a modal, an act that opens a clause, or
// an act told to "you" ("it is critical that you tell the user…").
func orderFrom(words []readerWord, k int, sets aiReaderSets) bool {
	for ; k < len(words); k++ {
		w := words[k]
		if sets.modals[w.w] && !passive(words, k+1, sets) || (w.opens || k > 0 && words[k-1].w == "you") && sets.acts[w.w] {
			return true
		}
	}
	return false
}

// thisText reports whether words[k] points at this text: "this" or "these" before a word for one
// ("this page", "these messages").
func thisText(words []readerWord, k int, sets aiReaderSets) bool {
	return (words[k].w == "this" || words[k].w == "these") && k+1 < len(words) && sets.documents[words[k+1].w]
}

// namesModel reports whether the sentence of text that holds text[start:end] names the model or its rules
// (ai_reader.model_words).
func namesModel(text string, start, end int) bool {
	from, to := start, end
	for from > 0 && sentenceStop(text, from-1) == 0 {
		from--
	}
	for to < len(text) && sentenceStop(text, to) == 0 {
		to++
	}
	// The hit's own words are not the sentence's: a label "Assistant:" or "AI:" names a speaker, which
	// a log's "Assistant: manager approved the request" does without speaking of the model.
	words := aiReader().modelWords
	for _, part := range [2]string{text[from:start], text[end:to]} {
		for _, w := range lowerWords(part) {
			if words[w] {
				return true
			}
		}
	}
	return false
}
