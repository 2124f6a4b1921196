package detect

import (
	"strings"
	"testing"
)

// BenchmarkHarmfulArtifactAsked is the cost of reading a request for a harmful thing by word classes, on
// requests that hold verbs of making and things (most sentences are passed over at one lookup a word).
func BenchmarkHarmfulArtifactAsked(b *testing.B) {
	texts := []string{
		strings.Repeat("Please write a short program that reads the config file and builds the index. Make sure the tests pass and give me a summary of what changed. ", 8),
		"Write a function that parses dates, then create a test file and a README section explaining the flags.",
		"Generate a report of fraudulent transactions for the auditors, and draft an email to the finance team about it.",
		"Put together a misleading press release saying our competitor's formula contains lead.",
	}
	var n int64
	for _, t := range texts {
		n += int64(len(t))
	}
	_, _, _ = harmfulArtifactAsked(texts[0]) // builds the word sets
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			harmfulArtifactAsked(t)
		}
	}
}
