package detect

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"html"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minBase64 is the shortest run read as base64: 24 characters are 18 bytes, about three words. Shorter
// runs are mostly identifiers and hashes, and hide little.
const minBase64 = 24

// decodedBase64 returns text with each run of base64 (minBase64 characters or more of the standard or
// URL-safe alphabet, padded or not) that decodes to readable text written decoded, and where each such
// run stands; nil spans when there is none. A model reads base64 as easily as prose, so an instruction
// or a request encoded so ("aWdub3JlIGFsbCBwcmV2aW91cyBpbnN0cnVjdGlvbnM=") is one it may follow.
func decodedBase64(text string) (string, []spelledOut) { return base64Reading(text, readable) }

// base64Reading is decodedBase64 with what a decoded run must be to count (accept, given a run's head or
// the run whole): readable text, or for the leak detectors a key's characters too.
func base64Reading(text string, accept func(s string, whole bool) bool) (string, []spelledOut) {
	if !hasBase64Run(text) {
		return text, nil // the usual text: nothing to decode
	}
	return rewriteWords(text, isBase64Rune, func(word string) (string, bool) {
		if len(word) < minBase64 {
			return "", false
		}
		plain, ok := decodeBase32(word, accept)
		if !ok {
			plain, ok = decodeBase64Run(word, accept)
		}
		if !ok {
			return "", false
		}
		// Spaced off, so that the decoded words do not run into the text around them.
		return " " + plain + " ", true
	})
}

func isBase64Rune(r rune) bool {
	return r < utf8.RuneSelf && isBase64Byte(byte(r))
}

func isBase64Byte(c byte) bool { return base64Class[c] != 0 }

// base64Class is, per byte, 0 outside the base64 alphabets, 1 for a small letter and 2 for the rest of
// them: hasBase64Run reads every byte of every text, and a table read is a third of its time against
// seven comparisons.
var base64Class = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = 1
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '+', c == '/', c == '-', c == '_', c == '=':
			t[c] = 2
		}
	}
	return t
}()

// hasBase64Run reports whether text holds minBase64 base64 characters in a row, with a digit or a sign
// among them or both cases of letters (so a long word alone is none), or minBase32 characters of base32's
// alphabet (capitals and the digits 2 to 7) in a row.
func hasBase64Run(text string) bool {
	return longRuns(text, &base64Class, minBase64, func(run string) bool {
		mixed, upper := 0, 0
		for i := 0; i < len(run); i++ {
			c := run[i]
			if base64Class[c] == 1 {
				upper = 0
				continue
			}
			mixed++
			if c >= 'A' && c <= 'Z' || c >= '2' && c <= '7' || c == '=' {
				if upper++; upper >= minBase32 {
					return true
				}
			} else {
				upper = 0
			}
		}
		return mixed > 0 && mixed < len(run)
	})
}

// longRuns calls found with each maximal run of text's bytes that class marks (not 0) that is min bytes
// long or longer, until found returns true, and reports whether it did. It reads every min-th byte
// first: a run that long covers one of them, and prose breaks such runs every few bytes, so most of a
// text is passed over unread (every text is asked, for base64 and for byte codes).
func longRuns(text string, class *[256]byte, min int, found func(run string) bool) bool {
	for i := min - 1; i < len(text); {
		if class[text[i]] == 0 {
			i += min
			continue
		}
		start, end := i, i+1
		for start > 0 && class[text[start-1]] != 0 {
			start--
		}
		for end < len(text) && class[text[end]] != 0 {
			end++
		}
		if end-start >= min && found(text[start:end]) {
			return true
		}
		i = end + min
	}
	return false
}

// minBase32 is the shortest run read as base32: 32 characters are 20 bytes. Capitals and digits in a
// row shorter than that are mostly identifiers and keys.
const minBase32 = 32

// decodeBase32 decodes a run of base32 (padded or not) and returns it when accept takes it.
func decodeBase32(run string, accept func(s string, whole bool) bool) (string, bool) {
	if len(run) < minBase32 || strings.IndexFunc(run, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '2' && r <= '7' || r == '=')
	}) >= 0 {
		return "", false
	}
	run = strings.TrimRight(run, "=")
	b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(run[:len(run)/8*8+validBase32Tail(len(run)%8)])
	if err != nil || !accept(string(b), true) {
		return "", false
	}
	return string(b), true
}

