package warden_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentwarden/warden"
)

func BenchmarkFloorInterfaceCalls8(b *testing.B) {
	gs := make([]warden.ToolCallGuardrail, 8)
	for i := range gs {
		gs[i] = noop{}
	}
	c := warden.ToolCallCheck{Call: bashCall}
	ctx := context.Background()
	b.Run("calls", func(b *testing.B) {
		for b.Loop() {
			for _, g := range gs {
				if d, _ := g.CheckToolCall(ctx, c); d.Action != warden.ActionAllow {
					b.Fatal()
				}
			}
		}
	})
	b.Run("calls+clock", func(b *testing.B) {
		start := time.Now()
		var total time.Duration
		for b.Loop() {
			for _, g := range gs {
				if d, _ := g.CheckToolCall(ctx, c); d.Action != warden.ActionAllow {
					b.Fatal()
				}
				total += time.Since(start)
			}
		}
		_ = total
	})
}
