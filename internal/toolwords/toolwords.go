// Package toolwords splits tool names into lower-case words, so that policies and detectors read
// "GmailSendEmail", "gmail.send_email" and "gmail-send-email" alike: every character that is not a letter
// or a digit separates words, and so do camelCase humps ("HTTPServerStart" is http, server, start).
package toolwords

import (
	"strings"
	"unicode"
)

// Split returns the lower-case words of a name.
func Split(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}
