// Package pipeline runs a turn's guardrail stages on provider wire traffic: a request body before it goes
// upstream (the end-user ledger, input guardrails, tool-result guardrails), and a response body, upstream
// error or stream before it reaches the client (safety termination and the other response guardrails, then
// tool-call authorization). The gateway and `warden guard` share it, so that a recorded exchange replayed
// offline gets exactly the answer the gateway would give.
//
// It never logs content: what it logs names guardrails, stages and reason codes only. Its API follows the
// gateway's needs and may change until the gateway is stable.
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/ledger"
	"github.com/agentwarden/warden/safety"
	"github.com/agentwarden/warden/stream"
)

// Pipeline holds what every exchange shares. It is safe for concurrent use once built; do not change its
// fields afterwards.
type Pipeline struct {
	Engine *warden.Engine
	// Ledger counts safety stops per end user and blocks repeat offenders; nil turns it off.
	Ledger ledger.Ledger
	// InjectEndUser fills the request's end-user field from RunInfo.UserID when the client left it empty, so
	// that the provider attributes a violation to the user rather than to the API key.
	InjectEndUser bool
	// Logger receives failures that do not change the answer (a ledger write that failed); nil discards them.
	Logger *slog.Logger
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// OnDeny says what becomes of a response with a denied tool call; explain when empty.
	OnDeny OnDeny
	// OverlapInput lets parallel input guardrails run on while the request goes upstream: Request returns
	// once the blocking ones have passed, and the caller sends the request on Prepared.Context, calls
	// Prepared.Wait before it releases anything of the answer, and Prepared.Close when done. Without it
	// Request returns only when every input guardrail has finished.
	OverlapInput bool
}

// OnDeny says what the pipeline does with a response in which tool-call authorization denied a call.
type OnDeny string

const (
	// DenyExplain removes the denied call and adds its deny message to the response's text, so the
	// client's agent reads why; the calls allowed beside it go through.
	DenyExplain OnDeny = "explain"
	// DenyRetry writes nothing and returns a *DeniedError, from which the caller (the gateway) builds a
	// follow-up request that gives the model its own call and the deny message as the call's result, and
	// answers with the model's next response. Where that cannot be (a body with several choices), explain.
	DenyRetry OnDeny = "retry"
	// DenyError answers with the format's error shape (HTTP 403; in a stream, its error event) naming the
	// denying guardrail and reason, and releases none of the response's calls.
	DenyError OnDeny = "error"
)

// OnDenyNames are the accepted values, in the order the docs give them.
var OnDenyNames = []string{string(DenyRetry), string(DenyExplain), string(DenyError)}

// WithOnDeny returns a copy of the pipeline that treats denied calls as d.
func (p *Pipeline) WithOnDeny(d OnDeny) *Pipeline {
	q := *p
	q.OnDeny = d
	return &q
}

// DeniedError is a response with a denied tool call under DenyRetry: nothing of it was written.
type DeniedError struct {
	// Response is the model's response after the response stage, with every call it made.
	Response warden.Response
	// Results holds, for each call of Response, what a follow-up tells the model: the deny message of a
	// denied call, NotRunResult for a call allowed beside it (which the client never received).
	Results []string
	// Decision is the first denial's.
	Decision warden.Decision
	// Body is a streamed response as one whole provider body, when the format's stream guard assembles
	// one (StreamBody); a follow-up reads the model's message from it. Nil for a whole response (the
	// caller has its body) and where the guard has none (the follow-up is built from Response).
	Body []byte
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("tool call denied by %q (%s)", e.Decision.Guardrail, e.Decision.FirstReason().Code)
}

// NotRunResult answers, in a follow-up, a call that was allowed but not run because another call of the
// same response was denied.
const NotRunResult = "Warden did not run this call: another call in the same response was denied. Call it again if it is still needed."

// Refusal is an answer Warden gives in place of the provider's: a halt, a blocked end user, a request it
// cannot read. Body is in the format's own error shape.
type Refusal struct {
	Status int
	Body   []byte
	// Code is Warden's reason code: the halting guardrail's, or warden.end_user_blocked, warden.bad_request, …
	Code string
	// RetryAfter, when positive, says when the client may try again (a ledger block).
	RetryAfter time.Duration
	// Cause is the error behind the refusal, for the caller's logs; it never holds content.
	Cause error
}

