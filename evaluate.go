package warden

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"
	"unsafe"
)

// bound is one configured guardrail, prepared for its stage: the check is the stage method of the
// guardrail, taken once at NewEngine so the hot path makes no type assertion.
type bound[C any] struct {
	name   string
	module string
	stage  Stage
	pos    int // definition position within the stage
	opts   Options
	g      stageGuardrail
}

// stageGuardrail holds a guardrail as the interface of its stage; exactly one field is set. Calling the
// interface directly (rather than through a method value) saves a call hop that copies the subject.
type stageGuardrail struct {
	input      InputGuardrail
	response   ResponseGuardrail
	toolCall   ToolCallGuardrail
	toolResult ToolResultGuardrail
	output     OutputGuardrail
	stream     StreamGuardrail
}

// check calls the guardrail's stage method. The subject travels by pointer down to here and is copied once,
// into the guardrail's own call; a pointer handed to the guardrail would escape to the heap.
//
// The conversions are sound because bind pairs each stage with exactly one subject type (bound[ToolCallCheck]
// always has stage tool_call, and so on). They replace a type switch on any(c), which in generic code makes
// the compiler move every subject to the heap: one allocation per stage call.
//
// A panic in the guardrail is recovered here and confined to this evaluation. With a timeout the call runs in
// its own goroutine (callBounded); without one it runs inline, which costs nothing extra.
func (b *bound[C]) check(ctx context.Context, c *C) (d Decision, err error) {
	if b.opts.Timeout > 0 {
		return b.callBounded(ctx, c)
	}
	defer func() {
		if r := recover(); r != nil {
			d, err = Decision{}, &PanicError{Value: r}
		}
	}()
	return b.invoke(ctx, c)
}

func (b *bound[C]) invoke(ctx context.Context, c *C) (Decision, error) {
	p := unsafe.Pointer(c)
	switch b.stage {
	case StageToolCall:
		return b.g.toolCall.CheckToolCall(ctx, *(*ToolCallCheck)(p))
	case StageToolResult:
		return b.g.toolResult.CheckToolResult(ctx, *(*ToolResultCheck)(p))
	case StageInput:
		return b.g.input.CheckInput(ctx, *(*InputCheck)(p))
	case StageResponse:
		return b.g.response.CheckResponse(ctx, *(*ResponseCheck)(p))
	case StageOutput:
		return b.g.output.CheckOutput(ctx, *(*OutputCheck)(p))
	}
	return b.g.stream.CheckPart(ctx, *(*PartCheck)(p))
}

// epoch anchors the engine's clock: durations are differences of monotonic offsets from it, which cost one
// clock read each instead of time.Now's wall and monotonic pair.
var epoch = time.Now()

func clock() time.Duration { return time.Since(epoch) }

// evaluate runs the guardrail once and classifies what happened into *ev. It is the one place where
// recovery, timeouts, modes and fail-open are applied, so every stage behaves the same. start is the clock
// reading before the call; it returns the reading after, which the next guardrail of a chain starts from.
//
// done is ctx.Done(), taken once per chain: a receive on it is cheaper than ctx.Err(), which locks.
func (b *bound[C]) evaluate(ctx context.Context, done <-chan struct{}, c *C, tool string, start time.Duration, ev *Evaluation) time.Duration {
	// ev points into freshly zeroed memory: setting fields one by one avoids copying a whole struct.
	ev.Guardrail, ev.Module, ev.Stage, ev.Mode = b.name, b.module, b.stage, b.opts.Mode
	if b.opts.Mode == ModeOff {
		b.skip(ev, "mode off")
		return start
	}
	if len(b.opts.Tools) > 0 && !matchTool(b.opts.Tools, tool) {
		b.skip(ev, "tool not in this guardrail's tools")
		return start
	}
	select {
	case <-done:
		// The caller is gone or the run halted: nothing can be checked, so nothing may pass.
		b.fail(ev, ctx.Err(), true)
		return start
	default:
	}
	var err error
	ev.Decision, err = b.check(ctx, c) // straight into the record: no intermediate copy
	end := clock()
	ev.Duration = end - start
	if err != nil {
		ev.Decision = Decision{}
		var na *notApplicable
		if errors.As(err, &na) {
			b.skip(ev, na.why)
			return end
		}
		b.fail(ev, err, false)
		return end
	}
	if err := b.validate(&ev.Decision); err != nil {
		b.fail(ev, err, false)
		return end
	}
	ev.Decision.Guardrail = b.name
	ev.Status = StatusEvaluated
	ev.Effect = ev.Decision.Action
	if b.opts.Mode == ModeMonitor {
		ev.Effect = ActionAllow
	}
	return end
}

// callBounded enforces the timeout even on a guardrail that ignores its context: the engine stops waiting
// at the deadline and the abandoned call finishes on its own.
func (b *bound[C]) callBounded(ctx context.Context, c *C) (Decision, error) {
	tctx, cancel := context.WithTimeout(ctx, b.opts.Timeout)
	defer cancel()
	type answer struct {
		d   Decision
		err error
	}
	ch := make(chan answer, 1)
	own := *c // the abandoned call must not share the caller's copy
	go func() {
		var a answer
		defer func() {
			if r := recover(); r != nil {
				a = answer{err: &PanicError{Value: r}}
			}
			ch <- a
		}()
		a.d, a.err = b.invoke(tctx, &own)
	}()
	select {
	case a := <-ch:
		if a.err != nil && ctx.Err() == nil && errors.Is(tctx.Err(), context.DeadlineExceeded) {
			return Decision{}, fmt.Errorf("%w after %s: %w", ErrTimeout, b.opts.Timeout, a.err)
		}
		return a.d, a.err
	case <-tctx.Done():
		if err := ctx.Err(); err != nil {
			return Decision{}, err
		}
		return Decision{}, fmt.Errorf("%w after %s", ErrTimeout, b.opts.Timeout)
	}
}

