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
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/ledger"
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
	// Approvals, with AskWait above zero, holds a tool call a guardrail asked about until a person decides
	// (on_ask: wait), for at most AskWait, and then checks it again: it runs once approved, and is denied
	// (the OnDeny flow) when they deny it or nobody decides in time. Without them an asked call is denied
	// at once, its message telling the model the id it waits under (on_ask: deny).
	Approvals ApprovalWaiter
	AskWait   time.Duration
	// KeepAlive is how often a stream that waits for a decision carries the format's keep-alive (an SSE
	// comment); zero means DefaultKeepAlive, below zero none.
	KeepAlive time.Duration
	// OverlapInput lets parallel input guardrails run on while the request goes upstream: Request returns
	// once the blocking ones have passed, and the caller sends the request on Prepared.Context, calls
	// Prepared.Wait before it releases anything of the answer, and Prepared.Close when done. Without it
	// Request returns only when every input guardrail has finished.
	OverlapInput bool
}

// ApprovalWaiter waits for a person's decision on an approval request (approvals.Service is one).
type ApprovalWaiter interface {
	Await(ctx context.Context, id string) (approvals.Record, error)
}

// CodeApprovalTimeout denies a call nobody decided on within the wait.
const CodeApprovalTimeout = "warden.approval_timeout"

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

// Explanation is the text on_deny explain adds to a response for its denied calls: their deny messages,
// after the response's own text.
func (e *DeniedError) Explanation() string {
	var denied []string
	for _, r := range e.Results {
		if r != NotRunResult {
			denied = append(denied, r)
		}
	}
	return explanation(denied, e.Response.Message.Text() != "")
}

// explanation joins deny messages into the text added to a response, set apart from text it has.
func explanation(denied []string, afterText bool) string {
	text := strings.Join(denied, "\n")
	if afterText {
		text = "\n\n" + text
	}
	return text
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
	if wait, err := time.ParseDuration(tw.Decision.Metadata[MetaRetryAfter]); err == nil && wait >= 0 {
		// A guardrail that says when to come back (a rate limit) refused for now, not for good.
		r := refuse(f, http.StatusTooManyRequests, tw.Decision.FirstReason().Code, haltMessage(tw), tw)
		r.RetryAfter = max(wait, time.Second)
		return r
	}
	return refuse(f, http.StatusForbidden, tw.Decision.FirstReason().Code, haltMessage(tw), tw)
}

// MetaRetryAfter is the Decision.Metadata key by which a halting guardrail says how long the client should
// wait, as a Go duration (the rate_limit guardrail's): the gateway answers 429 with Retry-After.
const MetaRetryAfter = "retry_after"

func subject(s warden.Stage) string {
	if s == warden.StageInput || s == warden.StageToolResult {
		return "request"
	}
	return "response"
}

// New returns the pipeline a loaded config describes.
func New(l *config.Loaded, logger *slog.Logger) *Pipeline {
	p := &Pipeline{Engine: l.Engine, Ledger: l.Ledger, Logger: logger}
	if lc := l.Parsed.File.Ledger; lc != nil {
		p.InjectEndUser = lc.InjectEndUser
	}
	if a := l.Parsed.File.Approvals; a != nil && l.Approvals != nil && a.OnAsk != "deny" {
		p.Approvals, p.AskWait = l.Approvals, a.WaitFor()
	}
	return p
}
