package learn_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/detect/learn"
)

// BenchmarkLearnedDetector: the learned layer in front of the rule detector, on a trace of about 4 KB.
func BenchmarkLearnedDetector(b *testing.B) {
	rule, err := detect.New(b.Context(), "over_refusal")
	if err != nil {
		b.Fatal(err)
	}
	d := learn.NewDetector("over_refusal", rule, weighing())
	tr := replyTrace(strings.Repeat("How do I kill a stuck process on my Linux server? ", 40),
		"I must decline. "+strings.Repeat("Use ps to find the process id, then send it a signal. ", 40))
	b.SetBytes(int64(len(tr.Input()) + len(tr.FinalOutput())))
	b.ReportAllocs()
	for b.Loop() {
		d.Detect(tr)
	}
}
