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
	// Aimed are verbs that harm only with what they are aimed at named within a few words after them:
	// verbs a program does to programs as well ("tricks the cache", "steals focus") with people or
	// another's data and systems after them; verbs of endorsing with a harm after them ("glorifies the
	// shooters", not "glorifies God").
	Aimed []aimedPurpose `yaml:"aimed"`
	// HarmfulThings are things harmful in themselves ("propaganda", "ransomware").
	HarmfulThings []string `yaml:"harmful_things"`
	// Teaching are things that teach how to do what follows them ("a tutorial on breaking into cars"):
	// after them "on" and "about" name what is taught, not a topic.
	Teaching []string `yaml:"teaching"`
	// Asking are words that ask how to do something ("how to", "ways to"): a purpose right after them
	// is asked for as an act.
	Asking []string `yaml:"asking"`
	// Deceit are the words of Harmful, Doing and HarmfulThings that a trade uses of what it builds to
	// test with ("fake user profiles"); Testing are the words that say so, anywhere in the sentence.
	Deceit  []string `yaml:"deceit"`
	Testing []string `yaml:"testing"`
	// Passing are the verbs that make a test after them a check the thing is to get past ("bills that
	// pass the pen test", "a urine sample that beats the drug test"), not what it is made to test with.
	Passing []string `yaml:"passing"`
	// Turning are words that turn the request to the harm's other side: between the verb and the harm
	// word, what it is about or how to spot or stop it; between a harmful adjective and its thing or
	// right after a harmful thing, what the thing is for ("a scam alert", "a malware analysis report").
	Turning []string `yaml:"turning"`
}

// aimedPurpose is one class of verbs and the class of what they must be aimed at to harm.
type aimedPurpose struct {
	Name  string   `yaml:"name"`
	Verbs []string `yaml:"verbs"`
	// Objects are what the verbs must be aimed at; with NotOwned, not the asker's own ("my own
	// antivirus", "our database").
	Objects  []string `yaml:"objects"`
	NotOwned bool     `yaml:"not_owned"`
}

// aimedSets is an aimedPurpose as word sets.
type aimedSets struct {
	verbs, objects wordSet
	notOwned       bool
}

// artifactSets are the classes as word sets.
type artifactSets struct {
	make, things, harmful, doing, purposes, harmfulThings, deceit, testing, passing, turning, asking, teaching wordSet
	aimed                                                                                                      []aimedSets
	// makeFirst are the first words of the verbs of making and of the words that ask how, and harmFirst
	// those of the words of harm: a sentence is read only where it holds one of each, which few do.
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

// addForms adds entry with its verb (its first word) put in each of forms; a particle after the verb
// stays as it is ("pose as" → "posing as").
func (s *wordSet) addForms(entry string, forms []string) {
	_, rest, two := strings.Cut(entry, " ")
	if two {
		rest = " " + rest
	}
	for _, f := range forms {
		s.add(f + rest)
	}
}

// firstWord returns an entry's first word.
func firstWord(entry string) string {
	w, _, _ := strings.Cut(entry, " ")
	return w
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
			if strings.Count(x, " ") > 1 || strings.IndexFunc(x, func(r rune) bool { return r != ' ' && (r < 'a' || r > 'z') }) >= 0 {
				panic(fmt.Sprintf("detect: corpus/harm.yaml: artifact_reader: %q: an entry is one word or two, of small letters", x))
			}
			s.add(x)
			if inflect {
				s.addForms(x, append(inflections(firstWord(x)), ingForms(firstWord(x))...))
			}
		}
		return s
	}
	out := artifactSets{make: set(w.Make, false), things: set(w.Things, false), harmful: set(w.Harmful, false),
		doing: set(w.Doing, false), purposes: set(w.Purposes, true), harmfulThings: set(w.HarmfulThings, false),
		deceit: set(w.Deceit, false), testing: set(w.Testing, false), passing: set(w.Passing, false), turning: set(w.Turning, false), asking: set(w.Asking, false),
		teaching:  set(w.Teaching, false),
		makeFirst: map[string]bool{}, harmFirst: map[string]bool{}}
	// A thing asked for while it is being made ("walk me through setting up a fake exchange"): the -ing
	// form of a verb of making, not its past, which tells of a thing made ("my coworker wrote a racist
	// post; how do I report it?").
	for _, x := range w.Make {
		out.make.addForms(x, ingForms(firstWord(x)))
	}
	for _, a := range w.Aimed {
		out.aimed = append(out.aimed, aimedSets{verbs: set(a.Verbs, true), objects: set(a.Objects, false), notOwned: a.NotOwned})
	}
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
	firsts(out.makeFirst, out.make, out.asking)
	firsts(out.harmFirst, out.harmful, out.doing, out.purposes, out.harmfulThings)
	for _, a := range out.aimed {
		firsts(out.harmFirst, a.verbs)
	}
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
// really nasty racist joke"), a harmful adjective a few words before the thing ("a fake lab report",
// "fake five-star Amazon reviews", whose compound is two words), a participle past whom it is for ("a
// text to my ex pretending"), a purpose a few words after it ("a plan for a hate group to intimidate").
const (
	artifactMakeReach    = 5
	artifactHarmfulReach = 4
	artifactDoingReach   = 5
	artifactPurposeReach = 6
	artifactObjectReach  = 5
	artifactAskingReach  = 3
)

