package redact

import (
	"strings"
	"testing"
)

// FuzzTriggersFindEveryAnchor holds triggersOf's scan (a pair of bytes, then the anchors that pair
// opens) to the plain answer: a detector is anchored when the text contains one of its anchors.
func FuzzTriggersFindEveryAnchor(f *testing.F) {
	f.Add("export OPENAI_API_KEY=sk-proj-abc and a key-1234 for mailgun")
	f.Add("like make shake dapi do dop_v1_x glpat- ghp_ SK0123 hf_x xoxb-")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		var want uint32
		for k, a := range anchorTerms {
			if strings.Contains(text, a) {
				want |= anchorOwners[k]
			}
		}
		if got := triggersOf(text).anchored; got != want {
			t.Fatalf("triggersOf(%q).anchored = %b, want %b", text, got, want)
		}
	})
}
