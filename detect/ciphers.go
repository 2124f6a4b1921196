package detect

import (
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Codes and ciphers a model reads as easily as prose: bytes written as numbers (hex, binary, octal,
// decimal, quoted-printable), letters shifted or mirrored (Caesar's shifts, ROT13, Atbash), text written
// backwards or upside down, Morse, Braille, the NATO spelling alphabet and Pig Latin. Chat models answer requests
// written in Caesar, Atbash, Morse and ASCII codes that they refuse in plain words (Yuan et al. 2024,
// "GPT-4 Is Too Smart To Be Safe: Stealthy Chat with LLMs via Cipher"), and red-team tools send
// instructions in each of them. Each reading below looks first for the shape its code leaves — a run of
// byte codes, short words that a cipher makes of English's commonest ones, a run of dots and dashes, a
// letter only one code uses — so that ordinary text costs one quick pass, and decodes only what reads
// as text afterwards.

// minCodeRun is the shortest run of byte-code characters looked at: eight binary codes, ten decimal
// ones, sixteen hex pairs written together. Shorter runs are numbers, dates and short hashes.
const minCodeRun = 32

// minDecoded is the fewest bytes a run of codes must decode to: about three words.
const minDecoded = 12

// codeClass is, per byte, 1 for a digit or hex letter, 2 for what separates codes (white space,
// commas, colons, semicolons, "=" of quoted-printable, "\" and "x" of escapes), 0 for the rest.
var codeClass = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
			t[c] = 1
		case c == ' ', c == '\t', c == '\n', c == '\r', c == ',', c == ':', c == ';', c == '=', c == '\\', c == 'x', c == 'X':
			t[c] = 2
		}
	}
	return t
}()

// decodedByteCodes returns text with each run of byte codes that decodes to readable text written
// decoded ("49 67 6e 6f 72 65", "01101001 01100111", "105 103 110 111", "=49=67=6E"), and where each
// such run stands; nil spans when there is none.
func decodedByteCodes(text string) (string, []spelledOut) {
	return byteCodesReading(text, readable)
}

// byteCodesReading is decodedByteCodes with what a decoded run must be to count (accept, given the run
// whole): readable text, or for the leak detectors a key's characters too.
func byteCodesReading(text string, accept func(s string, whole bool) bool) (string, []spelledOut) {
	if !hasCodeRun(text) {
		return text, nil // the usual text: no run long enough
	}
	sp := splice{text: text}
	for i := 0; i < len(text); {
		if codeClass[text[i]] == 0 {
			i++
			continue
		}
		j := i
		for j < len(text) && codeClass[text[j]] != 0 {
			j++
		}
		if j-i >= minCodeRun {
			if from, to, plain, ok := decodeCodeRun(text[i:j], accept); ok {
				sp.replace(i+from, i+to, " "+plain+" ") // spaced off from the words around it
			}
		}
		i = j
	}
	return sp.reading()
}

// hasCodeRun reports whether text holds minCodeRun byte-code characters in a row, eight digits among
// them.
func hasCodeRun(text string) bool {
	return longRuns(text, &codeClass, minCodeRun, func(run string) bool {
		digits := 0
		for i := 0; i < len(run); i++ {
			if run[i] >= '0' && run[i] <= '9' {
				if digits++; digits >= 8 {
					return true
				}
			}
		}
		return false
	})
}

// codeToken is one code of a run and where it stands in the run.
type codeToken struct {
	s          string
	start, end int
}

// codeForms are the ways a byte is written as a code, tried in turn over the tokens of a run: each says
// whether a token has its form and what byte it stands for.
var codeForms = []func(string) (byte, bool){
	func(t string) (byte, bool) { return parseCode(t, 2, 7, 8) },  // binary: 01101001
	func(t string) (byte, bool) { return parseCode(t, 16, 2, 2) }, // hex pairs: 69, 0x69, \x69, =69
	func(t string) (byte, bool) { return parseCode(t, 8, 3, 3) },  // octal: 151
	func(t string) (byte, bool) { return parseCode(t, 10, 2, 3) }, // decimal: 105
}

