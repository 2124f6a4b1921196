package detect

import (
	"strings"
	"testing"
)

// BenchmarkPossessorReadings reads 2 KB of a request with no possessor (the usual case: one search
// for "'s ") and with possessors in it.
func BenchmarkPossessorReadings(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"none", strings.Repeat("Please summarize the attached quarterly report and list the three largest risks. ", 25)},
		{"possessors", strings.Repeat("Can you help me plan my grandma's birthday and book her sister's flight? ", 28)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				possessorReadings(bc.text)
			}
		})
	}
}
