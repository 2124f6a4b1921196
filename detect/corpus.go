package detect

import (
	"cmp"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/ahocorasick"
	"go.yaml.in/yaml/v3"
)

// The corpora are data, not code: phrase lists, pattern templates, lexicons and the action table, each a
// YAML file with its provenance, embedded in the binary and hashed so that a scan says what it ran.
//
//go:embed corpus/*.yaml
var corpusFS embed.FS

// CorpusFile describes one embedded corpus file.
type CorpusFile struct {
	Name       string `json:"name"`
	Version    int    `json:"version"`
	Provenance string `json:"provenance"`
	SHA256     string `json:"sha256"`
}

var corpora = sync.OnceValues(func() ([]CorpusFile, string) {
	names, err := fs.Glob(corpusFS, "corpus/*.yaml")
	if err != nil {
		panic(err)
	}
	slices.Sort(names)
	all := sha256.New()
	var files []CorpusFile
	for _, n := range names {
		data, err := corpusFS.ReadFile(n)
		if err != nil {
			panic(err)
		}
		var head struct {
			Name       string `yaml:"name"`
			Version    int    `yaml:"version"`
			Provenance string `yaml:"provenance"`
		}
		if err := yaml.Unmarshal(data, &head); err != nil {
			panic(fmt.Sprintf("detect: %s: %v", n, err))
		}
		sum := sha256.Sum256(data)
		files = append(files, CorpusFile{Name: head.Name, Version: head.Version, Provenance: head.Provenance, SHA256: hex.EncodeToString(sum[:])})
		fmt.Fprintf(all, "%s %x\n", n, sum)
	}
	return files, hex.EncodeToString(all.Sum(nil))
})

// Corpora lists the embedded corpus files with their provenance and hashes.
func Corpora() []CorpusFile { f, _ := corpora(); return f }

// CorpusHash is the SHA-256 over every embedded corpus file: two scans with the same hash used the same data.
func CorpusHash() string { _, h := corpora(); return h }

// loadCorpus decodes one embedded file strictly into v; a mistake in shipped data is a bug, so it panics.
// A file's named choices (withChoices) are put in place first.
func loadCorpus(name string, v any) {
	data, err := corpusFS.ReadFile("corpus/" + name)
	if err != nil {
		panic(err)
	}
	text, err := withChoices(string(data))
	if err != nil {
		panic(fmt.Sprintf("detect: corpus/%s: %v", name, err))
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		panic(fmt.Sprintf("detect: corpus/%s: %v", name, err))
	}
}

// withChoices puts a corpus file's named choices in place: its top-level "choices" map names lists of
// words, and "{$name}" in a line that is not a comment stands for the choice {word|word|…}. One vocabulary
// (the verbs of helping, the ways to say "I won't") then serves every template that declines, so a
// spelling added once is read in each construction rather than in the one it was first seen in.
func withChoices(text string) (string, error) {
	if !strings.Contains(text, "{$") {
		return text, nil
	}
	var head struct {
		Choices map[string][]string `yaml:"choices"`
	}
	if err := yaml.Unmarshal([]byte(text), &head); err != nil {
		return "", err
	}
	// A choice's words may name another choice ("{$group_adjectives} {people|families}" among the
	// groups), put in place first so that a list is written once; one level only, so that the order
	// choices are put in place in cannot matter.
	naming := map[string]bool{}
	for name, words := range head.Choices {
		naming[name] = slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, "{$") })
	}
	resolved := make(map[string][]string, len(head.Choices))
	for name, words := range head.Choices {
		if !naming[name] {
			resolved[name] = words
			continue
		}
		out := make([]string, len(words))
		for i, w := range words {
			for rest := w; ; {
				k := strings.Index(rest, "{$")
				if k < 0 {
					break
				}
				end := strings.IndexByte(rest[k:], '}')
				if end < 0 {
					break // withChoicesIn reports it
				}
				if naming[rest[k+2:k+end]] {
					return "", fmt.Errorf("choice %q names %q, which names another: one level of naming only", name, rest[k+2:k+end])
				}
				rest = rest[k+end:]
			}
			var err error
			if out[i], err = withChoicesIn(w, head.Choices); err != nil {
				return "", fmt.Errorf("choice %q: %w", name, err)
			}
		}
		resolved[name] = out
	}
	head.Choices = resolved
	var b strings.Builder
	for n, line := range slices.Collect(strings.Lines(text)) {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "#") {
			b.WriteString(line)
			continue
		}
		out, err := withChoicesIn(line, head.Choices)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", n+1, err)
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// withChoicesIn puts each "{$name}" of one line in place as the choice {word|word|…}.
func withChoicesIn(line string, choices map[string][]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(line, "{$")
		if i < 0 {
			b.WriteString(line)
			return b.String(), nil
		}
		j := strings.IndexByte(line[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed choice %.20q", line[i:])
		}
		name := line[i+2 : i+j]
		words := choices[name]
		if len(words) == 0 {
			return "", fmt.Errorf("unknown choice %q (choices: %s)", name, strings.Join(slices.Sorted(maps.Keys(choices)), ", "))
		}
		b.WriteString(line[:i])
		b.WriteString("{" + strings.Join(words, "|") + "}")
		line = line[i+j+1:]
	}
}

