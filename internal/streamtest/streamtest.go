// Package streamtest streams text through the stream runner the way the stream guardrails' tests need:
// cut into deltas at chosen offsets, with a retry answered by a fixed text. For tests only.
package streamtest

import (
	"context"
	"iter"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/stream"
)

// Run streams text, cut at cuts and then finished, through a runner on e allowing maxRetries; each retry's
// attempt yields retryText and a finish. It returns the text the client receives and the runner's error.
func Run(e *warden.Engine, text string, cuts []int, maxRetries int, retryText string) (string, error) {
	src := func(_ context.Context, c *stream.Correction) iter.Seq2[warden.Part, error] {
		return func(yield func(warden.Part, error) bool) {
			if c != nil {
				if yield(warden.Part{Kind: warden.PartText, Text: retryText}, nil) {
					yield(warden.Part{Kind: warden.PartFinish, Finish: warden.FinishStop}, nil)
				}
				return
			}
			last := 0
			for _, k := range append(cuts, len(text)) {
				if k > last && k <= len(text) {
					if !yield(warden.Part{Kind: warden.PartText, Text: text[last:k]}, nil) {
						return
					}
					last = k
				}
			}
			yield(warden.Part{Kind: warden.PartFinish, Finish: warden.FinishStop}, nil)
		}
	}
	var out strings.Builder
	err := (&stream.Runner{Engine: e, MaxRetries: maxRetries}).Run(context.Background(), stream.Info{}, src, func(p warden.Part) error {
		out.WriteString(p.Text)
		return nil
	})
	return out.String(), err
}

// EveryCut cuts text into one-byte deltas.
func EveryCut(text string) []int {
	cuts := make([]int, 0, len(text))
	for i := 1; i < len(text); i++ {
		cuts = append(cuts, i)
	}
	return cuts
}
