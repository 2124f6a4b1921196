package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentwarden/warden/ledger"
)

// The check on every request's path (issue #4 targets: ≤ 200 ns in memory; one round trip in Redis).
func BenchmarkBlocked(b *testing.B) {
	ctx := context.Background()
	m, _ := ledger.NewMemory(policy)
	for i := range 3 {
		_, _ = m.Record(ctx, "blocked-user", t0.Add(-10*time.Duration(i)))
	}
	b.Run("memory", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, _ := m.Blocked(ctx, "some-user", t0); ok {
				b.Fatal("blocked")
			}
		}
	})
	r, _ := ledger.NewRedis(policy, startRedis(b), "warden:bench:")
	b.Run("redis", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, _ := r.Blocked(ctx, "some-user", t0); ok {
				b.Fatal("blocked")
			}
		}
	})
}
