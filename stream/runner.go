// Package stream guards a model's output stream part by part: every text delta goes through the stream
// guardrails before any of it is released, text is held back only as long as a guardrail needs to see more
// (warden.StreamHoldback), tool calls are held until the stream's finish and authorized before release, and a
// guardrail's retry becomes a self-correction: the upstream attempt is cancelled, the text released so far
// plus the feedback becomes the assistant's partial message, and a new attempt continues from it.
//
// It works on any stream of warden.Part (iter.Seq2), so the library, the gateway's wire formats and tests
// share one runner. It must never release a byte an enforcing guardrail has not seen, nor a tool call that
// was not authorized. The API may change until the gateway uses it.
package stream

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden"
)

// Correction is what a retry asks the model to continue from.
type Correction struct {
	// Retry counts retries: 1 for the first.
	Retry int
	// Text is the assistant's partial message: all the text released so far in this response, ending with
	// the feedback. Send it as the last assistant message so that the model continues after it.
	Text string
	// Feedback is the guardrail's feedback alone, and Guardrail the guardrail that gave it.
	Feedback  string
	Guardrail string
}

// Source starts one attempt of the stream: the first with a nil correction, each retry with the correction
// to continue from. The runner cancels ctx when it abandons an attempt; the source must stop producing then.
type Source func(ctx context.Context, c *Correction) iter.Seq2[warden.Part, error]

// OnDeny says what the runner does when tool-call authorization denies a call of the stream.
type OnDeny uint8

const (
	// DenyRetry uses the deny message as feedback for a self-correction: the client never sees the denied
	// call, and the model chooses another way. It counts against MaxRetries.
	DenyRetry OnDeny = iota
	// DenyExplain drops the call and releases its deny message as text.
	DenyExplain
)

// Runner guards streams. It is immutable once set up and safe for concurrent use; each Run is independent.
type Runner struct {
	Engine *warden.Engine
	// MaxRetries is the number of retries after the first attempt: 0 allows none, 3 allows four attempts in
	// all. Every retry counts, whether a guardrail asked for it or a denied tool call did.
	MaxRetries int
	OnDeny     OnDeny
}

// Info is what one run is about.
type Info struct {
	Run warden.RunInfo
	// Tools names the tools offered to the model in the request, and Skills the skills the agent offers.
	Tools  []string
	Skills []warden.Skill
}

// RetriesExhaustedError ends a stream whose guardrails still asked for a correction after MaxRetries.
type RetriesExhaustedError struct {
	Retries   int
	Guardrail string
	Code      string
}

func (e *RetriesExhaustedError) Error() string {
	return fmt.Sprintf("stream: guardrail %q still asked for a correction (%s) after %d retries", e.Guardrail, e.Code, e.Retries)
}

// ErrIncomplete ends a stream that stopped before its finish part: nothing held is released.
var ErrIncomplete = errors.New("stream: the stream ended before its finish; held text and tool calls were not released")

// Run streams the source through the guardrails and calls emit with every part that may reach the client,
// in order: text in released chunks (which need not match the upstream deltas), reasoning as it passes,
// each authorized tool call whole as one delta, feedback text before a retry, and the finish. It returns
// nil after the finish; a *warden.TripwireError on a halt; a *RetriesExhaustedError when the retries are
// spent; the upstream error of an error part the guardrails let through; ErrIncomplete when the stream ended
// early. After an error the caller ends the stream in its own error encoding; nothing held was emitted.
func (r *Runner) Run(ctx context.Context, info Info, src Source, emit func(warden.Part) error) error {
	var released strings.Builder
	var correction *Correction
	guarded := r.Engine.Has(warden.StageStream)
	for retries := 0; ; retries++ {
		actx, cancel := context.WithCancel(ctx)
		a := attempt{r: r, info: info, emit: emit, released: &released, guarded: guarded}
		res := a.run(actx, src(actx, correction))
		cancel()
		if res.err != nil || res.feedback == "" {
			return res.err
		}
		if retries >= r.MaxRetries {
			return &RetriesExhaustedError{Retries: retries, Guardrail: res.guardrail, Code: res.code}
		}
		fb := " " + res.feedback
		if err := emit(warden.Part{Kind: warden.PartText, Text: fb}); err != nil {
			return err
		}
		released.WriteString(fb)
		correction = &Correction{Retry: retries + 1, Text: released.String(), Feedback: res.feedback, Guardrail: res.guardrail}
	}
}

