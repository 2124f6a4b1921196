package detect

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden/internal/ahocorasick"
)

// Harm is written in a request's phrases as acts in their base form ("make a pipe bomb", "launder
// money"); a request can ask for the same act told of someone else, or as past ("how your character
// makes a pipe bomb", "describe how the villain built it", "how did people launder money through car
// washes": past-tense and role-play reformulations, among the simplest jailbreaks, Andriushchenko and
// Flammarion 2024). The harm reading of a request therefore also reads it with each inflected form of a
// phrase's act put back in its base form.

// harmActForms maps each inflected form of an act that opens a harm phrase (its third person, past,
// past participle) to the act's base form.
var harmActForms = sync.OnceValue(func() map[string]string {
	c := harmCorpus()
	var verbs struct {
		Name       string              `yaml:"name"`
		Version    int                 `yaml:"version"`
		Provenance string              `yaml:"provenance"`
		Irregular  map[string][]string `yaml:"irregular"`
	}
	loadCorpus("verbs.yaml", &verbs)
	acts := map[string]bool{}
	add := func(templates []string) {
		for _, t := range templates {
			for _, w := range leadingWords(t) {
				acts[w] = true
			}
		}
	}
	for _, g := range c.Groups {
		add(g.Phrases)
	}
	for _, p := range c.Pairs {
		add(p.First)
		if p.Act == "last" {
			add(p.Second)
		}
	}
	forms := map[string]string{}
	for act := range acts {
		for _, f := range append(inflections(act), verbs.Irregular[act]...) {
			// Where two acts share a form, the one first in order keeps it, so the reading does not
			// depend on a map's order. A form that is a phrase word too is read both ways: as written by
			// the text, in its base form by the reading.
			if f == act {
				continue
			}
			if prev, ok := forms[f]; !ok || act < prev {
				forms[f] = act
			}
		}
	}
	return forms
})

// leadingWords returns the first words a phrase template can open with: every choice of its leading
// {…}, or its first word.
func leadingWords(template string) []string {
	head := template
	if strings.HasPrefix(head, "{") {
		depth := 0
		for i := 0; i < len(head); i++ {
			if head[i] == '{' {
				depth++
			} else if head[i] == '}' {
				if depth--; depth == 0 {
					head = head[:i+1]
					break
				}
			}
		}
	} else if i := strings.IndexByte(head, ' '); i > 0 {
		head = head[:i]
	}
	var out []string
	for _, p := range expand(head) {
		w, _, _ := strings.Cut(strings.TrimSpace(p), " ")
		if len(w) >= 3 && strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 {
			out = append(out, w)
		}
	}
	return out
}

