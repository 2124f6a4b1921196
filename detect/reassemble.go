package detect

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// A disguise that keeps a phrase's letters in order can still change what lies between them, so that
// the phrase's words are no longer words: one broken by a sign or a space ("ig-nore", "ign ore",
// "instruc.tions"), words joined by signs ("ignore_all_previous", "ignore/all"), run together or written
// in camel case ("ignoreallpreviousinstructions", "IgnoreAllPreviousInstructions"), or set apart by
// markup or as one-word sentences ("Ignore *all* `previous`", "Ignore. All. Previous."). reassembled
// reads such text with the words put back, using the words the phrases are made of: what is put back
// is always a word some injection or harm phrase uses, so ordinary text is left as it is.

// disguiseVocabulary is the words of the injection and harm phrases, which reassembled reads words back
// as.
var disguiseVocabulary = sync.OnceValue(func() *vocabulary {
	v := &vocabulary{words: map[string]bool{}, keys: map[string]bool{}}
	english := englishWords()
	for _, p := range []*phrases{injectionPhrases(), harmPhrases()} {
		for w := range p.words {
			// Another language's short words ("er", "je", "og") are English code's syllables: "senderKey"
			// would read as "send er key". Its longer words are read back, as English ones are.
			if len(w) < 4 && !english[w] {
				continue
			}
			v.words[w] = true
			addShape(&v.shapes, w)
		}
	}
	groups, pairs := injectionCorpus().injectionBase()
	for _, g := range groups {
		if g.Severity == Critical {
			v.addKeys(g.Phrases...)
		}
	}
	for _, p := range pairs {
		if p.Severity == Critical {
			v.addKeys(p.First...)
			v.addKeys(p.Second...)
		}
	}
	v.sorted = slices.Sorted(maps.Keys(v.words))
	for w := range v.words {
		v.backwards = append(v.backwards, reversedASCII(w))
	}
	slices.Sort(v.backwards)
	v.overrideKeys = maps.Clone(v.keys) // before harm's words join them
	harm := harmCorpus()
	for _, g := range harm.Groups {
		if g.Weight >= 0.7 {
			v.addKeys(g.Phrases...)
		}
	}
	for _, p := range harm.Pairs {
		if p.Weight >= 0.7 {
			v.addKeys(p.First...)
			v.addKeys(p.Second...)
		}
	}
	return v
})

// shaped reports whether some word of shapes has the shape of the runs' letters put together.
func shaped(shapes *[26][26]uint64, text string, runs ...[2]int) bool {
	n := 0
	for _, r := range runs {
		n += r[1] - r[0]
	}
	return hasShape(shapes, text[runs[0][0]], text[runs[len(runs)-1][1]-1], n)
}

// hasShape reports whether some word of shapes starts with first, ends with last (either case) and has
// n letters.
func hasShape(shapes *[26][26]uint64, first, last byte, n int) bool {
	return n < 64 && shapes[first|0x20-'a'][last|0x20-'a']&(1<<n) != 0
}

// mayChange reports whether reassembled could change anything in text, judged run by run of letters as
// it reads them, before any piece is built: most texts hold no disguise and are passed over at the cost
// of a look at each separator (a word's shape settles nearly every one without a lookup), where building
// the pieces costs several times that. It must say true wherever reassembled would change something
// (FuzzMayChangeMissesNothing); it may say true where it would not.
func (v *vocabulary) mayChange(buf []byte, text string) ([]byte, bool) {
	// Each run r is looked at when it is read, with the two before it: pp and p (have says how many).
	var pp, p [2]int
	have := 0
	var prevBroken, prevSpaced, prevStarts bool // what separates pp and p; whether a key starts as they do
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		start, camel := i, false
		for i++; i < len(text) && isASCIILetter(text[i]); i++ {
			camel = camel || text[i] < 'a' && text[i-1] >= 'a'
		}
		r := [2]int{start, i}
		n := r[1] - r[0]
		if n >= minRunTogether {
			var known bool
			if buf, known = lookup(buf, v.words, text, r); !known && segmentRun(buf, v.words) != nil {
				return buf, true
			}
		}
		if camel {
			var split bool
			if buf, split = v.camelSplits(buf, text, r); split {
				return buf, true
			}
		}
		var broken, spaced, starts bool // what separates p and r; whether a key starts as p and r do
		if have > 0 {
			starts = v.startsKey(text, p, r)
			if r[0]-p[1] == 1 && text[p[1]] == ' ' {
				broken, spaced = true, true
			} else if broken = brokenBetween(text, p, r); broken {
				spaced = asciiSpace(text[p[1]]) || r[0]-p[1] == 2 && asciiSpace(text[p[1]+1])
			}
			var changed bool
			if buf, changed = v.pairMayChange(buf, text, pp, p, r, have > 1 && prevBroken, prevSpaced, prevStarts, broken, spaced, starts); changed {
				return buf, true
			}
		}
		pp, p, have = p, r, min(have+1, 2)
		prevBroken, prevSpaced, prevStarts = broken, spaced, starts
	}
	return buf, false
}

