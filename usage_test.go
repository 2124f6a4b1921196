package warden_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/agentwarden/warden"
)

type counting struct {
	warden.InputGuardrailFunc
	n     *atomic.Int64
	panic bool
}

func (c counting) ObserveUsage(_ context.Context, _ warden.RunInfo, u warden.Usage) {
	c.n.Add(u.Total())
	if c.panic {
		panic("observer bug")
	}
}

func TestObserveUsage(t *testing.T) {
	t.Parallel()
	allow := warden.InputGuardrailFunc(func(context.Context, warden.InputCheck) (warden.Decision, error) { return warden.Allow(), nil })
	tests := []struct {
		desc  string
		build func(n *atomic.Int64) warden.Spec
		want  int64
	}{
		{"an observer hears each call's usage", func(n *atomic.Int64) warden.Spec {
			return warden.Spec{Input: []warden.Entry{{Name: "o", Guardrail: &counting{allow, n, false}}}}
		}, 30},
		{"one observer listed at two stages hears once", func(n *atomic.Int64) warden.Spec {
			o := &counting{allow, n, false}
			return warden.Spec{Input: []warden.Entry{{Name: "a", Guardrail: o}, {Name: "b", Guardrail: o}}}
		}, 30},
		{"an observer that is off hears nothing", func(n *atomic.Int64) warden.Spec {
			return warden.Spec{Input: []warden.Entry{{Name: "o", Guardrail: &counting{allow, n, false}, Options: warden.Options{Mode: warden.ModeOff}}}}
		}, 0},
		{"a panicking observer does not keep the next from hearing", func(n *atomic.Int64) warden.Spec {
			return warden.Spec{Input: []warden.Entry{{Name: "bad", Guardrail: &counting{allow, n, true}}, {Name: "good", Guardrail: &counting{allow, n, false}}}}
		}, 60},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int64
			e := mustEngine(t, tt.build(&n))
			e.ObserveUsage(context.Background(), warden.RunInfo{}, warden.Usage{InputTokens: 20, OutputTokens: 10})
			e.ObserveUsage(context.Background(), warden.RunInfo{}, warden.Usage{}) // nothing reported: nothing heard
			if got := n.Load(); got != tt.want {
				t.Errorf("observed %d tokens, want %d", got, tt.want)
			}
		})
	}
}