// inflections returns the regular inflected forms of an English verb: third person ("makes", "launches",
// "carries"), past ("forged", "carried", "planned") and -ing ("forging", "planning", "dying"). Where a
// rule is unsure (a final consonant doubled or not: "planned" but "opened"), both are made; a form that
// is no word never appears in a text, so making it costs nothing.
func inflections(v string) []string {
	n := len(v)
	last := v[n-1]
	out := make([]string, 0, 6)
	switch {
	case strings.HasSuffix(v, "s") || strings.HasSuffix(v, "x") || strings.HasSuffix(v, "z") ||
		strings.HasSuffix(v, "ch") || strings.HasSuffix(v, "sh") || strings.HasSuffix(v, "o"):
		out = append(out, v+"es")
	case last == 'y' && n > 1 && !isVowel(v[n-2]):
		out = append(out, v[:n-1]+"ies")
	default:
		out = append(out, v+"s")
	}
	switch {
	case last == 'e':
		out = append(out, v+"d")
	case last == 'y' && n > 1 && !isVowel(v[n-2]):
		out = append(out, v[:n-1]+"ied")
	default:
		out = append(out, v+"ed")
	}
	// A short final syllable doubles its consonant ("plan" → "planned", "rob" → "robbing").
	if n >= 3 && !isVowel(last) && last != 'w' && last != 'x' && last != 'y' && isVowel(v[n-2]) && !isVowel(v[n-3]) {
		out = append(out, v+string(last)+"ed")
	}
	return out
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// harmActMatcher finds the forms of harmActForms in a text in one pass: what each is (terms) and its base
// form (bases, by term).
var harmActMatcher = sync.OnceValue(func() (m struct {
	terms *ahocorasick.Matcher
	bases []string
}) {
	forms := harmActForms()
	terms := slices.Sorted(maps.Keys(forms))
	m.terms = ahocorasick.Compile(terms)
	for _, t := range terms {
		m.bases = append(m.bases, forms[t])
	}
	return m
})

// Where a reading's phrases can stand: a harm phrase opens with its act, so a hit in the reading lies
// from a little before the form it put back (a mask such as "without killing them" opens earlier) to a
// pair's second side after it (windows of up to 120 bytes, phrases of up to a hundred).
const (
	actReach     = 320
	actLookBack  = 96
	actWindowGap = actReach + actLookBack
)

// actReadings returns the reading of text with its acts in their base form, cut to the windows where a
// phrase opened by one of them can stand: the harm automaton then reads those bytes again, not the whole
// text (a request of a few kilobytes holds a handful of past tenses, most far from any other).
func actReadings(text string) []reading {
	plain, spans := actsInBaseForm(text)
	if spans == nil {
		return nil
	}
	return windowsAround(plain, spans)
}

// windowsAround cuts a reading to the windows around its spans where a phrase over one can stand (see
// actReach): the harm automaton then reads those bytes again, not the whole text.
func windowsAround(plain string, spans []spelledOut) []reading {
	var out []reading
	for i := 0; i < len(spans); {
		start := max(0, spans[i].joinedStart-actLookBack)
		j := i + 1
		for j < len(spans) && spans[j].joinedStart-spans[j-1].joinedEnd < actWindowGap {
			j++
		}
		end := min(len(plain), spans[j-1].joinedEnd+actReach)
		// A window starts and ends between words, so that no word is read cut.
		for start > 0 && isWordByte(plain[start-1]) {
			start--
		}
		for end < len(plain) && isWordByte(plain[end]) {
			end++
		}
		window := make([]spelledOut, j-i)
		for k, sp := range spans[i:j] {
			sp.joinedStart -= start
			sp.joinedEnd -= start
			window[k] = sp
		}
		out = append(out, reading{plain[start:end], window})
		i = j
	}
	return out
}

// actsInBaseForm returns text with every inflected form of a harm phrase's act in its base form, and
// where each stands; nil spans when it holds none.
func actsInBaseForm(text string) (string, []spelledOut) {
	m := harmActMatcher()
	var b strings.Builder
	var spans []spelledOut
	copied := 0
	m.terms.FindAll(text, func(id, i, j int) {
		// Only a whole word counts, and not one inside a longer token ("built-in", "made_by", "x2made").
		if i > 0 && (isWordByte(text[i-1]) || text[i-1] == '_' || text[i-1] == '-') || j < len(text) && (isWordByte(text[j]) || text[j] == '_' || text[j] == '-') {
			return
		}
		if afterBe(text, i) || modifiesNoun(text, i) || describesPeople(text, j) || doneToSpeaker(text, j) {
			return
		}
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[copied:i])
		start := b.Len()
		b.WriteString(m.bases[id])
		spans = append(spans, spelledOut{start: i, end: j, joinedStart: start, joinedEnd: b.Len()})
		copied = j
	})
	if spans == nil {
		return text, nil
	}
	b.WriteString(text[copied:])
	return b.String(), spans
}

// passiveAuxiliaries are the words a passive or a state is told with: "the child was killed", "commands
// are executed", "the account got hacked" tell what happened to something, not an act asked for.
var passiveAuxiliaries = map[string]bool{"am": true, "is": true, "are": true, "was": true, "were": true,
	"be": true, "been": true, "being": true, "get": true, "gets": true, "got": true, "gotten": true,
	"getting": true, "isn't": true, "aren't": true, "wasn't": true, "weren't": true}

