package detect

import (
	"slices"
	"strings"
	"sync"
)

// A word whose inner letters are shuffled, its first and last kept ("ignroe all prevoius insturctions"),
// still reads as the word to a model and to people: the typoglycemia attack that OWASP's prompt
// injection cheat sheet names. unscrambled reads such words back as the words they shuffle, only the
// key words (those of the critical injection categories and of the gravest harms, six letters or more),
// only where the word is not one of the phrases' own words as written, and only in a text with two such
// words or more.

// scrambles maps a key word's signature (first letter, last letter, inner letters sorted) to the word;
// a signature two keys share maps to "", which reads nothing back. shapes are the keys' shapes, which
// settle most words before a signature is made.
type scrambles struct {
	index  map[string]string
	shapes [26][26]uint64
}

// minScrambled is the shortest key word read back from a shuffle: shorter ones shuffle into more
// English words ("there" and "three"), and every word of a text with a key's shape costs a lookup.
const minScrambled = 6

var scrambleIndex = sync.OnceValue(func() *scrambles {
	out := &scrambles{index: map[string]string{}}
	var buf [64]byte
	for w := range disguiseVocabulary().keys {
		if len(w) < minScrambled || len(w) > len(buf) {
			continue
		}
		addShape(&out.shapes, w)
		sig := string(signature(buf[:0], w))
		if prev, ok := out.index[sig]; ok && prev != w {
			out.index[sig] = ""
		} else {
			out.index[sig] = w
		}
	}
	return out
})

// signature appends to buf word's first and last letters, lower-cased, then its inner letters sorted.
func signature(buf []byte, word string) []byte {
	n := len(word)
	buf = append(buf, word[0]|0x20, word[n-1]|0x20)
	start := len(buf)
	for i := 1; i < n-1; i++ {
		c := word[i] | 0x20
		j := len(buf)
		buf = append(buf, c)
		for ; j > start && buf[j-1] > c; j-- { // insertion sort: a word's few letters
			buf[j] = buf[j-1]
		}
		buf[j] = c
	}
	return buf
}

// unscrambledWord returns the key word that word (ASCII letters) shuffles, or "".
func unscrambledWord(v *vocabulary, sc *scrambles, word string) string {
	n := len(word)
	if n < minScrambled || n > 63 || !hasShape(&sc.shapes, word[0], word[n-1], n) {
		return ""
	}
	var buf [64]byte
	key := sc.index[string(signature(buf[:0], word))]
	if key == "" || strings.EqualFold(key, word) {
		return ""
	}
	if _, own := v.has(nil, word, [2]int{0, n}); own {
		return "" // a word of the phrases as written ("slat" is not "salt" misspelled)
	}
	return key
}

// reversals maps each word an override hangs on (injection.yaml, key slips: "ignore", "previous",
// "instructions", "prompt") written backwards to the word, with the shapes of the reversals. Those few
// words only: every word of a text with a reversal's shape costs a lookup.
type reversals struct {
	index  map[string]string
	shapes [26][26]uint64
}

var reversalIndex = sync.OnceValue(func() *reversals {
	out := &reversals{index: map[string]string{}}
	english := englishWords()
	for _, w := range injectionCorpus().Slips {
		if !isASCIIWord(w) {
			continue // misspelledWord's index refuses it at load
		}
		r := []byte(w)
		slices.Reverse(r)
		// A palindrome reads as itself; a reversal that is a word of the phrases is that word.
		if rw := string(r); rw != w && !english[rw] {
			out.index[rw] = w
			addShape(&out.shapes, rw)
		}
	}
	return out
})

// isASCIIWord reports whether w is lower-case ASCII letters only.
func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// reversedWord returns the key word that word (ASCII letters) writes backwards, or "".
func reversedWord(v *vocabulary, rv *reversals, word string) string {
	n := len(word)
	if n > 63 || !hasShape(&rv.shapes, word[0], word[n-1], n) {
		return ""
	}
	var buf [64]byte
	key := rv.index[string(lowerLetters(buf[:0], word, [2]int{0, n}))]
	if key == "" {
		return ""
	}
	if _, own := v.has(nil, word, [2]int{0, n}); own {
		return ""
	}
	return key
}

// unscrambled returns text with each shuffled key word read as the word, each key word written
// backwards ("erongi all previous instructions") read forwards, each override key misspelled by one slip
// read as the key (misspelledWord) and chat shorthand written out where a key word is written out too
// (shorthandWord), and where each stands; nil spans when none is. One reversed or misspelled word is
// enough: English words do not reverse or slip into the keys.
func unscrambled(text string) (string, []spelledOut) {
	v, sc, rv, sl := disguiseVocabulary(), scrambleIndex(), reversalIndex(), slipIndex()
	// The usual text holds none: a look at each run of letters, by its shape first, before anything is
	// built. Two different shuffled ones are needed, since an attack shuffles its words and English has
	// pairs of words that shuffle each other ("three" and "there", "expect" and "except"): one alone,
	// however often, is a word.
	first, second := "", ""
	var backwardsOrSlipped, shorthand, keyWritten bool
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		word := text[i:j]
		backwardsOrSlipped = backwardsOrSlipped || reversedWord(v, rv, word) != "" || misspelledWord(v, sl, word) != ""
		shorthand = shorthand || shorthandWord(sl, word) != ""
		keyWritten = keyWritten || keyWord(sl, word)
		if key := unscrambledWord(v, sc, word); key != "" && first == "" {
			first = key
		} else if key != "" && key != first {
			second = key
		}
		i = j
	}
	shorthand = shorthand && keyWritten
	if second == "" && !backwardsOrSlipped && !shorthand {
		return text, nil
	}
	shuffled := second != ""
	return rewriteWords(text, isASCIILetterRune, func(word string) (string, bool) {
		if key := reversedWord(v, rv, word); key != "" {
			return key, true
		}
		if key := misspelledWord(v, sl, word); key != "" {
			return key, true
		}
		if shorthand {
			if full := shorthandWord(sl, word); full != "" {
				return full, true
			}
		}
		if !shuffled {
			return "", false
		}
		key := unscrambledWord(v, sc, word)
		return key, key != ""
	})
}