// parseCode reads a token of digits in base with between fewest and most of them, after a "0x" or "x".
func parseCode(t string, base, fewest, most int) (byte, bool) {
	if base == 16 {
		t = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "0x"), "0X"), "x")
	}
	if len(t) < fewest || len(t) > most {
		return 0, false
	}
	n, err := strconv.ParseUint(t, base, 8)
	if err != nil {
		return 0, false
	}
	return byte(n), true
}

// decodeCodeRun reads a run of byte-code characters: the longest stretch of its tokens that share one
// form and decode to readable text, or one token of hex digits written together. It returns where the
// stretch stands in the run and what it reads.
func decodeCodeRun(run string, accept func(s string, whole bool) bool) (from, to int, plain string, ok bool) {
	var tokens []codeToken
	for i := 0; i < len(run); {
		if codeClass[run[i]] == 2 && run[i] != 'x' && run[i] != 'X' {
			i++
			continue
		}
		j := i + 1
		for j < len(run) && (codeClass[run[j]] == 1 || (run[j] == 'x' || run[j] == 'X') && j == i+1) {
			j++
		}
		tokens = append(tokens, codeToken{run[i:j], i, j})
		i = j
	}
	for _, t := range tokens {
		// Hex written together: "49676e6f7265…".
		if len(t.s) >= 2*minDecoded && len(t.s)%2 == 0 {
			if b, err := hex.DecodeString(t.s); err == nil && accept(string(b), true) {
				return t.start, t.end, string(b), true
			}
		}
	}
	for _, form := range codeForms {
		var buf []byte
		first := 0
		best, bestFrom, bestTo := "", 0, 0
		flush := func(end int) {
			if len(buf) >= minDecoded && len(buf) > len(best) && accept(string(buf), true) {
				best, bestFrom, bestTo = string(buf), tokens[first].start, end
			}
			buf = buf[:0]
		}
		for k, t := range tokens {
			c, fits := form(t.s)
			if !fits || c < ' ' && c != '\n' && c != '\t' || c > '~' {
				if k > 0 {
					flush(tokens[k-1].end)
				}
				first = k + 1
				continue
			}
			if len(buf) == 0 {
				first = k
			}
			buf = append(buf, c)
		}
		if len(tokens) > 0 {
			flush(tokens[len(tokens)-1].end)
		}
		if best != "" {
			return bestFrom, bestTo, best, true
		}
	}
	return 0, 0, "", false
}

// cipher is a way of writing letters that a word pass recognises by the short words it makes of
// English's commonest ones: a Caesar shift (1 to 25, ROT13 among them), Atbash, or the text written
// backwards.
type cipher uint8

const (
	atbash   cipher = 26
	backward cipher = 27
)

// commonWords are English's commonest short words: in a text written in a cipher, what they become
// makes up a share of its short words that no plain text reaches.
var commonWords = []string{"the", "and", "you", "to", "of", "is", "in", "it", "for", "are", "all", "not",
	"be", "or", "on", "me", "my", "do", "if", "we", "an", "at", "by", "can", "now", "new", "how", "has",
	"any", "as", "our", "but", "was", "who", "why", "get", "use", "let", "so", "no", "up", "your", "this",
	"that", "with", "what", "will", "from", "have", "must", "here", "then", "into", "only"}

// shortWords is the number of words of two or three letters (shortWordIndex).
const shortWords = 26*26 + 26*26*26

// cipherWords holds the ciphers under which a word is one of the commonWords, bit 0 when it is one as
// written. Words of two and three letters, looked up in every text, are first looked for in two small
// sets (2 KB each, so that looking them up leaves the phrase automata's rows in the cache): is it a
// common word as written, is it one in some cipher; only then in a map. Built the first time a text is
// read for a cipher (about 0.13 ms: not at every start of a program that imports the package).
type cipherWords struct {
	plainShort, cipheredShort [shortWords/64 + 1]uint64
	short                     map[int]uint32
	long                      map[uint32]uint32
}