// pairMayChange is mayChange's look at the run r after p (and pp before p): whether they hold a broken
// word (p and r, or pp, p and r: brokenPP and broken say the separators could break one, spacedPP and
// spaced that they hold a space, startsPP and starts that a key starts as pp and p, or p and r, do) or a
// link between p and r.
func (v *vocabulary) pairMayChange(buf []byte, text string, pp, p, r [2]int, brokenPP, spacedPP, startsPP, broken, spaced, starts bool) ([]byte, bool) {
	m, n := p[1]-p[0], r[1]-r[0]
	oneSpace := r[0]-p[1] == 1 && text[p[1]] == ' '
	var found bool
	if broken {
		shapes, words := &v.shapes, v.words
		if spaced {
			shapes, words = &v.keyShapes, v.keys
		}
		if (!spaced || starts) && (m+n >= minJoined || m == 2 && n == 2) && hasShape(shapes, text[p[0]], text[r[1]-1], m+n) {
			if buf, found = lookup(buf, words, text, p, r); found {
				return buf, true
			}
		}
		if brokenPP {
			if spaced || spacedPP {
				shapes, words = &v.keyShapes, v.keys
			}
			// A key must start as pp and p do; any word of the phrases where no space breaks them.
			if (!spaced && !spacedPP || startsPP) && hasShape(shapes, text[pp[0]], text[r[1]-1], pp[1]-pp[0]+m+n) {
				if buf, found = lookup(buf, words, text, pp, p, r); found {
					return buf, true
				}
			}
		}
	}
	if oneSpace || m < minKeyWord && n < minKeyWord {
		return buf, false
	}
	sep := text[p[1]:r[0]]
	// A link: a separator that can link two words, and both words of the vocabulary.
	if !strings.ContainsAny(sep, "\n\r0123456789") && (!strings.ContainsAny(sep, " \t") || strings.ContainsAny(sep, wrapMarkRunes) ||
		strings.ContainsAny(sep, ".,;:!?") && (pp == [2]int{} || strings.ContainsAny(text[pp[1]:p[0]], ".,;:!?"))) {
		var a, b bool
		if buf, a = lookup(buf, v.words, text, p); a {
			if buf, b = lookup(buf, v.words, text, r); b {
				return buf, true
			}
		}
	}
	return buf, false
}

// startsKey reports whether some key starts with the first two letters of the runs put together.
func (v *vocabulary) startsKey(text string, p, r [2]int) bool {
	second := text[r[0]]
	if p[1]-p[0] >= 2 {
		second = text[p[0]+1]
	}
	return v.keyStarts[text[p[0]]|0x20-'a'][second|0x20-'a']
}

// camelSplits reports whether a run in camel case reads as words of the phrases, one of them telling,
// which is when appendCamelParts splits it.
func (v *vocabulary) camelSplits(buf []byte, text string, r [2]int) ([]byte, bool) {
	from, parts, key := r[0], 0, false
	for k := r[0] + 1; k <= r[1]; k++ {
		if k < r[1] && !camelStart(text, k) {
			continue
		}
		if parts == 0 && k == r[1] {
			return buf, false // no camel case
		}
		var ok bool
		if buf, ok = lookup(buf, v.words, text, [2]int{from, k}); !ok {
			return buf, false
		}
		key = key || k-from >= minKeyWord
		from, parts = k, parts+1
	}
	return buf, parts >= 2 && key
}

// lookup reports whether the runs' letters, lower-cased and put together, are one of words.
func lookup(buf []byte, words map[string]bool, text string, runs ...[2]int) ([]byte, bool) {
	buf = lowerLetters(buf, text, runs...)
	return buf, words[string(buf)]
}