// artifactPurposeLinks are the words that join a thing to what it is made for.
var artifactPurposeLinks = map[string]bool{"to": true, "that": true, "which": true, "designed": true, "meant": true,
	"intended": true, "aimed": true, "built": true, "written": true, "made": true, "so": true, "can": true, "will": true,
	"would": true, "could": true, "for": true}

// harmfulArtifactAsked returns the first sentence of a request that asks for a harmful thing to be made,
// and where it stands.
func harmfulArtifactAsked(text string) (start, end int, ok bool) {
	sets := artifactReader()
	// A sentence is read only where it holds a verb of making and a word of harm, which few do.
	making, harming := false, false
	return firstSentence(text, func(w []byte, first bool) bool {
		if first {
			making, harming = false, false
		}
		making = making || sets.makeFirst[string(w)]
		harming = harming || sets.harmFirst[string(w)]
		return making && harming
	}, func(start, end int) bool { return sentenceAsksHarmfulArtifact(text[start:end], sets) })
}

// checkPassed reports whether the test word at k is a check to get past: a verb of passing stands at
// most three words before it ("pass the pen test", "beat a drug test").
func checkPassed(words []string, k int, sets artifactSets) bool {
	for j := max(0, k-3); j < k; j++ {
		if sets.passing.at(words, j) > 0 {
			return true
		}
	}
	return false
}

// sentenceAsksHarmfulArtifact reports whether a sentence asks for a harmful thing to be made (a verb of
// making, the thing within reach, a word beside it that makes it harmful) or asks how to do a harm.
func sentenceAsksHarmfulArtifact(sentence string, sets artifactSets) bool {
	r := artifactReading{words: lowerWords(sentence), sets: sets}
	for k := range r.words {
		r.testing = r.testing || sets.testing.at(r.words, k) > 0 && !checkPassed(r.words, k, sets)
	}
	for m := range r.words {
		if n := sets.asking.at(r.words, m); n > 0 && r.askedHowTo(m+n) {
			return true
		}
		n := sets.make.at(r.words, m)
		if n == 0 {
			continue
		}
		for k, limit := m+n, m+n+artifactMakeReach; k < len(r.words) && k <= limit; k++ {
			if sets.turning.at(r.words, k) > 0 {
				// What a tutorial or a guide is "on" is what it teaches: "a tutorial on breaking into
				// parked cars" asks how to, "an article on breaking into cars" need not.
				if topicWords[r.words[k]] && r.teachingEndsAt(k) && r.askedHowTo(k+1) {
					return true
				}
				break
			}
			// A thing harmful in itself, unless what follows says what it is for ("a malware analysis"); what
			// it is about is still it ("false claims about the vaccine").
			if h := r.harm(sets.harmfulThings, k); h > 0 && (k+h >= len(r.words) || topicWords[r.words[k+h]] || sets.turning.at(r.words, k+h) == 0) {
				return true
			}
			t := sets.things.at(r.words, k)
			if t > 0 && r.thingHarms(m+n, k, t) {
				return true
			}
			// A thing that holds another ("a template for a fake doctor's note", "the script of a
			// scam call") or a plan for it ("a scheme to sell fake tickets") is made with it: the reach
			// runs on from the one it holds.
			if t > 0 && k+t < len(r.words) && (r.words[k+t] == "for" || r.words[k+t] == "of" || r.words[k+t] == "to") {
				limit = max(limit, k+t+artifactMakeReach)
			}
		}
	}
	return false
}