var cipherTables = sync.OnceValue(func() *cipherWords {
	t := &cipherWords{short: map[int]uint32{}, long: map[uint32]uint32{}}
	add := func(w string, bit uint32) {
		if len(w) == 4 {
			t.long[packWord(w)] |= bit
			return
		}
		i := shortWordIndex(w)
		if bit == 1 {
			t.plainShort[i/64] |= 1 << (i % 64)
		} else {
			t.cipheredShort[i/64] |= 1 << (i % 64)
		}
		t.short[i] |= bit
	}
	for _, w := range commonWords {
		add(w, 1)
		for c := cipher(1); c <= backward; c++ {
			if enc := encipher(c, w); enc != w { // a palindrome read backwards stays as written
				add(enc, 1<<c)
			}
		}
	}
	return t
})

// bits returns the ciphers under which a word of two to four ASCII letters is one of the commonWords,
// bit 0 when it is one as written.
func (t *cipherWords) bits(w string) uint32 {
	switch len(w) {
	case 2, 3:
		i := shortWordIndex(w)
		switch {
		case t.plainShort[i/64]&(1<<(i%64)) != 0:
			return 1
		case t.cipheredShort[i/64]&(1<<(i%64)) != 0:
			return t.short[i]
		}
	case 4:
		return t.long[packWord(w)]
	}
	return 0
}

// encipher writes a word in c, lower-cased.
func encipher(c cipher, w string) string {
	w = strings.ToLower(w)
	if c == backward {
		return backwards(w)
	}
	b := []byte(w)
	for i := range b {
		if c == atbash {
			b[i] = atbashLetter(b[i])
		} else {
			b[i] = shiftLetter(b[i], byte(c))
		}
	}
	return string(b)
}

// shortWordIndex is the place of a word of two or three ASCII letters, of either case, in the sets above.
func shortWordIndex(w string) int {
	i := 0
	for k := 0; k < len(w); k++ {
		i = i*26 + int(w[k]|0x20-'a')
	}
	if len(w) == 3 {
		i += 26 * 26
	}
	return i
}

// packWord packs a word of up to four ASCII letters, lower-cased, into an integer: one for each word.
func packWord(w string) uint32 {
	var k uint32
	for i := 0; i < len(w); i++ {
		k = k<<8 | uint32(w[i]|0x20)
	}
	return k
}

// cipherTally counts, over a stretch of text, its words of two to four letters, those that are
// commonWords as written, and per cipher the different words that are commonWords in it and not as
// written.
type cipherTally struct {
	words       *cipherWords
	counts      [backward + 1]uint16
	seen        [32]uint32 // the cipher words counted already: a name repeated in code counts once
	nseen       int
	short, kept int
}

func (t *cipherTally) add(w string) {
	if len(w) < 2 || len(w) > 4 {
		return
	}
	t.short++
	cs := t.words.bits(w)
	if cs&1 != 0 {
		t.kept++
		return // a common word as written is no cipher's, whatever else it also reads as
	}
	if cs == 0 || t.nseen == len(t.seen) {
		return
	}
	key := packWord(w)
	if slices.Contains(t.seen[:t.nseen], key) {
		return
	}
	t.seen[t.nseen] = key
	t.nseen++
	for c := cipher(1); c <= backward; c++ {
		if cs&(1<<c) != 0 {
			t.counts[c]++
		}
	}
}

// best returns the cipher that made the most different commonWords, and how many.
func (t *cipherTally) best() (cipher, int) {
	best := cipher(1)
	for c := cipher(2); c <= backward; c++ {
		if t.counts[c] > t.counts[best] {
			best = c
		}
	}
	return best, int(t.counts[best])
}

// minCipherWords is how many different commonWords a cipher must have made in a sentence before it is
// read as written in that cipher; and they must be a third of its short words or more, and more than
// the commonWords it holds as written (code's short names make a cipher's words now and then; English
// writes its own).
const minCipherWords = 3

// enciphered returns the cipher a sentence is written in, if any.
func enciphered(t *cipherTally) (cipher, bool) {
	c, n := t.best()
	if n < minCipherWords || 3*n < t.short || n <= t.kept {
		return 0, false
	}
	return c, true
}

