package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/safety"
)

// Response runs the response side on a whole body with HTTP status: on a 2xx body, every response in it
// goes through the response stage and tool-call authorization (a denied call is removed and its deny message
// added to the text); on an error status, an API-layer safety error is recorded and passed on, or answered
// as a message when the safety guardrail says so. A halt comes back as a *Refusal.
func (p *Pipeline) Response(ctx context.Context, f *Format, status int, body []byte, run warden.RunInfo) ([]byte, error) {
	if status != 0 && status/100 != 2 {
		return p.upstreamError(ctx, f, status, body, run)
	}
	p.observeBody(ctx, f, body, run)
	r, err := f.DecodeResponse(body)
	if err != nil {
		return nil, refuse(f, http.StatusBadGateway, CodeBadUpstream, "Warden could not read the provider's response: "+err.Error(), err)
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
		if err == nil && tc.Decision.Action == warden.ActionAsk {
			tc, err = p.awaitApproval(ctx, run, call, tc)
		}
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
	text := explanation(denied, resp.Message.Text() != "")
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

// awaitApproval holds a call a guardrail asked about until a person decides, under on_ask: wait, and checks
// it again: the check consumes the approval, or reports the denial. A call nobody decided on in time is
// denied (warden.approval_timeout). Under on_ask: deny it returns the ask as it is: not allowed, its message
// telling the model the id the call waits under.
func (p *Pipeline) awaitApproval(ctx context.Context, run warden.RunInfo, call warden.ToolCall, asked warden.Outcome[warden.ToolCall]) (warden.Outcome[warden.ToolCall], error) {
	if p.Approvals == nil || p.AskWait <= 0 || asked.Approval == nil {
		return asked, nil
	}
	wctx, cancel := context.WithTimeout(ctx, p.AskWait)
	err := p.await(wctx, asked.Approval.ID)
	cancel()
	if ctx.Err() != nil {
		return asked, context.Cause(ctx) // the client is gone: nothing runs
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		p.logger().ErrorContext(ctx, "waiting for an approval failed", "approval", asked.Approval.ID, "error", err)
	}
	tc, err := p.Engine.CheckToolCall(ctx, warden.ToolCallCheck{Run: run, Call: call})
	if err != nil || tc.Decision.Action != warden.ActionAsk {
		return tc, err
	}
	d := warden.Decision{Action: warden.ActionReject, Guardrail: tc.Decision.Guardrail, PolicyID: tc.Decision.PolicyID,
		Reasons: []warden.Reason{{Code: CodeApprovalTimeout, Message: fmt.Sprintf("nobody approved the call within %s (request %s)", p.AskWait, tc.Approval.ID)}}}
	tc.Decision, tc.Message = d, warden.DenyMessage(call.Name, d)
	return tc, nil
}

// keepAliveKey carries, in a streamed answer's context, what writes a keep-alive between its events.
type keepAliveKey struct{}

// DefaultKeepAlive is how often a stream that waits for a person's decision carries a keep-alive.
const DefaultKeepAlive = 15 * time.Second

// await waits for the decision on request id; in a stream it writes a keep-alive every KeepAlive
// meanwhile, so that no proxy or client between drops a connection that looks idle.
func (p *Pipeline) await(ctx context.Context, id string) error {
	keep, _ := ctx.Value(keepAliveKey{}).(func())
	every := p.KeepAlive
	if every == 0 {
		every = DefaultKeepAlive
	}
	if keep == nil || every < 0 {
		_, err := p.Approvals.Await(ctx, id)
		return err
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Approvals.Await(ctx, id)
		done <- err
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			keep()
		}
	}
}
