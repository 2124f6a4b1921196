package session_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/guardrail/session"
)

// BenchmarkControls is what each control adds to the stage it runs at, counting in memory.
func BenchmarkControls(b *testing.B) {
	ctx := context.Background()
	run := warden.RunInfo{RunID: "bench-run", UserID: "bench-user"}
	call := warden.ToolCallCheck{Run: run, Call: warden.NewToolCall("c", "bash", []byte(`{"command":"go test ./...","timeout":120}`))}
	budget := &session.CallBudget{MaxCalls: 1 << 40, Counter: "bench"}
	loop := &session.LoopBreaker{MaxRepeats: 1 << 40, Counter: "bench"}
	rate := &session.RateLimit{Requests: 1000, Every: warden.Duration(1e9), Burst: 1 << 30, Counter: "bench"}
	for _, p := range []warden.Provisioner{budget, loop, rate} {
		if err := p.Provision(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("call_budget", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			budget.CheckToolCall(ctx, call)
		}
	})
	b.Run("loop_breaker", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			loop.CheckToolCall(ctx, call)
		}
	})
	b.Run("rate_limit", func(b *testing.B) {
		b.ReportAllocs()
		in := warden.InputCheck{Run: run}
		for b.Loop() {
			rate.CheckInput(ctx, in)
		}
	})
}