// attempt is one upstream stream's worth of state.
type attempt struct {
	r        *Runner
	info     Info
	emit     func(warden.Part) error
	released *strings.Builder // across attempts: what the client has of this response
	guarded  bool             // the engine has stream guardrails; without, parts skip the chain
	pending  string           // text seen by the guardrails, not yet released
	calls    []*heldCall      // by upstream index order of first appearance
	byIndex  map[int]*heldCall
}

type heldCall struct {
	id, name string
	args     strings.Builder
}

// result ends an attempt: done (all zero), an error, or a retry with feedback.
type result struct {
	err                 error
	feedback, guardrail string
	code                string
}

func (a *attempt) run(ctx context.Context, parts iter.Seq2[warden.Part, error]) result {
	for p, err := range parts {
		if err != nil {
			p = warden.Part{Kind: warden.PartError, Err: err}
		}
		res, finished := a.part(ctx, p)
		if finished || res.err != nil || res.feedback != "" {
			return res
		}
	}
	return result{err: ErrIncomplete}
}

// part handles one upstream part; finished is true after the finish part was emitted.
func (a *attempt) part(ctx context.Context, p warden.Part) (result, bool) {
	switch p.Kind {
	case warden.PartText:
		a.pending += p.Text
		out, res := a.check(ctx, p)
		if res != nil {
			return *res, false
		}
		if out.Decision.Action == warden.ActionModify {
			a.pending = out.Value.Text
		}
		hold := 0
		if a.guarded {
			hold = a.r.Engine.StreamHoldback(a.pending)
		}
		return result{err: a.release(hold)}, false
	case warden.PartReasoning:
		out, res := a.check(ctx, p)
		if res != nil {
			return *res, false
		}
		return result{err: a.emit(out.Value)}, false
	case warden.PartToolCallDelta:
		if _, res := a.check(ctx, p); res != nil {
			return *res, false
		}
		a.hold(p.ToolCall)
		return result{}, false
	case warden.PartError:
		out, res := a.check(ctx, p)
		if res != nil {
			return *res, false
		}
		err := out.Value.Err
		if err == nil {
			err = p.Err
		}
		return result{err: err}, false
	case warden.PartFinish:
		return a.finish(ctx, p), true
	}
	return result{err: fmt.Errorf("stream: part of unknown kind %d", p.Kind)}, false
}

// check runs the chain on a part. A retry or halt comes back as the attempt's result.
func (a *attempt) check(ctx context.Context, p warden.Part) (warden.Outcome[warden.Part], *result) {
	if !a.guarded {
		return warden.Outcome[warden.Part]{Stage: warden.StageStream, Value: p, Decision: warden.Allow()}, nil
	}
	pending := a.pending
	if p.Kind != warden.PartText && p.Kind != warden.PartFinish {
		pending = ""
	}
	out, err := a.r.Engine.CheckPart(ctx, warden.PartCheck{Run: a.info.Run, Part: p, Released: a.released.String(), Pending: pending, Tools: a.info.Tools, Skills: a.info.Skills})
	if err != nil {
		return out, &result{err: err}
	}
	if out.Decision.Action == warden.ActionRetry {
		reason := out.Decision.FirstReason()
		return out, &result{feedback: feedbackOf(reason), guardrail: out.Decision.Guardrail, code: reason.Code}
	}
	return out, nil
}

func feedbackOf(r warden.Reason) string {
	if r.Message != "" {
		return r.Message
	}
	return "A guardrail stopped that answer (" + r.Code + "). Let me try again differently."
}

// release emits the pending text but its last hold bytes, cut at a rune boundary.
func (a *attempt) release(hold int) error {
	n := len(a.pending) - hold
	for n > 0 && n < len(a.pending) && !utf8.RuneStart(a.pending[n]) {
		n--
	}
	if n <= 0 {
		return nil
	}
	chunk := a.pending[:n]
	a.pending = a.pending[n:]
	a.released.WriteString(chunk)
	return a.emit(warden.Part{Kind: warden.PartText, Text: chunk})
}

func (a *attempt) hold(d warden.ToolCallDelta) {
	if a.byIndex == nil {
		a.byIndex = map[int]*heldCall{}
	}
	c := a.byIndex[d.Index]
	if c == nil {
		c = &heldCall{}
		a.byIndex[d.Index] = c
		a.calls = append(a.calls, c)
	}
	if d.ID != "" {
		c.id = d.ID
	}
	if d.Name != "" {
		c.name = d.Name
	}
	c.args.WriteString(d.ArgumentsDelta)
}