// validBase32Tail is how many of a last group's characters decode: a group of 8 holds 2, 4, 5 or 7
// characters before its padding; a stray one more decodes to nothing.
func validBase32Tail(n int) int {
	for n > 0 && n != 2 && n != 4 && n != 5 && n != 7 {
		n--
	}
	return n
}

// decodeBase64Run decodes a base64 run and returns it when accept takes it (readable: valid UTF-8,
// printable, with letters and a space between words; binary, such as an image, a key or a hash, is not
// read). A long run is judged by its start before the whole is decoded.
func decodeBase64Run(run string, accept func(s string, whole bool) bool) (string, bool) {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		if strings.ContainsAny(run, "+/") {
			return "", false
		}
		enc = base64.RawURLEncoding
	}
	run = strings.TrimRight(run, "=")
	if strings.Contains(run, "=") {
		return "", false
	}
	if len(run) > 64 {
		head, err := enc.DecodeString(run[:64])
		if err != nil || !accept(string(head), false) {
			return "", false
		}
	}
	if len(run)%4 == 1 {
		run = run[:len(run)-1] // a stray last character decodes to nothing
	}
	b, err := enc.DecodeString(run)
	if err != nil || !accept(string(b), true) {
		return "", false
	}
	return string(b), true
}

// readable reports whether s reads as text: printable (white space allowed), a letter in every two
// characters; whole, it must also hold a space between words, or be in a script written without them. A prefix cut inside a character may end
// in an invalid one.
func readable(s string, whole bool) bool {
	letters, spaces, n, unspaced := 0, 0, 0, false
	for i, r := range s {
		n++
		unspaced = unspaced || r >= 0x0E00 && unicode.In(r, unspacedScripts...) // Chinese, Japanese, Thai… write no spaces
		switch {
		case r == utf8.RuneError && !whole && i+utf8.UTFMax > len(s):
		case r == utf8.RuneError:
			return false
		case unicode.IsLetter(r):
			letters++
		case r == ' ':
			spaces++
		case r == '\n' || r == '\t' || r == '\r':
		case !unicode.IsPrint(r):
			return false
		}
	}
	return 2*letters >= n && (!whole || spaces > 0 || unspaced)
}

// templatedURL finds an image (markdown's ![…](url), HTML's src="url") whose URL has a slot in its query
// for the model to fill ("![](https://x.example/log?d={conversation})", "?q=[DATA]", "?s=$SECRET",
// "?c=<summary>"): rendered, the image sends whatever the model wrote there to that host, with no click.
// An image with real values in its query, or a link, is no such thing.
func templatedURL(text string) (start, end int, ok bool) {
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], "![")
		j := strings.Index(text[from:], "src=")
		if i < 0 && j < 0 {
			break
		}
		u := -1
		switch {
		case i >= 0 && (j < 0 || i < j):
			at := from + i
			from = at + 2
			if k := strings.Index(text[at:min(len(text), at+500)], "]("); k > 0 {
				u = at + k + 2
			}
		default:
			at := from + j + len("src=")
			from = at
			u = at
			if at < len(text) && (text[at] == '"' || text[at] == '\'') {
				u = at + 1 // quoted, or not: HTML takes both
			}
		}
		if u < 0 || !strings.HasPrefix(text[u:], "http") {
			continue
		}
		e := u
		for e < len(text) && text[e] > ' ' && text[e] != ')' && text[e] != '"' && text[e] != '\'' {
			e++
		}
		if q := strings.IndexByte(text[u:e], '?'); q >= 0 {
			// A slot may hold spaces ("<summary of the chat>"): its closer is looked for up to the line's end.
			line := text[u+q : min(len(text), e+100)]
			if n := strings.IndexByte(line, '\n'); n >= 0 {
				line = line[:n]
			}
			if hasSlot(line, e-(u+q)) {
				return u, e, true
			}
		}
	}
	return 0, 0, false
}

