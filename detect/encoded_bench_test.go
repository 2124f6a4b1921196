package detect

import (
	"strings"
	"testing"
)

// BenchmarkHasBase64Run is the check every text passes before base64 is looked for: a byte table
// (isBase64Byte's) against the comparisons it replaced.
func BenchmarkHasBase64Run(b *testing.B) {
	text := strings.Repeat("The agent read the file at /home/user/notes.txt and found 3 TODO items, then ran go test ./... again. ", 40)
	b.SetBytes(int64(len(text)))
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			if hasBase64Run(text) {
				b.Fatal("found a run")
			}
		}
	})
	b.Run("comparisons", func(b *testing.B) {
		for b.Loop() {
			if hasBase64RunCompared(text) {
				b.Fatal("found a run")
			}
		}
	})
}

// hasBase64RunCompared is hasBase64Run with comparisons in place of the table: the plain way the table is
// measured against and held to (FuzzHasBase64RunMatchesComparisons).
func hasBase64RunCompared(text string) bool {
	run, mixed := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
			run, mixed = 0, 0
			continue
		}
		if c < 'a' || c > 'z' {
			mixed++
		}
		run++
		if run >= minBase64 && mixed > 0 && mixed < run {
			return true
		}
	}
	return false
}