// validate rejects decisions the stage cannot apply, so a guardrail's mistake denies instead of passing.
func (b *bound[C]) validate(d *Decision) error {
	switch {
	case d.Action == ActionUnset:
		return ErrNoAction
	case !b.stage.accepts(d.Action):
		return &InvalidDecisionError{Stage: b.stage, Action: d.Action, Why: "the stage does not accept this action"}
	case d.Action != ActionModify:
		return nil
	case b.stage == StageInput && b.opts.Execution == ExecutionParallel:
		return &InvalidDecisionError{Stage: b.stage, Action: d.Action, Why: "a parallel input guardrail cannot modify input the model already has"}
	case !replacementFits(b.stage, d.Replacement):
		return &InvalidDecisionError{Stage: b.stage, Action: d.Action, Why: fmt.Sprintf("replacement is %T, want %s", d.Replacement, replacementType(b.stage))}
	}
	return nil
}

func (b *bound[C]) skip(ev *Evaluation, why string) {
	ev.Status = StatusSkipped
	ev.Skip = why
	ev.Effect = ActionAllow
}

// skipped returns a fresh evaluation of b, skipped for why.
func (b *bound[C]) skipped(why string) Evaluation {
	ev := Evaluation{Guardrail: b.name, Module: b.module, Stage: b.stage, Mode: b.opts.Mode}
	b.skip(&ev, why)
	return ev
}

// fail records an error. It denies unless the guardrail is fail-open or monitoring; forceClosed denies
// regardless, for failures that are not the guardrail's (a cancelled context).
func (b *bound[C]) fail(ev *Evaluation, err error, forceClosed bool) {
	ev.Status = StatusErrored
	ev.Err = err
	code, what := CodeGuardrailError, "guardrail error"
	if b.stage == StageToolCall {
		code, what = CodeEvaluatorError, "guardrail provider error" // seed 001's text
	}
	if !forceClosed && (b.opts.FailOpen || b.opts.Mode == ModeMonitor) {
		ev.Decision = Decision{Action: ActionAllow, Guardrail: b.name, Reasons: []Reason{{Code: code, Message: what + " (fail-open)"}}}
		ev.Effect = ActionAllow
		return
	}
	ev.Decision = Decision{Action: b.stage.denyAction(), Guardrail: b.name, Reasons: []Reason{{Code: code, Message: what + " (fail-closed)"}}}
	ev.Effect = ev.Decision.Action
}

// notReached records a guardrail that an earlier one's decision kept from running.
func (b *bound[C]) notReached(by Evaluation) Evaluation {
	return b.skipped(fmt.Sprintf("not reached: %q decided %s", by.Guardrail, by.Effect))
}

// denyAction is what "deny" means at a stage: the model is told at tool stages, the run ends elsewhere.
func (s Stage) denyAction() Action {
	if s == StageToolCall || s == StageToolResult {
		return ActionReject
	}
	return ActionHalt
}

func replacementFits(s Stage, r any) bool {
	var ok bool
	switch s {
	case StageInput:
		_, ok = r.([]Message)
	case StageResponse:
		_, ok = r.(Response)
	case StageToolCall:
		_, ok = r.(ToolCall)
	case StageToolResult:
		_, ok = r.(ToolResult)
	case StageOutput:
		_, ok = r.(Message)
	case StageStream:
		_, ok = r.(Part)
	}
	return ok
}

func replacementType(s Stage) string {
	return [...]string{StageInput: "[]warden.Message", StageResponse: "warden.Response", StageToolCall: "warden.ToolCall",
		StageToolResult: "warden.ToolResult", StageOutput: "warden.Message", StageStream: "warden.Part"}[s]
}

func matchTool(patterns []string, tool string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, tool); ok {
			return true
		}
	}
	return false
}

// runChain runs guardrails in definition order, each on the subject as modified by the ones before it; the
// first reject, retry or halt ends the chain and the rest are recorded as not reached. An ask does not end
// it (a later guardrail may still reject), but the first ask is the stage's decision when nothing blocks.
// It returns the final subject, the stage's effective decision, one evaluation per guardrail and the index
// of the decisive one (-1 when none blocked).
//
// now is a clock reading taken just before the call.
func runChain[C any](ctx context.Context, list []bound[C], c C, tool string, now time.Duration, apply func(C, any) C) (C, Decision, []Evaluation, int) {
	evs := make([]Evaluation, len(list))
	final := Decision{Action: ActionAllow}
	decisive, asked := -1, -1
	done := ctx.Done()
	for i := range list {
		if decisive >= 0 {
			evs[i] = list[i].notReached(evs[decisive])
			continue
		}
		ev := &evs[i]
		now = list[i].evaluate(ctx, done, &c, tool, now, ev)
		switch ev.Effect {
		case ActionModify:
			c = apply(c, ev.Decision.Replacement)
			final = ev.Decision
		case ActionReject, ActionHalt, ActionRetry:
			final = ev.Decision
			decisive = i
		case ActionAsk:
			if asked < 0 {
				asked = i
			}
		}
	}
	if decisive < 0 && asked >= 0 {
		final = evs[asked].Decision
	}
	return c, final, evs, decisive
}
