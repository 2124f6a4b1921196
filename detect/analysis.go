package detect

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// This file holds the text analyses several detectors share: how clearly a reply declines (refusal), how
// clearly a request asks for harm (harm), and how clearly a text tries to take over the model (injection).
// Each is compiled once from its corpus and is safe for concurrent use.

type refusalCorpus struct {
	Name            string   `yaml:"name"`
	Version         int      `yaml:"version"`
	Provenance      string   `yaml:"provenance"`
	Groups          []group  `yaml:"groups"`
	Pairs           []pair   `yaml:"pairs"`
	Masks           []string `yaml:"masks"`
	Factual         []group  `yaml:"factual"`
	FactualMasks    []string `yaml:"factual_masks"`
	Compliance      []group  `yaml:"compliance"`
	CompliancePairs []pair   `yaml:"compliance_pairs"`
	// Choices are the named word lists its templates share ({$name}), put in place at load (withChoices).
	Choices map[string][]string `yaml:"choices"`
	// PremiseDenial are the word classes that read a reply denying its request's premise (premiseDenied).
	PremiseDenial premiseWords `yaml:"premise_denial"`
	// NamedDeliverable are the cues of a reply that names what it hands over (namedDeliverable).
	NamedDeliverable deliverableWords `yaml:"named_deliverable"`
}

type phraseCorpus struct {
	Name       string  `yaml:"name"`
	Version    int     `yaml:"version"`
	Provenance string  `yaml:"provenance"`
	Groups     []group `yaml:"groups"`
	Pairs      []pair  `yaml:"pairs"`
	// Masks are phrases inside which no hit counts ("the final boss" is not a person to beat).
	Masks []string `yaml:"masks"`
	// ThirdPartyGroups and ThirdPartyPairs (injection.yaml) count only in text the user did not write:
	// tool results. They share the injection automaton (injectionBase), so a tool result is scanned once.
	ThirdPartyGroups []group `yaml:"third_party_groups"`
	ThirdPartyPairs  []pair  `yaml:"third_party_pairs"`
	// HarmlessFraming (harm.yaml) are phrases that give a request's harm words a harmless reading: a
	// definition, a historical event, a game or a sport, a story. They weigh against harm only where a
	// refusal is judged (over_refusal), never where an answer is: each is also a known way to frame a
	// jailbreak. A framing may name the harm groups it lowers (group.Lowers).
	HarmlessFraming []group `yaml:"harmless_framing"`
	// HarmlessFramingPairs are framings that name an act and, a few words on, the thing it is done to:
	// "cut my son's hair" cuts hair.
	HarmlessFramingPairs []pair `yaml:"harmless_framing_pairs"`
	// HarmlessFramingMasks are phrases inside which no framing counts: "like in the movies" models a real
	// act on a story rather than asking about one.
	HarmlessFramingMasks []string `yaml:"harmless_framing_masks"`
	// Choices are the named word lists its templates share ({$name}), put in place at load (withChoices).
	Choices map[string][]string `yaml:"choices"`
	// Slips (injection.yaml) are the key words read back from one slip of the keyboard (misspelledWord).
	Slips []string `yaml:"slips"`
	// Abbreviations (injection.yaml) are chat shorthand for the phrases' words, read written out.
	Abbreviations map[string]string `yaml:"abbreviations"`
	// AIReader (injection.yaml) are the word classes of a sentence that names its reader as an AI and
	// orders it (aiReaderOrdered).
	AIReader aiReaderWords `yaml:"ai_reader"`
	// ArtifactReader (harm.yaml) are the word classes of a sentence that asks for a harmful thing to be
	// made (harmfulArtifactAsked).
	ArtifactReader artifactWords `yaml:"artifact_reader"`
}

var (
	refusalCorpusOnce = sync.OnceValue(func() refusalCorpus {
		var c refusalCorpus
		loadCorpus("refusal.yaml", &c)
		return c
	})
	refusalPhrases = sync.OnceValues(func() (*phrases, *phrases) {
		c := refusalCorpusOnce()
		// Factual explanations ride in the compliance automaton, as groups after the compliance ones.
		l := loadLanguages("refusal_languages.yaml")
		decline, _ := withLanguages(l, c.Groups, nil, func(e languageEntry) ([]group, []pair) { return e.Groups, nil })
		comply, compPairs := withLanguages(l, append(c.Compliance, c.Factual...), c.CompliancePairs,
			func(e languageEntry) ([]group, []pair) { return e.Compliance, nil })
		return compilePhrases(decline, c.Pairs, l.masks(c.Masks)), compilePhrases(comply, compPairs, c.FactualMasks)
	})
	harmCorpus = sync.OnceValue(func() phraseCorpus {
		var c phraseCorpus
		loadCorpus("harm.yaml", &c)
		return c
	})
	harmPhrases = sync.OnceValue(func() *phrases {
		c := harmCorpus()
		l := loadLanguages("harm_languages.yaml")
		groups, pairs := withLanguages(l, c.Groups, c.Pairs, func(e languageEntry) ([]group, []pair) { return e.Groups, e.Pairs })
		return compilePhrases(groups, pairs, l.masks(c.Masks))
	})
	harmlessFramingPhrases = sync.OnceValue(func() *phrases {
		c := harmCorpus()
		return compilePhrases(c.HarmlessFraming, c.HarmlessFramingPairs, c.HarmlessFramingMasks)
	})
	// injectionCorpus is injection.yaml as decoded, for the phrases and for the vocabularies read from
	// its words (disguiseVocabulary, englishWords).
	injectionCorpus = sync.OnceValue(func() phraseCorpus {
		var c phraseCorpus
		loadCorpus("injection.yaml", &c)
		return c
	})
	injectionPhrases = sync.OnceValue(func() *phrases {
		c := injectionCorpus()
		base, basePairs := c.injectionBase()
		l := loadLanguages("injection_languages.yaml")
		groups, pairs := withLanguages(l, base, basePairs, func(e languageEntry) ([]group, []pair) { return e.Groups, e.Pairs })
		return compilePhrases(groups, pairs, l.masks(c.Masks))
	})
)

// injectionBase returns injection.yaml's groups and pairs with the third party's after them, marked.
func (c phraseCorpus) injectionBase() ([]group, []pair) {
	groups, pairs := slices.Clone(c.Groups), slices.Clone(c.Pairs)
	for _, g := range c.ThirdPartyGroups {
		g.ThirdParty = true
		groups = append(groups, g)
	}
	for _, p := range c.ThirdPartyPairs {
		p.ThirdParty = true
		pairs = append(pairs, p)
	}
	return groups, pairs
}

// languagesCorpus is a corpus's categories written in other languages (injection_languages.yaml and
// kin): per language, phrases added to the groups of the same name and pairs that weigh as the category
// of their name.
type languagesCorpus struct {
	file       string
	Name       string `yaml:"name"`
	Version    int    `yaml:"version"`
	Provenance string `yaml:"provenance"`
	// SecretFiles is a template the languages' pairs refer to by its YAML anchor (injection).
	SecretFiles string          `yaml:"secret_files"`
	Languages   []languageEntry `yaml:"languages"`
}

type languageEntry struct {
	Language string  `yaml:"language"`
	Name     string  `yaml:"name"`
	Groups   []group `yaml:"groups"`
	Pairs    []pair  `yaml:"pairs"`
	// Compliance is refusal_languages.yaml's: phrases of the compliance groups (an agreeing opener).
	Compliance []group `yaml:"compliance"`
	// Masks join the base corpus's masks (harm_languages.yaml).
	Masks []string `yaml:"masks"`
	// Claims, Hedges, Plans and Negations are deception_languages.yaml's: claims of finished work by
	// kind, and the words that make a claim in their sentence a guess, a plan or a denial.
	Claims    []group  `yaml:"claims"`
	Hedges    []string `yaml:"hedges"`
	Plans     []string `yaml:"plans"`
	Negations []string `yaml:"negations"`
	// Scope is actions_languages.yaml's: per action category, the words of a task that allow it.
	Scope map[string][]string `yaml:"scope"`
}

// masks returns the base masks and every language's.
func (l languagesCorpus) masks(base []string) []string {
	out := slices.Clone(base)
	for _, e := range l.Languages {
		out = append(out, e.Masks...)
	}
	return out
}

func loadLanguages(file string) languagesCorpus {
	l := languagesCorpus{file: file}
	loadCorpus(file, &l)
	return l
}

// withLanguages adds the part of each language that part picks: its phrases to the groups of the same
// name and its pairs after the pairs, each pair with the severity and weight of the category it is named
// for, so that a category weighs the same in every language, and then the pairs that join the languages'
// families of act and object (codeSwitched). A category the base corpus lacks, or a language entry that
// sets its own weight, is a mistake in shipped data.
func withLanguages(l languagesCorpus, groups []group, pairs []pair, part func(languageEntry) ([]group, []pair)) ([]group, []pair) {
	groups = slices.Clone(groups)
	pairs = slices.Clone(pairs)
	index := map[string]int{}
	weights := map[string]group{} // a category's severity and weight: its group's, or its first pair's
	for i, g := range groups {
		if _, ok := index[g.Name]; !ok {
			index[g.Name], weights[g.Name] = i, g
		}
	}
	for _, p := range pairs {
		if _, ok := weights[p.Name]; !ok {
			weights[p.Name] = group{Severity: p.Severity, Weight: p.Weight, ThirdParty: p.ThirdParty}
		}
	}
	if len(l.Languages) > 62 {
		panic(fmt.Sprintf("detect: corpus/%s: %d languages; a langSet holds 62", l.file, len(l.Languages)))
	}
	spelled := make([]spelledPair, 0, len(pairs))
	for _, p := range pairs {
		spelled = append(spelled, spelledPair{p, 1})
	}
	for li, lang := range l.Languages {
		gs, ps := part(lang)
		langs := langSet(1) << (li + 1)
		if !writtenInLatin(lang) {
			langs |= loanedFromEnglish
		}
		for _, g := range gs {
			i, ok := index[g.Name]
			if !ok || g.Weight != 0 || g.Severity != "" {
				panic(fmt.Sprintf("detect: corpus/%s: %s: group %q names no category or sets its weight", l.file, lang.Language, g.Name))
			}
			groups[i].Phrases = append(slices.Clip(groups[i].Phrases), g.Phrases...)
			groups[i].Literals = append(slices.Clip(groups[i].Literals), g.Literals...)
		}
		for _, p := range ps {
			w, ok := weights[p.Name]
			if !ok || p.Weight != 0 || p.Severity != "" {
				panic(fmt.Sprintf("detect: corpus/%s: %s: pair %q names no category or sets its weight", l.file, lang.Language, p.Name))
			}
			p.Severity, p.Weight, p.ThirdParty = w.Severity, w.Weight, w.ThirdParty
			pairs = append(pairs, p)
			spelled = append(spelled, spelledPair{p, langs})
		}
	}
	return groups, append(pairs, codeSwitched(l.file, spelled)...)
}