// artifactReading is one sentence read by the classes: its words, and whether it speaks of testing.
type artifactReading struct {
	words   []string
	sets    artifactSets
	testing bool
}

// harm returns how many words from words[k] on are an entry of set that makes a thing harmful here: not
// a word of deceit in a sentence about testing, nor the first of a two-word turning entry ("malicious
// compliance").
func (r artifactReading) harm(set wordSet, k int) int {
	n := set.at(r.words, k)
	if n == 0 || r.testing && r.sets.deceit.at(r.words, k) > 0 || r.sets.turning.at(r.words, k) > 1 {
		return 0
	}
	return n
}

// teachingEndsAt reports whether a thing that teaches ends right before words[k] ("tutorial", "cheat
// sheet").
func (r artifactReading) teachingEndsAt(k int) bool {
	return k >= 1 && r.sets.teaching.at(r.words, k-1) == 1 || k >= 2 && r.sets.teaching.at(r.words, k-2) == 2
}

// askedHowTo reports whether the first verb from words[p] on, past who would do it and an adverb, is a
// purpose: "how can I trick elderly people", "how would someone quietly blackmail", "tips to bully"; not
// "how do I report someone impersonating the CEO".
func (r artifactReading) askedHowTo(p int) bool {
	if p < len(r.words) && r.words[p] == "to" { // "teach me to forge"
		p++
	}
	for limit := p + artifactAskingReach; p < len(r.words) && p < limit && (askingSubjects[r.words[p]] || strings.HasSuffix(r.words[p], "ly")); p++ {
	}
	return p < len(r.words) && (r.harm(r.sets.purposes, p) > 0 || r.aimedAt(p))
}

// thingHarms reports whether the thing made at words[k] (t words long; its verb ends at from) has a word
// beside it that makes it harmful.
func (r artifactReading) thingHarms(from, k, t int) bool {
	words, sets := r.words, r.sets
	// A harmful adjective before the thing, after the verb, with no turning word between: "a racist
	// limerick", "a fake lab report", not "a scam alert email".
	for h := max(from, k-artifactHarmfulReach); h < k; h++ {
		if r.harm(sets.harmful, h) > 0 && !turnedBetween(words, h+1, k, sets) {
			return true
		}
	}
	// A participle after it, past whom it is for but not into a clause of its own: "an e-mail
	// blackmailing my boss", "a text to my ex pretending to be her boyfriend".
	for d := k + t; d < len(words) && d <= k+t+artifactDoingReach && sets.turning.at(words, d) == 0 && !clauseOpeners[words[d]]; d++ {
		if n := r.harm(sets.doing, d); n > 0 && harmsAfter(words, d+n, sets) || r.aimedAt(d) {
			return true
		}
	}
	// A purpose that harms people, right after the word that links it (past an adverb): "a plan to
	// intimidate", "a profile designed to catfish", "a script that quietly defrauds". A link followed by
	// anything else unlinks it ("an email to the gym threatening to cancel"), and a clause opened by
	// "that" whose verb is no purpose ends the reading ("a note that asks parents to watch for bullying").
	linked, relative := false, false
	for p := k + t; p < len(words) && p <= k+t+artifactPurposeReach; p++ {
		switch {
		case sets.turning.at(words, p) > 0:
			return false
		case artifactPurposeLinks[words[p]]:
			linked, relative = true, clauseOpeners[words[p]]
		case linked && (r.harm(sets.purposes, p) > 0 || r.aimedAt(p)):
			return true
		case linked && strings.HasSuffix(words[p], "ly"):
		case relative:
			return false
		default:
			linked = false
		}
	}
	return false
}

