package warden

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// Run guards one agent run across its turns. Its input step starts the parallel input guardrails alongside
// the model call; every later step (response, tool call, tool result, output) first waits for them, so
// nothing the model produced is released, and no tool runs, while an input guardrail is pending. A halt at
// any step cancels the run's context and every later step returns the same *TripwireError.
//
// A Run is safe for concurrent use: the tool calls of one turn may be checked at once.
type Run struct {
	e      *Engine
	info   RunInfo
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu       sync.Mutex
	parallel chan struct{} // closed when the parallel input guardrails have finished; nil if none started
	halted   chan struct{} // closed when the run halts
	results  []Evaluation
	halt     *TripwireError
}

// StartRun begins a run. The returned context is cancelled when a guardrail halts the run (its cause is the
// *TripwireError) or when Close is called; pass it to the model call so a parallel input tripwire stops it.
func (e *Engine) StartRun(ctx context.Context, info RunInfo) (*Run, context.Context) {
	rctx, cancel := context.WithCancelCause(ctx)
	return &Run{e: e, info: info, ctx: rctx, cancel: cancel, halted: make(chan struct{})}, rctx
}

// Input checks the run's input. Blocking input guardrails finish before it returns, in order, and their
// evaluations are in the outcome; parallel ones keep running on the run's context, and their evaluations
// join Results when they finish. Call the model only when Input returns no error.
func (r *Run) Input(ctx context.Context, msgs []Message) (Outcome[[]Message], error) {
	if err := r.wait(ctx); err != nil {
		return refused(r, StageInput, msgs, err)
	}
	c := InputCheck{Run: r.info, Messages: msgs}
	out, tw := r.e.inputBlockingStage(ctx, c)
	if tw != nil || len(r.e.inputParallel) == 0 {
		record(r.e, ctx, StageInput, r.info, out.Decision, out.Evaluations, c)
		var err error // not tw itself: a nil *TripwireError in an error is not a nil error
		if tw != nil {
			err = tw
		}
		return out, r.add(out.Evaluations, err)
	}
	c.Messages = out.Value
	done := make(chan struct{})
	blocking := slices.Clone(out.Evaluations)
	d := out.Decision // the goroutine must not share out, which this function goes on to change
	// The input stage's evaluations take their place in the run's results now, the parallel slots empty
	// until filled, so that stages stay in order whatever finishes first.
	r.mu.Lock()
	r.parallel = done
	base := len(r.results)
	r.results = append(r.results, blocking...)
	r.mu.Unlock()
	go func() {
		defer close(done)
		// A halt ends the run the moment it is known, even while a sibling that ignores cancellation
		// is still running: the model call is cancelled and every later step refused.
		onHalt := func(ev Evaluation) {
			r.mu.Lock()
			defer r.mu.Unlock()
			for _, b := range r.e.inputParallel {
				if b.name == ev.Guardrail {
					r.results[base+b.pos] = ev
				}
			}
			tw := newTripwire(StageInput, ev, nil)
			tw.Results = known(r.results)
			r.haltLocked(tw)
		}
		pevs, halt := runParallel(r.ctx, r.e.inputParallel, c, onHalt)
		all := r.e.mergeInput(blocking, pevs)
		if halt >= 0 {
			d = pevs[halt].Decision
		}
		record(r.e, r.ctx, StageInput, r.info, d, all, c)
		r.mu.Lock()
		copy(r.results[base:], all)
		r.mu.Unlock()
	}()
	// Only the blocking guardrails' evaluations are known yet; the parallel ones join Results.
	// (blocking belongs to the goroutine now, which merges into it: read the outcome's own slice.)
	out.Evaluations = known(out.Evaluations)
	return out, nil
}

// Wait blocks until the parallel input guardrails have finished and returns the run's tripwire, if any.
func (r *Run) Wait(ctx context.Context) error { return r.wait(ctx) }

// Response checks a model response once the input guardrails have passed.
func (r *Run) Response(ctx context.Context, resp Response) (Outcome[Response], error) {
	return gated(r, ctx, StageResponse, resp, func() (Outcome[Response], error) {
		return r.e.CheckResponse(ctx, ResponseCheck{Run: r.info, Response: resp})
	})
}

// ToolCall authorizes a tool call once the input guardrails have passed. Run the tool only when the
// outcome is Allowed and there is no error; otherwise give the model Outcome.Message as the tool's result.
func (r *Run) ToolCall(ctx context.Context, call ToolCall) (Outcome[ToolCall], error) {
	return gated(r, ctx, StageToolCall, call, func() (Outcome[ToolCall], error) {
		return r.e.CheckToolCall(ctx, ToolCallCheck{Run: r.info, Call: call})
	})
}