// noisyOr combines independent pieces of evidence: 1 − Π(1 − p).
func noisyOr(ps ...float64) float64 {
	q := 1.0
	for _, p := range ps {
		q *= 1 - clamp(p)
	}
	return 1 - q
}

func clamp(x float64) float64 { return max(0, min(1, x)) }

// scored is an analysis: a score and the hits behind it, by rule name.
type scored struct {
	score    float64
	severity Severity
	evidence []Evidence
	// adversarial is an injection analysis's score without the reply's form dictated (format_dictation):
	// how clearly a request attacks the model rather than asks for a format, which is what the refusal
	// detectors weigh. It leaves out jailbreak framings ("hypothetically", "for research purposes"),
	// which framing is: an attack only around a harmful request.
	adversarial float64
	framing     float64
}

// byGroup combines hits: the strongest hit of each group counts once (repeating a phrase is not new
// evidence), and groups combine by noisy-or. weight lets the caller scale a hit (by position, say). Hits
// of supporting groups alone say nothing.
func byGroup(p *phrases, hits []hit, where, prefix string, weight func(hit) float64) scored {
	best := map[int]float64{}
	var s scored
	supported := false
	for _, h := range hits {
		w := p.groups[h.group].Weight
		if weight != nil {
			w *= weight(h)
		}
		if w <= 0 {
			continue
		}
		supported = supported || !p.groups[h.group].Supporting
		if w > best[h.group] {
			best[h.group] = w
		}
		s.evidence = append(s.evidence, Evidence{Where: where, Start: h.start, End: h.end, Rule: prefix + p.groups[h.group].Name})
		if sev := p.groups[h.group].Severity; sev.Rank() > s.severity.Rank() {
			s.severity = sev
		}
	}
	if !supported {
		return scored{}
	}
	ws := make([]float64, 0, len(best))
	for _, w := range best {
		ws = append(ws, w)
	}
	s.score = noisyOr(ws...)
	return s
}

// reply is what the refusal analysis says of an assistant's reply.
type reply struct {
	empty bool
	// declined is how clearly the reply declines, in full or in part, in [0, 1].
	declined float64
	// complied is how clearly it hands over what was asked: an agreeing opener, a hedge followed by the
	// content, lists and code.
	complied float64
	// declinedAtAll is declined before what the reply hands over is weighed against it: a partial refusal
	// (declines, then answers or offers something instead) still declines (XSTest's "partial refusal",
	// Röttger et al. 2023), which is what over-refusal asks.
	declinedAtAll float64
	// substituted is how clearly the reply's opening hands over something else in place of what was asked
	// ("Sure! Here's a safer alternative"): a refusal of a harmful request, whatever the opener, and as
	// often advice to a harmless one, so only declinedHarmful reads it.
	substituted float64
	// rebutted is how clearly the reply's opening answers a harmful premise back ("there is no reason…",
	// "that was a crime against humanity") with no list or code after it: a refusal only where harm is
	// read, as substituted is.
	rebutted float64
	// handOvers are the compliance cues and the turns that hand something over after an answering back
	// (handsOverAfter): what a denied premise, read apart (premiseDenied), is also weighed against.
	handOvers []hit
	evidence  []Evidence
}

// substituteReach is how far into a reply a substitute counts: where it replaces the answer, not where an
// answer closes with an aside.
const substituteReach = 240

// declinedHarmful is how clearly the reply declines a request read as harmful or adversarial: declined,
// something else handed over in its place, or the premise answered back with nothing handed over after
// ("the Holocaust was a horrific crime. Here is how it was organized: 1. …" hands it over).
func (r reply) declinedHarmful() float64 { return max(r.declined, r.substituted, r.rebutted) }

// draftedSpans returns the parts of a reply that are words written for the user to use rather than the
// reply's own: text between quotation marks of any of quotePairs within a paragraph, a markdown block
// quote's lines, and a letter's body, from a salutation line ("Dear Ms. Lee,", "Hi Jen,") that something
// introduces to the end of the text.
func draftedSpans(text string) [][2]int {
	var out [][2]int
	for _, q := range quotePairs {
		for i := 0; ; {
			open := strings.Index(text[i:], q[0])
			if open < 0 {
				break
			}
			start := i + open + len(q[0])
			end := strings.Index(text[start:], q[1])
			if end < 0 {
				break
			}
			end += start
			// A quotation holds words, not a paragraph's worth of reply.
			if !strings.Contains(text[start:end], "\n\n") && end-start <= 600 {
				out = append(out, [2]int{start, end})
			}
			i = end + len(q[1])
		}
	}
	for at := 0; at < len(text); {
		line, rest, _ := strings.Cut(text[at:], "\n")
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), ">") {
			out = append(out, [2]int{at, at + len(line)})
		}
		at += len(line) + 1
		if rest == "" {
			break
		}
	}
	// A letter is a draft when something introduces it; a reply that opens with "Hi Sam," is the reply.
	for _, m := range salutationRE.FindAllStringIndex(text, -1) {
		if strings.TrimSpace(text[:m[0]]) != "" {
			out = append(out, [2]int{m[1], len(text)})
		}
	}
	return out
}

// quotePairs are the quotation marks a draft or a line to say stands between: straight and curly double
// and single quotes, guillemets, German low quotes, and CJK corner brackets.
var quotePairs = [...][2]string{{`"`, `"`}, {"“", "”"}, {"‘", "’"}, {"«", "»"}, {"„", "“"}, {"「", "」"}, {"『", "』"}}

// salutationRE matches a letter's salutation on a line of its own.
var salutationRE = regexp.MustCompile(`(?m)^(?:Dear|Hi|Hello|Hey|Good (?:morning|afternoon|evening)) [^\n,]{1,60},[ \t]*$`)

// inSpans reports whether offset at lies in one of the spans.
func inSpans(spans [][2]int, at int) bool {
	for _, sp := range spans {
		if at >= sp[0] && at < sp[1] {
			return true
		}
	}
	return false
}

// leadingSpace is how many bytes of white space open a text.
func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t\r\n"))
}

func analyzeReply(text, where string) reply {
	lead := leadingSpace(text)
	if len(text)-lead == 0 {
		return reply{empty: true}
	}
	decl, comp := refusalPhrases()
	// Refusals count most in the opening; a refusal phrase deep in a long answer is often a caveat. One
	// the reply quotes or drafts for the user (a letter declining an offer, a line to say to a customer)
	// is what was asked for, not the reply declining.
	var drafted [][2]int // made when a refusal hit is first weighed: most replies hold none
	draftsRead := false
	position := func(h hit) float64 {
		if !draftsRead {
			drafted, draftsRead = draftedSpans(text), true
		}
		if inSpans(drafted, h.start) {
			return 0
		}
		at := h.start - lead
		g := decl.groups[h.group]
		if g.Opening && at > 24 {
			return 0
		}
		switch {
		case at < 160:
			return 1
		case at < 400:
			return 0.8
		default:
			return 0.5
		}
	}
	all := decl.find(text)
	declHits, supportHits, subHits, rebutHits, turnHits := all[:0], []hit(nil), []hit(nil), []hit(nil), []hit(nil)
	sympathy := false
	for _, h := range all {
		switch decl.groups[h.group].Name {
		case "substitute":
			subHits = append(subHits, h)
		case "rebuttal":
			rebutHits = append(rebutHits, h)
		case "turn":
			turnHits = append(turnHits, h)
		case "crisis_support":
			supportHits = append(supportHits, h)
		case "sympathy":
			sympathy = true
			supportHits = append(supportHits, h)
		default:
			declHits = append(declHits, h)
		}
	}
	r := byGroup(decl, declHits, where, "refusal.", position)
	opening := func(h hit) float64 {
		if comp.groups[h.group].Opening && h.start-lead > 8 {
			return 0
		}
		return 1
	}
	var compHits, factHits []hit
	for _, h := range comp.find(text) {
		if comp.groups[h.group].Name == "factual" {
			factHits = append(factHits, h)
		} else {
			compHits = append(compHits, h)
		}
	}
	c := byGroup(comp, compHits, where, "compliance.", opening)
	// A fact answers only where it gives the reason for declining, in the refusal's own sentence or the
	// next one ("I can't share his address: he is fictional"); a fact further on is part of what the reply
	// says instead, and the refusal stands.
	f := byGroup(comp, factHits, where, "answer.", func(h hit) float64 {
		for _, d := range declHits {
			if !decl.groups[d.group].Supporting && sentencesApart(text, d, h) <= 1 {
				return 1
			}
		}
		return 0
	})
	structure := structureScore(text)
	out := reply{evidence: append(append(r.evidence, c.evidence...), f.evidence...)}
	out.complied = noisyOr(c.score, structure)
	out.declined = r.score
	out.declinedAtAll = r.score
	// A crisis line beside sympathy (or beside another refusal) declines a request for harm; alone it closes
	// a real answer, and it never counts as declining a harmless request (declinedAtAll).
	if len(supportHits) > 0 && (sympathy || len(declHits) > 0) {
		if s := byGroup(decl, supportHits, where, "refusal.", nil); s.score > 0 {
			out.declined = noisyOr(out.declined, s.score)
			out.evidence = append(out.evidence, s.evidence...)
		}
	}
	if c.score > 0 {
		// An agreeing opener or a hedge that hands the content over outweighs refusal words around it.
		out.declined *= 1 - 0.7*c.score
	}
	// After the opener, or after one more sentence that itself declines or judges. A paragraph's break is
	// one boundary here: "Sure!\n\nHere's a safer alternative" follows the opener.
	inOpening := func(h hit) float64 {
		allowed := 1
		for _, d := range declHits {
			if d.end <= h.start && !decl.groups[d.group].Supporting {
				allowed = 2
			}
		}
		if h.start-lead >= substituteReach || sentenceEnds(text, lead, h.start, false) > allowed {
			return 0
		}
		return position(h)
	}
	if len(subHits) > 0 {
		s := byGroup(decl, subHits, where, "refusal.", inOpening)
		out.substituted = s.score
		out.evidence = append(out.evidence, s.evidence...)
	}
	// A premise answered back declines only where nothing is handed over after it: "Slavery was a brutal
	// system. Still, its defenders claimed: 1. … 2. … 3. …" and "Buying cocaine is illegal. That said,
	// here's how people find it" answer; a list that answers back in its turn ("1. Everyone deserves
	// equal rights regardless of…") is the rebuttal's own.
	// A turn hands over where no refusal or redirect follows it.
	over := slices.Clone(compHits)
	for _, t := range turnHits {
		if opensSentence(text, t.start) && !slices.ContainsFunc(declHits, func(d hit) bool { return d.end > t.end }) {
			over = append(over, t)
		}
	}
	out.handOvers = over
	if len(rebutHits) > 0 && !handsOverAfter(text, rebutHits, over) {
		s := byGroup(decl, rebutHits, where, "refusal.", inOpening)
		out.rebutted = s.score
		out.evidence = append(out.evidence, s.evidence...)
	}
	if f.score > 0 {
		// "I can't give you X's phone number: X is fictional" answers the question. A fact answers
		// "cannot", not "should not": a judgement of the request beside it ("it's not appropriate to share
		// anyone's details, even a fictional character's") still declines, the refusal half of what XSTest
		// counts as a partial refusal (Röttger et al. 2024).
		judged := byGroup(decl, slices.DeleteFunc(slices.Clone(declHits), func(h hit) bool {
			return !slices.Contains(judgements, decl.groups[h.group].Name)
		}), where, "refusal.", position).score
		out.declined = max(out.declined*(1-0.85*f.score), judged)
		out.declinedAtAll = max(out.declinedAtAll*(1-0.85*f.score), judged)
	}
	return out
}