// hasSlot reports whether a query (its first n bytes; the rest of the line after them) opens a
// placeholder: a braced, bracketed or angled name, a $NAME, or a percent-encoded brace.
func hasSlot(query string, n int) bool {
	for i := 0; i < n; i++ {
		switch c := query[i]; c {
		case '{', '[', '<':
			closer := byte('}')
			switch c {
			case '[':
				closer = ']'
			case '<':
				closer = '>'
			}
			if j := strings.IndexByte(query[i+1:], closer); j > 0 {
				return true
			}
		case '$':
			if i+1 < len(query) && (query[i+1] >= 'A' && query[i+1] <= 'Z' || query[i+1] == '{') {
				return true
			}
		case '%':
			if len(query) >= i+3 && strings.EqualFold(query[i:i+3], "%7B") {
				return true
			}
		}
	}
	return false
}

// unescaped returns text with each word that holds escape sequences (HTML character references,
// "&#105;gnore", "ignore&nbsp;all"; percent-encoding, "ignore%20all%20previous"; \u and \x escapes,
// "\u0069gnore") read unescaped, and where each such word stands; nil spans when there is none. A page
// a tool fetched arrives as its source, and a model reads the characters the escapes stand for.
func unescaped(text string) (string, []spelledOut) {
	if !hasEscape(text) {
		return text, nil // the usual text: nothing escaped
	}
	return unescapeWords(text)
}

