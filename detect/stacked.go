package detect

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// stacked returns the readings of text's readings (first): a disguise laid over another ("1gn0re" with a
// zero-width space in "prev\u200bious", a Cyrillic letter among styled ones, a word spelled out with a
// digit for a letter) is read by undoing one, then the other. seen holds the readings already given,
// which are not given again. A text with no disguise has no first reading and pays nothing.
func stacked(text string, first []reading, words bool, seen map[string]bool) []reading {
	var out []reading
	for _, r := range first {
		for _, again := range readOnce(r.plain, words) {
			if seen[again.plain] {
				continue
			}
			seen[again.plain] = true
			out = append(out, reading{again.plain, throughReading(r.spans, again.spans, len(text), len(again.plain))})
		}
	}
	return out
}

// stackedDepth is how many disguises laid over one another are read: four ("1gn\u200bоre", digits, a
// zero-width space and a Cyrillic letter in one word, beside an accent in the next). Each level is read
// only from the readings of the one before, so a text with one disguise pays for one more look, and one
// with none for nothing; maxReadings bounds a text that holds many.
const (
	stackedDepth = 4
	maxReadings  = 64
)

// readingsStacked returns first and the readings of readings, up to stackedDepth disguises deep.
func readingsStacked(text string, first []reading, words bool) []reading {
	if len(first) == 0 {
		return first
	}
	seen := make(map[string]bool, len(first))
	for _, r := range first {
		seen[r.plain] = true
	}
	out, level := first, first
	for depth := 2; depth <= stackedDepth && len(level) > 0 && len(out) < maxReadings; depth++ {
		level = stacked(text, level, words, seen)
		level = level[:min(len(level), maxReadings-len(out))]
		out = append(out, level...)
	}
	return out
}

// throughReading returns the spans of a reading of a reading, pointing into the original text: inner's
// spans (in the outer reading's text) mapped back through outer's, and outer's spans carried forward
// through inner's into the final reading, marked carried. Text outside a reading's spans is the same in
// the reading, shifted by what the spans before it changed.
func throughReading(outer, inner []spelledOut, textLen, plainLen int) []spelledOut {
	out := make([]spelledOut, 0, len(outer)+len(inner))
	back := merged(outer)
	for _, s := range inner {
		c := s
		c.start, c.end = mapThrough(back, s.start, false, true), mapThrough(back, s.end, true, true)
		c.start, c.end = min(max(c.start, 0), textLen), min(max(c.end, 0), textLen)
		if c.start < c.end {
			out = append(out, c)
		}
	}
	for _, o := range outer {
		c := o
		c.carried = true
		c.joinedStart, c.joinedEnd = mapThrough(inner, o.joinedStart, false, false), mapThrough(inner, o.joinedEnd, true, false)
		c.joinedStart, c.joinedEnd = min(max(c.joinedStart, 0), plainLen), min(max(c.joinedEnd, 0), plainLen)
		if c.joinedStart <= c.joinedEnd {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b spelledOut) int { return a.joinedStart - b.joinedStart })
	return out
}