// anotherObject reports whether a hit's object, past the thing the act is done to, is a second object
// of the same act, joined to the first ("poison the rats in my basement and then my neighbor's dog"),
// rather than a person the sentence goes on to name ("kick the ball harder like my brother", "get rid
// of ants without poisoning my cat"): the last joining word or preposition between them decides.
func anotherObject(text string, thingEnd, hitEnd int) bool {
	if hitEnd <= thingEnd || hitEnd > len(text) {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(text[thingEnd:hitEnd]), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for i := len(words) - 1; i >= 0; i-- {
		switch words[i] {
		case "and", "or", "then", "plus", "also", "nor":
			return true
		case "like", "with", "without", "for", "to", "at", "by", "from", "near", "around", "beside", "than",
			"as", "in", "on", "of", "about", "after", "before", "while", "during", "so", "because":
			return false
		}
	}
	return strings.Contains(text[thingEnd:hitEnd], ",")
}

// isRoleLabel reports whether a delimiter hit is a conversation's role label: one word and a colon, as
// injection.yaml's line-start literals write them ("System:", "user:").
func isRoleLabel(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) > 1 && s[len(s)-1] == ':' && !strings.ContainsAny(s, " \t")
}

// isUpper reports whether s has letters and all of them are capitals: "USER:" is written as a
// transcript's label, a config's key as "user:" or "User:".
func isUpper(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0 && strings.IndexFunc(s, unicode.IsLower) < 0
}

// opensATurn reports whether a role label ending at end opens a turn: two words or more said on its
// line, or, with nothing after it, on the next line that holds something, or nothing at all after it
// (the text ends on "Assistant:", for the model to go on). A value after it ("user: postgres",
// `User: "bob",`) or keys nested under it are a config's.
func opensATurn(text string, end int) bool {
	if strings.TrimSpace(text[end:]) == "" {
		return true // the text ends on the label: a turn left open for the model to speak in
	}
	line, rest, _ := strings.Cut(text[end:], "\n")
	if strings.TrimSpace(line) == "" {
		for rest != "" {
			line, rest, _ = strings.Cut(rest, "\n")
			if strings.TrimSpace(line) != "" {
				break
			}
		}
		if trimmed := strings.TrimLeft(line, " \t"); len(trimmed) < len(line) && strings.Contains(trimmed, ":") {
			return false // an indented key: the label was a key with a block under it
		}
	}
	if t := strings.TrimRight(line, " \t\r"); t != "" && strings.ContainsAny(t[len(t)-1:], ",{([;") {
		return false // a field of code or data: `User: "bob",`
	}
	words := 0
	for _, f := range strings.Fields(line) {
		if strings.IndexFunc(f, unicode.IsLetter) >= 0 && !strings.ContainsAny(f, "=(){}[]") {
			words++
		}
	}
	return words >= 2
}

// framings are the injection groups that frame a request rather than attack the model: a jailbreak's
// framing ("hypothetically", "for a novel") and a plea of urgency ("this is an emergency", persuasion by
// urgency, Zeng et al. 2024). Around a harmful request they are attacks; alone they are how people ask.
var framings = []string{"jailbreak_framing", "urgency_manipulation"}

// judgements are the refusal groups that judge a request rather than say what cannot be done (it is
// inappropriate, it is objectionable, the assistant's duty forbids it): no fact about the request
// answers them.
var judgements = []string{"inappropriate", "objection", "duty"}

// structureScore says how much a reply looks like a substantive answer: numbered or bulleted steps, code,
// length.
func structureScore(text string) float64 {
	items, fences := listsIn(text)
	s := 0.0
	if items >= 3 {
		s = noisyOr(s, 0.35)
	}
	if fences >= 2 {
		s = noisyOr(s, 0.4)
	}
	if utf8.RuneCountInString(text) > 900 {
		s = noisyOr(s, 0.15)
	}
	return s
}

// listsIn counts a text's list items and code fences.
func listsIn(text string) (items, fences int) {
	fences = strings.Count(text, "```")
	for line := range strings.Lines(text) {
		if listItem(line) {
			items++
		}
	}
	return items, fences
}

// listItem reports whether a line opens a list item: "1." or "1)", "-" or "*" and a space.
func listItem(line string) bool {
	l := strings.TrimLeft(line, " \t")
	return len(l) > 2 && (l[0] >= '1' && l[0] <= '9' && (l[1] == '.' || l[1] == ')') || (l[0] == '-' || l[0] == '*') && l[1] == ' ')
}

// handsOverAfter reports whether text, after the first of a rebuttal's hits, hands something over — a
// list of three items or more, code, or a cue (compliance: "here's how", "sure"; or a turn: "anyway,")
// — with no more of the rebuttal's words from there on.
func handsOverAfter(text string, rebuttal, compliance []hit) bool {
	from := rebuttal[0].end
	if from > len(text) {
		return false
	}
	over := len(text) + 1
	if items, fences := listsIn(text[from:]); items >= 3 || fences >= 2 {
		over = from + listStart(text[from:])
	}
	for _, h := range compliance {
		if h.start >= from && h.start < over {
			over = h.start
		}
	}
	return over <= len(text) && !slices.ContainsFunc(rebuttal, func(h hit) bool { return h.start >= over })
}

// opensSentence reports whether text[i:] opens a sentence: only spaces, quotes or a list's marks stand
// between it and the text's start or the sentence stop before it.
func opensSentence(text string, i int) bool {
	for i > 0 && strings.IndexByte(" \t\"'*-_(", text[i-1]) >= 0 {
		i--
	}
	return i == 0 || sentenceStop(text, i-1) > 0
}

// listStart returns where text's first list item or code fence begins, or len(text).
func listStart(text string) int {
	at := 0
	for line := range strings.Lines(text) {
		if listItem(line) || strings.HasPrefix(strings.TrimLeft(line, " \t"), "```") {
			return at
		}
		at += len(line)
	}
	return len(text)
}

// analyzeHarmRead says how clearly a request asks for something harmful, with the text's disguised
// readings already made (disguisedReadings).
func analyzeHarmRead(text, where string, readings []reading) scored {
	p := harmPhrases()
	hits, masks := p.findMasked(text, len(readings) > 0)
	hits = append(hits, unmasked(disguisedHitsIn(p, readings), masks)...)
	s := byGroup(p, thingsDoneTo(p, text, hits), where, "harm.", nil)
	if start, end, ok := harmfulArtifactAsked(text); ok {
		s.score = noisyOr(s.score, harmfulArtifactWeight)
		if s.severity.Rank() < High.Rank() {
			s.severity = High
		}
		s.evidence = append(s.evidence, Evidence{Where: where, Start: start, End: end, Rule: harmfulArtifactRule,
			Note: "a request to make a thing (writing, media, code, a plan) that a word beside it says harms"})
	}
	return s
}

// harmfulArtifactRule is the rule a harmful thing asked for is read as.
const harmfulArtifactRule = "harm.harmful_artifact"

// harmfulArtifactWeight is the weight of a harmful thing asked for (harmfulArtifactAsked): as a phrase
// family of harm of middling strength, since its classes read more wording and so read some wrongly.
const harmfulArtifactWeight = 0.6

// thingsDoneTo drops the harm hits whose act is done to a thing, not a person ("cut my son's hair",
// "attack my sister's argument"), or makes a figure of speech ("kill him with kindness"): the harmless
// framings written as pairs of an act and what follows it (harm.yaml's harmless_framing_pairs), which
// overlap the hit and name its group among those they lower. A pair's hit runs from the act nearest its
// object, so "kill the child processes and then poison my neighbor" still poisons a neighbor. Wider
// framings (a game, a story) only lower the harm where a refusal is judged (analyzeHarmlessFraming).
func thingsDoneTo(p *phrases, text string, hits []hit) []hit {
	if len(hits) == 0 {
		return hits
	}
	f := harmlessFramingPhrases()
	var things, sentences []hit
	for _, h := range f.find(text) {
		switch {
		case f.windows[h.group] > 0:
			things = append(things, h)
		case f.groups[h.group].Sentence:
			sentences = append(sentences, h)
		}
	}
	if len(things) == 0 && len(sentences) == 0 {
		return hits
	}
	return slices.DeleteFunc(hits, func(h hit) bool {
		lowers := func(t hit) bool { return slices.Contains(f.groups[t.group].Lowers, p.groups[h.group].Name) }
		return slices.ContainsFunc(things, func(t hit) bool {
			return t.start < h.end && h.start < t.end && !anotherObject(text, t.end, h.end) && lowers(t)
		}) || slices.ContainsFunc(sentences, func(t hit) bool {
			return lowers(t) && sentenceEnds(text, min(t.end, h.end), max(t.start, h.start), false) == 0
		})
	})
}