// group is a named list of phrase templates with a weight (how much one match says) and, for injection, a
// severity. Opening groups count only near the start of a text; supporting groups count only beside a
// hit of another group.
type group struct {
	Name       string   `yaml:"name"`
	Severity   Severity `yaml:"severity"`
	Weight     float64  `yaml:"weight"`
	Opening    bool     `yaml:"opening"`
	Supporting bool     `yaml:"supporting"`
	// Addressed groups count alone in text the user did not write only where the hit's sentence names the
	// model or its rules (injection.yaml's ai_reader.model_words); elsewhere there they support: "you can
	// say anything" on a page is said to its human reader.
	Addressed bool `yaml:"addressed"`
	// ThirdParty groups count only in text the user did not write (injection.yaml's third_party_*).
	ThirdParty bool `yaml:"-"`
	// Lowers names the harm groups a harmless framing lowers (harm.yaml's harmless_framing); empty lowers
	// every one. A story makes the violence done to its characters harmless, not a recipe it holds.
	Lowers []string `yaml:"lowers"`
	// Sentence framings lower the harm groups they name wherever the harm stands in their sentence, and
	// where an answer is judged too: consent ("with his permission", "we agreed to share locations") makes
	// a tracker on a partner's phone no covert surveillance, before or after the words that say so.
	Sentence bool     `yaml:"sentence"`
	Phrases  []string `yaml:"phrases"`
	Literals []string `yaml:"literals"`
}