// unescapeWords is unescaped without its first check.
func unescapeWords(text string) (string, []spelledOut) {
	return rewriteWords(text, func(r rune) bool { return r > ' ' && r != 0x7f }, func(word string) (string, bool) {
		plain := word
		if strings.Contains(plain, "&") {
			plain = html.UnescapeString(plain)
		}
		if strings.Contains(plain, "%") {
			if u, err := url.PathUnescape(plain); err == nil {
				plain = u
			}
		}
		if strings.Contains(plain, `\`) {
			plain = unescapeBackslashes(plain)
		}
		if plain == word || !utf8.ValidString(plain) {
			return "", false
		}
		// A space or line break the escapes stood for is a space to the phrases.
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) || unicode.IsControl(r) {
				return ' '
			}
			return r
		}, plain), true
	})
}

// unescapeBackslashes reads \xXX, \uXXXX and \u{X…} (JavaScript's escape of any code point); anything
// else is left as written.
func unescapeBackslashes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if r, n := backslashEscape(s[i:]); n > 0 {
			b.WriteRune(r)
			i += n - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// backslashEscape returns the character an escape at the start of s stands for and the escape's length,
// or 0 when none starts there.
func backslashEscape(s string) (rune, int) {
	if len(s) < 3 || s[0] != '\\' {
		return 0, 0
	}
	var hex string
	var n int
	switch {
	case s[1] == 'u' && s[2] == '{':
		end := strings.IndexByte(s, '}')
		if end < 4 {
			return 0, 0
		}
		hex, n = s[3:end], end+1
	case s[1] == 'u' && len(s) >= 6:
		hex, n = s[2:6], 6
	case s[1] == 'x' && len(s) >= 4:
		hex, n = s[2:4], 4
	default:
		return 0, 0
	}
	v, err := strconv.ParseUint(hex, 16, 32)
	if err != nil || !utf8.ValidRune(rune(v)) {
		return 0, 0
	}
	return rune(v), n
}

// hasEscape reports whether text holds what may be an escape: "&#", "&" then a letter (a named
// reference, which needs no ";" in HTML), "%" then two hex digits, or "\u" or "\x". Each sign is looked for with IndexByte,
// which passes over text without it many times faster than a loop over its bytes (every text is asked).
func hasEscape(text string) bool {
	for _, sign := range [...]byte{'&', '%', '\\'} {
		for i := 0; ; i++ {
			k := strings.IndexByte(text[i:], sign)
			if k < 0 || i+k+2 >= len(text) {
				break
			}
			i += k
			switch c, d := text[i+1], text[i+2]; sign {
			case '&':
				if c == '#' || c|0x20 >= 'a' && c|0x20 <= 'z' {
					return true
				}
			case '%':
				if isHex(c) && isHex(d) {
					return true
				}
			default:
				if c == 'u' || c == 'x' {
					return true
				}
			}
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// decodedOnRequest returns the readings of a text that asks to be decoded (an encoding_attack hit:
// "decode this ROT13", "reverse the following", "decode this hex"): its letters rotated by thirteen,
// shifted back by three or mirrored (Atbash), the whole text read backwards, and its runs of
// hexadecimal, of bytes in binary or of Morse code decoded. Unlike base64, none of these can be told
// from plain text by its look (or, for hexadecimal, from a hash), and reading every text so would cost a
// scan each; a text that says how it is encoded is the one an attacker sends, since the model must be
// told how to read it.
func decodedOnRequest(text string) []reading {
	var out []reading
	// Letters substituted: ROT13, the Caesar cipher's classic shift of three, and Atbash (a for z), the
	// ciphers of CipherChat (Yuan et al. 2024) a model is asked to read.
	for _, decode := range [...]func(byte) byte{rot13Letter, caesar3Letter, atbashLetter} {
		if plain, spans := rewriteWords(text, isASCIILetterRune, func(word string) (string, bool) {
			b := []byte(word)
			for i, c := range b {
				b[i] = decode(c)
			}
			return string(b), true
		}); spans != nil {
			out = append(out, reading{plain, spans})
		}
	}
	if len(text) > 0 {
		out = append(out, reading{backwards(text), []spelledOut{{start: 0, end: len(text), joinedStart: 0, joinedEnd: len(text)}}})
	}
	// Hexadecimal ("49676e6f7265…") and bytes in binary ("01101001 01100111 …"), which a model decodes
	// as readily when told to.
	if plain, spans := rewriteWords(text, isHexRune, func(run string) (string, bool) {
		b, err := hex.DecodeString(run)
		if len(run) < 16 || err != nil || !utf8.Valid(b) || !readableText(string(b)) {
			return "", false
		}
		return " " + string(b) + " ", true
	}); spans != nil {
		out = append(out, reading{plain, spans})
	}
	if plain, spans := rewriteWords(text, isBitOrSpace, func(run string) (string, bool) {
		var b []byte
		for _, f := range strings.Fields(run) {
			n, err := strconv.ParseUint(f, 2, 8)
			if len(f) != 8 || err != nil {
				return "", false
			}
			b = append(b, byte(n))
		}
		if len(b) < 4 || !utf8.Valid(b) || !readableText(string(b)) {
			return "", false
		}
		return " " + string(b) + " ", true
	}); spans != nil {
		out = append(out, reading{plain, spans})
	}
	if plain, spans := rewriteWords(text, isMorseRune, func(run string) (string, bool) {
		decoded, ok := fromMorse(run)
		if !ok || !readableText(decoded) {
			return "", false
		}
		return " " + decoded + " ", true
	}); spans != nil {
		out = append(out, reading{plain, spans})
	}
	return out
}

// morse maps the International Morse code of each letter and digit to it.
var morse = func() map[string]byte {
	codes := [...]string{".-", "-...", "-.-.", "-..", ".", "..-.", "--.", "....", "..", ".---", "-.-", ".-..", "--",
		"-.", "---", ".--.", "--.-", ".-.", "...", "-", "..-", "...-", ".--", "-..-", "-.--", "--..",
		"-----", ".----", "..---", "...--", "....-", ".....", "-....", "--...", "---..", "----."}
	m := map[string]byte{}
	for i, c := range codes {
		if i < 26 {
			m[c] = 'a' + byte(i)
		} else {
			m[c] = '0' + byte(i-26)
		}
	}
	// Punctuation, which a sentence sent in Morse carries.
	for c, p := range map[string]byte{".-.-.-": '.', "--..--": ',', "..--..": '?', "-.-.--": '!', ".----.": '\'',
		"-....-": '-', "---...": ':', "-.-.-.": ';', ".-..-.": '"', "-.--.": '(', "-.--.-": ')'} {
		m[c] = p
	}
	return m
}()

func isMorseRune(r rune) bool { return r == '.' || r == '-' || r == ' ' || r == '/' }

// fromMorse decodes a run of Morse code, letters apart by a space and words by a slash or two spaces
// or more; ok only for five letters or more, every one a code.
func fromMorse(run string) (string, bool) {
	var b strings.Builder
	letters := 0
	for wi, word := range strings.FieldsFunc(strings.ReplaceAll(run, "  ", "/"), func(r rune) bool { return r == '/' }) {
		if wi > 0 {
			b.WriteByte(' ')
		}
		for _, code := range strings.Fields(word) {
			c, ok := morse[code]
			if !ok {
				return "", false
			}
			b.WriteByte(c)
			letters++
		}
	}
	return b.String(), letters >= 5
}

func isHexRune(r rune) bool { return r < utf8.RuneSelf && isHex(byte(r)) }

func isBitOrSpace(r rune) bool { return r == '0' || r == '1' || r == ' ' }

func isASCIILetterRune(r rune) bool { return r < utf8.RuneSelf && isASCIILetter(byte(r)) }

// rot13Letter, caesar3Letter and atbashLetter undo their ciphers on an ASCII letter, its case kept.
func rot13Letter(c byte) byte   { return shiftLetter(c, 13) }
func caesar3Letter(c byte) byte { return shiftLetter(c, 26-3) }
func atbashLetter(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return 'z' - (c - 'a')
	case c >= 'A' && c <= 'Z':
		return 'Z' - (c - 'A')
	}
	return c
}

func shiftLetter(c, by byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return 'a' + (c-'a'+by)%26
	case c >= 'A' && c <= 'Z':
		return 'A' + (c-'A'+by)%26
	}
	return c
}

// backwards returns text with its characters in reverse order: as many bytes as text, so the reading
// has the same length.
func backwards(text string) string {
	b := make([]byte, 0, len(text))
	for i := len(text); i > 0; {
		_, n := utf8.DecodeLastRuneInString(text[:i])
		b = append(b, text[i-n:i]...) // a character's bytes in their order; a stray byte alone
		i -= n
	}
	return string(b)
}

// unTagged returns text with each run of Unicode tag characters (U+E0020–U+E007E: invisible, one for
// each printable ASCII character) written as the ASCII it encodes, set apart by spaces, and where each
// run stands; nil spans when the text holds none. Instructions hidden so ("ASCII smuggling") are read by
// models and shown to no one. A flag's tags (🏴 and a region code, Scotland's "gbsct") are a flag's.
func unTagged(text string) (string, []spelledOut) {
	if !strings.Contains(text, "\xf3\xa0") { // every tag character's encoding opens so
		return text, nil
	}
	return rewriteWordsAt(text, isTagRune, func(start int, run string) (string, bool) {
		if flagsTags(text, start) {
			return "", false
		}
		b := []byte{' '}
		for _, r := range run {
			if c := r - 0xE0000; c >= 0x20 && c < 0x7F {
				b = append(b, byte(c))
			}
		}
		return string(append(b, ' ')), len(b) > 1
	})
}

func isTagRune(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

// flagsTags reports whether the run of tag characters at text[start] belongs to a subdivision flag: a
// black flag just before it.
func flagsTags(text string, start int) bool { return strings.HasSuffix(text[:start], "\U0001F3F4") }

// tagRun returns where the first run of tag characters that is not a flag's starts, or -1.
func tagRun(text string) int {
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "\xf3\xa0")
		if j < 0 {
			return -1
		}
		start := i + j
		i = start
		for i < len(text) {
			r, n := utf8.DecodeRuneInString(text[i:])
			if !isTagRune(r) {
				break
			}
			i += n
		}
		if i > start && !flagsTags(text, start) {
			return start
		}
		if i == start {
			i++
		}
	}
	return -1
}

// unSelected returns text with each run of four or more variation selectors (U+FE00–U+FE0F and
// U+E0100–U+E01EF, invisible) that spells readable text, one selector a byte (a byte under 16 is
// U+FE00 on, the others U+E0100 on), written as that text, set apart by spaces, and where each run
// stands; nil spans when none does. Text hidden so in an emoji is a model's to read and no person's to
// see; an emoji's own presentation selector is one, never a run.
func unSelected(text string) (string, []spelledOut) {
	if !mayHoldSelectors(text) {
		return text, nil
	}
	return rewriteWords(text, isSelector, func(run string) (string, bool) {
		var b []byte
		for _, r := range run {
			if r <= 0xFE0F {
				b = append(b, byte(r-0xFE00))
			} else {
				b = append(b, byte(r-0xE0100+16))
			}
		}
		if len(b) < 4 || !utf8.Valid(b) || !readableText(string(b)) {
			return "", false
		}
		return " " + string(b) + " ", true
	})
}

func isSelector(r rune) bool { return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF }

// mayHoldSelectors reports whether text holds the bytes every variation selector's encoding opens with.
func mayHoldSelectors(text string) bool {
	return strings.Contains(text, "\xef\xb8") || strings.Contains(text, "\xf3\xa0")
}

// readableText reports whether s reads as text: printable, with letters.
func readableText(s string) bool {
	letters := 0
	for _, r := range s {
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}

// selectorRun returns where the first run of four or more variation selectors starts, or -1: an emoji
// takes one, hidden bytes take a run.
func selectorRun(text string) int {
	if !mayHoldSelectors(text) {
		return -1
	}
	start, n := -1, 0
	for i, r := range text {
		if !isSelector(r) {
			n = 0
			continue
		}
		if n == 0 {
			start = i
		}
		if n++; n == 4 {
			return start
		}
	}
	return -1
}

// withoutMarkup returns text with its HTML and XML tags and comments taken out: inside a word, where they
// break it for a reader of the source and not for one of the page ("ig<b></b>nore", "ig<!---->nore"),
// with nothing in their place; between words, with a space ("<b>Ignore</b> <i>all</i>"); and where each
// stood. nil spans when the text holds none. A model reading a page's source reads through them.
func withoutMarkup(text string) (string, []spelledOut) {
	i := strings.IndexByte(text, '<')
	if i < 0 {
		return text, nil
	}
	var b strings.Builder
	var spans []spelledOut
	last := 0
	for ; i >= 0 && i < len(text); i = nextByte(text, '<', i+1) {
		end := markupEnd(text, i)
		if end < 0 {
			continue
		}
		for end < len(text) && text[end] == '<' { // a run of tags is one break: "ig<b></b>nore"
			next := markupEnd(text, end)
			if next < 0 {
				break
			}
			end = next
		}
		if spans == nil {
			b.Grow(len(text))
		}
		b.WriteString(text[last:i])
		sp := spelledOut{start: i, end: end, joinedStart: b.Len()}
		// Inside a word a tag reads as nothing; between words as a space, unless one stands beside it
		// already: "n<b></b> o" is "n o", as a page shows it.
		insideWord := wordByteBefore(b.String()) && end < len(text) && isWordByte(text[end])
		spaced := spaceBefore(b.String()) || end < len(text) && isSpace(text[end])
		if !insideWord && !spaced {
			b.WriteByte(' ')
		}
		sp.joinedEnd = b.Len()
		spans = append(spans, sp)
		last = end
		i = end - 1
	}
	if spans == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), spans
}

// markupEnd returns where the tag or comment that opens at text[i] ('<') ends, or -1 when none does: a
// comment runs to "-->", a tag is '<', an optional '/', a letter, and no '<' before its '>', within 256
// bytes.
func markupEnd(text string, i int) int {
	rest := text[i:]
	if strings.HasPrefix(rest, "<!--") {
		if j := strings.Index(rest[4:], "-->"); j >= 0 && j < 1024 {
			return i + 4 + j + 3
		}
		return -1
	}
	k := 1
	if k < len(rest) && rest[k] == '/' {
		k++
	}
	if k >= len(rest) || !isASCIILetter(rest[k]) {
		return -1
	}
	for j := k; j < len(rest) && j < 256; j++ {
		switch rest[j] {
		case '>':
			return i + j + 1
		case '<', '\n':
			return -1
		}
	}
	return -1
}

func nextByte(text string, c byte, from int) int {
	if from >= len(text) {
		return -1
	}
	if j := strings.IndexByte(text[from:], c); j >= 0 {
		return from + j
	}
	return -1
}

// wordByteBefore reports whether s ends in a letter or digit.
func wordByteBefore(s string) bool { return len(s) > 0 && isWordByte(s[len(s)-1]) }

// spaceBefore reports whether s ends in white space.
func spaceBefore(s string) bool { return len(s) > 0 && isSpace(s[len(s)-1]) }