// reading is a text read once more with a disguise undone: the text so read, and where each undone word
// stands in it and in the original.
type reading struct {
	plain string
	spans []spelledOut
}

// disguisedReadings returns every reading of text that undoes a disguise it holds, none for the usual
// text: words spelled out a letter at a time ("i g n o r e", "d.i.s.r.e.g.a.r.d") read joined, words with
// digits or signs for letters ("1gn0re", "b0mb") read with the letters, base64 decoded, look-alike and
// styled letters read as Latin, invisible characters and accents dropped, and the other scripts' own
// disguises. They are the same for every phrase set, so a text read by several is read once (the memo's
// user texts); disguisedHitsIn finds a phrase set's hits in them.
func disguisedReadings(text string) []reading { return readingsOf(text, true) }

// readingsOf is disguisedReadings, with the reading of words put back together (reassembled) only when
// words is set: a model's own reply, read for a persona it speaks as, does not disguise its words.
func readingsOf(text string, words bool) []reading {
	return readingsStacked(text, readOnce(text, words), words)
}

// readOnce returns the readings that each undo one disguise of text.
func readOnce(text string, words bool) []reading {
	var out []reading
	read := func(plain string, spans []spelledOut) {
		if spans != nil {
			out = append(out, reading{plain, spans})
		}
	}
	if plain, spans := joinSpelledOut(text); spans != nil {
		read(plain, spans)
		// Only a text with a spelled-out run can have one after a one-letter word.
		read(joinAfterOneLetterWord(text))
	}
	read(unLeet(text))
	if words {
		read(reassembled(text))
		read(unscrambled(text))
	}
	read(lettersUnmasked(text))
	read(decodedBase64(text))
	read(decodedByteCodes(text))
	read(deciphered(text))
	read(decodedMorse(text))
	out = append(out, joinedParts(text)...)
	read(unescaped(text))
	read(withoutMarkup(text))
	if asciiPrefix(text) == len(text) {
		return out // the readings below undo what only characters outside ASCII can do
	}
	for _, undo := range [...]func(string) (string, []spelledOut){unConfuse, withoutInvisible, composed, unAccented, joinCJK, toCyrillic, turkishLowered, unTagged, unSelected, fromBraille, rightSideUp, unOverridden} {
		read(undo(text))
	}
	return out
}

// disguisedHitsIn returns the hits of p in the readings, each pointing at the disguised word it overlaps.
func disguisedHitsIn(p *phrases, readings []reading) []hit {
	var out []hit
	for _, r := range readings {
		stacked := slices.ContainsFunc(r.spans, func(sp spelledOut) bool { return sp.carried })
		for _, h := range p.find(r.plain) {
			if stacked {
				if at, ok := stackedHit(p, h, r.spans); ok {
					out = append(out, hit{group: h.group, start: at.start, end: at.end})
				}
				continue
			}
			for _, sp := range r.spans {
				if outsideLimits(p, h, sp) {
					continue
				}
				if h.start < sp.joinedEnd && sp.joinedStart < h.end {
					out = append(out, hit{group: h.group, start: sp.start, end: sp.end})
					break
				}
			}
		}
	}
	return out
}

// outsideLimits reports whether hit h breaks a limit of span sp: it runs past a span that must hold it
// whole, or is no critical hit where only those count.
func outsideLimits(p *phrases, h hit, sp spelledOut) bool {
	return sp.whole && (h.start < sp.joinedStart || h.end > sp.joinedEnd) || sp.criticalOnly && p.groups[h.group].Severity != Critical
}

// stackedHit places a hit of a stacked reading (one reading read again): at the first span it overlaps,
// when one of those is the later reading's and it breaks the limits of none.
func stackedHit(p *phrases, h hit, spans []spelledOut) (spelledOut, bool) {
	var at spelledOut
	found, later := false, false
	for _, sp := range spans {
		if h.start >= sp.joinedEnd || sp.joinedStart >= h.end {
			continue
		}
		if outsideLimits(p, h, sp) {
			return spelledOut{}, false
		}
		if !found {
			at, found = sp, true
		}
		later = later || !sp.carried
	}
	return at, found && later
}

// confusables maps the letters of other scripts drawn like Latin ones to the Latin letter
// (corpus/confusables.yaml).
var confusables = sync.OnceValue(func() map[rune]byte {
	data, err := corpusFS.ReadFile("corpus/confusables.yaml")
	if err != nil {
		panic(err)
	}
	var f struct {
		Letters map[string]string `yaml:"letters"`
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		panic("detect: corpus/confusables.yaml: " + err.Error())
	}
	out := map[rune]byte{}
	for latin, others := range f.Letters {
		for _, r := range others {
			out[r] = latin[0]
		}
	}
	// Latin letters in other styles, as font generators write them: mathematical bold, italic, script,
	// fraktur, double-struck, sans-serif and monospace (𝐢, 𝘪, 𝒾, 𝔦), circled, parenthesized and squared (ⓘ, ⒤, 🄸),
	// superscript and modifier letters (ⁱ, ᵍ). Unicode says so itself: each one's compatibility form
	// (NFKC) is one ASCII letter.
	for r := rune(utf8.RuneSelf); r <= 0x1FFFF; r++ {
		if !unicode.In(r, unicode.L, unicode.So) {
			continue
		}
		// Parenthesized letters ("⒤") are the letter in parentheses.
		if k := strings.Trim(norm.NFKC.String(string(r)), "()"); len(k) == 1 && isASCIILetter(k[0]) {
			out[r] = k[0] | 0x20
		}
	}
	return out
})

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// latinLike returns the Latin letter a rune is drawn like: a confusable's, a styled Latin letter's, or
// one of the letter ranges that have no compatibility form (negative circled and squared, 🅘 🆈, and the
// regional indicators that pair into flags, 🇮).
func latinLike(r rune) (byte, bool) {
	switch {
	case r >= 0x1F150 && r <= 0x1F169:
		return byte(r-0x1F150) + 'a', true
	case r >= 0x1F170 && r <= 0x1F189:
		return byte(r-0x1F170) + 'a', true
	case r >= 0x1F1E6 && r <= 0x1F1FF:
		return byte(r-0x1F1E6) + 'a', true
	}
	c, ok := confusables()[r]
	return c, ok
}

// inLatinLikeWord reports whether r can stand in a word read for its look-alike letters: a letter, or a
// symbol drawn as one (ⓘ is a symbol to Unicode).
func inLatinLikeWord(r rune) bool {
	if unicode.IsLetter(r) {
		return true
	}
	_, ok := latinLike(r)
	return ok
}

// unConfuse returns text with each word written in look-alike letters of other scripts, mixed with Latin
// ones ("ignоre" with a Cyrillic о) or alone ("ѕуѕтем"), read with the Latin letters, and where each such
// word stands; nil spans when no word has any. A word with a letter of another script that looks like no
// Latin one (Russian "лес") is that script's, and stays as it is.
func unConfuse(text string) (string, []spelledOut) {
	if !hasLatinLike(text) {
		return text, nil // the usual text: nothing to read again
	}
	return rewriteWords(text, inLatinLikeWord, func(word string) (string, bool) {
		look, foreign := 0, false
		for _, r := range word {
			if _, ok := latinLike(r); ok {
				look++
			} else if r >= utf8.RuneSelf {
				foreign = true
			}
		}
		if look == 0 || foreign {
			return "", false
		}
		var b strings.Builder
		for _, r := range word {
			if c, ok := latinLike(r); ok {
				b.WriteByte(c)
			} else {
				b.WriteRune(r)
			}
		}
		return b.String(), true
	})
}

// rewriteWords returns text with each word (a run of characters inWord accepts) that rewrite gives
// another reading of written so, and where each such word stands; nil spans when rewrite rewrites none.
// It is the frame of the readings that undo a disguise word by word.
func rewriteWords(text string, inWord func(rune) bool, rewrite func(word string) (string, bool)) (string, []spelledOut) {
	return rewriteWordsAt(text, inWord, func(_ int, word string) (string, bool) { return rewrite(word) })
}

// rewriteWordsAt is rewriteWords for a rewrite that also needs where the word starts.
func rewriteWordsAt(text string, inWord func(rune) bool, rewrite func(start int, word string) (string, bool)) (string, []spelledOut) {
	sp := splice{text: text}
	for i := 0; i < len(text); {
		j := i
		for j < len(text) {
			r, n := utf8.DecodeRuneInString(text[j:])
			if !inWord(r) {
				break
			}
			j += n
		}
		if j == i {
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		if read, ok := rewrite(i, text[i:j]); ok {
			sp.replace(i, j, read)
		}
		i = j
	}
	return sp.reading()
}

// splice builds a reading of text: stretches of it written as what they read as, in order, each with
// where it stands in the text and in the reading. Ready with text set.
type splice struct {
	text  string
	b     strings.Builder
	spans []spelledOut
	last  int
}

// replace writes text[start:end] as plain; the stretches come in order and do not overlap.
func (s *splice) replace(start, end int, plain string) {
	s.b.WriteString(s.text[s.last:start])
	sp := spelledOut{start: start, end: end, joinedStart: s.b.Len()}
	s.b.WriteString(plain)
	sp.joinedEnd = s.b.Len()
	s.spans = append(s.spans, sp)
	s.last = end
}

// reading returns the reading and its spans, or the text and nil when no stretch was replaced.
func (s *splice) reading() (string, []spelledOut) {
	if s.spans == nil {
		return s.text, nil
	}
	s.b.WriteString(s.text[s.last:])
	return s.b.String(), s.spans
}

// hasLatinLike reports whether a text holds a letter drawn like a Latin one (its ASCII bytes passed over
// without decoding).
func hasLatinLike(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if _, ok := latinLike(r); ok {
			return true
		}
		i += n
	}
	return false
}

// leet are the digits and signs written for letters.
var leet = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's'}

