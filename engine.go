package warden

import (
	"context"
	"errors"
	"fmt"
	"path"
	"reflect"
	"sync"
	"time"
)

// Entry is one configured guardrail of a stage.
type Entry struct {
	// Name identifies the guardrail in results, audit and errors; unique within its stage.
	Name string
	// Module is the module ID the guardrail came from, if any (informational).
	Module string
	// Guardrail implements the interface of the stage it is listed under.
	Guardrail any
	Options   Options
}

// Spec lists the guardrails of each stage in definition order, and where their evaluations are recorded.
type Spec struct {
	Input      []Entry
	Response   []Entry
	ToolCall   []Entry
	ToolResult []Entry
	Output     []Entry
	Stream     []Entry
	// Recorder receives every stage's evaluations; nil records nothing beyond what callers are returned.
	Recorder Recorder
	// Approvals resolves the tool-call stage's ask decisions. Without it a call a guardrail asks about is
	// rejected (warden.approval_unavailable): nothing waits for a person no one can reach.
	Approvals Approvals
	// PolicyVersion names the configuration the guardrails came from (a digest of it, say). An approval is
	// bound to it, so that one given under a policy lapses when the policy changes.
	PolicyVersion string
}

// Engine runs a fixed set of guardrails. It is immutable after NewEngine and safe for concurrent use; one
// Engine serves every request of a process.
type Engine struct {
	inputBlocking []bound[InputCheck]
	inputParallel []bound[InputCheck]
	inputCount    int
	response      []bound[ResponseCheck]
	toolCall      []bound[ToolCallCheck]
	toolResult    []bound[ToolResultCheck]
	output        []bound[OutputCheck]
	stream        []bound[PartCheck]
	recorder      Recorder
	approvals     Approvals
	policy        string
	usage         []UsageObserver
}

// NewEngine checks a Spec and prepares it. Every problem is reported, joined: a nil guardrail, one that does
// not implement its stage's interface, a missing or repeated name, an option that does not apply to the
// stage, an invalid tool pattern.
func NewEngine(spec Spec) (*Engine, error) {
	e := &Engine{recorder: spec.Recorder, approvals: spec.Approvals, policy: spec.PolicyVersion}
	var errs []error
	var input []bound[InputCheck]
	input, errs = bind[InputCheck](StageInput, spec.Input, errs, func(g any, to *stageGuardrail) (ok bool) {
		to.input, ok = g.(InputGuardrail)
		return ok
	})
	for _, b := range input {
		if b.opts.Execution == ExecutionParallel {
			e.inputParallel = append(e.inputParallel, b)
		} else {
			e.inputBlocking = append(e.inputBlocking, b)
		}
	}
	e.inputCount = len(input)
	e.response, errs = bind[ResponseCheck](StageResponse, spec.Response, errs, func(g any, to *stageGuardrail) (ok bool) {
		to.response, ok = g.(ResponseGuardrail)
		return ok
	})
	e.toolCall, errs = bind[ToolCallCheck](StageToolCall, spec.ToolCall, errs, func(g any, to *stageGuardrail) (ok bool) {
		to.toolCall, ok = g.(ToolCallGuardrail)
		return ok
	})
	e.toolResult, errs = bind[ToolResultCheck](StageToolResult, spec.ToolResult, errs, func(g any, to *stageGuardrail) (ok bool) {
		to.toolResult, ok = g.(ToolResultGuardrail)
		return ok
	})
	e.output, errs = bind[OutputCheck](StageOutput, spec.Output, errs, func(g any, to *stageGuardrail) (ok bool) {
		to.output, ok = g.(OutputGuardrail)
		return ok
	})
	e.stream, errs = bind[PartCheck](StageStream, spec.Stream, errs, func(g any, to *stageGuardrail) (ok bool) {
		to.stream, ok = g.(StreamGuardrail)
		return ok
	})
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for _, list := range [][]Entry{spec.Input, spec.Response, spec.ToolCall, spec.ToolResult, spec.Output, spec.Stream} {
		for _, en := range list {
			if o, ok := en.Guardrail.(UsageObserver); ok && en.Options.Mode != ModeOff && !observes(e.usage, o) {
				e.usage = append(e.usage, o) // once, though one guardrail be listed at two stages
			}
		}
	}
	return e, nil
}

