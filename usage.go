package warden

import "context"

// Usage is what a model call cost in tokens, as the provider reported it. Cached and reasoning tokens are
// counted where the provider bills them: input for cache reads and writes, output for reasoning.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
}

// Total is input and output together.
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }

// IsZero reports whether the provider reported nothing.
func (u Usage) IsZero() bool { return u.InputTokens == 0 && u.OutputTokens == 0 }

// UsageObserver is optional for a guardrail of any stage: it hears what each model call of a run cost,
// once the surface has read it from the provider's answer (a whole body's usage field, a stream's usage
// events). A token budget counts with it and refuses at its own stage once the budget is spent. It is
// called after the answer, so it cannot change it; it must be quick and safe for concurrent use.
type UsageObserver interface {
	ObserveUsage(ctx context.Context, run RunInfo, u Usage)
}

// ObserveUsage tells every guardrail that observes usage (see UsageObserver), and is not off, what one
// model call of the run cost. A panic in one is recovered and does not keep the others from hearing.
func (e *Engine) ObserveUsage(ctx context.Context, run RunInfo, u Usage) {
	if u.IsZero() {
		return
	}
	for _, o := range e.usage {
		func() {
			defer func() { _ = recover() }()
			o.ObserveUsage(context.WithoutCancel(ctx), run, u)
		}()
	}
}

// ObservesUsage reports whether any guardrail observes usage, so that a surface reads it only then.
func (e *Engine) ObservesUsage() bool { return len(e.usage) > 0 }
