package redact_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/guardrail/redact"
)

// prose is model output of the ordinary kind: words, punctuation, a few numbers, no personal data.
var prose = strings.Repeat("The build finished in 42 seconds. Three tests failed because the fixture path changed; "+
	"I updated the paths in config.yaml and re-ran them, and all 1,204 tests pass now. Next, I will look at the "+
	"flaky network test, which times out about once in fifty runs on the CI machines. ", 16)

// BenchmarkRedactProse streams prose through the runner with the redact guardrail, in 24-byte deltas.
func BenchmarkRedactProse(b *testing.B) {
	r := provisioned(b, &redact.Redact{})
	var cuts []int
	for i := 24; i < len(prose); i += 24 {
		cuts = append(cuts, i)
	}
	b.SetBytes(int64(len(prose)))
	b.ReportAllocs()
	for b.Loop() {
		if got := through(b, r, prose, cuts); len(got) != len(prose) {
			b.Fatalf("prose changed: %d bytes of %d", len(got), len(prose))
		}
	}
}

// BenchmarkRedactWhole is the detectors alone: one text redacted at once.
func BenchmarkRedactWhole(b *testing.B) {
	r := provisioned(b, &redact.Redact{})
	b.SetBytes(int64(len(prose)))
	b.ReportAllocs()
	for b.Loop() {
		through(b, r, prose, nil)
	}
}