var stageInterfaces = [...]string{StageInput: "InputGuardrail", StageResponse: "ResponseGuardrail", StageToolCall: "ToolCallGuardrail",
	StageToolResult: "ToolResultGuardrail", StageOutput: "OutputGuardrail", StageStream: "StreamGuardrail"}

func bind[C any](stage Stage, entries []Entry, errs []error, as func(g any, to *stageGuardrail) bool) ([]bound[C], []error) {
	out := make([]bound[C], 0, len(entries))
	seen := make(map[string]bool, len(entries))
	for i, en := range entries {
		where := fmt.Sprintf("%s guardrail %d (%q)", stage, i+1, en.Name)
		switch {
		case en.Name == "":
			errs = append(errs, fmt.Errorf("%s guardrail %d: no name", stage, i+1))
			continue
		case seen[en.Name]:
			errs = append(errs, fmt.Errorf("%s: name used twice in the stage", where))
			continue
		case en.Guardrail == nil:
			errs = append(errs, fmt.Errorf("%s: nil guardrail", where))
			continue
		}
		seen[en.Name] = true
		var g stageGuardrail
		if !as(en.Guardrail, &g) {
			errs = append(errs, fmt.Errorf("%s: %T does not implement warden.%s", where, en.Guardrail, stageInterfaces[stage]))
			continue
		}
		if en.Options.Execution == ExecutionParallel && stage != StageInput {
			errs = append(errs, fmt.Errorf("%s: execution parallel applies to input guardrails only", where))
		}
		if len(en.Options.Tools) > 0 && stage != StageToolCall && stage != StageToolResult {
			errs = append(errs, fmt.Errorf("%s: tools applies to tool_call and tool_result guardrails only", where))
		}
		for _, p := range en.Options.Tools {
			if _, err := path.Match(p, ""); err != nil {
				errs = append(errs, fmt.Errorf("%s: tool pattern %q: %v", where, p, err))
			}
		}
		if en.Options.Timeout < 0 {
			errs = append(errs, fmt.Errorf("%s: negative timeout", where))
		}
		out = append(out, bound[C]{name: en.Name, module: en.Module, stage: stage, pos: i, opts: en.Options, g: g})
	}
	return out, errs
}

// Outcome is what a stage decided about one subject.
type Outcome[T any] struct {
	Stage Stage
	// Value is the subject to go on with: the original, or the replacement left by modify decisions.
	// For a rejected tool result it is the result the model sees instead, carrying Message.
	Value T
	// Decision is the stage's effective decision: allow, modify (Replacement is Value), or the decision of
	// the guardrail that rejected, asked to retry or halted.
	Decision Decision
	// Message is the text the model sees in place of a rejected subject, or of a tool call that waits for
	// approval; empty otherwise.
	Message string
	// Approval is the approval request of a tool call a guardrail asked about: pending (Decision.Action is
	// ActionAsk), granted (the call passes, this once) or denied (rejected). Nil when nothing asked.
	Approval *Approval
	// Evaluations has one entry per configured guardrail of the stage, in definition order.
	Evaluations []Evaluation
}

// Allowed reports whether the subject (or its replacement) may go on.
func (o Outcome[T]) Allowed() bool {
	return o.Decision.Action == ActionAllow || o.Decision.Action == ActionModify
}

// CheckInput runs every input guardrail on a run's input and waits for all of them: blocking ones in order,
// then parallel ones concurrently; a halt cancels the parallel ones still running. To overlap parallel
// guardrails with the model call, use Run.Input.
func (e *Engine) CheckInput(ctx context.Context, c InputCheck) (Outcome[[]Message], error) {
	out, tw := e.inputBlockingStage(ctx, c)
	if tw == nil && len(e.inputParallel) > 0 {
		c.Messages = out.Value
		pevs, halt := runParallel(ctx, e.inputParallel, c, nil)
		out.Evaluations = e.mergeInput(out.Evaluations, pevs)
		if halt >= 0 {
			out.Decision = pevs[halt].Decision
			tw = newTripwire(StageInput, pevs[halt], nil)
		}
	}
	record(e, ctx, StageInput, c.Run, out.Decision, out.Evaluations, c)
	if tw != nil {
		tw.Results = out.Evaluations
		return out, tw
	}
	return out, nil
}

