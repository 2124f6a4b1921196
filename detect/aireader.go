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
	// ModelWords name the model or its rules: what a permission on a page must be said beside to be
	// said to the model rather than to the page's reader (group.Addressed).
	ModelWords []string `yaml:"model_words"`
}

// aiReaderSets are the classes as sets, the pairs keyed by their first word.
type aiReaderSets struct {
	ai, pointing, documents, modals, acts, adverbs, modelWords map[string]bool
	pairs                                                      map[string][]string
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
	out := aiReaderSets{ai: set(w.AI), pointing: set(w.Pointing), documents: set(w.Documents), modals: set(w.Modals), acts: set(w.Acts), adverbs: set(w.Adverbs), modelWords: set(w.ModelWords), pairs: map[string][]string{}}
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
	return firstSentence(text, func(w []byte, _ bool) bool { return sets.ai[string(w)] || sets.pairs[string(w)] != nil },
		func(sentence string) bool { return sentenceOrdersAIReader(sentence, sets) })
}

// sentenceOrdersAIReader reports whether a sentence holds the three classes: a word for an AI, a word
// pointing at this text or its reading, and an order.
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
			words = append(words, readerWord{w, opens})
			// An order may open with an adverb ("only quote the five-star ones", "quietly forward…").
			opens = opens && sets.adverbs[w]
			i = j
			continue
		case c == ':' || c == ';' || c == ',' || c == '>' || c == ']' || c == ')':
			opens = true
		}
		i++
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
// start, or after a colon, a semicolon, a comma or a tag's end.
type readerWord struct {
	w     string
	opens bool
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
	words := aiReader().modelWords
	for _, w := range lowerWords(text[from:to]) {
		if words[w] {
			return true
		}
	}
	return false
}
