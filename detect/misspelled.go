package detect

import (
	"sync"
)

// A key word of an override misspelled by one slip of the keyboard still reads as the word to a model:
// a letter left out ("instrucions"), one too many ("instructionss"), two neighbours swapped ("ingore",
// "previuos") or a letter held down ("ignoooore"). Attackers misspell the words a filter looks for on
// purpose, and a model reads through the slip. misspelledWord reads such a word back as the key, for the
// words an override or a request for the prompt hangs on (injection.yaml, key slips: "ignore",
// "previous", "instructions", "prompt"), six letters or more, first and last letters kept but where the
// two at either edge are swapped ("promtp"), and never a
// word of the phrases as written. Only words no common English word is one slip from: English is full of
// words one slip from others ("treats" from "threats", "cases" from "ceases"), which is also why the
// harm phrases' words are left out.

// minMisspelled is the shortest key read back from a slip.
const minMisspelled = 6

// slips indexes the slip keys for misspelledWord: the keys, each key with one inner letter left
// out (what a word missing that letter spells; "" where two keys share it), and the shapes a slip of
// a key may have (its first and last letters, its length less one, as is, or plus one).
type slips struct {
	keys    map[string]bool
	missing map[string]string
	// edges maps each key with its first two or last two letters swapped ("promtp", "rpompt") to the
	// key: the one slip that moves a first or last letter.
	edges  map[string]string
	shapes [26][26]uint64
	// short maps chat shorthand to the word it stands for (injection.yaml, key abbreviations), with its
	// shapes.
	short       map[string]string
	shortShapes [26][26]uint64
}

var slipIndex = sync.OnceValue(func() *slips {
	out := &slips{keys: map[string]bool{}, missing: map[string]string{}, edges: map[string]string{}, short: injectionCorpus().Abbreviations}
	for a := range out.short {
		if !isASCIIWord(a) {
			panic("detect: corpus/injection.yaml: abbreviations: " + a + " is no lower-case ASCII word")
		}
		addShape(&out.shortShapes, a)
	}
	for _, w := range injectionCorpus().Slips {
		n := len(w)
		if n < minMisspelled || n > 62 || !isASCIIWord(w) {
			panic("detect: corpus/injection.yaml: slips: " + w + " is no lower-case ASCII word of six letters or more")
		}
		out.keys[w] = true
		for d := -1; d <= 1; d++ {
			out.shapes[w[0]-'a'][w[n-1]-'a'] |= 1 << (n + d)
		}
		for _, e := range [...]string{w[1:2] + w[:1] + w[2:], w[:n-2] + w[n-1:] + w[n-2:n-1]} {
			if e != w {
				out.edges[e] = w
				addShape(&out.shapes, e)
			}
		}
		for i := 1; i < n-1; i++ {
			m := w[:i] + w[i+1:]
			if prev, ok := out.missing[m]; ok && prev != w {
				out.missing[m] = ""
			} else {
				out.missing[m] = w
			}
		}
	}
	return out
})

// shorthandWord returns the word that word's chat shorthand stands for ("prev", "instrs", "sys"), or "".
// Code names its variables so ("sys.exit", "prev := cur"), which is why unscrambled reads shorthand only
// in a text that also writes a key word out ("ignore prev instrs").
func shorthandWord(sl *slips, word string) string {
	n := len(word)
	if !hasShape(&sl.shortShapes, word[0], word[n-1], n) {
		return ""
	}
	var buf [64]byte
	return sl.short[string(lowerLetters(buf[:0], word, [2]int{0, n}))]
}

// keyWord reports whether word (ASCII letters) is a slip key as written, in any case.
func keyWord(sl *slips, word string) bool {
	n := len(word)
	if n < minMisspelled || n > 62 || !hasShape(&sl.shapes, word[0], word[n-1], n) {
		return false
	}
	var buf [64]byte
	return sl.keys[string(lowerLetters(buf[:0], word, [2]int{0, n}))]
}

// misspelledWord returns the override key that word (ASCII letters) misspells by one slip, or "".
func misspelledWord(v *vocabulary, sl *slips, word string) string {
	n := len(word)
	var buf, alt [64]byte
	if n < minMisspelled-1 || n > 62 {
		return ""
	}
	if !hasShape(&sl.shapes, word[0], word[n-1], n) {
		return heldDown(sl, word) // a letter held down makes a word longer than any slip
	}
	if _, own := v.has(nil, word, [2]int{0, n}); own {
		return ""
	}
	w := lowerLetters(buf[:0], word, [2]int{0, n})
	if key := sl.missing[string(w)]; key != "" {
		return key // a letter left out
	}
	if key := sl.edges[string(w)]; key != "" {
		return key // the first two or the last two letters swapped
	}
	// One too many, or two neighbours swapped: each inner position tried.
	for i := 1; i < n-1; i++ {
		c := append(append(alt[:0], w[:i]...), w[i+1:]...)
		if sl.keys[string(c)] {
			return string(c)
		}
		if i+1 < n-1 && w[i] != w[i+1] {
			c = append(alt[:0], w...)
			c[i], c[i+1] = c[i+1], c[i]
			if sl.keys[string(c)] {
				return string(c)
			}
		}
	}
	return heldDown(sl, word)
}

// heldDown returns the key that word spells with a letter held down ("ignoooore", "iiignore"): a run of
// three or more of one letter read as one, or as two; "" when it holds no such run or spells none.
func heldDown(sl *slips, word string) string {
	if len(word) < minMisspelled+2 {
		return "" // a run of three adds two letters at least to a key
	}
	held := false
	for i := 2; i < len(word) && !held; i++ {
		held = word[i]|0x20 == word[i-1]|0x20 && word[i]|0x20 == word[i-2]|0x20
	}
	if !held {
		return ""
	}
	var buf [64]byte
	for _, keep := range [...]int{1, 2} {
		c := buf[:0]
		for i := 0; i < len(word); {
			j := i + 1
			for j < len(word) && word[j]|0x20 == word[i]|0x20 {
				j++
			}
			run := j - i
			if run >= 3 {
				run = keep
			}
			for range run {
				c = append(c, word[i]|0x20)
			}
			i = j
		}
		if sl.keys[string(c)] {
			return string(c)
		}
	}
	return ""
}