// inputBlockingStage runs the blocking input guardrails; its evaluations are laid out for every input
// guardrail, the parallel ones' slots still empty.
func (e *Engine) inputBlockingStage(ctx context.Context, c InputCheck) (Outcome[[]Message], *TripwireError) {
	msgs, d, evs, decisive := runChain(ctx, e.inputBlocking, c, "", clock(), func(c InputCheck, r any) InputCheck {
		c.Messages = r.([]Message)
		return c
	})
	out := Outcome[[]Message]{Stage: StageInput, Value: msgs.Messages, Decision: d, Evaluations: e.mergeInput(evs, nil)}
	if d.Action == ActionHalt {
		// Parallel guardrails are never started once a blocking one halted.
		for _, b := range e.inputParallel {
			out.Evaluations[b.pos] = b.notReached(evs[decisive])
		}
		return out, newTripwire(StageInput, evs[decisive], nil)
	}
	return out, nil
}

// mergeInput lays blocking and parallel evaluations out in definition order. blocking is either already
// merged (len == inputCount) or the blocking chain's own.
func (e *Engine) mergeInput(blocking, parallel []Evaluation) []Evaluation {
	if len(blocking) == e.inputCount && parallel == nil {
		return blocking
	}
	all := blocking
	if len(blocking) != e.inputCount {
		all = make([]Evaluation, e.inputCount)
		for i, b := range e.inputBlocking {
			all[b.pos] = blocking[i]
		}
	}
	for i, b := range e.inputParallel {
		if i < len(parallel) {
			all[b.pos] = parallel[i]
		}
	}
	return all
}

