package detect

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

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
		// An identifier in camel case ("IgnoreAllPrevíous") is read a part at a time: each part that
		// carries an accent must be a word.
		partStart, accented, lower, parts := 0, false, false, true
		endPart := func() {
			parts = parts && (!accented || words[string(buf[partStart:])])
			partStart, accented = len(buf), false
		}
		for _, r := range word {
			if unicode.IsUpper(r) && lower {
				endPart()
			}
			if unicode.IsLetter(r) {
				lower = unicode.IsLower(r) // a mark stacked on a letter leaves its case
			}
			if r < utf8.RuneSelf {
				buf = append(buf, byte(r)|0x20)
				continue
			}
			accented = true
			if c, ok := bases[r]; ok {
				buf = append(buf, c)
			} else if c, ok := latinLike(r); ok {
				buf = append(buf, c) // a look-alike among the accents ("ignоré"), which unConfuse leaves to them
			} else if !unicode.Is(unicode.Mn, r) {
				return "", false // a letter with no ASCII base: another script's word, or one like "ø"
			}
		}
		if words[string(buf)] {
			return string(buf), true
		}
		if partStart == 0 {
			return "", false // one part, not a word
		}
		endPart()
		if !parts {
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
	for _, c := range []phraseCorpus{injectionCorpus(), harmCorpus()} {
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