func (r *Refusal) Error() string { return fmt.Sprintf("refused (%d %s)", r.Status, r.Code) }

func (r *Refusal) Unwrap() error { return r.Cause }

// Reason codes of Warden's own refusals.
const (
	CodeEndUserBlocked    = "warden.end_user_blocked"
	CodeBadRequest        = "warden.bad_request"
	CodeLedgerUnavailable = "warden.ledger_unavailable"
	CodeRewriteFailed     = "warden.rewrite_failed"
)

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Pipeline) logger() *slog.Logger {
	if p.Logger != nil {
		return p.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// refuse answers in f's error shape for status.
func refuse(f *Format, status int, code, msg string, cause error) *Refusal {
	body := f.ErrorBody(msg, code)
	if status != http.StatusForbidden {
		body = f.StatusError(status, msg, code)
	}
	return &Refusal{Status: status, Body: body, Code: code, Cause: cause}
}

// halted turns a tripwire into a refusal naming the guardrail and its reason, never the content.
func halted(f *Format, tw *warden.TripwireError) *Refusal {
	return refuse(f, http.StatusForbidden, tw.Decision.FirstReason().Code, haltMessage(tw), tw)
}

func subject(s warden.Stage) string {
	if s == warden.StageInput || s == warden.StageToolResult {
		return "request"
	}
	return "response"
}

// Prepared is a request ready to go upstream.
type Prepared struct {
	// Body is what to send: the client's bytes, or them with rewritten text or an injected end-user id.
	Body []byte
	// UserID is the end user the request is for (its own field, or RunInfo.UserID); pass it on in the
	// RunInfo of the response.
	UserID string
	// Tools names the tools the request offers the model.
	Tools []string
	// pending holds the input guardrails still running under OverlapInput; nil when none are.
	pending *pendingInput
}

// pendingInput is a request's parallel input guardrails, still running while the request goes upstream.
type pendingInput struct {
	run *warden.Run
	ctx context.Context
	p   *Pipeline
	f   *Format
}

// Context is the context to send the request upstream on: ctx, or one that a parallel input guardrail's
// halt cancels.
func (pr Prepared) Context(ctx context.Context) context.Context {
	if pr.pending == nil {
		return ctx
	}
	return pr.pending.ctx
}

// Wait returns when every input guardrail has finished: nil when they passed, a *Refusal in the format's
// error shape when one halted (or when ctx ended first). Nothing of the answer may be released before.
func (pr Prepared) Wait(ctx context.Context) error {
	if pr.pending == nil {
		return nil
	}
	if err := pr.pending.run.Wait(ctx); err != nil {
		return pr.pending.p.stageError(pr.pending.f, err)
	}
	return nil
}

// Close ends what Request started; it waits for input guardrails still running to return.
func (pr Prepared) Close() { pr.pending.close() }

func (pi *pendingInput) close() {
	if pi != nil {
		pi.run.Close()
	}
}

// Request runs the request side on a body in format f: the ledger check for the end user, the input
// guardrails on the new user input, and the tool-result guardrails on the tool results that answer the last
// assistant turn. run.UserID is the end user when the body names none (a header the gateway read, say).
// A refusal comes back as a *Refusal error, in f's error shape; nothing went upstream.
func (p *Pipeline) Request(ctx context.Context, f *Format, body []byte, run warden.RunInfo) (Prepared, error) {
	prep := Prepared{Body: body, UserID: run.UserID}
	if f.EndUser != nil {
		id, err := f.EndUser(body)
		if err != nil {
			return prep, unreadable(f, err)
		}
		if id != "" {
			prep.UserID = id
		}
	}
	run.UserID = prep.UserID
	if err := p.checkLedger(ctx, f, prep.UserID); err != nil {
		return prep, err
	}
	if !p.readsRequest() {
		// No guardrail looks inside the request, so it is not decoded; it must still be JSON (EndUser has
		// checked that when the format has one). jsonobj's validator answers as encoding/json's, several
		// times faster on a request that carries a whole conversation.
		if f.EndUser == nil && !jsonobj.Valid(body) {
			var v any
			err := json.Unmarshal(body, &v)
			return prep, unreadable(f, err)
		}
		return p.withEndUser(f, prep)
	}
	req, err := f.DecodeRequest(body)
	if err != nil {
		return prep, unreadable(f, err)
	}
	prep.Tools = req.Tools()
	changed, pending, err := p.guardRequest(ctx, f, req, run)
	if err != nil {
		return prep, err
	}
	if changed {
		if prep.Body, err = req.Encode(); err != nil {
			pending.close()
			return prep, refuse(f, http.StatusInternalServerError, CodeRewriteFailed, "Warden could not rewrite this request", err)
		}
	}
	if prep, err = p.withEndUser(f, prep); err != nil {
		pending.close()
		return prep, err
	}
	prep.pending = pending
	return prep, nil
}

// unreadable refuses a request Warden could not read, saying why, as a bad request in f's shape.
func unreadable(f *Format, err error) *Refusal {
	return refuse(f, http.StatusBadRequest, CodeBadRequest, "Warden could not read this request: "+err.Error(), err)
}

// readsRequest says whether a guardrail needs the decoded request: its input, its tool results, or the
// tools it declares (which stream guardrails are given).
func (p *Pipeline) readsRequest() bool {
	e := p.Engine
	return e.Has(warden.StageInput) || e.Has(warden.StageToolResult) || e.Has(warden.StageStream)
}

// withEndUser names the end user in the body for the provider when the pipeline is told to and the body
// names none.
func (p *Pipeline) withEndUser(f *Format, prep Prepared) (Prepared, error) {
	if p.InjectEndUser && f.WithEndUser != nil && prep.UserID != "" {
		var err error
		if prep.Body, err = f.WithEndUser(prep.Body, prep.UserID); err != nil {
			return prep, unreadable(f, err)
		}
	}
	return prep, nil
}

// checkLedger refuses a blocked end user. A ledger that cannot answer fails closed.
func (p *Pipeline) checkLedger(ctx context.Context, f *Format, user string) error {
	if p.Ledger == nil || user == "" {
		return nil
	}
	now := p.now()
	until, blocked, err := p.Ledger.Blocked(ctx, user, now)
	if err != nil {
		p.logger().ErrorContext(ctx, "ledger check failed; refusing the request", "err", err)
		return refuse(f, http.StatusServiceUnavailable, CodeLedgerUnavailable, "Warden could not check the end-user ledger; the request was not sent", err)
	}
	if !blocked {
		return nil
	}
	r := refuse(f, http.StatusForbidden, CodeEndUserBlocked, fmt.Sprintf(
		"Warden has blocked requests for this end user until %s: the provider stopped too many of their recent responses for safety. The request was not sent, so it cannot count against the API key.",
		until.UTC().Format(time.RFC3339)), nil)
	r.RetryAfter = until.Sub(now)
	return r
}

// NewInput returns the indexes of the messages the input guardrails see: the user messages after the last
// assistant message (all of them on a first turn). System messages are the operator's, not input, and
// earlier turns were checked when they were new.
func NewInput(msgs []warden.Message) []int {
	var idx []int
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != warden.RoleAssistant; i-- {
		if msgs[i].Role == warden.RoleUser {
			idx = append(idx, i)
		}
	}
	for l, r := 0, len(idx)-1; l < r; l, r = l+1, r-1 {
		idx[l], idx[r] = idx[r], idx[l]
	}
	return idx
}

// NewToolResults returns the indexes of the tool messages after the last assistant message: the results of
// the calls the model just made, which no guardrail has seen yet.
func NewToolResults(msgs []warden.Message) []int {
	var idx []int
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != warden.RoleAssistant; i-- {
		if msgs[i].Role == warden.RoleTool {
			idx = append(idx, i)
		}
	}
	for l, r := 0, len(idx)-1; l < r; l, r = l+1, r-1 {
		idx[l], idx[r] = idx[r], idx[l]
	}
	return idx
}

// guardRequest runs the input and tool-result stages and writes their changes into req.
func (p *Pipeline) guardRequest(ctx context.Context, f *Format, req Request, run warden.RunInfo) (bool, *pendingInput, error) {
	msgs := req.Messages()
	changed := false
	setText := func(i int, text string) error {
		if msgs[i].Text() == text {
			return nil
		}
		if err := req.SetText(i, text); err != nil {
			return refuse(f, http.StatusForbidden, CodeRewriteFailed, "Warden could not apply a guardrail's change to this request, so it was not sent", err)
		}
		changed = true
		return nil
	}
	results := NewToolResults(msgs)
	for _, i := range results {
		m := msgs[i]
		call, _ := CallFor(msgs, i)
		if call.Name == "" {
			call.Name = m.Name
		}
		out, err := p.Engine.CheckToolResult(ctx, warden.ToolResultCheck{Run: run, Call: call,
			Result: warden.ToolResult{CallID: m.ToolCallID, Name: m.Name, Content: m.Text(), IsError: m.IsError}})
		if err != nil {
			return false, nil, p.stageError(f, err)
		}
		text := out.Value.Content
		if !out.Allowed() {
			text = out.Message
		}
		if err := setText(i, text); err != nil {
			return false, nil, err
		}
	}
	input := NewInput(msgs)
	if len(input) == 0 {
		return changed, nil, nil
	}
	newInput := make([]warden.Message, len(input))
	for k, i := range input {
		newInput[k] = msgs[i]
	}
	if p.OverlapInput {
		pending, err := p.startInput(ctx, f, run, newInput, input, setText)
		if err != nil {
			return false, nil, err
		}
		return changed, pending, nil // changed after setText ran
	}
	out, err := p.Engine.CheckInput(ctx, warden.InputCheck{Run: run, Messages: newInput})
	if err != nil {
		return false, nil, p.stageError(f, err)
	}
	if err := writeInput(f, out.Value, input, setText); err != nil {
		return false, nil, err
	}
	return changed, nil, nil
}

// startInput runs the blocking input guardrails, writes what they changed, and leaves the parallel ones
// running on a run whose context their halt cancels.
func (p *Pipeline) startInput(ctx context.Context, f *Format, run warden.RunInfo, newInput []warden.Message, at []int, setText func(int, string) error) (*pendingInput, error) {
	r, rctx := p.Engine.StartRun(ctx, run)
	out, err := r.Input(ctx, newInput)
	if err != nil {
		err = p.stageError(f, err)
	} else {
		err = writeInput(f, out.Value, at, setText)
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return &pendingInput{run: r, ctx: rctx, p: p, f: f}, nil
}

// writeInput writes the input guardrails' messages back at their places in the request.
func writeInput(f *Format, msgs []warden.Message, at []int, setText func(int, string) error) error {
	if len(msgs) != len(at) {
		return refuse(f, http.StatusForbidden, CodeRewriteFailed, "an input guardrail changed the number of messages, which Warden cannot write into this request, so it was not sent", nil)
	}
	for k, i := range at {
		if err := setText(i, msgs[k].Text()); err != nil {
			return err
		}
	}
	return nil
}

// sameMessage says whether the guardrails left a message's text and tool calls, all a response's Set
// writes, as they were.
func sameMessage(a, b warden.Message) bool {
	if len(a.ToolCalls) != len(b.ToolCalls) || a.Text() != b.Text() {
		return false
	}
	for i := range a.ToolCalls {
		x, y := a.ToolCalls[i], b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || !bytes.Equal(x.Arguments, y.Arguments) {
			return false
		}
	}
	return true
}

// stageError turns an engine error into a refusal: a halt names its guardrail, a denial under DenyError
// its guardrail and reason; anything else fails closed.
func (p *Pipeline) stageError(f *Format, err error) error {
	var tw *warden.TripwireError
	if errors.As(err, &tw) {
		return halted(f, tw)
	}
	var denied *DeniedError
	if errors.As(err, &denied) {
		return refuse(f, http.StatusForbidden, denied.Decision.FirstReason().Code, deniedMessage(denied), err)
	}
	return refuse(f, http.StatusInternalServerError, "warden.error", "Warden could not check this exchange, so it was stopped", err)
}

// CallFor returns the tool call a tool message answers, from the assistant messages before it.
func CallFor(msgs []warden.Message, i int) (warden.ToolCall, bool) {
	id := msgs[i].ToolCallID
	if id == "" {
		return warden.ToolCall{}, false
	}
	for j := i - 1; j >= 0; j-- {
		for _, call := range msgs[j].ToolCalls {
			if call.ID == id {
				return call, true
			}
		}
	}
	return warden.ToolCall{}, false
}

// Response runs the response side on a whole body with HTTP status: on a 2xx body, every response in it
// goes through the response stage and tool-call authorization (a denied call is removed and its deny message
// added to the text); on an error status, an API-layer safety error is recorded and passed on, or answered
// as a message when the safety guardrail says so. A halt comes back as a *Refusal.
func (p *Pipeline) Response(ctx context.Context, f *Format, status int, body []byte, run warden.RunInfo) ([]byte, error) {
	if status != 0 && status/100 != 2 {
		return p.upstreamError(ctx, f, status, body, run)
	}
	r, err := f.DecodeResponse(body)
	if err != nil {
		return nil, refuse(f, http.StatusBadGateway, "warden.bad_upstream", "Warden could not read the provider's response: "+err.Error(), err)
	}
	q := p
	if p.OnDeny == DenyRetry && (r.Len() != 1 || f.FollowUp == nil) {
		q = p.WithOnDeny(DenyExplain) // a follow-up answers one response, in a format that has one
	}
	for i := range r.Len() {
		orig := r.Response(i)
		resp, err := q.Decide(ctx, run, orig)
		var denied *DeniedError
		if errors.As(err, &denied) && q.OnDeny == DenyRetry {
			return nil, denied
		}
		if err != nil {
			return nil, p.stageError(f, err)
		}
		if sameMessage(orig.Message, resp.Message) {
			continue // the body goes out as it came, not re-encoded
		}
		if err := r.Set(i, resp); err != nil {
			return nil, refuse(f, http.StatusBadGateway, CodeRewriteFailed, "Warden could not rewrite the provider's response", err)
		}
	}
	out, err := r.Encode()
	if err != nil {
		return nil, refuse(f, http.StatusBadGateway, CodeRewriteFailed, "Warden could not rewrite the provider's response", err)
	}
	return out, nil
}

// upstreamError runs the response stage on a provider error.
func (p *Pipeline) upstreamError(ctx context.Context, f *Format, status int, body []byte, run warden.RunInfo) ([]byte, error) {
	out, err := p.Engine.CheckResponse(ctx, warden.ResponseCheck{Run: run, Response: safety.ErrorResponse(status, body)})
	if err != nil {
		return nil, p.stageError(f, err)
	}
	p.countViolation(ctx, run.UserID, out.Evaluations)
	if out.Decision.Action == warden.ActionModify {
		return f.MessageBody(out.Value.Message.Text()), nil
	}
	return body, nil
}

// Stream copies a response stream through the format's stream guard: text passes through the stream
// guardrails (at once when there are none), tool calls are held until the whole response has been through
// the response stage and tool-call authorization. A halt ends the stream with the format's error event and
// comes back as a *Refusal whose body was written; so does a denied call under DenyError, and a stream
// guardrail's request for a correction, which a replayed stream cannot honour. A denied call under
// DenyRetry comes back as a *DeniedError with the stream's end unwritten, in a format whose streams can be
// joined (Format.JoinStreams), for the caller to follow up with StreamRound; in others it is explained.
func (p *Pipeline) Stream(ctx context.Context, f *Format, in io.Reader, out io.Writer, flush func(), info stream.Info) error {
	return p.StreamRound(ctx, f, new(Rounds), in, out, flush, info)
}

// Rounds is one client's stream across the provider streams joined into it: the stream whose call was
// denied, then each follow-up's (on_deny retry), and the stream a stream guardrail asked to correct, then
// each continuation's. The zero value is a client stream nothing was written to, which may not correct
// itself. Not safe for concurrent use.
type Rounds struct {
	// Corrections is how many more times a stream guardrail's retry may be answered by a continuation:
	// while it is above 0, and the format has Continue and a correcting guard, StreamRound writes the
	// feedback and returns a *CorrectionError (and counts it down); otherwise the retry ends the stream with
	// its error event.
	Corrections int
	guard       StreamGuard
	f           *Format
	// released is the text of the current assistant message the client has, across corrections: what the
	// stream guardrails see before a continuation's text, and what a continuation continues from.
	released  string
	corrected int // corrections made
}

// Corrector is a StreamGuard that can write a self-correction's feedback into the client's stream after a
// round a stream guardrail cut short, closing whatever text the round left open, so that a continuation's
// stream can follow.
type Corrector interface {
	Correct(out io.Writer, flush func(), text string) error
}

// CorrectionError is a stream guardrail's retry that StreamRound answered by writing the feedback: the
// caller sends Format.Continue of its request and Partial and guards the continuation's stream as the next
// round. If it cannot, it ends the stream with the format's error event.
type CorrectionError struct {
	// Partial is the assistant's message as the client has it, ending with the feedback: what the model
	// continues from.
	Partial string
	// Guardrail and Code name the guardrail that asked and its reason code.
	Guardrail, Code string
}

func (e *CorrectionError) Error() string {
	return fmt.Sprintf("stream guardrail %q asked for a correction (%s)", e.Guardrail, e.Code)
}

// StreamRound is Stream on one round of the client's stream rounds: the first round, or a follow-up's or
// a continuation's stream, which goes out after what the rounds before it wrote (renumbered, without a
// second opening, in formats whose events refer to each other). A stream guardrail's retry, while
// rounds.Corrections allows, writes the guardrail's feedback after the text the client has and comes back
// as a *CorrectionError for the caller to continue; the stream guardrails of a continuation see the text
// the client already has of the message. Every round of one Rounds must be in the same format.
//
// An out that buffers may implement http.Flusher: StreamRound flushes it before the response stage at
// the stream's finish (tool-call authorization and output guardrails), which may wait.
func (p *Pipeline) StreamRound(ctx context.Context, f *Format, rounds *Rounds, in io.Reader, out io.Writer, flush func(), info stream.Info) error {
	switch {
	case rounds.f == nil:
		rounds.f, rounds.guard = f, StreamGuardFunc(f.GuardStream)
		if f.JoinStreams != nil {
			rounds.guard = f.JoinStreams()
		}
	case rounds.f != f:
		return fmt.Errorf("pipeline: a client stream in format %s cannot go on with a stream in format %s", rounds.f.Name, f.Name)
	}
	if p.OnDeny == DenyRetry && (f.FollowUp == nil || f.JoinStreams == nil) {
		p = p.WithOnDeny(DenyExplain)
	}
	var gate warden.TextGate
	var streamGate *stream.Gate
	if p.Engine.Has(warden.StageStream) {
		streamGate = (&stream.Runner{Engine: p.Engine}).Gate(ctx, info, rounds.released)
		gate = streamGate
	}
	var held *holdGate
	if p.Engine.Has(warden.StageOutput) {
		held = &holdGate{inner: gate}
		gate = held
	}
	// The response stage may wait (a webhook authorizer, a remote guardrail): what out buffered reaches
	// the client first, so that released text never waits on the checks of what comes after it.
	flushOut, _ := out.(http.Flusher)
	decide := func(r warden.Response) (warden.Response, error) {
		if flushOut != nil {
			flushOut.Flush()
		}
		if held != nil {
			return p.decideHeld(ctx, info.Run, r, held.take())
		}
		return p.Decide(ctx, info.Run, r)
	}
	err := rounds.guard.Guard(in, out, flush, decide, gate)
	var r *Refusal
	var tw *warden.TripwireError
	var retry *stream.RetryError
	var denied *DeniedError
	switch {
	case errors.As(err, &tw):
		r = halted(f, tw)
		r.Body = f.StreamError(haltMessage(tw), r.Code)
	case errors.As(err, &denied) && p.OnDeny == DenyRetry:
		if b, ok := rounds.guard.(StreamBody); ok {
			denied.Body = b.Body()
		}
		rounds.released = "" // the follow-up answers with a message of its own
		return denied        // nothing of the response's end was written; the caller follows up
	case errors.As(err, &denied):
		r = &Refusal{Status: http.StatusForbidden, Code: denied.Decision.FirstReason().Code, Cause: err}
		r.Body = f.StreamError(deniedMessage(denied), r.Code)
	case errors.As(err, &retry):
		if c, ok := rounds.guard.(Corrector); ok && rounds.Corrections > 0 && f.Continue != nil {
			// The text the client has: with output guardrails none of this round's was released.
			partial := rounds.released
			if held == nil {
				partial = streamGate.Released()
			}
			fb := retry.Feedback
			if partial != "" && !strings.HasSuffix(partial, " ") && !strings.HasSuffix(partial, "\n") {
				fb = " " + fb
			}
			if err := c.Correct(out, flush, fb); err != nil {
				return err
			}
			rounds.Corrections--
			rounds.corrected++
			rounds.released = partial + fb
			return &CorrectionError{Partial: rounds.released, Guardrail: retry.Guardrail, Code: retry.Code}
		}
		msg := fmt.Sprintf("Warden stopped this response: stream guardrail %q asked the model to correct itself (%s), and this stream cannot be re-issued", retry.Guardrail, retry.Code)
		if rounds.corrected > 0 {
			msg = fmt.Sprintf("Warden stopped this response: stream guardrail %q asked the model to correct itself (%s) again after %d corrections, the most allowed", retry.Guardrail, retry.Code, rounds.corrected)
		}
		r = &Refusal{Status: http.StatusForbidden, Code: retry.Code, Cause: err, Body: f.StreamError(msg, retry.Code)}
	default:
		return err
	}
	if _, werr := out.Write(r.Body); werr != nil {
		return werr
	}
	if flush != nil {
		flush()
	}
	return r
}

func deniedMessage(d *DeniedError) string {
	for i, res := range d.Results {
		if res != NotRunResult {
			return fmt.Sprintf("Warden stopped this response: tool call %q was denied: %s", d.Response.Message.ToolCalls[i].Name, res)
		}
	}
	return "Warden stopped this response: a tool call was denied"
}

func haltMessage(tw *warden.TripwireError) string {
	reason := tw.Decision.FirstReason()
	return fmt.Sprintf("Warden stopped this %s: %s guardrail %q (%s): %s", subject(tw.Stage), tw.Stage, tw.Guardrail, reason.Code, reason.Message)
}

// Decide is the pipeline on one whole response: the response stage (counting a safety stop against the end
// user), then every tool call left, then, on a final answer (no call left), the output stage. Under
// DenyExplain a denied call is removed and its deny message added to the text; under DenyRetry and
// DenyError a denial returns a *DeniedError with the response as it came. An output guardrail's change
// replaces the message's text; its halt is a *warden.TripwireError.
func (p *Pipeline) Decide(ctx context.Context, run warden.RunInfo, resp warden.Response) (warden.Response, error) {
	resp, err := p.authorize(ctx, run, resp)
	if err != nil || len(resp.Message.ToolCalls) > 0 {
		return resp, err
	}
	return p.checkOutput(ctx, run, resp)
}

// decideHeld is Decide on a streamed response whose text a holdGate kept back: the stages see the response
// with the held text added, and an output guardrail's change can only be to that text, which the wire guard
// then writes as text decide added. A change to text already released fails closed.
func (p *Pipeline) decideHeld(ctx context.Context, run warden.RunInfo, r warden.Response, text string) (warden.Response, error) {
	at := len(r.Message.Content)
	released := r.Message.Text()
	r.Message.Content = append(append([]warden.ContentPart(nil), r.Message.Content...), warden.ContentPart{Kind: warden.ContentText, Text: text})
	resp, err := p.authorize(ctx, run, r)
	if err != nil || len(resp.Message.ToolCalls) > 0 {
		return resp, err
	}
	checked, err := p.checkOutput(ctx, run, resp)
	if err != nil || checked.Message.Text() == resp.Message.Text() {
		return resp, err
	}
	after := checked.Message.Text()
	if !strings.HasPrefix(after, released) {
		return resp, errors.New("an output guardrail changed streamed text that had already been released")
	}
	resp.Message.Content = append(resp.Message.Content[:at:at], warden.ContentPart{Kind: warden.ContentText, Text: after[len(released):]})
	return resp, nil
}

// checkOutput runs the output stage on a final answer and writes a change into its text.
func (p *Pipeline) checkOutput(ctx context.Context, run warden.RunInfo, resp warden.Response) (warden.Response, error) {
	if !p.Engine.Has(warden.StageOutput) {
		return resp, nil
	}
	out, err := p.Engine.CheckOutput(ctx, warden.OutputCheck{Run: run, Output: resp.Message})
	if err != nil {
		return resp, err
	}
	if out.Decision.Action == warden.ActionModify {
		resp.Message.Content = out.Value.Content
	}
	return resp, nil
}

// authorize is the response stage and tool-call authorization of Decide.
func (p *Pipeline) authorize(ctx context.Context, run warden.RunInfo, resp warden.Response) (warden.Response, error) {
	out, err := p.Engine.CheckResponse(ctx, warden.ResponseCheck{Run: run, Response: resp})
	if err != nil {
		return resp, err
	}
	p.countViolation(ctx, run.UserID, out.Evaluations)
	resp = out.Value
	var kept []warden.ToolCall
	var denied []string
	var deny *DeniedError
	for i, call := range resp.Message.ToolCalls {
		tc, err := p.Engine.CheckToolCall(ctx, warden.ToolCallCheck{Run: run, Call: call})
		if err != nil {
			return resp, err
		}
		if tc.Allowed() {
			kept = append(kept, tc.Value)
			continue
		}
		denied = append(denied, tc.Message)
		if p.OnDeny == DenyRetry || p.OnDeny == DenyError {
			if deny == nil {
				deny = &DeniedError{Response: resp, Decision: tc.Decision, Results: make([]string, len(resp.Message.ToolCalls))}
				for j := range deny.Results {
					deny.Results[j] = NotRunResult
				}
			}
			deny.Results[i] = tc.Message
		}
	}
	if deny != nil {
		return resp, deny
	}
	if len(denied) == 0 && len(kept) == len(resp.Message.ToolCalls) {
		return resp, nil
	}
	resp.Message.ToolCalls = kept
	text := strings.Join(denied, "\n")
	if resp.Message.Text() != "" {
		text = "\n\n" + text
	}
	resp.Message.Content = append(append([]warden.ContentPart(nil), resp.Message.Content...), warden.ContentPart{Kind: warden.ContentText, Text: text})
	return resp, nil
}

// countViolation records a provider safety stop against the end user in the ledger. A failed write does not
// change the answer (the response was already handled safely); it is logged, without content.
func (p *Pipeline) countViolation(ctx context.Context, user string, evs []warden.Evaluation) {
	if p.Ledger == nil || user == "" || !safety.Stopped(evs) {
		return
	}
	until, err := p.Ledger.Record(ctx, user, p.now())
	if err != nil {
		p.logger().ErrorContext(ctx, "ledger record failed", "err", err)
		return
	}
	if !until.IsZero() {
		p.logger().WarnContext(ctx, "end user blocked after repeated provider safety stops", "until", until)
	}
}

// New returns the pipeline a loaded config describes.
func New(l *config.Loaded, logger *slog.Logger) *Pipeline {
	p := &Pipeline{Engine: l.Engine, Ledger: l.Ledger, Logger: logger}
	if lc := l.Parsed.File.Ledger; lc != nil {
		p.InjectEndUser = lc.InjectEndUser
	}
	return p
}

// holdGate holds all of a stream's text, after the stream guardrails' gate (inner, when set) has let it
// go, so that the output guardrails see a final answer whole before any of it leaves: the stream's decide
// takes the held text into the response, and the wire guard writes the text decide returns as text it
// added. A halt or an error releases none of it. One response; not safe for concurrent use.
type holdGate struct {
	inner warden.TextGate
	held  strings.Builder
}

func (g *holdGate) Text(delta string) (string, error) {
	if g.inner != nil {
		var err error
		if delta, err = g.inner.Text(delta); err != nil {
			return "", err
		}
	}
	g.held.WriteString(delta)
	return "", nil
}

func (g *holdGate) Finish(end warden.Part) (string, error) {
	if g.inner != nil {
		rest, err := g.inner.Finish(end)
		if err != nil {
			return "", err
		}
		g.held.WriteString(rest)
	}
	return "", nil
}

// take returns the held text and forgets it.
func (g *holdGate) take() string {
	t := g.held.String()
	g.held.Reset()
	return t
}