// runParallel runs guardrails concurrently; the first to halt cancels the others, which are then recorded
// as skipped. onHalt, when set, hears of the halt at once, before the siblings have returned: a sibling
// that ignores its context must not delay the run's end. It returns the evaluations in list order and the
// index of the halting one, or -1.
func runParallel(ctx context.Context, list []bound[InputCheck], c InputCheck, onHalt func(Evaluation)) ([]Evaluation, int) {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	evs := make([]Evaluation, len(list))
	var mu sync.Mutex
	first := -1
	var wg sync.WaitGroup
	for i := range list {
		wg.Go(func() {
			own := c
			list[i].evaluate(pctx, pctx.Done(), &own, "", clock(), &evs[i])
			if evs[i].Effect == ActionHalt {
				mu.Lock()
				if first < 0 {
					first = i
					cancel()
					if onHalt != nil {
						onHalt(evs[i])
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if first >= 0 {
		for i := range evs {
			if i != first && evs[i].Status == StatusErrored && errors.Is(evs[i].Err, context.Canceled) {
				d := evs[i].Duration
				evs[i] = list[i].skipped(fmt.Sprintf("cancelled: %q halted the run", list[first].name))
				evs[i].Duration = d
			}
		}
	}
	return evs, first
}

// CheckResponse runs the response guardrails on one model response, in order.
func (e *Engine) CheckResponse(ctx context.Context, c ResponseCheck) (Outcome[Response], error) {
	return checkStage(e, ctx, StageResponse, e.response, c, c.Run, "", clock(),
		func(c ResponseCheck) Response { return c.Response },
		func(c ResponseCheck, v Response) ResponseCheck { c.Response = v; return c }, nil)
}

// CheckToolCall authorizes one tool call. Guardrails run in order, each on the call as modified by the ones
// before; the first reject or halt ends the stage. A reject is not an error: the tool must not run, and
// Outcome.Message is the tool result the model sees instead. A call whose arguments are incomplete is
// rejected before any guardrail runs. A halt returns a *TripwireError.
//
// An ask does not end the stage: a later guardrail may still reject or halt. When the stage ends on an ask,
// Spec.Approvals resolves it (see ActionAsk): the outcome allows a call a person approved, once; rejects one
// they denied; and otherwise asks, with Outcome.Approval the pending request and Outcome.Message what the
// model reads while the call waits.
func (e *Engine) CheckToolCall(ctx context.Context, c ToolCallCheck) (Outcome[ToolCall], error) {
	var start time.Duration
	if c.Time.IsZero() {
		now := time.Now()
		c.Time, start = now, now.Sub(epoch) // one clock read serves both
	} else {
		start = clock()
	}
	if !c.Call.Complete {
		d := Decision{Action: ActionReject, Guardrail: "warden", Reasons: []Reason{{Code: CodeIncompleteToolCall, Message: "the call's arguments were cut off or are not valid JSON"}}}
		evs := skipAll(e.toolCall, "tool call incomplete: rejected before evaluation")
		out := Outcome[ToolCall]{Stage: StageToolCall, Value: c.Call, Decision: d, Message: DenyMessage(c.Call.Name, d), Evaluations: evs}
		record(e, ctx, StageToolCall, c.Run, d, evs, c)
		return out, nil
	}
	return checkStage(e, ctx, StageToolCall, e.toolCall, c, c.Run, c.Call.Name, start,
		func(c ToolCallCheck) ToolCall { return c.Call },
		func(c ToolCallCheck, v ToolCall) ToolCallCheck { c.Call = v; return c },
		func(out Outcome[ToolCall], c ToolCallCheck) Outcome[ToolCall] {
			if out.Decision.Action == ActionAsk {
				return e.resolveAsk(ctx, c, out)
			}
			out.Message = DenyMessage(c.Call.Name, out.Decision)
			return out
		})
}

// DenyToolCall records a tool call that the surface denied before any guardrail could run (a call carrying
// data another server's answer carried, a tool a listing left out), as CheckToolCall records a call cut
// off: the decision is the engine's ("warden"), every configured guardrail is recorded as skipped with
// why, and the outcome carries the message the model reads. The call's content is never recorded.
func (e *Engine) DenyToolCall(ctx context.Context, c ToolCallCheck, code, message string) Outcome[ToolCall] {
	if c.Time.IsZero() {
		c.Time = time.Now()
	}
	d := Decision{Action: ActionReject, Guardrail: "warden", Reasons: []Reason{{Code: code, Message: message}}}
	evs := skipAll(e.toolCall, "not reached: the call was denied before the guardrails ("+code+")")
	record(e, ctx, StageToolCall, c.Run, d, evs, c)
	return Outcome[ToolCall]{Stage: StageToolCall, Value: c.Call, Decision: d, Message: DenyMessage(c.Call.Name, d), Evaluations: evs}
}

// DeniesTool reports whether a tool-call guardrail that enforces, and applies to the tool, denies every call
// of the named tool whatever its arguments (see ToolDenier). It evaluates nothing and records nothing: it
// tells what a listing may leave out, and CheckToolCall still decides each call.
func (e *Engine) DeniesTool(name string) bool {
	for i := range e.toolCall {
		b := &e.toolCall[i]
		if b.opts.Mode != ModeEnforce || len(b.opts.Tools) > 0 && !matchTool(b.opts.Tools, name) {
			continue
		}
		if d, ok := b.g.toolCall.(ToolDenier); ok && d.DeniesTool(name) {
			return true
		}
	}
	return false
}

// CheckToolResult runs the tool-result guardrails on what a tool returned, in order. A reject replaces the
// result with a message the model sees (Outcome.Value carries it, IsError set).
func (e *Engine) CheckToolResult(ctx context.Context, c ToolResultCheck) (Outcome[ToolResult], error) {
	return checkStage(e, ctx, StageToolResult, e.toolResult, c, c.Run, c.Call.Name, clock(),
		func(c ToolResultCheck) ToolResult { return c.Result },
		func(c ToolResultCheck, v ToolResult) ToolResultCheck { c.Result = v; return c },
		func(out Outcome[ToolResult], c ToolResultCheck) Outcome[ToolResult] {
			r := out.Decision.FirstReason()
			out.Message = "Guardrail withheld the result of tool '" + c.Call.Name + "' (" + r.Code + "). Reason: " + r.Message + "."
			out.Value = ToolResult{CallID: c.Result.CallID, Name: c.Result.Name, Content: out.Message, IsError: true}
			return out
		})
}

// CheckOutput runs the output guardrails on a run's final output, in order.
func (e *Engine) CheckOutput(ctx context.Context, c OutputCheck) (Outcome[Message], error) {
	return checkStage(e, ctx, StageOutput, e.output, c, c.Run, "", clock(),
		func(c OutputCheck) Message { return c.Output },
		func(c OutputCheck, v Message) OutputCheck { c.Output = v; return c }, nil)
}

// CheckPart runs the stream guardrails on one stream part, in order. The stream runner calls it; it decides
// what text a part may see and when text is released.
func (e *Engine) CheckPart(ctx context.Context, c PartCheck) (Outcome[Part], error) {
	return checkStage(e, ctx, StageStream, e.stream, c, c.Run, "", clock(),
		func(c PartCheck) Part { return c.Part },
		func(c PartCheck, v Part) PartCheck {
			c.Part = v
			if v.Kind == PartText {
				c.Pending = v.Text // a text guardrail's replacement is the new pending text
			}
			return c
		}, nil)
}

// StreamHoldback returns how many bytes at the end of pending must stay held: the most any enforcing stream
// guardrail asks for (see StreamHoldback), between 0 and len(pending). A guardrail whose Holdback panics
// holds everything: unseen text never leaves because of a bug.
func (e *Engine) StreamHoldback(pending string) int {
	n := 0
	for _, b := range e.stream {
		h, ok := b.g.stream.(StreamHoldback)
		if !ok || b.opts.Mode != ModeEnforce {
			continue
		}
		if k := safeHoldback(h, pending); k > n {
			n = k
		}
		if n >= len(pending) {
			return len(pending)
		}
	}
	return n
}

func safeHoldback(h StreamHoldback, pending string) (n int) {
	defer func() {
		if recover() != nil {
			n = len(pending)
		}
	}()
	return max(h.Holdback(pending), 0)
}

// checkStage runs one stage's chain on a subject and builds its outcome: get and set reach the subject's
// value inside its check, and held, when set, finishes the outcome of a subject the stage rejected or asked
// about (what the model sees in its place), before the stage is recorded.
func checkStage[C, T any](e *Engine, ctx context.Context, s Stage, list []bound[C], c C, run RunInfo, tool string, start time.Duration,
	get func(C) T, set func(C, T) C, held func(Outcome[T], C) Outcome[T]) (Outcome[T], error) {
	final, d, evs, decisive := runChain(ctx, list, c, tool, start, func(c C, r any) C { return set(c, r.(T)) })
	out := Outcome[T]{Stage: s, Value: get(final), Decision: d, Evaluations: evs}
	if held != nil && (d.Action == ActionReject || d.Action == ActionAsk) {
		out = held(out, c)
	}
	record(e, ctx, s, run, out.Decision, evs, c)
	return out, haltError(s, d, evs, decisive)
}

// Has reports whether a stage has any configured guardrail. Unlike Guardrails it does not allocate, so a
// surface can ask it per request, to skip work a stage without guardrails does not need.
func (e *Engine) Has(s Stage) bool {
	switch s {
	case StageInput:
		return e.inputCount > 0
	case StageResponse:
		return len(e.response) > 0
	case StageToolCall:
		return len(e.toolCall) > 0
	case StageToolResult:
		return len(e.toolResult) > 0
	case StageOutput:
		return len(e.output) > 0
	case StageStream:
		return len(e.stream) > 0
	}
	return false
}

// Guardrails returns the names of the configured guardrails of a stage, in definition order.
func (e *Engine) Guardrails(s Stage) []string {
	var names []string
	collect := func(n string) { names = append(names, n) }
	switch s {
	case StageInput:
		names = make([]string, e.inputCount)
		for _, b := range e.inputBlocking {
			names[b.pos] = b.name
		}
		for _, b := range e.inputParallel {
			names[b.pos] = b.name
		}
	case StageResponse:
		for _, b := range e.response {
			collect(b.name)
		}
	case StageToolCall:
		for _, b := range e.toolCall {
			collect(b.name)
		}
	case StageToolResult:
		for _, b := range e.toolResult {
			collect(b.name)
		}
	case StageOutput:
		for _, b := range e.output {
			collect(b.name)
		}
	case StageStream:
		for _, b := range e.stream {
			collect(b.name)
		}
	}
	return names
}

func haltError(s Stage, d Decision, evs []Evaluation, decisive int) error {
	if d.Action != ActionHalt {
		return nil
	}
	return newTripwire(s, evs[decisive], evs)
}

func newTripwire(s Stage, ev Evaluation, results []Evaluation) *TripwireError {
	return &TripwireError{Stage: s, Guardrail: ev.Guardrail, Decision: ev.Decision, Results: results, cause: ev.Err}
}

func observes(list []UsageObserver, o UsageObserver) bool {
	for _, x := range list {
		if isSame(x, o) {
			return true
		}
	}
	return false
}

// isSame compares two observers; one of a type == cannot compare (a func, a struct holding a map) is no
// other's.
func isSame(a, b UsageObserver) bool {
	t := reflect.TypeOf(a)
	return t == reflect.TypeOf(b) && t.Comparable() && a == b
}
