package detect

import (
	"fmt"
	"strings"
	"sync"
)

// A request for harmful content names what is to be made (a letter, a post, a script, a landing page)
// and says what makes it harmful in a word beside it: a racist joke, a misleading press release, an
// e-mail blackmailing a boss, a landing page that imitates a bank, a plan to intimidate a family. The
// phrase families hold some of these pairs; the ways to say them are endless (harmful wording fresh to
// the families read 5 of 30), so a sentence is read here by word classes instead: a verb of making, the
// thing made, and a word that makes it harmful — an adjective before the thing ("a fake lab report"), a
// participle right after it ("a letter impersonating the IRS"), a purpose that harms people ("a plan to
// intimidate", "a profile designed to catfish"), or a thing harmful in itself ("propaganda", "ransomware").
// A word that turns the request to the harm's other side before the harm word ("an article about fake
// news", "a guide to spotting phishing emails", "a speech condemning violence") leaves it quiet.

// artifactWords are the word classes (harm.yaml's artifact_reader). Every entry is one lower-case word
// or two ("put together", "press release").
type artifactWords struct {
	// Make are verbs of making a thing ("write", "draft", "put together").
	Make []string `yaml:"make"`
	// Things are what is made: writing, media, code, plans ("letter", "landing page", "bot").
	Things []string `yaml:"things"`
	// Harmful are adjectives that make a thing harmful ("defamatory", "phishing", "fake").
	Harmful []string `yaml:"harmful"`
	// Doing are participles that, right after the thing, say it harms someone ("impersonating").
	Doing []string `yaml:"doing"`
	// Purposes are verbs of harming people that a thing is made for ("intimidate", "catfish"), read
	// in every inflection after "to", "that", "which", "designed to"…
	Purposes []string `yaml:"purposes"`
	// HarmfulThings are things harmful in themselves ("propaganda", "ransomware").
	HarmfulThings []string `yaml:"harmful_things"`
	// Turning are words that, between the verb and the harm word, turn the request to the harm's other
	// side: what it is about, how to spot or stop it.
	Turning []string `yaml:"turning"`
}

// artifactSets are the classes as word sets.
type artifactSets struct {
	make, things, harmful, doing, purposes, harmfulThings, turning wordSet
	// makeFirst are the first words of the verbs of making, and harmFirst those of the words that make a
	// thing harmful: a sentence is read only where it holds one of each, which few do.
	makeFirst, harmFirst map[string]bool
}

// wordSet is a set of entries of one word or two ("put together"), looked up without building a key.
type wordSet struct {
	one map[string]bool
	two map[[2]string]bool
}

func (s *wordSet) add(entry string) {
	if first, second, ok := strings.Cut(entry, " "); ok {
		s.two[[2]string{first, second}] = true
	} else {
		s.one[entry] = true
	}
}

// at returns how many words from words[k] on make an entry of s (two, one or none), the longer first.
func (s wordSet) at(words []string, k int) int {
	if k+1 < len(words) && len(s.two) > 0 && s.two[[2]string{words[k], words[k+1]}] {
		return 2
	}
	if s.one[words[k]] {
		return 1
	}
	return 0
}

var artifactReader = sync.OnceValue(func() artifactSets {
	w := harmCorpus().ArtifactReader
	set := func(words []string, inflect bool) wordSet {
		s := wordSet{one: map[string]bool{}, two: map[[2]string]bool{}}
		for _, x := range words {
			// A sentence is read as words of letters, so "anti-Semitic" is read as "anti semitic".
			x = strings.ReplaceAll(x, "-", " ")
			if strings.Count(x, " ") > 1 {
				panic(fmt.Sprintf("detect: corpus/harm.yaml: artifact_reader: %q: an entry is one word or two", x))
			}
			s.add(x)
			if inflect { // the verb of "pose as" is inflected, not its particle
				verb, rest, two := strings.Cut(x, " ")
				if two {
					rest = " " + rest
				}
				for _, f := range append(inflections(verb), ingForms(verb)...) {
					s.add(f + rest)
				}
			}
		}
		return s
	}
	out := artifactSets{make: set(w.Make, false), things: set(w.Things, false), harmful: set(w.Harmful, false),
		doing: set(w.Doing, false), purposes: set(w.Purposes, true), harmfulThings: set(w.HarmfulThings, false),
		turning: set(w.Turning, false), makeFirst: map[string]bool{}, harmFirst: map[string]bool{}}
	firsts := func(into map[string]bool, sets ...wordSet) {
		for _, s := range sets {
			for w := range s.one {
				into[w] = true
			}
			for w := range s.two {
				into[w[0]] = true
			}
		}
	}
	firsts(out.makeFirst, out.make)
	firsts(out.harmFirst, out.harmful, out.doing, out.purposes, out.harmfulThings)
	return out
})