// lowerLetters writes the runs' letters, lower-cased and put together, into buf.
func lowerLetters(buf []byte, text string, runs ...[2]int) []byte {
	buf = buf[:0]
	for _, r := range runs {
		for k := r[0]; k < r[1]; k++ {
			buf = append(buf, text[k]|0x20)
		}
	}
	return buf
}

// addKeys adds the words of four letters or more the templates are made of (every choice's words, so
// without expanding them).
func (v *vocabulary) addKeys(templates ...string) {
	for _, t := range templates {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) >= 4 {
				v.keys[w] = true
				addShape(&v.keyShapes, w)
				if isASCIILetter(w[0]) && isASCIILetter(w[1]) {
					v.keyStarts[w[0]-'a'][w[1]-'a'] = true
				}
			}
		}
	}
}

func addShape(shapes *[26][26]uint64, w string) {
	if n := len(w); n < 64 && isASCIILetter(w[0]) && isASCIILetter(w[n-1]) {
		shapes[w[0]-'a'][w[n-1]-'a'] |= 1 << n
	}
}

// hasKey is has for the keys.
func (v *vocabulary) hasKey(buf []byte, text string, runs ...[2]int) ([]byte, bool) {
	return member(buf, &v.keyShapes, v.keys, text, runs...)
}

// vocabulary is a set of lower-case words, with their shapes (first letter, last letter, length): most
// letters a text puts side by side have a shape no word has, and are settled without a lookup.
type vocabulary struct {
	words  map[string]bool
	shapes [26][26]uint64
	// keys are the words of the critical injection phrases (an override, a jailbreak, a bypass of
	// safety, an exfiltration) and of the harm phrases' acts: the words a disguise breaks with a space
	// ("ign ore", "prev ious"). Two words of prose side by side are tried against them, so that the
	// set must be small for the shapes to settle nearly every pair.
	keys      map[string]bool
	keyShapes [26][26]uint64
	// overrideKeys are the keys from the critical injection phrases alone: only they are put back from
	// two words of the phrases a space parts ("by pass", "over ride"), where harm's keys would join
	// ordinary words ("some one").
	overrideKeys map[string]bool
	// keyStarts says some key starts with the two letters: with keyShapes it settles two words of
	// prose side by side without a lookup.
	keyStarts [26][26]bool
	// sorted are the words in order, and backwards the words each written backwards, in order: what a
	// piece of a broken word can be the start or the end of.
	sorted, backwards []string
}

// startsWord reports whether some word starts with piece.
func (v *vocabulary) startsWord(piece string) bool {
	i, _ := slices.BinarySearch(v.sorted, piece)
	return i < len(v.sorted) && strings.HasPrefix(v.sorted[i], piece)
}

// endsWord reports whether some word ends with piece written backwards.
func (v *vocabulary) endsWord(backwardPiece string) bool {
	i, _ := slices.BinarySearch(v.backwards, backwardPiece)
	return i < len(v.backwards) && strings.HasPrefix(v.backwards[i], backwardPiece)
}

// has reports whether the letters of text in the runs, lower-cased and put together, are a word. buf is
// scratch space, returned for reuse.
func (v *vocabulary) has(buf []byte, text string, runs ...[2]int) ([]byte, bool) {
	return member(buf, &v.shapes, v.words, text, runs...)
}

// member reports whether the runs' letters put together are one of words, asking the map only when
// their shape is one of shapes.
func member(buf []byte, shapes *[26][26]uint64, words map[string]bool, text string, runs ...[2]int) ([]byte, bool) {
	if !shaped(shapes, text, runs...) {
		return buf, false
	}
	return lookup(buf, words, text, runs...)
}

const (
	// minRunTogether is the shortest run of letters read as words run together: shorter runs are
	// ordinary words far more often than disguises, and each costs a segmentation.
	minRunTogether = 12
	// minKeyWord is the length from which a vocabulary word is telling enough to read a sign or markup
	// beside it as a disguise ("ignore_all", "*previous*"), where "a-b" and "*the*" are ordinary.
	minKeyWord = 5
	// minJoined is the shortest word a broken one is read back as, but for a word of four broken in two
	// halves ("bo mb", "ki ll"): the parts of shorter words break on ordinary word boundaries ("of the").
	minJoined = 6
)

// reassembleScratch is the slices one call of reassembled works in, kept between calls: every text a
// detector reads passes through it.
type reassembleScratch struct {
	runs   [][2]int
	pieces []reassembledPiece
	buf    []byte
}

