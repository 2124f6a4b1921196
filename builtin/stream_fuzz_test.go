package builtin_test

import (
	"errors"
	"sort"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/internal/streamtest"
	"github.com/agentwarden/warden/stream"
)

// cutsOf turns fuzz bytes into increasing cut offsets inside text.
func cutsOf(text string, seed []byte) []int {
	var cuts []int
	for _, b := range seed {
		if len(text) > 1 {
			cuts = append(cuts, 1+int(b)%(len(text)-1))
		}
	}
	sort.Ints(cuts)
	return cuts
}

// outcome names how a run ended, for comparing runs: done, halted or another error.
func outcome(err error) string {
	var tw *warden.TripwireError
	var ex *stream.RetriesExhaustedError
	switch {
	case err == nil:
		return "done"
	case errors.As(err, &tw):
		return "halted by " + tw.Guardrail
	case errors.As(err, &ex):
		return "retries exhausted"
	}
	return err.Error()
}

// FuzzTextGuardrailsTogetherAreSplitInvariant holds the built-in text stream guardrails, run together, to
// the stream stage's promise: however the same text is cut into deltas, the client receives the same text
// (and a halt halts whatever the cut), which is the text released when it arrives in one delta.
func FuzzTextGuardrailsTogetherAreSplitInvariant(f *testing.F) {
	e := pipelinetest.TextGuardrails(f)
	for _, s := range []struct {
		text string
		cuts []byte
	}{
		{"Mail bob@example.com or call +1 415 555 0100 about TICKET-1234.", []byte{3, 9, 17, 40, 52}},
		{"Card 4111 1111 1111 1111, key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD.", []byte{6, 7, 8, 30, 31}},
		{"Please do not say this to anyone.", []byte{10, 12, 14}},
		{"No secrets here, just prose. And more prose!", []byte{1, 2, 3, 4, 5}},
		{"TICKET-12345 and TICKET-999 and a forbidden phrase.", []byte{5, 9, 11, 40}},
		{"ünïcödé bob@exämple.com 🙂 end", []byte{1, 2, 3, 4, 20, 27}},
	} {
		f.Add(s.text, s.cuts)
	}
	f.Fuzz(func(t *testing.T, text string, seed []byte) {
		whole, wholeErr := streamtest.Run(e, text, nil, 0, "")
		split, splitErr := streamtest.Run(e, text, cutsOf(text, seed), 0, "")
		if outcome(wholeErr) != outcome(splitErr) {
			t.Fatalf("whole: %s; cut: %s", outcome(wholeErr), outcome(splitErr))
		}
		if wholeErr == nil && split != whole {
			t.Fatalf("cut into deltas the client gets %q; in one delta %q", split, whole)
		}
	})
}