// merged returns spans, sorted, with those that overlap in the reading made one: a reading of a reading
// holds its own spans and those it carried, which may overlap, where mapThrough needs them apart.
func merged(spans []spelledOut) []spelledOut {
	if !slices.ContainsFunc(spans, func(sp spelledOut) bool { return sp.carried }) {
		return spans // one reading's own spans stand apart
	}
	sorted := slices.SortedFunc(slices.Values(spans), func(a, b spelledOut) int { return a.joinedStart - b.joinedStart })
	var out []spelledOut
	for _, sp := range sorted {
		if n := len(out); n > 0 && sp.joinedStart < out[n-1].joinedEnd {
			last := &out[n-1]
			last.start, last.end = min(last.start, sp.start), max(last.end, sp.end)
			last.joinedEnd = max(last.joinedEnd, sp.joinedEnd)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// mapThrough maps a position across a reading's spans: back from the reading into its text, or forward
// from the text into the reading. A position inside a span goes to the span's start (or, for an end,
// its end); one outside moves by what the spans before it changed in length.
func mapThrough(spans []spelledOut, pos int, end, back bool) int {
	shift := 0
	for _, sp := range spans {
		from, to, fromEnd, toEnd := sp.start, sp.joinedStart, sp.end, sp.joinedEnd
		if back {
			from, to, fromEnd, toEnd = sp.joinedStart, sp.start, sp.joinedEnd, sp.end
		}
		if pos < from || end && pos == from {
			break
		}
		if pos < fromEnd || end && pos == fromEnd {
			if end {
				return toEnd
			}
			return to
		}
		shift += (toEnd - to) - (fromEnd - from)
	}
	return pos + shift
}

// unAccented returns text with each word whose letters carry accents or marks English does not write
// ("Ignóre", "prévïous", and Zalgo text's stacked marks, "i̵g̷n̴o̸r̵e̶") read without them, where what is left is a
// word of the English injection or harm phrases (englishWords), and where each such word stands; nil
// spans when none is. The language files spell their own words with their accents, so a word of a
// language that writes them ("précédentes", "muéstrame") is left to them.
func unAccented(text string) (string, []spelledOut) {
	if !mayHoldAccents(text) {
		return text, nil
	}
	words, bases := englishWords(), accentBases()
	var buf []byte
	return rewriteWords(text, letterOrMark, func(word string) (string, bool) {
		if !strings.ContainsFunc(word, accentedOrMark) {
			return "", false
		}
		buf = buf[:0]
		for _, r := range word {
			if r < utf8.RuneSelf {
				buf = append(buf, byte(r)|0x20)
			} else if c, ok := bases[r]; ok {
				buf = append(buf, c)
			} else if c, ok := latinLike(r); ok {
				buf = append(buf, c) // a look-alike among the accents ("ignоré"), which unConfuse leaves to them
			} else if !unicode.Is(unicode.Mn, r) {
				return "", false // a letter with no ASCII base: another script's word, or one like "ø"
			}
		}
		if !words[string(buf)] {
			return "", false
		}
		return string(buf), true
	})
}

// mayHoldAccents reports whether text may hold a Latin letter with an accent or a combining mark, from
// the first bytes of their UTF-8 (U+00C0–U+024F and U+0300–U+036F; Cyrillic's marks; U+1AB0–U+1AFF and
// U+1DC0–U+1EFF; U+20D0–U+20FF; U+FE20–U+FE2F), so that text in other scripts, curly quotes and all, is
// passed over without decoding.
func mayHoldAccents(text string) bool {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c >= 0xC3 && c <= 0xCD || c == 0xD2:
			return true
		case i+1 < len(text) && (c == 0xE1 && (text[i+1] == 0xAA || text[i+1] == 0xAB || text[i+1] >= 0xB7 && text[i+1] <= 0xBB) ||
			c == 0xE2 && text[i+1] == 0x83 || c == 0xEF && text[i+1] == 0xB8):
			return true
		}
	}
	return false
}

// accentBases maps each Latin letter with an accent to its letter without (NFD's first character), for
// the blocks accentedOrMark names.
var accentBases = sync.OnceValue(func() map[rune]byte {
	out := map[rune]byte{}
	for _, block := range [][2]rune{{0xC0, 0x24F}, {0x1E00, 0x1EFF}} {
		for r := block[0]; r <= block[1]; r++ {
			if d := norm.NFD.String(string(r)); len(d) > 1 && isASCIILetter(d[0]) {
				out[r] = d[0] | 0x20
			}
		}
	}
	return out
})

// letterOrMark reports whether r stands in a word: a letter, or a mark set on one.
func letterOrMark(r rune) bool {
	if r < 0x300 {
		return unicode.IsLetter(r) // no mark comes before U+0300
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r)
}

// accentedOrMark reports whether r is a Latin letter with an accent (the Latin-1, Extended-A and -B and
// Extended Additional blocks) or a mark set on a letter: what unAccented takes off.
func accentedOrMark(r rune) bool {
	return r >= 0xC0 && r <= 0x24F || r >= 0x1E00 && r <= 0x1EFF || r >= 0x300 && unicode.Is(unicode.Mn, r)
}

// englishWords are the words of the English injection and harm phrases (injection.yaml, harm.yaml,
// without their language files), read from the templates' own words.
var englishWords = sync.OnceValue(func() map[string]bool {
	words := map[string]bool{}
	add := func(templates []string) {
		for _, t := range templates {
			for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r < 'a' || r > 'z' }) {
				if len(w) >= 2 {
					words[w] = true
				}
			}
		}
	}
	var inj phraseCorpus
	loadCorpus("injection.yaml", &inj)
	for _, c := range []phraseCorpus{inj, harmCorpus()} {
		for _, g := range append(c.Groups, c.ThirdPartyGroups...) {
			add(g.Phrases)
		}
		for _, p := range append(c.Pairs, c.ThirdPartyPairs...) {
			add(p.First)
			add(p.Second)
		}
	}
	return words
})