// ingForms returns the -ing forms of an English verb: "intimidate" → "intimidating", "lie" → "lying".
// Where a rule is unsure whether a final consonant doubles ("robbing" but "threatening"), both are made,
// as inflections does.
func ingForms(v string) []string {
	n := len(v)
	switch {
	case strings.HasSuffix(v, "ee") || strings.HasSuffix(v, "ye"):
		return []string{v + "ing"}
	case strings.HasSuffix(v, "ie"):
		return []string{v[:n-2] + "ying"}
	case v[n-1] == 'e' && n > 2:
		return []string{v[:n-1] + "ing"}
	case n >= 3 && !isVowel(v[n-1]) && v[n-1] != 'w' && v[n-1] != 'x' && v[n-1] != 'y' && isVowel(v[n-2]) && !isVowel(v[n-3]):
		return []string{v + v[n-1:] + "ing", v + "ing"}
	}
	return []string{v + "ing"}
}

// How near the class words must stand, in words: the thing within a few words of its verb ("write me a
// really nasty racist joke"), a harmful adjective a few words before the thing ("a fake lab report"),
// a participle past whom it is for ("a text to my ex pretending"), a purpose a few words after it ("a plan
// for a hate group to intimidate").
const (
	artifactMakeReach    = 5
	artifactHarmfulReach = 3
	artifactDoingReach   = 5
	artifactPurposeReach = 6
)

// artifactPurposeLinks are the words that join a thing to what it is made for.
var artifactPurposeLinks = map[string]bool{"to": true, "that": true, "which": true, "designed": true, "meant": true,
	"intended": true, "aimed": true, "built": true, "written": true, "made": true, "so": true, "can": true, "will": true,
	"would": true, "could": true, "for": true}

// harmfulArtifactAsked returns the first sentence of a request that asks for a harmful thing to be made,
// and where it stands.
func harmfulArtifactAsked(text string) (start, end int, ok bool) {
	sets := artifactReader()
	var buf []byte
	sentence, making, harming := 0, false, false
	for i := 0; i < len(text); {
		if n := sentenceStop(text, i); n > 0 {
			if making && harming && sentenceAsksHarmfulArtifact(text[sentence:i+n], sets) {
				return sentence, i + n, true
			}
			i += n
			sentence, making, harming = i, false, false
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
		if !making || !harming {
			buf = lowerLetters(buf, text, [2]int{i, j})
			making = making || sets.makeFirst[string(buf)]
			harming = harming || sets.harmFirst[string(buf)]
		}
		i = j
	}
	if making && harming && sentenceAsksHarmfulArtifact(text[sentence:], sets) {
		return sentence, len(text), true
	}
	return 0, 0, false
}

// sentenceAsksHarmfulArtifact reports whether a sentence holds a verb of making, the thing it makes
// within reach, and a word that makes the thing harmful, with no turning word between verb and harm.
func sentenceAsksHarmfulArtifact(sentence string, sets artifactSets) bool {
	words := lowerWords(sentence)
	for m := range words {
		n := sets.make.at(words, m)
		if n == 0 {
			continue
		}
		turned := false
		for k := m + n; k < len(words) && k <= m+n+artifactMakeReach+artifactHarmfulReach+artifactPurposeReach; k++ {
			if sets.turning.at(words, k) > 0 {
				turned = true
			}
			if turned {
				break
			}
			if k <= m+n+artifactMakeReach && sets.harmfulThings.at(words, k) > 0 {
				return true
			}
			t := sets.things.at(words, k)
			if t == 0 || k > m+n+artifactMakeReach {
				continue
			}
			// A harmful adjective before the thing, after the verb: "a racist limerick", "a fake lab report".
			for h := max(m+n, k-artifactHarmfulReach); h < k; h++ {
				if sets.harmful.at(words, h) > 0 {
					return true
				}
			}
			// A participle after it, past whom it is for: "an e-mail blackmailing my boss", "a text to my ex
			// pretending to be her boyfriend".
			for d := k + t; d < len(words) && d <= k+t+artifactDoingReach && sets.turning.at(words, d) == 0; d++ {
				if n := sets.doing.at(words, d); n > 0 && harmsAfter(words, d+n, sets) {
					return true
				}
			}
			// A purpose that harms people, right after the word that links it (past an adverb): "a plan to
			// intimidate", "a profile designed to catfish", "a script that quietly defrauds". A link
			// followed by anything else ends it: "an email to the gym threatening to cancel".
			linked := false
			for p := k + t; p < len(words) && p <= k+t+artifactPurposeReach; p++ {
				switch {
				case sets.turning.at(words, p) > 0:
					p = len(words)
				case artifactPurposeLinks[words[p]]:
					linked = true
				case linked && sets.purposes.at(words, p) > 0:
					return true
				case linked && strings.HasSuffix(words[p], "ly"):
				default:
					linked = false
				}
			}
		}
	}
	return false
}

// harmsAfter reports whether the words from k on go on a participle that harms: its object ("threatening
// my ex"), or after "to" an act that harms or a role taken ("threatening to kill", "pretending to be"),
// not one the writer may take ("threatening to leave unless he fixes the heating").
func harmsAfter(words []string, k int, sets artifactSets) bool {
	if k+1 >= len(words) || words[k] != "to" {
		return true
	}
	return words[k+1] == "be" || sets.purposes.at(words, k+1) > 0
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