var reassembleScratchPool = sync.Pool{New: func() any { return new(reassembleScratch) }}

// reassembledPiece is a word of the reading: a run of letters of the text, several runs joined back
// into one word, or one run read as several words.
type reassembledPiece struct {
	start, end int      // the letters' place in the text
	words      []string // when the piece is read differently from its letters: the words it reads as
	// linked says the separator before this piece (from the previous one) was a disguise; weakly when
	// code writes such separators too (signs with no space, camel case), so that only a phrase the
	// linked pieces hold whole counts ("ignore_all_previous_instructions", not "POST /v1/{id}/credentials").
	linked, weak bool
	// joined says the piece is a broken word put back ("ig-nore"), which ordinary text does not hold;
	// a run read as several words (segmentRun) is not: identifiers in code run words together too.
	joined bool
}

// reassembled returns text with its disguised words put back (see above), and where each place that
// changed stands; nil spans when none does.
func reassembled(text string) (string, []spelledOut) {
	vocab := disguiseVocabulary()
	sc := reassembleScratchPool.Get().(*reassembleScratch)
	defer reassembleScratchPool.Put(sc)
	var may bool
	if sc.buf, may = vocab.mayChange(sc.buf, text); !may {
		return text, nil
	}
	plain, spans := reassemble(text, vocab, sc)
	if !slices.ContainsFunc(spans, func(sp spelledOut) bool { return criticalWithin(plain, sp) }) {
		return text, nil
	}
	return plain, spans
}

// criticalWithin reports whether a span of a reading can hold a hit that counts: any hit, unless only a
// critical phrase of the injection or harm corpus read within it counts (a tight span: an identifier of
// code read as words, "FindTable", "need_unlock", where only "IgnoreAllPreviousInstructions" is one).
// A reading whose spans can hold none would be read, and read again for disguises over it, for
// nothing: a disguise inside such an identifier is undone first, and the identifier read after it.
func criticalWithin(plain string, sp spelledOut) bool {
	if !sp.whole || !sp.criticalOnly {
		return true
	}
	within := plain[sp.joinedStart:sp.joinedEnd]
	for _, p := range []*phrases{injectionPhrases(), harmPhrases()} {
		if slices.ContainsFunc(p.find(within), func(h hit) bool { return p.groups[h.group].Severity == Critical }) {
			return true
		}
	}
	return false
}