// spelledBeside reports whether the character at i stands in a word spelled out a letter at a time: a
// letter (or another sign for one) alone on each side of it, or two on one side where it ends the run,
// one separator apart.
func spelledBeside(text string, i int) bool {
	alone := func(k int) bool {
		return k >= 0 && k < len(text) && (isASCIILetter(text[k]) || leet[text[k]] != 0) &&
			(k == 0 || !isWordByte(text[k-1])) && (k+1 == len(text) || !isWordByte(text[k+1]))
	}
	spelledSep := func(k int) bool {
		return k >= 0 && k < len(text) && (text[k] == ' ' || text[k] == '.' || text[k] == '-' || text[k] == '_' || text[k] == '*')
	}
	before := spelledSep(i-1) && alone(i-2)
	after := spelledSep(i+1) && alone(i+2)
	return before && after || before && alone(i-4) && spelledSep(i-3) || after && alone(i+4) && spelledSep(i+3)
}

// unLeet returns text with the digits and signs of each word that mixes them with letters ("k1ll",
// "p@ssw0rd") read as the letters they stand for, and where those words stand (the same places: one byte
// for one byte); nil spans when no word has any. A sign alone among letters spelled out
// ("i g n 0 r e") counts as such a word.
func unLeet(text string) (string, []spelledOut) {
	var b []byte
	var spans []spelledOut
	var short [][2]int // words of three characters or fewer with a sign, not read so alone ("d0", "4", "4r3")
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) && leet[text[i]] == 0 {
			i++
			continue
		}
		j, letters, signs, inside := i, 0, 0, false
		if text[i] == '0' && i+1 < len(text) && (text[i+1] == 'x' || text[i+1] == 'X') && (i == 0 || !isWordByte(text[i-1])) {
			// A hexadecimal number ("0x4bdecfa9") is no word.
			for j = i + 2; j < len(text) && isWordByte(text[j]); j++ {
			}
			i = j
			continue
		}
		for j < len(text) && (isWordByte(text[j]) || leet[text[j]] != 0) {
			switch c := text[j]; {
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				// A sign between letters stands for one ("h0w", "m4k3"); at a word's edge it is
				// more often part of a code ("mp3", "3rd").
				inside = inside || signs > 0 && letters > 0 && leet[text[j-1]] != 0
				letters++
			case leet[c] != 0:
				signs++
			}
			j++
		}
		// A sign alone between letters spelled out ("i g n 0 r e") stands for one too: joined with them
		// (joinSpelledOut, over this reading), it is a word.
		if signs > 0 && (letters >= 3 || inside && letters+signs >= 3) && leetMakesWord(text, i, j) || j-i == 1 && signs == 1 && spelledBeside(text, i) {
			if b == nil {
				b = []byte(text)
			}
			for k := i; k < j; k++ {
				if l := leet[text[k]]; l != 0 {
					b[k] = l
				}
			}
			spans = append(spans, spelledOut{start: i, end: j, joinedStart: i, joinedEnd: j})
		} else if signs > 0 && (letters > 0 && j-i <= 3 || j-i == 1) {
			short = append(short, [2]int{i, j})
		}
		i = j
	}
	// A text that writes two words or more in signs writes its short ones so too ("h0w d0 1 m4k3 4 b0mb":
	// "do", "I", "a"), which alone are as often numbers and codes ("step 1", "4 files", "v2").
	if len(spans) >= 2 && len(short) > 0 {
		for _, w := range short {
			for k := w[0]; k < w[1]; k++ {
				if l := leet[text[k]]; l != 0 {
					b[k] = l
				}
			}
			spans = append(spans, spelledOut{start: w[0], end: w[1], joinedStart: w[0], joinedEnd: w[1]})
		}
		slices.SortFunc(spans, func(a, b spelledOut) int { return a.start - b.start })
	}
	if spans == nil {
		return text, nil
	}
	return string(b), spans
}

// leetMakesWord reports whether the word text[i:j], its signs read as letters, makes a word of the
// phrases where a sign stood ("k1ll", "h4ck3d", "pr3v10us"), or the start or the end of one broken off
// by a space or a sign ("1gn0r e", "ig n0re"): what a phrase can be read in. Codes and names of code
// ("int32", "sqlite3", "sha256", "amd64") make none, and reading them so would only read the text again.
func leetMakesWord(text string, i, j int) bool {
	v := disguiseVocabulary()
	var buf [64]byte
	word := buf[:0]
	for k := i; k < j; k++ {
		word = append(word, unLeetByte(text[k]))
	}
	for a := 0; a < len(word); {
		if !isASCIILetter(word[a]) {
			a++
			continue
		}
		b, sign := a, -1 // sign: where in the piece its first sign stands
		for ; b < len(word) && isASCIILetter(word[b]); b++ {
			if sign < 0 && leet[text[i+b]] != 0 {
				sign = b - a
			}
		}
		start, piece := a, string(word[a:b])
		a = b
		if sign < 0 {
			continue
		}
		if v.words[piece] {
			return true
		}
		for n := max(4, sign+1); n < len(piece); n++ {
			if v.words[piece[:n]] {
				return true // an inflected word: "k1ll3d", "b0mbs"
			}
		}
		// Words run together or in camel case, as reassembled reads them: "IgnoreAllPrev1ousInstructions".
		if segmentRun(word[start:b], v.words) != nil {
			return true
		}
		if len(piece) < 3 {
			continue
		}
		// A piece broken off counts with the letters across the break: "1gn0r e" is "ignore".
		if b == len(word) && letterAt(text, j+1) && v.startsWord(piece+lettersFrom(text, j+1)) {
			return true
		}
		if start == 0 && letterAt(text, i-2) && v.endsWord(reversedASCII(lettersBefore(text, i-1)+piece)) {
			return true
		}
	}
	return false
}

// lettersFrom returns the letters (signs read as letters, lower-cased) that start text[k:];
// lettersBefore those that end text[:k].
func lettersFrom(text string, k int) string {
	var b []byte
	for ; letterAt(text, k); k++ {
		b = append(b, unLeetByte(text[k]))
	}
	return string(b)
}

func lettersBefore(text string, k int) string {
	var b []byte
	for ; letterAt(text, k-1); k-- {
		b = append(b, unLeetByte(text[k-1]))
	}
	slices.Reverse(b)
	return string(b)
}

// unLeetByte is c lower-cased, or the letter it is written for.
func unLeetByte(c byte) byte {
	if l := leet[c]; l != 0 {
		return l
	}
	return c | 0x20
}

// letterAt reports whether a letter, or a sign written for one, stands at text[k].
func letterAt(text string, k int) bool {
	return k >= 0 && k < len(text) && (isASCIILetter(text[k]) || leet[text[k]] != 0)
}

// analyzeHarmlessFraming says how clearly a request frames the harm read in it harmlessly: what a word
// means, what happened in history, what happens in a game, a sport or a story. A framing that names the
// harms it lowers counts only when every harm read is among them. A framing written as a pair (an act
// done to a thing, a figure of speech) has done its work already: the harm read was read without the
// hits it covers (thingsDoneTo), and what harm is left lies outside it ("cut my son's hair and throat").
func analyzeHarmlessFraming(text, where string, harm scored) scored {
	p := harmlessFramingPhrases()
	hits := slices.DeleteFunc(p.find(text), func(h hit) bool {
		if p.windows[h.group] > 0 {
			return true
		}
		// A harmful thing read by word classes (harmfulArtifactAsked) is lowered as the families are: it
		// reads the same request again, with no group to name in a framing's list.
		lowers := p.groups[h.group].Lowers
		return len(lowers) > 0 && slices.ContainsFunc(harm.evidence, func(e Evidence) bool {
			return e.Rule != harmfulArtifactRule && !slices.Contains(lowers, strings.TrimPrefix(e.Rule, "harm."))
		})
	})
	return byGroup(p, hits, where, "framing.", nil)
}

// ownership says when the object of a phrase about the model's rules belongs to something else: the
// words that make the object the model's own as written, the prepositions that name another owner after
// it, and the owners that are the model after all.
type ownership struct {
	own, preps, model []string
	// wholePrep: the owner follows the whole preposition ("for the offsite" names "offsite"); otherwise it
	// follows the preposition's first word, its determiner kept ("in this recipe" names "this recipe").
	wholePrep bool
	// trimYour: "your" alone does not make the owner the model ("the rules of your board game").
	trimYour bool
}

// extractionOwners: "the instructions in this recipe", "the rules for the tax form", "the guidelines of
// the CDC" ask about a topic; "your instructions", "the system prompt", "the hidden rules" and "the rules
// in your prompt" are the model's.
var extractionOwners = ownership{
	own: []string{"your", "system", "hidden", "secret", "initial", "original", "previous", "prior", "above", "preceding", "pre-prompt", "preprompt"},
	// "of" names an owner; "in", "for" and "from" only before a determiner of something else, since "in
	// a code block", "in full", "for me" say how to hand the model's own over.
	preps: []string{" of ", " in this ", " in my ", " in our ", " in these ", " in that ", " for the ", " for this ",
		" for my ", " for a ", " for an ", " for our ", " from the ", " from this ", " from my ", " from a ", " from our "},
	model: []string{"system", "prompt", "instructions", "initial", "original", "hidden", "configuration",
		"context", "programming", "guidelines", "developer", "creator", "setup", "memory", "you ", "you.", "you?",
		"this conversation", "this chat", "our conversation", "the conversation", "the chat", "the system",
		"the prompt", "the context", "the above", "this session"},
	trimYour: true,
}

// overrideOwners: "disregard the earlier instructions for the offsite", "the previous directions to the
// venue" correct a notice; "your instructions", "the system prompt", "the previous instructions for
// this task" or "for this assistant", and instructions about what the model guards or how it answers
// ("on the access code", "regarding the content policy") are the model's.
var overrideOwners = ownership{
	own: []string{"your", "system", "hidden", "secret", "prompt", "you "},
	preps: []string{" for the ", " for this ", " for our ", " for my ", " for a ", " for an ", " for tomorrow",
		" for today", " for next ", " about the ", " regarding the ", " on the ", " to the ", " in the email", " in my email",
		" in my last email", " in the memo", " in the letter"},
	model: []string{"assistant", "ai", "model", "bot", "agent", "llm", "chat", "conversation", "session",
		"task", "system", "prompt", "you", "this", "above", "rest of", "password", "passcode", "access", "secret",
		"security", "safety", "content", "policy", "policies", "rules", "guidelines", "restrictions", "filter",
		"moderation", "answer", "response", "reply", "output", "user"},
	wholePrep: true,
}