// deciphered returns text with each sentence written in a cipher (a Caesar shift, Atbash, backwards)
// read out of it, or with its runs of the NATO spelling alphabet written as the letters they spell, and
// where; nil spans when it has neither. A first pass over the words looks for both; only a text where
// some cipher made minCipherWords commonWords is read again, sentence by sentence (a cipher keeps a
// sentence's stops where they were, and a payload enciphered inside plain words is one sentence of
// its own).
func deciphered(text string) (string, []spelledOut) {
	whole := cipherTally{words: cipherTables()}
	nato, run, words, pig := 0, 0, 0, 0
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		words++
		if n := j - i; n >= 4 && text[j-2]|0x20 == 'a' && text[j-1]|0x20 == 'y' {
			pig++
		}
		switch n := j - i; {
		case n <= 4:
			whole.add(text[i:j])
			run = 0
		case n <= 8:
			if _, ok := natoLetter(text[i:j]); ok {
				run++
				nato = max(nato, run)
				break
			}
			run = 0
		default:
			run = 0
		}
		i = j
	}
	if nato >= minSpelled {
		return spelledNATO(text)
	}
	if pig >= minPigLatin && 2*pig >= words {
		return fromPigLatin(text)
	}
	if _, n := whole.best(); n < minCipherWords {
		return text, nil // the usual text
	}
	sp := splice{text: text}
	for start := 0; start < len(text); {
		end := cipherSentenceEnd(text, start)
		t := cipherTally{words: whole.words}
		for i := start; i < end; {
			if !isASCIILetter(text[i]) {
				i++
				continue
			}
			j := i + 1
			for j < end && isASCIILetter(text[j]) {
				j++
			}
			t.add(text[i:j])
			i = j
		}
		if c, ok := enciphered(&t); ok {
			sp.replace(start, end, decipher(c, text[start:end]))
		}
		start = end
	}
	return sp.reading()
}

// minPigLatin is how many words ending in "ay" a text must hold, half its words or more, to be read as
// Pig Latin: English ends some in "ay" (day, way, always), never half.
const minPigLatin = 3

// fromPigLatin returns text with its words in Pig Latin ("Ignoreway allway eviouspray instructionsway")
// read back: "way" dropped from a word that began with a vowel, or the consonants before "ay" put back
// in front ("eviouspray" is "previous"); and where each stands.
func fromPigLatin(text string) (string, []spelledOut) {
	vocab := disguiseVocabulary()
	return rewriteWords(text, isASCIILetterRune, func(word string) (string, bool) {
		w := strings.ToLower(word)
		switch {
		case len(w) > 4 && strings.HasSuffix(w, "way"):
			return w[:len(w)-3], true
		case len(w) >= 4 && strings.HasSuffix(w, "ay"):
			// The consonants moved were the word's first one to three: of the ways to put them back, a
			// word of the phrases, else one.
			core := w[:len(w)-2]
			read := ""
			for n := 1; n <= 3 && n < len(core) && !strings.ContainsRune("aeiou", rune(core[len(core)-n])); n++ {
				cand := core[len(core)-n:] + core[:len(core)-n]
				if read == "" || vocab.words[cand] {
					read = cand
				}
				if vocab.words[cand] {
					break
				}
			}
			return read, read != ""
		}
		return "", false
	})
}

// cipherSentenceEnd returns where the sentence that starts at from ends: after a line's end, or after a
// sentence-ending mark (sentenceEnd) that white space follows; or the text's end.
func cipherSentenceEnd(text string, from int) int {
	for i := from; i < len(text); i++ {
		n := sentenceEnd(text, i)
		if n == 0 {
			continue
		}
		if text[i] == '\n' || i > from && i+n < len(text) && (text[i+n] == ' ' || text[i+n] == '\n') {
			return i + n
		}
	}
	return len(text)
}

// natoWords are the words of the NATO spelling alphabet, by the letter each stands for.
var natoWords = [26]string{"alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
	"juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
	"uniform", "victor", "whiskey", "xray", "yankee", "zulu"}

