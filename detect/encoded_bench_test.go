package detect

import (
	"strings"
	"testing"
)

// BenchmarkHasBase64Run is the check every text passes before base64 is looked for: a byte table read
// at every 24th byte first (longRuns), against the plain loop over every byte with comparisons.
func BenchmarkHasBase64Run(b *testing.B) {
	text := strings.Repeat("The agent read the file at /home/user/notes.txt and found 3 TODO items, then ran go test ./... again. ", 40)
	b.Run("skipping", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if hasBase64Run(text) {
				b.Fatal("found a run")
			}
		}
	})
	b.Run("comparisons", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if hasBase64RunCompared(text) {
				b.Fatal("found a run")
			}
		}
	})
}

// BenchmarkHasCodeRun is the check every text passes before byte codes are looked for, against the
// plain loop over every byte.
func BenchmarkHasCodeRun(b *testing.B) {
	text := strings.Repeat("The build finished in 42 seconds; three tests failed and I fixed the fixture paths before rerunning them. ", 40)
	b.Run("skipping", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if hasCodeRun(text) {
				b.Fatal("found a run")
			}
		}
	})
	b.Run("every byte", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if hasCodeRunPlain(text) {
				b.Fatal("found a run")
			}
		}
	})
}

// hasBase64RunCompared is hasBase64Run as a loop over every byte with comparisons: the plain way it is
// measured against and held to (FuzzHasBase64RunMatchesComparisons).
func hasBase64RunCompared(text string) bool {
	run, mixed, upper := 0, 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
			run, mixed, upper = 0, 0, 0
			continue
		}
		switch {
		case c >= 'a' && c <= 'z':
			upper = 0
		case c >= 'A' && c <= 'Z' || c >= '2' && c <= '7' || c == '=':
			mixed++
			upper++
		default:
			mixed++
			upper = 0
		}
		run++
		if run >= minBase64 && mixed > 0 && mixed < run || upper >= minBase32 {
			return true
		}
	}
	return false
}

// hasCodeRunPlain is hasCodeRun as a loop over every byte (FuzzHasCodeRunMatchesEveryByte).
func hasCodeRunPlain(text string) bool {
	run, digits := 0, 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		isDigit := c >= '0' && c <= '9'
		if !(isDigit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || strings.IndexByte(" \t\n\r,:;=\\xX", c) >= 0) {
			run, digits = 0, 0
			continue
		}
		if isDigit {
			digits++
		}
		run++
		if run >= minCodeRun && digits >= 8 {
			return true
		}
	}
	return false
}