// ToolResult checks a tool's result once the input guardrails have passed.
func (r *Run) ToolResult(ctx context.Context, call ToolCall, result ToolResult) (Outcome[ToolResult], error) {
	return gated(r, ctx, StageToolResult, result, func() (Outcome[ToolResult], error) {
		return r.e.CheckToolResult(ctx, ToolResultCheck{Run: r.info, Call: call, Result: result})
	})
}

// Output checks the run's final output once the input guardrails have passed.
func (r *Run) Output(ctx context.Context, msg Message) (Outcome[Message], error) {
	return gated(r, ctx, StageOutput, msg, func() (Outcome[Message], error) {
		return r.e.CheckOutput(ctx, OutputCheck{Run: r.info, Output: msg})
	})
}

// Results returns every evaluation of the run so far: stages in the order they ran, guardrails within a
// stage in definition order. Parallel input guardrails appear once they have finished; Close waits for them.
func (r *Run) Results() []Evaluation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return known(r.results)
}

// known copies the evaluations that have happened, leaving out the slots of guardrails still running.
func known(evs []Evaluation) []Evaluation {
	out := make([]Evaluation, 0, len(evs))
	for _, ev := range evs {
		if ev.Status != 0 {
			out = append(out, ev)
		}
	}
	return out
}

// Close ends the run: it cancels the run's context and waits for parallel input guardrails to return.
func (r *Run) Close() {
	r.cancel(nil)
	r.mu.Lock()
	done := r.parallel
	r.mu.Unlock()
	if done != nil {
		<-done
	}
}

func gated[T any](r *Run, ctx context.Context, s Stage, subject T, check func() (Outcome[T], error)) (Outcome[T], error) {
	if err := r.wait(ctx); err != nil {
		return refused(r, s, subject, err)
	}
	out, err := check()
	return out, r.add(out.Evaluations, err)
}

// refused answers a step the run cannot take (it halted, or the caller gave up while waiting): the subject
// is denied, and its stage's guardrails are recorded as skipped so the run's results still show them.
func refused[T any](r *Run, s Stage, subject T, err error) (Outcome[T], error) {
	why := "run halted"
	var tw *TripwireError
	if !errors.As(err, &tw) {
		why = "run cancelled: " + err.Error()
	}
	evs := r.e.skipStage(s, why)
	r.mu.Lock()
	r.results = append(r.results, evs...)
	r.mu.Unlock()
	return Outcome[T]{Stage: s, Value: subject, Evaluations: evs}, err
}

func (r *Run) wait(ctx context.Context) error {
	r.mu.Lock()
	done := r.parallel
	r.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-r.halted:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.halt != nil {
		return r.halt
	}
	return nil
}

// add appends a step's evaluations; on the run's first tripwire it stamps every result so far on the
// error and cancels the run.
func (r *Run) add(evs []Evaluation, err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results = append(r.results, evs...)
	var tw *TripwireError
	if !errors.As(err, &tw) || tw == nil {
		return err
	}
	if r.halt == nil {
		tw.Results = known(r.results)
		r.haltLocked(tw)
	}
	return tw
}

// haltLocked records the run's tripwire, refuses every later step and cancels the run. r.mu is held.
func (r *Run) haltLocked(tw *TripwireError) {
	if r.halt != nil {
		return
	}
	r.halt = tw
	close(r.halted)
	r.cancel(tw)
}

// skipStage records every guardrail of a stage as skipped, for a subject the stage never looked at.
func (e *Engine) skipStage(s Stage, why string) []Evaluation {
	switch s {
	case StageInput:
		all := make([]Evaluation, e.inputCount)
		for i, ev := range skipAll(e.inputBlocking, why) {
			all[e.inputBlocking[i].pos] = ev
		}
		for i, ev := range skipAll(e.inputParallel, why) {
			all[e.inputParallel[i].pos] = ev
		}
		return all
	case StageResponse:
		return skipAll(e.response, why)
	case StageToolCall:
		return skipAll(e.toolCall, why)
	case StageToolResult:
		return skipAll(e.toolResult, why)
	case StageOutput:
		return skipAll(e.output, why)
	case StageStream:
		return skipAll(e.stream, why)
	}
	return nil
}

func skipAll[C any](list []bound[C], why string) []Evaluation {
	evs := make([]Evaluation, len(list))
	for i := range list {
		evs[i] = list[i].skipped(why)
	}
	return evs
}