// natoLetter returns the letter a word of the spelling alphabet stands for ("Alpha" and "Juliet" too).
func natoLetter(w string) (byte, bool) {
	if len(w) < 4 || len(w) > 8 || w[0]|0x20 < 'a' || w[0]|0x20 > 'z' {
		return 0, false
	}
	first := w[0] | 0x20
	if n := natoWords[first-'a']; len(w) != len(n) && !(first == 'a' && len(w) == 5) && !(first == 'j' && len(w) == 6) {
		return 0, false // most words: not the length of the one word their first letter could be
	}
	if strings.EqualFold(w, natoWords[first-'a']) || first == 'a' && strings.EqualFold(w, "alpha") || first == 'j' && strings.EqualFold(w, "juliet") {
		return first, true
	}
	return 0, false
}

// minSpelled is the fewest words of the spelling alphabet in a row read as letters: a short word.
const minSpelled = 6

// decipher reads a whole text out of c: each ASCII letter shifted or mirrored back, keeping its case,
// or the text's characters in reverse order.
func decipher(c cipher, text string) string {
	if c == backward {
		return backwards(text)
	}
	b := []byte(text)
	for i, ch := range b {
		if c == atbash {
			b[i] = atbashLetter(ch)
		} else {
			b[i] = shiftLetter(ch, 26-byte(c))
		}
	}
	return string(b)
}

// spelledNATO writes each run of minSpelled or more words of the spelling alphabet as the letters they
// spell, joined: "India Golf November Oscar Romeo Echo" reads "ignore" (a run that spells several words
// is read apart by the reading of words put back together, over this one).
func spelledNATO(text string) (string, []spelledOut) {
	sp := splice{text: text}
	for i := 0; i < len(text); {
		if !isASCIILetter(text[i]) {
			i++
			continue
		}
		var letters []byte
		start, end, k := i, i, i
		for k < len(text) {
			j := k
			for j < len(text) && isASCIILetter(text[j]) {
				j++
			}
			c, ok := natoLetter(text[k:j])
			if j == k || !ok {
				break
			}
			letters = append(letters, c)
			end = j
			// The separator after a word: spaces, dashes, commas or slashes.
			for j < len(text) && strings.IndexByte(" \t\n,-/|.", text[j]) >= 0 {
				j++
			}
			k = j
		}
		if len(letters) >= minSpelled {
			sp.replace(start, end, string(letters))
			i = end
			continue
		}
		j := i
		for j < len(text) && isASCIILetter(text[j]) {
			j++
		}
		i = j
	}
	return sp.reading()
}

// minMorse is the fewest Morse letters read: fewer are a row of dashes or an ellipsis.
const minMorse = 8

// decodedMorse returns text with each run of Morse code (fromMorse) written as the words it spells, and
// where; nil spans when there is none. decodedOnRequest reads shorter runs in a text that asks to be
// decoded; a run this long is Morse whatever the text says.
func decodedMorse(text string) (string, []spelledOut) {
	if !strings.Contains(text, ".-") && !strings.Contains(text, "-.") {
		return text, nil // no dot beside a dash: no Morse
	}
	sp := splice{text: text}
	for i := 0; i < len(text); {
		if text[i] != '.' && text[i] != '-' {
			i++
			continue
		}
		j := i
		for j < len(text) && isMorseRune(rune(text[j])) {
			j++
		}
		end := j
		for end > i && (text[end-1] == ' ' || text[end-1] == '/') {
			end--
		}
		if plain, ok := fromMorse(text[i:end]); ok && len(plain)-strings.Count(plain, " ") >= minMorse {
			sp.replace(i, end, plain)
		}
		i = j
	}
	return sp.reading()
}

// brailleLetters maps the six-dot Braille cells of the letters to the letters (U+2800 is a blank cell).
var brailleLetters = func() map[rune]byte {
	m := map[rune]byte{'\u2800': ' '}
	c := byte('a')
	for _, r := range "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵" {
		m[r] = c
		c++
	}
	return m
}()

// fromBraille returns text with its runs of Braille letters written as Latin ones, and where; nil spans
// when there is none.
func fromBraille(text string) (string, []spelledOut) {
	if !strings.Contains(text, "\xe2\xa0") { // the letters' cells, U+2800–U+283F, all open so
		return text, nil
	}
	return rewriteWords(text, func(r rune) bool { return r >= 0x2800 && r <= 0x28FF }, func(word string) (string, bool) {
		out := make([]byte, 0, len(word)/3)
		for _, r := range word {
			c, ok := brailleLetters[r]
			if !ok {
				return "", false // a cell of contractions, numbers or music: not read
			}
			out = append(out, c)
		}
		return string(out), true
	})
}