// aimedAt reports whether words[p] is a verb of an aimed class (and harms here) with what it must be
// aimed at within reach after it.
func (r artifactReading) aimedAt(p int) bool {
	for _, a := range r.sets.aimed {
		if n := r.harm(a.verbs, p); n > 0 && within(r.words, p+n, artifactObjectReach, a.objects, a.notOwned, r.sets) {
			return true
		}
	}
	return false
}

// within reports whether an entry of set stands in the reach words from k on, before any turning word
// (and, with notOwned, before "my", "our" or "own"). An entry that is a turning word too is what the
// verb is aimed at where it stands so: "mocking the victims", "evades detection".
func within(words []string, k, reach int, set wordSet, notOwned bool, sets artifactSets) bool {
	for ; k < len(words) && reach > 0; k, reach = k+1, reach-1 {
		if notOwned && owned(words, k) {
			return false
		}
		if n := set.at(words, k); n > 0 {
			// What the entry is followed by may turn it: "suicide prevention", "violence awareness"; a
			// preposition of topic does not ("forge a signature on a lease").
			return k+n >= len(words) || sets.turning.at(words, k+n) == 0 || topicWords[words[k+n]]
		}
		if sets.turning.at(words, k) > 0 {
			return false
		}
	}
	return false
}

// clauseOpeners end the reach of a participle after a thing: a clause they open has its own verb ("a
// message that encourages students to report bullying").
var clauseOpeners = map[string]bool{"that": true, "which": true, "who": true, "whom": true, "whose": true, "so": true,
	"because": true, "when": true, "where": true, "while": true, "if": true, "unless": true, "and": true, "but": true, "or": true}

// owned reports whether words[k] says what follows is the asker's own: "my", "our" or "own", but not
// "my" before another's ("my neighbor's Wi-Fi", read as "my neighbor s wi fi"); "your" is the asker's
// too where a question is put for anyone ("how do hackers get into your accounts").
func owned(words []string, k int) bool {
	switch words[k] {
	case "own":
		return true
	case "my", "our", "your":
		return k+2 >= len(words) || words[k+2] != "s"
	}
	return false
}

// askingSubjects are who would do what is asked how to do: "how can I", "how would someone".
var askingSubjects = map[string]bool{"i": true, "we": true, "you": true, "one": true, "someone": true, "somebody": true,
	"they": true, "he": true, "she": true, "people": true, "a": true, "person": true}

// topicWords are the turning words that, after a harmful thing, say what it is about rather than what it
// is for: "propaganda against Jews" is propaganda.
var topicWords = map[string]bool{"about": true, "on": true, "against": true}

// turnedBetween reports whether a turning word stands in words[from:to].
func turnedBetween(words []string, from, to int, sets artifactSets) bool {
	for k := from; k < to; k++ {
		if sets.turning.at(words, k) > 0 {
			return true
		}
	}
	return false
}

// harmsAfter reports whether the words from k on go on a participle that harms: its object ("threatening
// my ex"), or after "to" an act that harms ("threatening to kill"), not one the writer may take
// ("threatening to leave unless he fixes the heating").
func harmsAfter(words []string, k int, sets artifactSets) bool {
	if k+1 >= len(words) || words[k] != "to" {
		return true
	}
	if sets.purposes.at(words, k+1) > 0 {
		return true
	}
	for _, a := range sets.aimed {
		if a.verbs.at(words, k+1) > 0 {
			return true
		}
	}
	return false
}
