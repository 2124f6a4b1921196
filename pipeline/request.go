package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

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
	if err := isObject(body); err != nil {
		return prep, unreadable(f, err)
	}
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

// isObject checks that a request body is a JSON object, as every provider's request is: null, an array or
// a scalar is the client's mistake, which encoding/json would read into a request struct as an empty
// request (null) or refuse in words about Go types. Whether the object is valid JSON is checked after.
func isObject(body []byte) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return errors.New("the body is empty; send the request as a JSON object")
	}
	if trimmed[0] != '{' {
		return errors.New("the body is not a JSON object")
	}
	return nil
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
func NewInput(msgs []warden.Message) []int { return sinceLastAssistant(msgs, warden.RoleUser) }

// NewToolResults returns the indexes of the tool messages after the last assistant message: the results of
// the calls the model just made, which no guardrail has seen yet.
func NewToolResults(msgs []warden.Message) []int { return sinceLastAssistant(msgs, warden.RoleTool) }

// sinceLastAssistant returns the indexes, in order, of the messages with role after the last assistant
// message.
func sinceLastAssistant(msgs []warden.Message, role warden.Role) []int {
	var idx []int
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != warden.RoleAssistant; i-- {
		if msgs[i].Role == role {
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