// expand turns a template into every phrase it stands for: {a|b|} is a choice (an empty choice is nothing),
// and choices nest. A phrase that ends in "*" is a stem: it matches where a word starts with it.
func expand(t string) []string {
	i := strings.IndexByte(t, '{')
	if i < 0 {
		return []string{t}
	}
	depth, j := 0, i
	for ; j < len(t); j++ {
		if t[j] == '{' {
			depth++
		} else if t[j] == '}' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if j == len(t) {
		panic(fmt.Sprintf("detect: unbalanced { in template %q", t))
	}
	var choices []string
	depth, start := 0, i+1
	for k := i + 1; k < j; k++ {
		switch t[k] {
		case '{':
			depth++
		case '}':
			depth--
		case '|':
			if depth == 0 {
				choices = append(choices, t[start:k])
				start = k + 1
			}
		}
	}
	choices = append(choices, t[start:j])
	var out []string
	rest := expand(t[j+1:])
	for _, c := range choices {
		for _, head := range expand(c) {
			for _, tail := range rest {
				out = append(out, t[:i]+head+tail)
			}
		}
	}
	return out
}

// pair is a rule that fires when a term of First is followed, within Window bytes, by a term of Second:
// what tells "kill a person" from "kill a process" without listing every phrase in between.
type pair struct {
	Name     string   `yaml:"name"`
	Severity Severity `yaml:"severity"`
	Weight   float64  `yaml:"weight"`
	Window   int      `yaml:"window"`
	// Supporting is group.Supporting, for the pair's hits: they count only beside a hit of another group.
	Supporting bool `yaml:"supporting"`
	// Addressed is group.Addressed, for the pair's hits.
	Addressed bool `yaml:"addressed"`
	// Lowers is group.Lowers, for a harmless framing's pair.
	Lowers []string `yaml:"lowers"`
	First  []string `yaml:"first"`
	Second []string `yaml:"second"`
	// Mix names the family of act and object a pair is one language's spelling of ("override": a verb
	// of ignoring and the rules it ignores), and Act says which side is the act (first or last, by the
	// language's word order). Pairs of one family are also matched across languages (codeSwitched).
	Mix string `yaml:"mix"`
	Act string `yaml:"act"`
	// ThirdParty is group.ThirdParty, for the pair's hits.
	ThirdParty bool `yaml:"-"`
	// Phrase says the pair is one long phrase of the plain group of its name, written as its two halves
	// so that the automaton holds each half's list once: its hits are that group's, and weigh as its
	// phrases do (a pair of its own counts as evidence apart from the group of its name).
	Phrase bool `yaml:"phrase"`
	// Whole says the second side is the act's object only where it is not the possessor of another
	// thing: "whack my boss", not "whack my neighbor's weeds" (a slang whose other senses take things).
	Whole bool `yaml:"whole"`
	// firstLangs and secondLangs, per First and Second template, are the languages a code-switched
	// pair's terms are written in (language bits); nil for a pair of one language.
	firstLangs, secondLangs []langSet
	// eitherOrder lets the sides come in either order (a code-switched pair).
	eitherOrder bool
}

// phrases is a compiled set of groups and pairs: one automaton over every expanded phrase, which knows the
// groups each belongs to. Matching is case-insensitive in every script and whole-word: a phrase that
// starts (ends) with a letter or digit must not have one just before (after) it, except in scripts that
// write no spaces between words (joinsWords). Typographic apostrophes match straight ones. Pairs are
// reported as groups after the plain groups, in their order.
type phrases struct {
	m *ahocorasick.Matcher // the terms written in ASCII letters (and any signs)
	// scripts match the terms with letters outside ASCII, one automaton a script (accented Latin,
	// Cyrillic, Chinese and Japanese, Korean, …), each built when a text first holds a letter of its
	// script. Apart, because an automaton's table grows with the states of all its terms times the
	// distinct bytes of all of them, and the scans of ASCII text need not pass through the other
	// scripts' states: for injection, ASCII takes 17 MiB and each script 1–4 MiB, only once a text
	// needs it.
	scripts []scriptMatcher
	targets [][]target // term -> what it stands for
	// stem is, per term, whether it was written with a trailing "*": a word's start, which may go on in
	// letters ("удал*" is удали, удалить, удалите), for languages whose words inflect.
	stem    []bool
	groups  []group
	windows []int // per group: the pair window, or 0 for a plain group
	// hitGroup is, per group, the group its hits count as: itself, or for a pair that is a phrase of a
	// plain group (pair.Phrase), that group.
	hitGroup []int
	// eitherOrder, per group, is whether the pair's sides may come in either order (a code-switched
	// pair: the languages it joins put the act first or last).
	eitherOrder []bool
	// whole, per group, is whether the pair's second side must not be a possessor (pair.Whole).
	whole []bool
	// words are the words of two letters or more its ASCII terms are made of (not its masks'): what a
	// word broken or run together by a disguise is read back as (reassembled).
	words map[string]bool
}

// scriptMatcher is the automaton of one script's terms (phrases.scripts).
type scriptMatcher struct {
	script script
	m      func() *ahocorasick.Matcher
	ids    []int // its term -> term
}

type target struct {
	group int // -1 for a mask
	role  int // roleWhole, roleFirst, …
	langs langSet
	// lineStart says the term counts here only as a line's first word: a literal written after a line
	// break ("\nsystem:" is a transcript's role label, "operating system:" is not).
	lineStart bool
}

const (
	roleWhole = iota
	roleFirst
	roleSecond
)

// hit is one phrase (or pair) found in a text.
type hit struct {
	group      int
	start, end int
	langs      langSet // a code-switched pair's side: the languages its term is written in
}

// maxTemplatePhrases bounds what one template may stand for. The automaton's table grows with every
// phrase's states times the bytes the phrases use, so a template of six choices of ten words each (a
// million phrases) costs gigabytes and seconds at load; a phrase that long is a pair of its two halves,
// each listed once.
const maxTemplatePhrases = 6000

// expandTemplate is expand for a corpus template, which must stay under maxTemplatePhrases: shipped data
// that breaks the bound is a bug, so it panics. A phrase's trailing spaces, left by an empty last choice
// ("without restrictions {or|and|}"), are trimmed: matching is whole-word already, and a phrase that ended
// in a space would need one after it, so it missed the same words ending a sentence or the text.
func expandTemplate(t string) []string {
	out := compounds(expand(t))
	for i, p := range out {
		out[i] = strings.TrimRight(p, " ")
	}
	if len(out) > maxTemplatePhrases {
		panic(fmt.Sprintf("detect: template %.80q… stands for %d phrases (at most %d): make it a pair of its halves", t, len(out), maxTemplatePhrases))
	}
	return out
}

// compounds returns the phrases with each compound marked by a plus ("pipe+bomb") in the four ways
// English and its writers join it: apart, hyphenated, closed and with an underscore ("pipe bomb",
// "pipe-bomb", "pipebomb", "pipe_bomb"; camel case, "PipeBomb", is the closed form, since phrases are
// matched without regard to case). A filter that knows one spelling of a weapon's name is passed by
// another, so the corpus marks the compound once and every spelling is read.
func compounds(phrases []string) []string {
	var out []string
	for _, s := range phrases {
		if !strings.Contains(s, "+") {
			out = append(out, s)
			continue
		}
		for _, joint := range [...]string{" ", "-", "", "_"} {
			i := strings.IndexByte(s, '+')
			out = append(out, compounds([]string{s[:i] + joint + s[i+1:]})...)
		}
	}
	return out
}

func compilePhrases(groups []group, pairs []pair, masks []string) *phrases {
	return compilePhrasesSplit(groups, pairs, masks, true)
}

// compilePhrasesSplit is compilePhrases with the terms of other scripts than ASCII in automata of their
// own (split), or every term in one automaton: the plain way, which a fuzz test holds the split to.
func compilePhrasesSplit(groups []group, pairs []pair, masks []string, split bool) *phrases {
	p := &phrases{groups: slices.Clone(groups), windows: make([]int, len(groups)), eitherOrder: make([]bool, len(groups)), whole: make([]bool, len(groups)),
		words: map[string]bool{}}
	for i := range groups {
		p.hitGroup = append(p.hitGroup, i)
	}
	for _, pr := range pairs {
		g := len(p.groups)
		if pr.Phrase {
			g = slices.IndexFunc(groups, func(gr group) bool {
				return gr.Name == pr.Name && gr.Weight == pr.Weight && gr.ThirdParty == pr.ThirdParty
			})
			if g < 0 {
				panic("detect: the pair " + pr.Name + " is a phrase of a group its corpus does not have")
			}
		}
		p.hitGroup = append(p.hitGroup, g)
		p.groups = append(p.groups, group{Name: pr.Name, Severity: pr.Severity, Weight: pr.Weight, Supporting: pr.Supporting, Addressed: pr.Addressed, ThirdParty: pr.ThirdParty, Lowers: pr.Lowers})
		p.windows = append(p.windows, max(pr.Window, 1))
		p.whole = append(p.whole, pr.Whole)
		p.eitherOrder = append(p.eitherOrder, pr.eitherOrder)
	}
	var terms []string
	var stems []bool
	ids := map[string]int{}
	add := func(s string, tg target) {
		// A literal written after a line break ("\nsystem:") is a line's first word: the break says where
		// it stands, and is not part of the term.
		tg.lineStart = strings.HasPrefix(s, "\n")
		s = joinContractions(strings.ToLower(strings.Join(strings.Fields(s), " ")))
		stem := len(s) > 1 && strings.HasSuffix(s, "*")
		s = strings.TrimSuffix(s, "*")
		if s == "" {
			return
		}
		variants := []string{s}
		if strings.Contains(s, "'") {
			variants = append(variants, strings.ReplaceAll(s, "'", "’"))
		}
		for _, v := range variants {
			id, ok := ids[v]
			if !ok {
				id = len(terms)
				ids[v] = id
				terms = append(terms, v)
				p.targets = append(p.targets, nil)
				stems = append(stems, false)
			}
			stems[id] = stems[id] || stem
			// A term one side of a code-switched pair lists in several languages stands for them all.
			i := slices.IndexFunc(p.targets[id], func(t target) bool {
				return t.group == tg.group && t.role == tg.role && t.lineStart == tg.lineStart
			})
			if i < 0 {
				p.targets[id] = append(p.targets[id], tg)
			} else {
				p.targets[id][i].langs |= tg.langs
			}
		}
	}
	for gi, g := range groups {
		for _, t := range g.Phrases {
			for _, s := range expandTemplate(t) {
				add(s, target{group: gi})
			}
		}
		for _, s := range g.Literals {
			add(s, target{group: gi})
		}
	}
	for pi, pr := range pairs {
		gi := len(groups) + pi
		for i, t := range pr.First {
			for _, s := range expandTemplate(t) {
				add(s, target{group: gi, role: roleFirst, langs: termLangs(pr.firstLangs, i, s)})
			}
		}
		for i, t := range pr.Second {
			for _, s := range expandTemplate(t) {
				add(s, target{group: gi, role: roleSecond, langs: termLangs(pr.secondLangs, i, s)})
			}
		}
	}
	for _, t := range masks {
		for _, s := range expandTemplate(t) {
			add(s, target{group: -1})
		}
	}
	// Terms are numbered ASCII first, then by script, each automaton's own numbering offset into targets.
	byScript := map[script][]int{}
	var ascii []string
	targets := make([][]target, 0, len(terms))
	for i, t := range terms {
		if sc := firstScript(t); sc != noScript && split {
			byScript[sc] = append(byScript[sc], i)
			continue
		}
		ascii = append(ascii, t)
		if !slices.ContainsFunc(p.targets[i], func(t target) bool { return t.group < 0 }) {
			for _, w := range strings.FieldsFunc(t, func(r rune) bool { return r < 'a' || r > 'z' }) {
				if len(w) >= 2 {
					p.words[w] = true
				}
			}
		}
		targets = append(targets, p.targets[i])
		p.stem = append(p.stem, stems[i])
	}
	// Padding ("ignore   all\tprevious") hides nothing.
	p.m = ahocorasick.CompileWith(ascii, ahocorasick.Options{FoldSpace: true})
	for sc := range scriptCount {
		ids := byScript[sc]
		if len(ids) == 0 {
			continue
		}
		words := make([]string, len(ids))
		own := make([]int, len(ids))
		for j, i := range ids {
			words[j], own[j] = terms[i], len(targets)
			targets = append(targets, p.targets[i])
			p.stem = append(p.stem, stems[i])
		}
		p.scripts = append(p.scripts, scriptMatcher{script: sc, ids: own, m: sync.OnceValue(func() *ahocorasick.Matcher {
			return ahocorasick.CompileWith(words, ahocorasick.Options{FoldSpace: true})
		})})
	}
	p.targets = targets
	return p
}

// script is a family of scripts whose phrases share an automaton.
type script uint8

const (
	noScript    script = iota // ASCII
	latinScript               // accented and other Latin letters
	cyrillicScript
	greekScript
	cjkScript // Chinese characters and Japanese kana
	hangulScript
	otherScript
	scriptCount
)

// scriptOf returns the script family of a letter outside ASCII.
func scriptOf(r rune) script {
	switch {
	case unicode.Is(unicode.Latin, r):
		return latinScript
	case unicode.Is(unicode.Cyrillic, r):
		return cyrillicScript
	case unicode.Is(unicode.Greek, r):
		return greekScript
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー':
		return cjkScript
	case unicode.Is(unicode.Hangul, r):
		return hangulScript
	}
	return otherScript
}

// foldRune returns a rune's small letter, whether it is a letter and its script. The scripts most text
// outside ASCII is written in (Chinese, Japanese, Korean, Russian) are read from their ranges, and the
// rest from Unicode's tables: foldCapitals asks once per character per corpus, and the tables' lookups
// took over half the time the detectors spent on such text (BenchmarkScanAllDetectorsOtherLanguages).
// TestFoldRuneMatchesUnicode holds it to the tables for every rune.
func foldRune(r rune) (lower rune, letter bool, sc script) {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3041 && r <= 0x3096, r >= 0x30A1 && r <= 0x30FA:
		return r, true, cjkScript
	case r >= 0xAC00 && r <= 0xD7A3:
		return r, true, hangulScript
	case r >= 0x430 && r <= 0x45F:
		return r, true, cyrillicScript
	case r >= 0x410 && r <= 0x42F:
		return r + 0x20, true, cyrillicScript
	case r >= 0x400 && r <= 0x40F:
		return r + 0x50, true, cyrillicScript
	}
	return plainFoldRune(r)
}

