package stream_test

import (
	"context"
	"iter"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/stream"
)

// deltas is a source of n text deltas and a finish, built once.
func deltas(n int, delta string) stream.Source {
	return func(context.Context, *stream.Correction) iter.Seq2[warden.Part, error] {
		return func(yield func(warden.Part, error) bool) {
			for range n {
				if !yield(warden.Part{Kind: warden.PartText, Text: delta}, nil) {
					return
				}
			}
			yield(warden.Part{Kind: warden.PartFinish, Finish: warden.FinishStop}, nil)
		}
	}
}

// BenchmarkPartOverhead is the runner's own cost per part with no stream guardrails.
func BenchmarkPartOverhead(b *testing.B) {
	e, err := warden.NewEngine(warden.Spec{})
	if err != nil {
		b.Fatal(err)
	}
	r := &stream.Runner{Engine: e}
	const n = 1000
	src := deltas(n, "token ")
	b.ReportAllocs()
	for b.Loop() {
		if err := r.Run(context.Background(), stream.Info{}, src, func(warden.Part) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(n+1)), "ns/part")
}

// lookBehind holds a fixed 64 bytes back, as a pattern guardrail with a 64-byte window does.
type lookBehind struct{}

func (lookBehind) CheckPart(context.Context, warden.PartCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}
func (lookBehind) Holdback(pending string) int { return min(64, len(pending)) }

// BenchmarkFirstDelta is the time to first token a 64-byte look-behind adds: one typical first delta of
// 120 bytes through the runner until its releasable part is emitted.
func BenchmarkFirstDelta(b *testing.B) {
	e, err := warden.NewEngine(warden.Spec{Stream: []warden.Entry{{Name: "window", Guardrail: lookBehind{}}}})
	if err != nil {
		b.Fatal(err)
	}
	r := &stream.Runner{Engine: e}
	first := "Sure! Here is a short summary of the report you asked for, with the three main findings first and the details after."
	src := func(context.Context, *stream.Correction) iter.Seq2[warden.Part, error] {
		return func(yield func(warden.Part, error) bool) { yield(warden.Part{Kind: warden.PartText, Text: first}, nil) }
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Run(context.Background(), stream.Info{}, src, func(warden.Part) error { return nil }) // ends incomplete: the first delta only
	}
}