// finish gives the guardrails the whole pending text with the finish part, releases it, authorizes the held
// tool calls, releases those allowed, and emits the finish.
func (a *attempt) finish(ctx context.Context, p warden.Part) result {
	if res := a.finishText(ctx, p); res.err != nil || res.feedback != "" {
		return res
	}
	index := 0
	for _, c := range a.calls {
		call := warden.NewToolCall(c.id, c.name, []byte(c.args.String()))
		tc, err := a.r.Engine.CheckToolCall(ctx, warden.ToolCallCheck{Run: a.info.Run, Call: call})
		if err != nil {
			return result{err: err}
		}
		if !tc.Allowed() {
			if a.r.OnDeny == DenyRetry {
				return result{feedback: tc.Message, guardrail: tc.Decision.Guardrail, code: tc.Decision.FirstReason().Code}
			}
			text := tc.Message
			if a.released.Len() > 0 {
				text = "\n\n" + text
			}
			a.released.WriteString(text)
			if err := a.emit(warden.Part{Kind: warden.PartText, Text: text}); err != nil {
				return result{err: err}
			}
			continue
		}
		v := tc.Value
		if err := a.emit(warden.Part{Kind: warden.PartToolCallDelta, ToolCall: warden.ToolCallDelta{Index: index, ID: v.ID, Name: v.Name, ArgumentsDelta: string(v.Arguments)}}); err != nil {
			return result{err: err}
		}
		index++
	}
	fin := p
	if index == 0 && fin.Finish == warden.FinishToolCalls {
		fin.Finish = warden.FinishStop // no call left to answer
	}
	return result{err: a.emit(fin)}
}

// finishText gives the guardrails the whole pending text with the finish part and releases it.
func (a *attempt) finishText(ctx context.Context, p warden.Part) result {
	out, res := a.check(ctx, p)
	if res != nil {
		return *res
	}
	if out.Value.Kind == warden.PartText { // a guardrail rewrote the pending text at the end
		a.pending = out.Value.Text
	}
	return result{err: a.release(0)}
}

// Gate is the runner's face for code that owns the stream loop itself — a wire format's stream guard,
// which must keep each provider event's own encoding: it hands the gate each text delta and writes back
// the text that may be released now. Tool calls stay with the caller (the wire guards hold and authorize
// them). A Gate serves one response and is not safe for concurrent use.
type Gate struct {
	ctx context.Context
	a   attempt
	out strings.Builder
}

var _ warden.TextGate = (*Gate)(nil)

// RetryError is a guardrail's request for a self-correction, from a Gate: the caller cancels the upstream
// stream and, if it can, starts another from the text released so far plus Feedback.
type RetryError struct {
	Feedback, Guardrail, Code string
}

func (e *RetryError) Error() string {
	return fmt.Sprintf("stream: guardrail %q asks for a correction (%s)", e.Guardrail, e.Code)
}

// Gate returns a gate for one response. released is the text the client already has of it (a previous
// attempt's, with its feedback), so that guardrails see it as context.
func (r *Runner) Gate(ctx context.Context, info Info, released string) *Gate {
	g := &Gate{ctx: ctx}
	var rel strings.Builder
	rel.WriteString(released)
	g.a = attempt{r: r, info: info, released: &rel, guarded: r.Engine.Has(warden.StageStream),
		emit: func(p warden.Part) error { g.out.WriteString(p.Text); return nil }}
	return g
}

// Text checks one delta and returns the text that may be released now: none while a guardrail holds it,
// or more than the delta when held text is let go. A halt returns the tripwire, a retry a *RetryError.
func (g *Gate) Text(delta string) (string, error) {
	res, _ := g.a.part(g.ctx, warden.Part{Kind: warden.PartText, Text: delta})
	return g.take(res)
}

// Finish gives the guardrails the whole pending text at the end of the response and returns the rest of
// the text to release.
func (g *Gate) Finish(finish warden.Part) (string, error) {
	return g.take(g.a.finishText(g.ctx, finish))
}

// Released is everything the gate has let go, after the text it started with.
func (g *Gate) Released() string { return g.a.released.String() }

func (g *Gate) take(res result) (string, error) {
	out := g.out.String()
	g.out.Reset()
	switch {
	case res.err != nil:
		return "", res.err
	case res.feedback != "":
		return "", &RetryError{Feedback: res.feedback, Guardrail: res.guardrail, Code: res.code}
	}
	return out, nil
}

// SentenceEnd returns the index just after the last sentence end in text — a '.', '!' or '?' followed by a
// space or newline — or 0 when there is none: where a guardrail with a sentence window lets text go.
func SentenceEnd(text string) int {
	for i := len(text) - 2; i >= 0; i-- {
		if c := text[i]; (c == '.' || c == '!' || c == '?') && (text[i+1] == ' ' || text[i+1] == '\n') {
			return i + 2
		}
	}
	return 0
}