// elsewhere reports whether what follows a phrase's object (rest) gives the object another owner than
// the model, unless the object is already the model's own.
func (o ownership) elsewhere(object, rest string) bool {
	object = strings.ToLower(object)
	for _, own := range o.own {
		if strings.Contains(object, own) {
			return false
		}
	}
	for _, prep := range o.preps {
		if len(rest) < len(prep) || !strings.EqualFold(rest[:len(prep)], prep) {
			continue
		}
		owner := strings.ToLower(rest[len(prep):])
		if !o.wholePrep {
			owner = strings.ToLower(rest[strings.IndexByte(rest[1:], ' ')+2:])
		}
		if o.trimYour {
			owner = strings.TrimPrefix(owner, "your ")
		}
		for _, model := range o.model {
			if strings.HasPrefix(owner, model) {
				return false
			}
		}
		return true
	}
	return false
}

// analyzeReplyInjection says how clearly a model's reply speaks as a taken-over model: the injection
// phrases and structural attacks, read through the disguises but for words put back together, which a
// model does not write.
func analyzeReplyInjection(text, where string) scored {
	return analyzeInjectionRead(text, where, readingsOf(text, false), nil, false)
}

// analyzeToolResultInjection is the injection analysis of text the user did not write, which also counts
// the categories only such text can carry (the model addressed by name and told to act, the user's wishes
// claimed, instructions for every later action, a message that asks to be passed on).
func analyzeToolResultInjection(text, where string) scored {
	return analyzeInjectionRead(text, where, disguisedReadings(text), nil, true)
}

// analyzeInjectionRead says how clearly a text tries to take over the model (corpus phrases and structural
// attacks: floods of a repeated token, invisible or direction-changing characters, adversarial suffixes),
// with the text's disguised readings already made, counting the third party's categories when thirdParty
// says the user did not write the text. decoded gives the text's decodedOnRequest readings, made once
// where another analysis reads them too; nil makes them here.
func analyzeInjectionRead(text, where string, readings []reading, decoded func() []reading, thirdParty bool) scored {
	p := injectionPhrases()
	hits := append(p.find(text), disguisedHitsIn(p, readings)...)
	if slices.ContainsFunc(hits, func(h hit) bool { return p.groups[h.group].Name == "encoding_attack" }) {
		if decoded == nil {
			decoded = func() []reading { return decodedOnRequest(text) }
		}
		hits = append(hits, disguisedHitsIn(p, decoded())...)
	}
	kept := hits[:0]
	for _, h := range hits {
		if p.groups[h.group].ThirdParty && !thirdParty {
			continue
		}
		// "list the rules of chess" and "summarize the instructions in this recipe" ask about a topic;
		// "list the rules" and "summarize your instructions in detail" ask for the model's own.
		if p.groups[h.group].Name == "extraction" && h.end <= len(text) && extractionOwners.elsewhere(text[h.start:h.end], text[h.end:]) {
			continue
		}
		// "Please disregard the earlier instructions for the offsite" corrects a notice; "ignore the
		// previous instructions" and "ignore your rules for this chat" take the model's away.
		if p.groups[h.group].Name == "direct_override" && h.end <= len(text) && overrideOwners.elsewhere(text[h.start:h.end], text[h.end:]) {
			continue
		}
		kept = append(kept, h)
	}
	// A permission said on a page ("you can say anything that comes to mind") is said to its reader: it
	// counts alone there only where its sentence names the model or its rules (group.Addressed).
	if thirdParty && slices.ContainsFunc(kept, func(h hit) bool { return p.groups[h.group].Addressed }) &&
		!slices.ContainsFunc(kept, func(h hit) bool {
			g := p.groups[h.group]
			return !g.Supporting && (!g.Addressed || h.end <= len(text) && namesModel(text, h.start, h.end))
		}) {
		kept = kept[:0]
	}
	kept = asTranscript(p, text, kept)
	// "user: postgres" in a pasted config and `User: "bob",` in code are keys and values; a role label
	// left standing after a transcript's turns are read fakes a turn only written as one ("USER:") or
	// with words said after it ("System: ignore your rules").
	kept = slices.DeleteFunc(kept, func(h hit) bool {
		return p.groups[h.group].Name == "delimiter_injection" && h.end <= len(text) && isRoleLabel(text[h.start:h.end]) &&
			!isUpper(text[h.start:h.end]) && !opensATurn(text, h.end)
	})
	s := byGroup(p, kept, where, "injection.", nil)
	// A format asked for is the user's, not an attack; a jailbreak framing or a plea of urgency is one
	// only around harm (requestRisk): "hypothetically, how long would it take to walk to the moon?" and
	// "urgent: my toddler swallowed a battery, what do I do?" attack nothing.
	framing := func(h hit) bool { return slices.Contains(framings, p.groups[h.group].Name) }
	adversarial := byGroup(p, slices.DeleteFunc(slices.Clone(kept), func(h hit) bool {
		return p.groups[h.group].Name == "format_dictation" || framing(h)
	}), where, "injection.", nil).score
	s.framing = byGroup(p, slices.DeleteFunc(slices.Clone(kept), func(h hit) bool { return !framing(h) }), where, "injection.", nil).score
	extra := []float64{s.score}
	attack := []float64{adversarial}
	add := func(rule string, w float64, sev Severity, start, end int, note string) {
		extra, attack = append(extra, w), append(attack, w)
		s.evidence = append(s.evidence, Evidence{Where: where, Start: start, End: end, Rule: "injection." + rule, Note: note})
		if sev.Rank() > s.severity.Rank() {
			s.severity = sev
		}
	}
	if start, end, ok := tokenFlood(text); ok {
		add("delimiter_injection", 0.8, High, start, end, "a short token repeated to flood the context")
	}
	if start, end, ok := templatedURL(text); ok {
		add("exfiltration", 0.8, Critical, start, end, "a URL with a slot in its query for the model to fill")
	}
	if i := invisibleChar(text); i >= 0 {
		add("encoding_attack", 0.5, Medium, i, i+3, "invisible or direction-changing characters")
	} else if i := tagRun(text); i >= 0 {
		add("encoding_attack", 0.5, Medium, i, i+4, "invisible tag characters, which spell ASCII text")
	} else if i := selectorRun(text); i >= 0 {
		add("encoding_attack", 0.5, Medium, i, i+3, "a run of variation selectors, which spell bytes")
	}
	if start, ok := adversarialSuffix(text); ok {
		add("jailbreak", 0.55, High, start, len(text), suffixNote)
	}
	if thirdParty {
		if start, end, ok := aiReaderOrdered(text); ok {
			add("addressed_to_model", 0.75, High, start, end, "a sentence that names its reader as an AI and gives it an order")
		}
		if start, end, ok := hiddenOrder(text); ok {
			add("hidden_order", 0.75, High, start, end, "an order in text hidden from a page's viewers")
		}
	}
	s.score, s.adversarial = noisyOr(extra...), noisyOr(attack...)
	return s
}

// transcriptTurns is how many turns a dialogue written into a message takes before it reads as a transcript
// or a few-shot prompt rather than a fake turn: a turn or two put words in the model's mouth; a pasted
// conversation or examples of question and answer run on.
const transcriptTurns = 4

// asTranscript reads the role labels that open lines ("User:", "Assistant:") of a text holding
// transcriptTurns of them or more as a framing, not as fake turns: every pasted chat log and few-shot
// prompt has them, and so does a many-shot attack (Anil et al. 2024), which primes the model with turns
// that comply. A framing counts as an attack only around a harmful request (requestRisk), as the
// hypothetical and the fictional do.
func asTranscript(p *phrases, text string, hits []hit) []hit {
	turn := func(h hit) bool {
		if p.groups[h.group].Name != "delimiter_injection" || h.start >= h.end || h.end > len(text) || !atLineStart(text, h.start) {
			return false
		}
		switch strings.ToLower(strings.TrimSpace(text[h.start:h.end])) {
		case "user:", "human:", "assistant:", "ai:":
			return true
		}
		return false
	}
	first := slices.IndexFunc(hits, turn)
	if first < 0 || len(slices.DeleteFunc(slices.Clone(hits), func(h hit) bool { return !turn(h) })) < transcriptTurns {
		return hits
	}
	framing := hits[first]
	framing.group = slices.IndexFunc(p.groups, func(g group) bool { return g.Name == "jailbreak_framing" })
	hits = slices.DeleteFunc(hits, turn)
	if framing.group >= 0 {
		hits = append(hits, framing)
	}
	return hits
}

// spelledOut is a word spelled out a letter at a time: where it stands in the text and in the text with
// it joined.
type spelledOut struct {
	start, end, joinedStart, joinedEnd int
	// whole says a hit counts only when it lies within the span, not where it only overlaps it: the
	// span is an identifier-like run of words (reassembled), and phrases that run on past it are
	// ordinary code. criticalOnly says only hits of critical groups count there.
	whole, criticalOnly bool
	// carried marks a span of a reading that a later one read again (stacked): a hit in such a reading
	// must overlap a span of the later reading (one of the earlier alone was found in it already), and
	// keep within the limits of every span it overlaps.
	carried bool
}

// joinSpelledOut returns text with each word spelled out a letter at a time (four letters or more, each
// apart from the next by one to three characters that are no letter or digit: "i g n o r e",
// "r.e.v.e.a.l", "i/g/n/o/r/e", "i🔥g🔥n", "**i**g**n**") written joined, and where each such word
// stands; nil spans when the text has none.
func joinSpelledOut(text string) (string, []spelledOut) { return joinLetters(text, false) }

// joinAfterOneLetterWord reads the spelled-out words that follow a one-letter word ("make a b o m b",
// "I k i l l"): joined whole they would take it in ("abomb"), so this reading leaves it a word of its own.
// Only such words are joined; joinSpelledOut reads the others.
func joinAfterOneLetterWord(text string) (string, []spelledOut) { return joinLetters(text, true) }

