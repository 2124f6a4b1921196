package ahocorasick_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/ahocorasick"
)

// BenchmarkFind500 scans 4 KB of prose that holds none of 500 phrases: the common case of blocked_terms.
func BenchmarkFind500(b *testing.B) {
	terms := make([]string, 500)
	for i := range terms {
		terms[i] = fmt.Sprintf("restricted phrase %03d", i)
	}
	m := ahocorasick.Compile(terms)
	text := strings.Repeat("The build finished in 42 seconds; three tests failed and I fixed the fixture paths. ", 48)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, ok := m.Find(text); ok {
			b.Fatal("found a phrase")
		}
	}
}
