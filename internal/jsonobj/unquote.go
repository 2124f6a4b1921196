package jsonobj

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

var errBadString = errors.New("invalid JSON string")

// unquote returns the text of a valid JSON string (quotes included in quoted) as json.Unmarshal into a
// string gives it: escapes decoded, an unpaired surrogate and each byte of invalid UTF-8 replaced by
// U+FFFD. Most strings have neither and are copied as they are.
func unquote(quoted []byte) (string, error) {
	if len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return "", errBadString
	}
	s := quoted[1 : len(quoted)-1]
	i := plainFrom(s, 0)
	if i == len(s) && utf8.Valid(s) {
		return string(s), nil
	}
	// Slow path: escapes or invalid UTF-8.
	out := appendValidUTF8(make([]byte, 0, len(s)+utf8.UTFMax), s[:i])
	for i < len(s) {
		if s[i] != '\\' || i+1 == len(s) {
			return "", errBadString // a quote or a control character: not a valid string
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(s[i+2:])
			if !ok {
				return "", errBadString
			}
			i += 4 // and 2 below
			if utf16.IsSurrogate(r) {
				// A pair is two escapes; anything else leaves this half alone, replaced.
				low, ok := escapedRune(s[i+2:])
				if pair := utf16.DecodeRune(r, low); ok && pair != utf8.RuneError {
					r = pair
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", errBadString
		}
		i += 2
		j := plainFrom(s, i)
		out = appendValidUTF8(out, s[i:j])
		i = j
	}
	return string(out), nil
}

// appendValidUTF8 appends s with each byte of invalid UTF-8 replaced by U+FFFD, as encoding/json does.
func appendValidUTF8(out, s []byte) []byte {
	for len(s) > 0 {
		if s[0] < utf8.RuneSelf {
			out = append(out, s[0])
			s = s[1:]
			continue
		}
		r, size := utf8.DecodeRune(s)
		out = utf8.AppendRune(out, r) // RuneError for an invalid byte, which is U+FFFD
		s = s[size:]
	}
	return out
}

// escapedRune reads a \uXXXX escape at the start of s.
func escapedRune(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	return hex4(s[2:])
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unquoteName returns a member name's text (quoted is its JSON string): the bytes inside the quotes when
// they are the text, without a copy, or else the text decoded.
func unquoteName(quoted []byte) ([]byte, error) {
	if len(quoted) >= 2 && quoted[0] == '"' && quoted[len(quoted)-1] == '"' {
		inside := quoted[1 : len(quoted)-1]
		if plainFrom(inside, 0) == len(inside) && utf8.Valid(inside) {
			return inside[:len(inside):len(inside)], nil
		}
	}
	s, err := unquote(quoted)
	return []byte(s), err
}

// appendName appends name as a JSON string, as json.Marshal writes a string: as it is when it is printable
// ASCII that needs no escape (HTML's <, > and & included, which json.Marshal escapes), or else through
// encoding/json.
func appendName[T string | []byte](b []byte, name T) []byte {
	for i := range len(name) {
		if c := name[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(string(name))
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"')
}

// equalFold says whether name matches key as encoding/json matches a member to a field, case-insensitively
// (strings.EqualFold): by ASCII case alone, without a copy, when both are ASCII.
func equalFold(name []byte, key string) bool {
	if len(name) == len(key) {
		for i := range len(name) {
			a, b := name[i], key[i]
			if a|b >= utf8.RuneSelf {
				return strings.EqualFold(string(name), key)
			}
			if a != b && lowerASCII(a) != lowerASCII(b) {
				return false
			}
		}
		return true
	}
	if isASCII(name) && isASCII(key) {
		return false // ASCII folds only to ASCII of the same length
	}
	return strings.EqualFold(string(name), key)
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII[T string | []byte](s T) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