// reassemble is reassembled without mayChange's first look.
func reassemble(text string, vocab *vocabulary, sc *reassembleScratch) (string, []spelledOut) {
	scratch := sc.buf[:0]
	defer func() { sc.buf = scratch }()
	runs := sc.runs[:0] // runs of ASCII letters, split where camel case starts a word
	defer func() { sc.runs = runs[:0] }()
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j, camel := i+1, false
		for j < len(text) && isASCIILetter(text[j]) {
			camel = camel || text[j] < 'a' && text[j-1] >= 'a'
			j++
		}
		if camel {
			runs, scratch = appendCamelParts(runs, scratch, text, [2]int{i, j}, vocab)
		} else {
			runs = append(runs, [2]int{i, j})
		}
		i = j
	}
	lower := func(parts ...[2]int) string {
		scratch = lowerLetters(scratch, text, parts...)
		return string(scratch)
	}
	inVocab := func(parts ...[2]int) bool {
		var ok bool
		scratch, ok = vocab.has(scratch, text, parts...)
		return ok
	}
	// spacedApart reports whether white space stands between some of the parts.
	spacedApart := func(parts ...[2]int) bool {
		for k := 1; k < len(parts); k++ {
			if strings.ContainsAny(text[parts[k-1][1]:parts[k][0]], " \t\n\r") {
				return true
			}
		}
		return false
	}
	// known reports whether runs broken apart make a word: a key when a space breaks them, which prose
	// puts between any two words; any word of the phrases when only signs do ("ig-nore", "instruc.tions").
	// A key of the critical injection phrases is put back even from two words of the phrases ("by pass",
	// "over ride", "dis_regard"); other words only from parts that are not words themselves ("some one"
	// stays).
	known := func(parts ...[2]int) bool {
		var ok bool
		spaced := spacedApart(parts...)
		if spaced {
			scratch, ok = vocab.hasKey(scratch, text, parts...)
		} else {
			scratch, ok = vocab.has(scratch, text, parts...)
		}
		if !ok {
			return false
		}
		if vocab.overrideKeys[string(scratch)] {
			return true
		}
		for _, r := range parts {
			if !inVocab(r) {
				return true
			}
		}
		return false
	}
	changed := false
	pieces := sc.pieces[:0]
	defer func() { clear(pieces); sc.pieces = pieces[:0] }()
	for i := 0; i < len(runs); i++ {
		r := runs[i]
		// A word broken in two or three: the whole is a word of the phrases, its parts not all words.
		if i+1 < len(runs) && brokenBetween(text, runs[i], runs[i+1]) {
			n := 0
			if r2 := runs[i+1]; joinable(r, r2) && known(r, r2) {
				n = 2
			} else if i+2 < len(runs) && runs[i+2][1]-runs[i+2][0]+runs[i+1][1]-runs[i+1][0]+r[1]-r[0] >= minJoined &&
				brokenBetween(text, runs[i+1], runs[i+2]) && known(r, runs[i+1], runs[i+2]) {
				n = 3
			}
			if n > 0 {
				parts := runs[i : i+n]
				pieces = append(pieces, reassembledPiece{start: r[0], end: parts[n-1][1], words: []string{lower(parts...)}, joined: true})
				changed = true
				i += n - 1
				continue
			}
		}
		p := reassembledPiece{start: r[0], end: r[1]}
		if r[1]-r[0] >= minRunTogether && !inVocab(r) {
			scratch = lowerLetters(scratch, text, r)
			if words := segmentRun(scratch, vocab.words); words != nil {
				p.words, changed = words, true
			}
		}
		pieces = append(pieces, p)
	}
	// Separators that set words apart as a disguise does: read as a space.
	for i := 1; i < len(pieces); i++ {
		prev, cur := pieces[i-1], pieces[i]
		if text[prev.end:cur.start] == " " {
			continue
		}
		link := disguisingSeparator(text, pieces, i)
		if link == noLink {
			continue
		}
		if prev.words != nil && !prev.joined || cur.words != nil && !cur.joined {
			link = weakLink // a run read as words is code's as often as a disguise's
		}
		var aWord, bWord bool
		var aLen, bLen int
		scratch, aWord, aLen = vocab.pieceWord(scratch, text, prev)
		scratch, bWord, bLen = vocab.pieceWord(scratch, text, cur)
		if aWord && bWord && (aLen >= minKeyWord || bLen >= minKeyWord) {
			pieces[i].linked, pieces[i].weak, changed = true, link == weakLink, true
		}
	}
	if !changed {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	var spans []spelledOut
	b.WriteString(text[:pieces[0].start])
	for i, p := range pieces {
		if i > 0 {
			if p.linked {
				b.WriteByte(' ')
			} else {
				b.WriteString(text[pieces[i-1].end:p.start])
			}
		}
		at := b.Len()
		if p.words != nil {
			b.WriteString(strings.Join(p.words, " "))
		} else {
			b.WriteString(text[p.start:p.end])
		}
		if p.words == nil && !p.linked && (i+1 == len(pieces) || !pieces[i+1].linked) {
			continue
		}
		// A changed piece, or one a disguising separator links to the next or the previous: one span
		// with the pieces it is linked to. A span made only of what code writes too (weak links, runs
		// read as words) is a tight one: a hit must lie within it, and be of a critical group.
		tight := !p.joined && (!p.linked || p.weak)
		if n := len(spans); n > 0 && p.linked {
			spans[n-1].end, spans[n-1].joinedEnd = p.end, b.Len()
			spans[n-1].whole = spans[n-1].whole && tight
			spans[n-1].criticalOnly = spans[n-1].criticalOnly && tight
		} else {
			spans = append(spans, spelledOut{start: p.start, end: p.end, joinedStart: at, joinedEnd: b.Len(), whole: tight, criticalOnly: tight})
		}
	}
	b.WriteString(text[pieces[len(pieces)-1].end:])
	return b.String(), spans
}

// appendCamelParts appends the run r, split where camel case starts a word ("IgnoreAllPrevious") when
// camelSplits says to: identifiers in code ("getUserName") are camel case too, and stay whole unless they
// spell a phrase's words.
func appendCamelParts(runs [][2]int, buf []byte, text string, r [2]int, vocab *vocabulary) ([][2]int, []byte) {
	buf, split := vocab.camelSplits(buf, text, r)
	if !split {
		return append(runs, r), buf
	}
	from := r[0]
	for k := r[0] + 1; k < r[1]; k++ {
		if camelStart(text, k) {
			runs = append(runs, [2]int{from, k})
			from = k
		}
	}
	return append(runs, [2]int{from, r[1]}), buf
}