// upsideDown maps the characters text turned upside down is written with to the letters they are.
// The Latin letters that turn into one another (b and q, d and p, n and u) are swapped too, in a text
// read so.
var upsideDown = map[rune]rune{'ɐ': 'a', 'ɔ': 'c', 'ǝ': 'e', 'ɟ': 'f', 'ƃ': 'g', 'ɥ': 'h', 'ᴉ': 'i', 'ı': 'i',
	'ɾ': 'j', 'ʞ': 'k', 'ɯ': 'm', 'ɹ': 'r', 'ʇ': 't', 'ʌ': 'v', 'ʍ': 'w', 'ʎ': 'y', '∀': 'A', 'Ɔ': 'C',
	'Ǝ': 'E', 'Ⅎ': 'F', '⅁': 'G', 'ſ': 'J', 'ꓘ': 'K', '˥': 'L', 'Ԁ': 'P', 'ᴚ': 'R', '⊥': 'T', '∩': 'U',
	'⅄': 'Y', '˙': '.', '¡': '!', '¿': '?', 'b': 'q', 'q': 'b', 'd': 'p', 'p': 'd', 'n': 'u', 'u': 'n'}

// upsideDownOnly are the letters turned upside down that other writing seldom uses (phonetic
// transcription does): Spanish opens with ¡ and ¿, Turkish writes ı, Greek Λ, mathematics ∀, ∩ and ⊥.
const upsideDownOnly = "ɐɔǝɟƃɥᴉɾʞɯɹʇʌʍʎ"

// minUpsideDown is how many upsideDownOnly letters a text must hold to be read so.
const minUpsideDown = 4

// rightSideUp returns text turned back the right way up and read in its order, when it holds
// minUpsideDown characters that only text turned upside down uses; nil spans otherwise.
func rightSideUp(text string) (string, []spelledOut) {
	if !mayBeUpsideDown(text) {
		return text, nil
	}
	n := 0
	for _, r := range text {
		if strings.ContainsRune(upsideDownOnly, r) {
			n++
		}
	}
	if n < minUpsideDown {
		return text, nil
	}
	var b strings.Builder
	for _, r := range backwards(text) {
		if u, ok := upsideDown[r]; ok {
			r = u
		}
		b.WriteRune(r)
	}
	plain := b.String()
	return plain, []spelledOut{{start: 0, end: len(text), joinedStart: 0, joinedEnd: len(plain)}}
}

// mayBeUpsideDown reports whether text holds a byte that opens one of the upsideDownOnly letters: all
// of them but ᴉ lie in U+0180–U+02AF, whose encodings open with 0xC6, 0xC7, 0xC9 or 0xCA. Each is
// looked for with IndexByte, which passes over text without it many times faster than decoding its
// characters (every text outside ASCII is asked; Cyrillic, Greek and the CJK scripts open otherwise).
func mayBeUpsideDown(text string) bool {
	for _, lead := range [...]byte{0xC6, 0xC7, 0xC9, 0xCA} {
		if strings.IndexByte(text, lead) >= 0 {
			return true
		}
	}
	return strings.Contains(text, "ᴉ")
}

// unOverridden returns text with each stretch a right-to-left override (U+202E) shows backwards written
// in the order it shows, and where; nil spans when there is none. The stretch ends at a pop of the
// direction (U+202C) or the line's end.
func unOverridden(text string) (string, []spelledOut) {
	if !strings.Contains(text, "\u202e") {
		return text, nil
	}
	sp := splice{text: text}
	for i := 0; ; {
		k := strings.Index(text[i:], "\u202e")
		if k < 0 {
			break
		}
		start := i + k
		from := start + len("\u202e")
		end := len(text)
		if e := strings.IndexAny(text[from:], "\u202c\n"); e >= 0 {
			end = from + e
		}
		sp.replace(start, end, backwards(text[from:end]))
		i = end
		if i >= len(text) {
			break
		}
	}
	return sp.reading()
}