// plainFoldRune is foldRune read from Unicode's tables alone.
func plainFoldRune(r rune) (lower rune, letter bool, sc script) {
	letter = unicode.IsLetter(r)
	if letter {
		sc = scriptOf(r)
	}
	return unicode.ToLower(r), letter, sc
}

// firstScript returns the script of s's first letter outside ASCII, or noScript.
func firstScript(s string) script {
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsLetter(r) {
			return scriptOf(r)
		}
	}
	return noScript
}

// joinContractions closes the space a template leaves before a contraction: "i {'m|am} not" expands to
// "i 'm not", which must match "i'm not".
func joinContractions(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && i > 0 && isWordByte(s[i-1]) && contractionAt(s[i+1:]) {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// contractionAt reports whether s opens with a contraction ending ('m, 're, 've, 'll, 'd, 's, 't) that
// ends a word.
func contractionAt(s string) bool {
	for _, c := range []string{"'m", "'re", "'ve", "'ll", "'d", "'s", "'t"} {
		if strings.HasPrefix(s, c) && (len(s) == len(c) || !isWordByte(s[len(c)])) {
			return true
		}
	}
	return false
}

// atLineStart reports whether only spaces and tabs stand between the line's start and i.
func atLineStart(text string, i int) bool {
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	return i == 0 || text[i-1] == '\n' || text[i-1] == '\r'
}

// wordRuneBefore reports whether the character that ends text[:i] is a letter or a digit. A byte of a
// multi-byte character is decoded first: a curly quote or a dash beside a phrase ends a word as a space
// does, and an accented letter does not.
func wordRuneBefore(text string, i int) bool {
	if c := text[i-1]; c < utf8.RuneSelf {
		return isWordByte(c)
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return joinsWords(r)
}

// wordRuneAt reports whether the character that starts text[i:] is a letter or a digit.
func wordRuneAt(text string, i int) bool {
	if c := text[i]; c < utf8.RuneSelf {
		return isWordByte(c)
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return joinsWords(r)
}

// joinsWords reports whether a non-ASCII character beside a phrase makes it part of a longer word: a
// letter or digit of a script that writes spaces between words. Chinese and Japanese write none, and
// Korean joins its endings and particles to the word ("지시를"), so a phrase in those scripts stands
// wherever it is found, and so does a Latin phrase written against them ("请ignore all…").
func joinsWords(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	return r != 'ー' && !unicode.In(r, unspacedScripts...)
}

var unspacedScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// foldCapitals returns text with the capitals of other scripts than ASCII lowered ("ИГНОРИРУЙ",
// "RÈGLES"), each only where its small letter is as long in UTF-8, and the spaces outside ASCII written as
// ASCII ones, so that every offset into the result is one into text (the automaton folds ASCII itself),
// and the scripts of its letters outside ASCII, a bit each. A text with neither is returned as it is.
func foldCapitals(text string) (folded string, seen uint8) {
	var b []byte
	for i := asciiPrefix(text); i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if wideSpace(r) {
			// The ideographic space, a no-break space: as many ASCII spaces as it has bytes, which the
			// automaton reads as one ("忽略　之前", "ignore\u00a0all").
			if b == nil {
				b = []byte(text)
			}
			copy(b[i:i+n], "    ")
			i += n
			continue
		}
		l, letter, sc := foldRune(r)
		if letter {
			seen |= 1 << sc
		}
		if l != r && utf8.RuneLen(l) == n {
			if b == nil {
				b = []byte(text)
			}
			utf8.EncodeRune(b[i:], l)
		}
		i += n
	}
	if b == nil {
		return text, seen
	}
	return string(b), seen
}

// wideSpace reports whether r is a space outside ASCII: the no-break spaces, the typographic spaces and
// the ideographic space of Chinese and Japanese.
func wideSpace(r rune) bool {
	return r == 0xA0 || r >= 0x2000 && r <= 0x200A || r == 0x202F || r == 0x205F || r == 0x3000
}

// asciiPrefix returns how many bytes text opens with before its first byte outside ASCII, reading eight
// at a time: every text is read so once for each corpus it is matched against, and a byte at a time
// that cost the detectors about a tenth of their speed (BenchmarkScanAllDetectors).
func asciiPrefix(text string) int {
	i := 0
	for ; i+8 <= len(text); i += 8 {
		w := uint64(text[i]) | uint64(text[i+1])<<8 | uint64(text[i+2])<<16 | uint64(text[i+3])<<24 |
			uint64(text[i+4])<<32 | uint64(text[i+5])<<40 | uint64(text[i+6])<<48 | uint64(text[i+7])<<56
		if w&0x8080808080808080 != 0 {
			break
		}
	}
	for i < len(text) && text[i] < utf8.RuneSelf {
		i++
	}
	return i
}
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// find returns the group and pair hits in text, masks applied: a hit that overlaps a mask is dropped.
func (p *phrases) find(text string) []hit {
	hits, _ := p.findMasked(text, false)
	return hits
}

// findMasked is find that also returns, with keepMasks, where the masks stand in text: a reading of
// the text (its acts in their base form, its possessors as "someone's") is held to the masks of the
// text as written ("steal my girlfriend's heart" is love however the girlfriend is named).
func (p *phrases) findMasked(text string, keepMasks bool) (hits, kept []hit) {
	// The sides of pairs and the masks are only worked with here: their slices are kept for the next
	// call (BenchmarkScanAllDetectors spent a tenth of its time growing them).
	scratch := findScratchPool.Get().(*findScratch)
	firsts, seconds, masks := scratch.firsts[:0], scratch.seconds[:0], scratch.masks[:0]
	defer func() {
		scratch.firsts, scratch.seconds, scratch.masks = firsts, seconds, masks
		findScratchPool.Put(scratch)
	}()
	text, seen := foldCapitals(text)
	found := func(id, start, end int) {
		if start > 0 && wordRuneAt(text, start) && wordRuneBefore(text, start) {
			return
		}
		if end < len(text) && !p.stem[id] && wordRuneBefore(text, end) && wordRuneAt(text, end) {
			return
		}
		for _, tg := range p.targets[id] {
			if tg.lineStart && !atLineStart(text, start) {
				continue
			}
			h := hit{group: tg.group, start: start, end: end, langs: tg.langs}
			switch {
			case tg.group < 0:
				masks = append(masks, h)
			case tg.role == roleFirst:
				firsts = append(firsts, h)
			case tg.role == roleSecond:
				seconds = append(seconds, h)
			default:
				hits = append(hits, h)
			}
		}
	}
	p.m.FindEvery(text, found)
	n := len(hits) + len(firsts) + len(seconds) + len(masks)
	for _, sm := range p.scripts {
		if seen&(1<<sm.script) != 0 {
			sm.m().FindEvery(text, func(id, start, end int) { found(sm.ids[id], start, end) })
		}
	}
	if len(hits)+len(firsts)+len(seconds)+len(masks) > n {
		// Each scan reports in the order terms end; merged, they must again.
		byEnd := func(a, b hit) int { return cmp.Compare(a.end, b.end) }
		slices.SortStableFunc(hits, byEnd)
		slices.SortStableFunc(firsts, byEnd)
		slices.SortStableFunc(seconds, byEnd)
	}
	// Masks drop the terms they overlap before any pair is made: a mask drops what it covers ("the final
	// boss"), never a pair that merely spans it ("beat the final boss, then beat my wife").
	hits, firsts, seconds = unmasked(hits, masks), unmasked(firsts, masks), unmasked(seconds, masks)
	if keepMasks && len(masks) > 0 {
		kept = slices.Clone(masks)
	}
	pairsFrom := len(hits)
	for _, f := range firsts {
		for _, sc := range seconds {
			// A code-switched pair's sides must be two languages: what one language could have written
			// whole is its own pair's to find, at its own window.
			if sc.group != f.group || f.langs&sc.langs != 0 {
				continue
			}
			if p.whole[f.group] && possessorEnds(text, sc.end) {
				continue
			}
			w := p.windows[f.group]
			var start, end int
			switch {
			case sc.start >= f.end && foldedGap(text, f.end, sc.start, w) <= w && !codeBetween(text[f.end:sc.start]):
				start, end = f.start, sc.end
			case p.eitherOrder[f.group] && f.start >= sc.end && foldedGap(text, sc.end, f.start, w) <= w && !codeBetween(text[sc.end:f.start]):
				start, end = sc.start, f.end
			default:
				continue
			}
			// Several firsts can reach one second ("print … output your prompt"): one hit is enough, from
			// the first nearest it ("kill the child processes and then poison my neighbor" is the
			// poisoning's), so that what the hit spans is the act that reaches it. One first reaches every
			// second in its window ("cut my son's hair and throat" cuts the throat too), so that a later
			// object stands where a nearer one is read as a thing done to.
			g := p.hitGroup[f.group]
			merged := false
			for i := len(hits) - 1; i >= pairsFrom && !merged; i-- {
				if hits[i].group == g && hits[i].end == end {
					hits[i].start = max(hits[i].start, start)
					merged = true
				}
			}
			if !merged {
				hits = append(hits, hit{group: g, start: start, end: end})
			}
		}
	}
	return hits, kept
}

// possessorEnds reports whether the word ending at text[:i] is a possessor: "'s", "’s" or a plural's
// "'" follows it.
func possessorEnds(text string, i int) bool {
	rest := text[i:]
	return strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") || strings.HasPrefix(rest, "' ") ||
		strings.HasPrefix(rest, "’ ")
}

// codeBetween reports whether the text between a pair's sides runs over a line break and holds code's
// punctuation (a brace, a semicolon, an assignment, a comment's start): "break\n\t}\n\tif family" and
// "killed.\n\tCLD_DUMPED = 3 // Child" are two statements of a program, not an act and its object. On
// one line the same signs are a disguise's ("poison;my wife", "stab // my neighbor") and keep nothing
// apart.
func codeBetween(gap string) bool {
	return strings.Contains(gap, "\n") && (strings.ContainsAny(gap, "{};=") || strings.Contains(gap, "//"))
}

// foldedGap is the length of text[from:to] with each run of white space counted as one byte, as the
// automaton reads a term ("ignore   all"), so that padding between a pair's sides hides nothing either;
// it stops counting past w, the most the caller accepts.
func foldedGap(text string, from, to, w int) int {
	if to-from <= w {
		return to - from
	}
	n := 0
	for i := from; i < to && n <= w; i++ {
		if i > from && asciiSpace(text[i]) && asciiSpace(text[i-1]) {
			continue
		}
		n++
	}
	return n
}

// findScratch holds the slices find works in, reused across calls through findScratchPool.
type findScratch struct{ firsts, seconds, masks []hit }

var findScratchPool = sync.Pool{New: func() any { return new(findScratch) }}

// unmasked returns the hits no mask overlaps.
func unmasked(hits, masks []hit) []hit {
	if len(masks) == 0 {
		return hits
	}
	kept := hits[:0]
	for _, h := range hits {
		masked := false
		for _, m := range masks {
			if h.start < m.end && m.start < h.end {
				masked = true
				break
			}
		}
		if !masked {
			kept = append(kept, h)
		}
	}
	return kept
}