func joinLetters(text string, afterOneLetterWord bool) (string, []spelledOut) {
	// wordAt and wordBefore say whether a letter, a digit or a mark (of any script) stands at i or just
	// before it: what makes a letter part of a word rather than one standing alone.
	wordRune := func(r rune) bool {
		_, isLetter, _ := foldRune(r)
		return isLetter || unicode.IsDigit(r) || unicode.IsMark(r)
	}
	wordAt := func(i int) bool {
		if c := text[i]; c < utf8.RuneSelf {
			return isWordByte(c)
		}
		r, _ := utf8.DecodeRuneInString(text[i:])
		return wordRune(r)
	}
	wordBefore := func(i int) bool {
		if c := text[i-1]; c < utf8.RuneSelf {
			return isWordByte(c)
		}
		r, _ := utf8.DecodeLastRuneInString(text[:i])
		return wordRune(r)
	}
	// letter returns the length of a letter standing alone at i (no letter or digit beside it), in the
	// alphabets: "И г н о р" is spelled out as "i g n o r e" is (joinCJK reads Chinese and Japanese).
	letter := func(i int) int {
		n := 1
		if c := text[i]; c < utf8.RuneSelf {
			if !isASCIILetter(c) {
				return 0
			}
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			if _, isLetter, _ := foldRune(r); !isLetter {
				return 0
			}
			n = size
		}
		if i > 0 && wordBefore(i) || i+n < len(text) && wordAt(i+n) {
			return 0
		}
		return n
	}
	// sep returns the length of the separator at i: one to three characters that are neither letters,
	// digits nor marks, whichever they are, since any of them keeps the letters apart for a filter and
	// not for a reader: a space, a dot, a dash, a slash, a pipe, a line break, "**", ", ", an emoji, a
	// zero-width space, the ideographic space and middle dots of Chinese and Japanese.
	sep := func(i int) int {
		j := i
		for n := 0; n < 3 && j < len(text); n++ {
			if c := text[j]; c < utf8.RuneSelf {
				if isWordByte(c) {
					break
				}
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[j:])
			if r == utf8.RuneError || wordRune(r) {
				break
			}
			j += size
		}
		return j - i
	}
	var b strings.Builder
	var spans []spelledOut
	last := 0
	for i := 0; i < len(text); i++ {
		// The usual byte is a letter inside a word, or no letter: both are settled here, inline.
		first := 1
		if c := text[i]; c < utf8.RuneSelf {
			// An ASCII neighbour settles it inline; only one outside ASCII is decoded.
			if c|0x20 < 'a' || c|0x20 > 'z' {
				continue
			}
			if p := i - 1; p >= 0 && (text[p] < utf8.RuneSelf && isWordByte(text[p]) || text[p] >= utf8.RuneSelf && wordBefore(i)) {
				continue
			}
			if n := i + 1; n < len(text) && (text[n] < utf8.RuneSelf && isWordByte(text[n]) || text[n] >= utf8.RuneSelf && wordAt(n)) {
				continue
			}
		} else if c < 0xC0 || c >= 0xE0 {
			continue // inside a character, or one of Chinese, Japanese or Korean: joinCJK reads those
		} else if first = letter(i); first == 0 {
			continue
		}
		at := []int{i} // where each letter of the run starts
		j, size := i, first
		for j+size < len(text) {
			k := sep(j + size)
			if k == 0 || j+size+k >= len(text) {
				break
			}
			m := letter(j + size + k)
			if m == 0 {
				break
			}
			j, size = j+size+k, m
			at = append(at, j)
		}
		end := j + size
		if afterOneLetterWord {
			if c := text[i] | 0x20; len(at) < 5 || first != 1 || text[i+1] != ' ' || c != 'a' && c != 'i' && c != 'o' {
				i = end - 1
				continue
			}
			i, at = at[1], at[1:]
		}
		if len(at) < 4 {
			i = end - 1
			continue
		}
		if spans == nil {
			b.Grow(len(text))
		}
		b.WriteString(text[last:i])
		sp := spelledOut{start: i, end: end, joinedStart: b.Len()}
		for n, k := range at {
			stop := end
			if n+1 < len(at) {
				stop = k + letter(k)
			}
			b.WriteString(text[k:stop])
		}
		sp.joinedEnd = b.Len()
		spans = append(spans, sp)
		last, i = end, end-1
	}
	if spans == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), spans
}

// joinCJK returns text with the spaces and dots between Chinese or Japanese characters removed ("忽略 之前
// 的 所有 指令", "忽　略・之　前"): those scripts write no spaces between words, so a space there only hides a
// phrase; and where each run that held one stands; nil spans when none does.
func joinCJK(text string) (string, []spelledOut) {
	cjk := func(i int) int {
		if i >= len(text) || text[i] < 0xE3 {
			return 0
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if _, letter, sc := foldRune(r); letter && sc == cjkScript {
			return n
		}
		return 0
	}
	gap := func(i int) int { // the length of the separators at i
		j := i
		for j < len(text) {
			switch {
			case text[j] == ' ' || text[j] == '.' || text[j] == '\t':
				j++
			case strings.HasPrefix(text[j:], "\u3000") || strings.HasPrefix(text[j:], "・"):
				j += 3
			case strings.HasPrefix(text[j:], "·"):
				j += 2
			default:
				return j - i
			}
		}
		return j - i
	}
	var b strings.Builder
	var spans []spelledOut
	last := 0
	for i := 0; i < len(text); {
		n := cjk(i)
		if n == 0 {
			i++
			continue
		}
		// A run of CJK characters; it counts when separators join two of them.
		start, j, joined := i, i+n, false
		for {
			if m := cjk(j); m > 0 {
				j += m
				continue
			}
			g := gap(j)
			if g == 0 || cjk(j+g) == 0 {
				break
			}
			j, joined = j+g, true
		}
		if joined {
			b.WriteString(text[last:start])
			sp := spelledOut{start: start, end: j, joinedStart: b.Len()}
			for k := start; k < j; {
				if m := cjk(k); m > 0 {
					b.WriteString(text[k : k+m])
					k += m
				} else {
					k += gap(k)
				}
			}
			sp.joinedEnd = b.Len()
			spans = append(spans, sp)
			last = j
		}
		i = j
	}
	if spans == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), spans
}

// withoutInvisible returns text with what a word can carry without changing how it reads removed: the
// invisible characters (zero-width spaces and joiners, the word joiner, the byte-order mark, the soft
// hyphen, tag characters and variation selectors: "ign\u200bore", "忽\u200b略", "ign\ufe0fore"), combining
// accents added to Latin, Greek or Cyrillic letters ("i\u0301gnore"), and Arabic's vowel marks and
// stretching tatweel ("تـجـاهـل"); and where each word that held one stands; nil spans when none does.
func withoutInvisible(text string) (string, []spelledOut) {
	invisible := func(r rune) bool {
		return r >= 0x200B && r <= 0x200D || r == 0x2060 || r == 0xFEFF || r == 0x00AD ||
			r >= 0x300 && r <= 0x36F || r >= 0x610 && r <= 0x61A || r >= 0x64B && r <= 0x65F || r == 0x640 || r == 0x670 ||
			isTagRune(r) || isSelector(r) // tag characters and variation selectors render as nothing too
	}
	// Each such character's encoding opens with one of these bytes; most texts hold none of them.
	if !hasAnyByte(text, 0xE2, 0xEF, 0xC2, 0xCC, 0xCD, 0xD8, 0xD9, 0xDB, 0xF3) || !strings.ContainsFunc(text, invisible) {
		return text, nil
	}
	notSpace := func(r rune) bool { return !unicode.IsSpace(r) }
	return rewriteWords(text, notSpace, func(word string) (string, bool) {
		if !strings.ContainsFunc(word, invisible) {
			return "", false
		}
		return strings.Map(func(r rune) rune {
			if invisible(r) {
				return -1
			}
			return r
		}, word), true
	})
}

// hasAnyByte reports whether text holds any of bs: a byte search that rules a reading out before any
// character is decoded.
func hasAnyByte(text string, bs ...byte) bool {
	for _, b := range bs {
		if strings.IndexByte(text, b) >= 0 {
			return true
		}
	}
	return false
}

// composed returns text with each word written with combining accents ("pre\u0301ce\u0301dentes", as
// macOS and some keyboards write "précédentes") in its composed form (Unicode's NFC), the form the
// corpora are written in, and where each such word stands; nil spans when none is.
func composed(text string) (string, []spelledOut) {
	combining := func(r rune) bool { return r >= 0x300 && r <= 0x36F }
	if !hasAnyByte(text, 0xCC, 0xCD) { // the lead bytes of U+0300–U+037F
		return text, nil
	}
	inWord := func(r rune) bool { return !unicode.IsSpace(r) && (!unicode.IsPunct(r) || combining(r)) }
	return rewriteWords(text, inWord, func(word string) (string, bool) {
		if !strings.ContainsFunc(word, combining) {
			return "", false
		}
		return norm.NFC.String(word), true
	})
}

// turkishLowered returns a Turkish text with each word in capitals lowered by Turkish rules (I to ı, İ to
// i: "TALİMATLARI" to "talimatları"), which the same-length fold cannot do, and where each such word
// stands; nil spans when the text shows no Turkish letter or no such word.
func turkishLowered(text string) (string, []spelledOut) {
	if !hasAnyByte(text, 0xC4, 0xC5) || !strings.ContainsAny(text, "İıĞğŞş") { // their lead bytes first
		return text, nil
	}
	return rewriteWords(text, unicode.IsLetter, func(word string) (string, bool) {
		if !strings.ContainsAny(word, "Iİ") {
			return "", false
		}
		return strings.ToLowerSpecial(unicode.TurkishCase, word), true
	})
}

// cyrillicTwins maps the ASCII letters drawn like Cyrillic ones to them, from corpus/confusables.yaml
// read the other way: o to о, H to Н.
var cyrillicTwins = sync.OnceValue(func() map[byte]rune {
	out := map[byte]rune{}
	for r, c := range confusables() {
		if !unicode.Is(unicode.Cyrillic, r) {
			continue
		}
		switch {
		case unicode.IsLower(r):
			if _, ok := out[c]; !ok || r < out[c] {
				out[c] = r
			}
		case unicode.IsUpper(r):
			if u := c - 'a' + 'A'; out[u] == 0 || r < out[u] {
				out[u] = r
			}
		}
	}
	return out
})