// camelStart reports whether camel case starts a word at text[k]: a capital after a small letter.
func camelStart(text string, k int) bool {
	return text[k-1] >= 'a' && text[k-1] <= 'z' && text[k] >= 'A' && text[k] <= 'Z'
}

// joinable reports whether two runs are long enough to be one word broken in two: minJoined letters,
// or two halves of two letters.
func joinable(a, b [2]int) bool {
	m, n := a[1]-a[0], b[1]-b[0]
	return m+n >= minJoined || m == 2 && n == 2
}

// breaksWord marks the signs that can stand inside a broken word, white space among them: a word broken
// by a line break or a tab ("Ign\nore") is as broken as by a space. An apostrophe is not one: it ends a
// contraction or a possessive ("output's").
var breaksWord = [256]bool{' ': true, '\n': true, '\r': true, '\t': true, '-': true, '.': true, '_': true, '*': true,
	'`': true, '~': true, '|': true, '/': true, '\\': true, '+': true, ':': true}

// brokenBetween reports whether the separator between two runs could break one word: one or two signs or
// white space (a line's end, "\r\n", counts as one).
func brokenBetween(text string, a, b [2]int) bool {
	sep := text[a[1]:b[0]]
	if len(sep) == 0 || len(sep) > 2 || !breaksWord[sep[0]] || len(sep) == 2 && !breaksWord[sep[1]] {
		return false
	}
	// A hyphen after or before one letter spells a word so ("e-mail", "x-ray", "t-shirt").
	return !(strings.IndexByte(sep, '-') >= 0 && (a[1]-a[0] == 1 || b[1]-b[0] == 1))
}

// How a separator links the words beside it.
const (
	noLink = iota
	weakLink
	strongLink
)

// disguisingSeparator says how the separator before pieces[i] sets its words apart as a disguise does:
// weakly with signs and no space ("ignore_all", "ignore/all", camel case), which code writes too;
// strongly as markup wrapped around a word ("*all*", "`previous`") or as sentence punctuation
// after a word that is a sentence of its own ("Ignore. All.", "Disregard, all,"), which prose does not.
func disguisingSeparator(text string, pieces []reassembledPiece, i int) int {
	sep := text[pieces[i-1].end:pieces[i].start]
	if strings.ContainsAny(sep, "\n\r0123456789") {
		return noLink // digits for letters are unLeet's to read
	}
	if !strings.ContainsAny(sep, " \t") {
		return weakLink
	}
	// One word in emphasis is a disguise's mark; one in quotes or brackets is prose's ("he said
	// \"previous\""), but not two side by side: such a run links to the words beside it too.
	if wrapped(text, pieces, i-1, emphasisMarks) || wrapped(text, pieces, i, emphasisMarks) ||
		wrappedInRun(text, pieces, i-1) || wrappedInRun(text, pieces, i) {
		return strongLink
	}
	if !strings.ContainsAny(sep, ".,;:!?") {
		return noLink
	}
	// Both words stand alone between punctuation (or the text's ends): a run of one-word sentences,
	// where "Instead, the" is one word set apart and an ordinary sentence.
	if aloneBetweenPunctuation(text, pieces, i-1) && aloneBetweenPunctuation(text, pieces, i) {
		return strongLink
	}
	return noLink
}

// aloneBetweenPunctuation reports whether sentence punctuation (or the text's start or end) stands on
// both sides of pieces[i].
func aloneBetweenPunctuation(text string, pieces []reassembledPiece, i int) bool {
	before, after := text[:pieces[i].start], text[pieces[i].end:]
	if i > 0 {
		before = text[pieces[i-1].end:pieces[i].start]
	}
	if i+1 < len(pieces) {
		after = text[pieces[i].end:pieces[i+1].start]
	}
	// Sentence punctuation and a space, nothing else: code's separators hold quotes, brackets and
	// signs, or no space ("test.start, test").
	punct := func(s string, edge bool) bool {
		if edge && strings.Trim(s, ".,;:!? \t") == "" {
			return true
		}
		return strings.ContainsAny(s, ".,;:!?") && strings.ContainsAny(s, " \t") && strings.Trim(s, ".,;:!? \t") == ""
	}
	return punct(before, i == 0) && punct(after, i+1 == len(pieces))
}

