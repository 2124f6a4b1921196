package detect

import (
	"strings"
	"sync"
)

// A word with one of its letters masked by a sign ("p_pe b_mb", "m*th", "ign_re") is a known way to
// pass a filter that reads whole words while a model still reads the word. The masked reading puts
// back the letter where one word of the phrases fits the rest, and leaves the word alone where none or
// several do.

// isMaskSign reports whether c is a sign that stands for a masked letter.
func isMaskSign(c byte) bool { return c == '_' || c == '*' }

// maskedIndex maps each word of the disguise vocabulary with one letter masked ("b_mb") to the word;
// a masked form that two words share maps to "", since it names neither.
var maskedIndex = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	for w := range disguiseVocabulary().words {
		if len(w) < 4 || !isASCIIWord(w) {
			continue // three letters and one masked fit too many words
		}
		b := []byte(w)
		for k := range b {
			c := b[k]
			b[k] = '_'
			key := string(b)
			if prev, ok := out[key]; ok && prev != w {
				out[key] = ""
			} else {
				out[key] = w
			}
			b[k] = c
		}
	}
	return out
})

// lettersUnmasked returns text with each word masked in one letter read as the word of the phrases it fits,
// and where those words stand; nil spans when none is.
func lettersUnmasked(text string) (string, []spelledOut) {
	if strings.IndexByte(text, '_') < 0 && strings.IndexByte(text, '*') < 0 {
		return text, nil
	}
	index := maskedIndex()
	var b strings.Builder
	var spans []spelledOut
	copied := 0
	var key []byte
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) && !isMaskSign(text[i]) {
			i++
			continue
		}
		j, masks, at := i, 0, -1
		for j < len(text) && (isASCIILetter(text[j]) || isMaskSign(text[j])) {
			if !isASCIILetter(text[j]) {
				masks++
				at = j
			}
			j++
		}
		// One sign with letters on both sides of it or beside it at an end: markup ("_word_") and names
		// ("snake_case" has no word of one letter masked) find nothing.
		if masks != 1 || j-i < 4 || j-i > 24 || i > 0 && isWordByte(text[i-1]) || j < len(text) && isWordByte(text[j]) {
			i = j
			continue
		}
		key = key[:0]
		for k := i; k < j; k++ {
			if k == at {
				key = append(key, '_')
			} else {
				key = append(key, text[k]|0x20)
			}
		}
		if w := index[string(key)]; w != "" {
			b.WriteString(text[copied:i])
			start := b.Len()
			b.WriteString(w)
			spans = append(spans, spelledOut{start: i, end: j, joinedStart: start, joinedEnd: b.Len()})
			copied = j
		}
		i = j
	}
	if spans == nil {
		return text, nil
	}
	b.WriteString(text[copied:])
	return b.String(), spans
}