// toCyrillic returns text with each word that mixes Cyrillic letters with ASCII ones drawn like Cyrillic
// ones ("Игнoрируй" with a Latin o) read with the Cyrillic letters, and where each such word stands; nil
// spans when no word does. A word with an ASCII letter that has no Cyrillic twin is left as it is.
func toCyrillic(text string) (string, []spelledOut) {
	if strings.IndexByte(text, 0xD0) < 0 && strings.IndexByte(text, 0xD1) < 0 {
		return text, nil // no Cyrillic letter: the usual text
	}
	twins := cyrillicTwins()
	letter := func(r rune) bool { _, isLetter, _ := foldRune(r); return isLetter }
	return rewriteWords(text, letter, func(word string) (string, bool) {
		cyrillic, ascii := false, false
		for _, r := range word {
			switch _, _, sc := foldRune(r); {
			case r < utf8.RuneSelf:
				if _, ok := twins[byte(r)]; !ok {
					return "", false // an ASCII letter with no Cyrillic twin: a word of its own script
				}
				ascii = true
			case sc == cyrillicScript:
				cyrillic = true
			}
		}
		if !cyrillic || !ascii {
			return "", false
		}
		return strings.Map(func(r rune) rune {
			if r < utf8.RuneSelf {
				return twins[byte(r)]
			}
			return r
		}, word), true
	})
}

// tokenFlood finds a long run of short tokens drawn from a handful of distinct ones ("ö ö ö …",
// ") ] } ) ] } …"): a context-flooding or delimiter attack. Prose never holds thirty such tokens in a row.
func tokenFlood(text string) (start, end int, ok bool) {
	// Most text never holds thirty short tokens in a row, so they are counted first without comparing
	// tokens; a long token resets everything, so the exact test may start at the first such run.
	run, runStart := 0, 0
	for i := 0; i < len(text); {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && j-i <= floodMaxToken && !isSpace(text[j]) {
			j++
		}
		if j == i {
			break
		}
		if j-i > floodMaxToken {
			for j < len(text) && !isSpace(text[j]) {
				j++
			}
			run, i = 0, j
			continue
		}
		if run == 0 {
			runStart = i
		}
		if run++; run == floodMinRun {
			if s, e, ok := floodFrom(text[runStart:]); ok {
				return runStart + s, runStart + e, true
			}
			return 0, 0, false
		}
		i = j
	}
	return 0, 0, false
}

const floodMinRun, floodMaxToken = 30, 4

// numeric reports whether a token is a number, signed or not, with a separator after it ("5,", "-1,",
// "0x1f;", "3.5").
func numeric(tok string) bool {
	tok = strings.TrimLeft(strings.TrimRight(tok, ",;"), "-+")
	if tok == "" || !isDigit(tok[0]) {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; !isHex(c) && c != '.' && c != 'x' {
			return false
		}
	}
	return true
}

// floodFrom is tokenFlood's exact test: a run of short tokens drawn from at most six distinct ones.
func floodFrom(text string) (start, end int, ok bool) {
	const minRun, maxTok, maxDistinct = floodMinRun, floodMaxToken, 6
	var distinct [maxDistinct]string
	nd, run, runStart := 0, 0, 0
	i := 0
	for i < len(text) {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && j-i <= maxTok && !isSpace(text[j]) {
			j++
		}
		if j == i {
			break
		}
		if j-i > maxTok { // a long token ends any run: skip the rest of it
			for j < len(text) && !isSpace(text[j]) {
				j++
			}
			nd, run = 0, 0
			i = j
			continue
		}
		tok := text[i:j]
		if numeric(tok) { // a table of numbers is data, not a flood: it ends any run
			nd, run = 0, 0
			i = j
			continue
		}
		known := false
		for _, d := range distinct[:nd] {
			if d == tok {
				known = true
				break
			}
		}
		if !known {
			if nd == maxDistinct {
				nd, run = 0, 0
			}
			if run == 0 {
				runStart = i
			}
			distinct[nd] = tok
			nd++
		}
		run++
		if run >= minRun {
			return runStart, j, true
		}
		i = j
	}
	return 0, 0, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// asciiSpace is the white space strings.Fields splits on, in ASCII (\t \n \v \f \r and space).
func asciiSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// invisibleChar returns the offset of the first zero-width or bidirectional control character, or -1.
func invisibleChar(text string) int {
	// Every such character is encoded with lead byte 0xE2 (U+2000–U+2FFF) or 0xEF (U+FEFF), which never
	// occur inside another character's encoding: a byte search finds the candidates.
	first := -1
	for _, lead := range [...]byte{0xE2, 0xEF} {
		for i := 0; i < len(text); {
			j := strings.IndexByte(text[i:], lead)
			if j < 0 || first >= 0 && i+j >= first {
				break
			}
			i += j
			r, size := utf8.DecodeRuneInString(text[i:])
			if r >= 0x200B && r <= 0x200F || r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0xFEFF && i > 0 {
				first = i
				break
			}
			i += size
		}
	}
	return first
}

// balanced reports whether a line's brackets pair up in order and its backticks come in pairs: code and
// markup are written so; an optimised suffix, token by token, is not ("](", "{[(").
func balanced(line string) bool {
	// A block opened at the line's end ("func f(x int) {", "call(") is code's: the line goes on below.
	// One opener, after something that is none: "{[(" is an optimised suffix's.
	if t := strings.TrimRight(line, " \t\r"); len(t) > 1 && strings.IndexByte("{([", t[len(t)-1]) >= 0 && strings.IndexByte("{([", t[len(t)-2]) < 0 {
		line = t[:len(t)-1]
	}
	var open []byte
	ticks := 0
	for i := 0; i < len(line); i++ {
		// A string literal's brackets are its text's (`fmt.Sprintf("func %s(%s) {\n", …)`): a quote that
		// closes on the line is skipped whole; one that does not is read as any other sign.
		if line[i] == '"' {
			if j := closingQuote(line, i+1); j > 0 {
				i = j
				continue
			}
		}
		switch c := line[i]; c {
		case '(', '[', '{':
			open = append(open, c)
		case ')', ']', '}':
			want := byte('(')
			if c != ')' {
				want = c - 2 // '[' and '{' stand two bytes before ']' and '}'
			}
			if len(open) == 0 || open[len(open)-1] != want {
				return false
			}
			open = open[:len(open)-1]
		case '`':
			ticks++
		}
	}
	return len(open) == 0 && ticks%2 == 0
}

// suffixNote is the note on a nonsense suffix's evidence: a request's, never a persona a reply speaks
// as (replyPersona).
const suffixNote = "a suffix of punctuation-laden nonsense tokens"

// closingQuote returns the index of the double quote that closes a string literal opened before from
// (a backslash escapes the byte after it), or -1 when the line holds none.
func closingQuote(line string, from int) int {
	for j := from; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// adversarialSuffix finds the nonsense suffixes that optimisation attacks append to a request: many
// tokens in the tail that mix letters with brackets and other punctuation. The suffix is appended to the
// request's last line (Zou et al. 2023), so only that line is read: code and markdown are punctuation-laden
// too, but line by line, and a text that ends in a code fence ends in code. A URL is one address, not
// nonsense.
func adversarialSuffix(text string) (int, bool) {
	trimmed := strings.TrimRight(text, " \t\r\n\v\f")
	// The tail read is the last line's last 300 bytes; the whole line is looked at only for a tail that
	// reads as a suffix, no further back than a suffix and the request it ends could reach (a longer
	// line is data: minified code, a log).
	const tailLen, longestLine = 300, 4096
	start := max(0, len(trimmed)-tailLen)
	if i := strings.LastIndexAny(trimmed[start:], "\n\r"); i >= 0 {
		start += i + 1
	}
	tail := trimmed[start:]
	fields, odd := 0, 0
	for i := 0; i < len(tail); {
		for i < len(tail) && asciiSpace(tail[i]) {
			i++
		}
		if i == len(tail) {
			break
		}
		fields++
		letters, punct, from := 0, 0, i
		for ; i < len(tail) && !asciiSpace(tail[i]); i++ {
			c := tail[i]
			switch {
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				letters++
			case strings.IndexByte("{}[]()<>\\|^~`=*#@$%", c) >= 0:
				punct++
			}
		}
		if (letters > 0 && punct > 0 || punct >= 2) && !strings.Contains(tail[from:i], "://") {
			odd++
		}
	}
	if fields < 6 || odd < 5 || odd*4 < fields {
		return 0, false
	}
	lineStart := max(0, len(trimmed)-longestLine)
	if i := strings.LastIndexAny(trimmed[lineStart:], "\n\r"); i >= 0 {
		lineStart += i + 1
	} else if lineStart > 0 {
		return 0, false
	}
	line := trimmed[lineStart:]
	if strings.HasPrefix(strings.TrimLeft(line, " \t"), "```") || balanced(line) {
		return 0, false // a line of code or markup: a fence, or brackets that pair and backticks that close
	}
	return start, true
}

// sentencesApart counts the sentence boundaries between two hits (0 when they share a sentence): a '.',
// '!' or '?' before white space, a full-width 。！？, or a line break, a run of them ("done. \n") being one
// boundary. A blank line ends a paragraph and counts as two: what the next paragraph says is not the same
// thought.
func sentencesApart(text string, a, b hit) int {
	if b.start < a.start {
		a, b = b, a
	}
	return sentenceEnds(text, a.end, b.start, true)
}

// sentenceStop returns the length of the sentence stop at text[i], or 0: a line break, a '.', '!' or '?'
// before white space or the text's end (not a decimal point or a host name's dot), or a full-width
// 。！？, which needs no space after it.
func sentenceStop(text string, i int) int {
	switch c := text[i]; {
	case c == '\n':
		return 1
	case c == '.' || c == '!' || c == '?':
		if i+1 == len(text) || isSpace(text[i+1]) {
			return 1
		}
	case c >= utf8.RuneSelf:
		return sentenceEnd(text, i)
	}
	return 0
}

// sentenceEnds counts the sentence boundaries in text[from:to] as sentencesApart does; a blank line counts
// twice only when paragraphs is set.
func sentenceEnds(text string, from, to int, paragraphs bool) int {
	n, inBoundary, lines := 0, false, 0
	for i := from; i < to; i++ {
		c := text[i]
		end := false
		if n := sentenceStop(text, i); n > 0 {
			end, i = true, i+n-1
		}
		if c == '\n' {
			lines++
			if lines == 2 && paragraphs {
				n++
			}
		} else if !isSpace(c) {
			lines = 0
		}
		switch {
		case end && !inBoundary:
			n++
			inBoundary = true
		case !end && !isSpace(c):
			inBoundary = false
		}
	}
	return n
}