// wrapped reports whether one of the first marks of wrapMarks wraps pieces[i] as a word of its own:
// markdown's emphasis and code marks ("*all*", "**all**", "`all`", "_all_", "~all~"), quotes ("\"all\"",
// "'all'", "“all”", "‘all’", "«all»", "「all」") or brackets ("(all)", "[all]", "{all}"), the closing mark
// just after it, with a space or the text's edge beyond each. Code wraps its strings and arguments in
// quotes and brackets too, but never beside a space on both sides: `f("all")`, `x["all"]`.
func wrapped(text string, pieces []reassembledPiece, i, marks int) bool {
	p := pieces[i]
	open, n := utf8.DecodeLastRuneInString(text[:p.start])
	closing, m := utf8.DecodeRuneInString(text[p.end:])
	if n == 0 || m == 0 {
		return false
	}
	k := slices.IndexFunc(wrapMarks[:marks], func(w [2]rune) bool { return w[0] == open && w[1] == closing })
	if k < 0 {
		return false
	}
	outside := func(r rune, size int, mark rune) bool { return size == 0 || r == ' ' || r == mark }
	before, bn := utf8.DecodeLastRuneInString(text[:p.start-n])
	after, an := utf8.DecodeRuneInString(text[p.end+m:])
	return outside(before, bn, open) && outside(after, an, closing)
}

// wrappedInRun reports whether quotes or brackets wrap pieces[i] and a piece beside it, each on its own.
func wrappedInRun(text string, pieces []reassembledPiece, i int) bool {
	all := len(wrapMarks)
	return wrapped(text, pieces, i, all) &&
		(i > 0 && wrapped(text, pieces, i-1, all) || i+1 < len(pieces) && wrapped(text, pieces, i+1, all))
}

// wrapMarks are the marks that wrap a word set apart, each opening with its closing: the first
// emphasisMarks are markdown's, the rest quotes (straight, curly, guillemets, corner brackets) and
// brackets. wrapMarkRunes are all of them, for a look at a separator.
var wrapMarks = [...][2]rune{{'*', '*'}, {'`', '`'}, {'_', '_'}, {'~', '~'},
	{'"', '"'}, {'\'', '\''}, {'“', '”'}, {'‘', '’'}, {'«', '»'}, {'「', '」'}, {'『', '』'}, {'(', ')'}, {'[', ']'}, {'{', '}'}}

const emphasisMarks = 4

var wrapMarkRunes = func() string {
	var b strings.Builder
	for _, m := range wrapMarks {
		b.WriteRune(m[0])
		b.WriteRune(m[1])
	}
	return b.String()
}()

// pieceWord reports whether the word a piece reads as (its last, when it reads as several) is a word of
// the vocabulary, and its length.
func (v *vocabulary) pieceWord(buf []byte, text string, p reassembledPiece) ([]byte, bool, int) {
	if p.words != nil {
		w := p.words[len(p.words)-1]
		return buf, v.words[w], len(w)
	}
	buf, ok := v.has(buf, text, [2]int{p.start, p.end})
	return buf, ok, p.end - p.start
}

// segmentRun reads a run of lower-case letters as words of the vocabulary run together, in as few words
// as it can be: nil unless it reads as two words or more and one of them is telling.
func segmentRun(run []byte, vocab map[string]bool) []string {
	if len(run) > 64 {
		return nil // not a phrase's few words
	}
	// fewest[i] is the fewest words run[:i] reads as (0 for none), from[i] where its last word starts.
	var fewest, from [65]int
	for i := 2; i <= len(run); i++ {
		for j := 0; j <= i-2; j++ {
			if (j == 0 || fewest[j] > 0) && (fewest[i] == 0 || fewest[j]+1 < fewest[i]) && vocab[string(run[j:i])] {
				fewest[i], from[i] = fewest[j]+1, j
			}
		}
	}
	if fewest[len(run)] < 2 {
		return nil
	}
	words := make([]string, fewest[len(run)])
	key := false
	for i, k := len(run), len(words)-1; i > 0; i, k = from[i], k-1 {
		words[k] = string(run[from[i]:i])
		key = key || len(words[k]) >= minKeyWord
	}
	if !key {
		return nil
	}
	return words
}

// reversedASCII returns s, a word of ASCII letters, written backwards.
func reversedASCII(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}