// afterBe reports whether the word at i follows a passive auxiliary, with at most one adverb in between
// ("was quickly killed").
func afterBe(text string, i int) bool {
	for range 2 {
		w, start := previousWord(text, i)
		if w == "" {
			return false
		}
		if passiveAuxiliaries[w] {
			return true
		}
		if !strings.HasSuffix(w, "ly") && w != "not" && w != "never" && w != "already" {
			return false
		}
		i = start
	}
	return false
}

// previousWord returns the word before offset i (letters and apostrophes), lower-cased, and where it
// starts; "" when a sentence's end, a line's or a sign lies between.
func previousWord(text string, i int) (string, int) {
	return wordBefore(text, i, func(c byte) bool { return isASCIILetter(c) || c == '\'' })
}

// previousToken is previousWord for a token of letters and digits ("3d").
func previousToken(text string, i int) (string, int) {
	return wordBefore(text, i, func(c byte) bool { return isASCIILetter(c) || c >= '0' && c <= '9' })
}

// nextWord is previousWord looking forward: the word after offset j, lower-cased, and where it ends.
func nextWord(text string, j int) (string, int) {
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	k := j
	for k < len(text) && (isASCIILetter(text[k]) || text[k] == '\'') {
		k++
	}
	return strings.ToLower(text[j:k]), k
}

// wordBefore returns the run of bytes inWord accepts that ends before offset i, past spaces and tabs,
// lower-cased, and where it starts.
func wordBefore(text string, i int, inWord func(byte) bool) (string, int) {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	end := j
	for j > 0 && inWord(text[j-1]) {
		j--
	}
	return strings.ToLower(text[j:end]), j
}

// nounMarkers are the words after which a participle describes a thing rather than tells an act: "the
// laws on 3D printed guns", "a stolen car", "their forged papers".
var nounMarkers = map[string]bool{"a": true, "an": true, "the": true, "this": true, "that": true,
	"these": true, "those": true, "some": true, "any": true, "no": true, "my": true, "your": true,
	"his": true, "her": true, "its": true, "our": true, "their": true, "of": true, "on": true, "about": true,
	"with": true, "for": true, "in": true, "from": true, "by": true, "newly": true, "freshly": true}

// modifiesNoun reports whether the word at i stands where an adjective does: after a determiner, a
// possessive or a preposition, with at most one modifier between ("on 3D printed guns").
func modifiesNoun(text string, i int) bool {
	w, start := previousToken(text, i)
	if nounMarkers[w] {
		return true
	}
	if w == "" || !strings.ContainsAny(w, "0123456789") {
		return false
	}
	w, _ = previousToken(text, start)
	return nounMarkers[w]
}

// speakerWords name the one who writes: an act told as done to them ("someone hacked into my email",
// "hackers broke into our network", "my neighbor poisoned my dog") is a victim's report, not an act asked.
var speakerWords = map[string]bool{"my": true, "our": true, "me": true, "us": true, "mine": true, "ours": true}

// doneToSpeaker reports whether one of the three words after offset j, within its sentence, names the
// one who writes.
func doneToSpeaker(text string, j int) bool {
	for range 3 {
		w, end := nextWord(text, j)
		if w == "" {
			return false // a sentence's or a line's end, a number or a sign
		}
		if speakerWords[w] {
			return true
		}
		j = end
	}
	return false
}

// bareVictims are the plural words for people among the harm corpus's victims ("people", "children",
// "women"), written with no determiner.
var bareVictims = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, v := range harmCorpus().Choices["victims"] {
		if strings.ContainsAny(v, " '") {
			continue
		}
		if strings.HasSuffix(v, "s") || v == "people" || v == "children" || v == "men" || v == "women" {
			out[v] = true
		}
	}
	return out
})

// describesPeople reports whether the word ending at j is followed by a bare plural of people: a
// participle before it describes them ("help disabled people", "abused children") rather than tells an
// act done to them, which takes its object with a determiner or a pronoun ("disabled the guards").
func describesPeople(text string, j int) bool {
	w, _ := nextWord(text, j)
	return bareVictims()[strings.TrimSuffix(w, "'s")] // "disabled people's parking" too
}
