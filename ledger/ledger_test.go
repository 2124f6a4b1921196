package ledger_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/internal/redistest"
	"github.com/agentwarden/warden/ledger"
	"github.com/redis/go-redis/v9"
)

var policy = ledger.Policy{MaxViolations: 3, Window: 10 * time.Minute, BlockFor: time.Hour}

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func startRedis(t testing.TB) *redis.Client {
	_, c := redistest.Start(t)
	return c
}

func backends(t *testing.T) map[string]func(t *testing.T) ledger.Ledger {
	return map[string]func(t *testing.T) ledger.Ledger{
		"memory": func(t *testing.T) ledger.Ledger {
			m, err := ledger.NewMemory(policy)
			if err != nil {
				t.Fatal(err)
			}
			return m
		},
		"redis": func(t *testing.T) ledger.Ledger {
			r, err := ledger.NewRedis(policy, startRedis(t), fmt.Sprintf("warden:test:%s:", t.Name()))
			if err != nil {
				t.Fatal(err)
			}
			return r
		},
	}
}

func TestLedger(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		desc string
		run  func(t *testing.T, l ledger.Ledger)
	}{
		{"a user with no violations is not blocked", func(t *testing.T, l ledger.Ledger) {
			if _, blocked, err := l.Blocked(ctx, "u1", t0); err != nil || blocked {
				t.Errorf("blocked %v (%v)", blocked, err)
			}
		}},
		{"fewer violations than the limit do not block", func(t *testing.T, l ledger.Ledger) {
			for i := range 2 {
				if until, err := l.Record(ctx, "u1", t0.Add(time.Duration(i)*time.Minute)); err != nil || !until.IsZero() {
					t.Fatalf("record %d: until %v (%v)", i, until, err)
				}
			}
			if _, blocked, _ := l.Blocked(ctx, "u1", t0.Add(3*time.Minute)); blocked {
				t.Error("blocked after 2 of 3")
			}
		}},
		{"the limit within the window blocks for block_for", func(t *testing.T, l ledger.Ledger) {
			var until time.Time
			for i := range 3 {
				until, _ = l.Record(ctx, "u1", t0.Add(time.Duration(i)*time.Minute))
			}
			if want := t0.Add(2*time.Minute + time.Hour); !until.Equal(want) {
				t.Errorf("until %v, want %v", until, want)
			}
			if u, blocked, _ := l.Blocked(ctx, "u1", t0.Add(30*time.Minute)); !blocked || !u.Equal(until) {
				t.Errorf("blocked %v until %v", blocked, u)
			}
		}},
		{"the block ends after block_for", func(t *testing.T, l ledger.Ledger) {
			for i := range 3 {
				_, _ = l.Record(ctx, "u1", t0.Add(time.Duration(i)*time.Second))
			}
			if _, blocked, _ := l.Blocked(ctx, "u1", t0.Add(time.Hour+time.Minute)); blocked {
				t.Error("still blocked after block_for")
			}
		}},
		{"violations outside the window do not count", func(t *testing.T, l ledger.Ledger) {
			_, _ = l.Record(ctx, "u1", t0)
			_, _ = l.Record(ctx, "u1", t0.Add(time.Minute))
			if until, _ := l.Record(ctx, "u1", t0.Add(11*time.Minute)); !until.IsZero() {
				t.Errorf("blocked by violations older than the window: until %v", until)
			}
		}},
		{"users are counted apart", func(t *testing.T, l ledger.Ledger) {
			for i := range 3 {
				_, _ = l.Record(ctx, "u1", t0.Add(time.Duration(i)*time.Second))
			}
			if _, blocked, _ := l.Blocked(ctx, "u2", t0.Add(time.Minute)); blocked {
				t.Error("another user is blocked")
			}
		}},
		{"status reports violations in the window and the block", func(t *testing.T, l ledger.Ledger) {
			for i := range 3 {
				_, _ = l.Record(ctx, "u1", t0.Add(time.Duration(i)*time.Minute))
			}
			s, err := l.Status(ctx, "u1", t0.Add(5*time.Minute))
			if err != nil || s.Violations != 3 || !s.BlockedUntil.Equal(t0.Add(2*time.Minute+time.Hour)) {
				t.Errorf("status %+v (%v)", s, err)
			}
			if s, _ := l.Status(ctx, "u1", t0.Add(20*time.Minute)); s.Violations != 0 {
				t.Errorf("violations outside the window still counted: %+v", s)
			}
		}},
		{"clear lifts the block and forgets the violations", func(t *testing.T, l ledger.Ledger) {
			for i := range 3 {
				_, _ = l.Record(ctx, "u1", t0.Add(time.Duration(i)*time.Second))
			}
			if err := l.Clear(ctx, "u1"); err != nil {
				t.Fatal(err)
			}
			if s, _ := l.Status(ctx, "u1", t0.Add(time.Minute)); s.Violations != 0 || !s.BlockedUntil.IsZero() {
				t.Errorf("after clear: %+v", s)
			}
		}},
	}
	for name, newLedger := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, tt := range tests {
				t.Run(tt.desc, func(t *testing.T) {
					tt.run(t, newLedger(t))
				})
			}
		})
	}
}

func TestPolicyValidation(t *testing.T) {
	t.Parallel()
	for _, p := range []ledger.Policy{{MaxViolations: 0, Window: time.Minute, BlockFor: time.Minute}, {MaxViolations: 1, BlockFor: time.Minute}, {MaxViolations: 1, Window: time.Minute}} {
		if _, err := ledger.NewMemory(p); err == nil {
			t.Errorf("policy %+v accepted", p)
		}
	}
}

func TestUserIDsAreNotStoredInRedis(t *testing.T) {
	t.Parallel()
	c := startRedis(t)
	r, err := ledger.NewRedis(policy, c, "warden:ledger:")
	if err != nil {
		t.Fatal(err)
	}
	const user = "alice@example.com"
	if _, err := r.Record(context.Background(), user, t0); err != nil {
		t.Fatal(err)
	}
	keys, _ := c.Keys(context.Background(), "*").Result()
	for _, k := range keys {
		if strings.Contains(k, "alice") {
			t.Errorf("a key holds the user id: %s", k)
		}
	}
	if len(keys) == 0 {
		t.Error("nothing was stored")
	}
}
