package warden_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentwarden/warden"
)

// noop allows every call: the benchmark measures the engine, not a policy.
type noop struct{}

func (noop) CheckToolCall(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}

func BenchmarkCheckToolCall(b *testing.B) {
	for _, n := range []int{1, 8} {
		entries := make([]warden.Entry, n)
		for i := range entries {
			entries[i] = warden.Entry{Name: fmt.Sprintf("noop%d", i), Guardrail: noop{}}
		}
		e, err := warden.NewEngine(warden.Spec{ToolCall: entries})
		if err != nil {
			b.Fatal(err)
		}
		c := warden.ToolCallCheck{Call: bashCall, Run: warden.RunInfo{AgentID: "agent", RunID: "run"}}
		ctx := context.Background()
		b.Run(fmt.Sprintf("guardrails=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := e.CheckToolCall(ctx, c)
				if err != nil || !out.Allowed() {
					b.Fatal("denied")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/guardrail")
		})
	}
}

func BenchmarkRunToolCall(b *testing.B) {
	entries := make([]warden.Entry, 8)
	for i := range entries {
		entries[i] = warden.Entry{Name: fmt.Sprintf("noop%d", i), Guardrail: noop{}}
	}
	e, _ := warden.NewEngine(warden.Spec{ToolCall: entries})
	b.ReportAllocs()
	for b.Loop() {
		run, ctx := e.StartRun(context.Background(), warden.RunInfo{})
		if _, err := run.ToolCall(ctx, bashCall); err != nil {
			b.Fatal(err)
		}
		run.Close()
	}
}
