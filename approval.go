package warden

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Approvals resolves the ask decisions of the tool-call stage (Spec.Approvals): it matches a call a
// guardrail asked about against the decisions people made. The approvals package implements it over a
// store (memory, SQLite, Redis); a surface never resolves an ask itself.
//
// An implementation must be safe for concurrent use, and Resolve must be atomic: of two identical calls
// resolved at once against one approval, exactly one is granted.
type Approvals interface {
	// Resolve consumes an approval granted for exactly this call (the same principal, tool, canonical
	// arguments and policy version) and reports it granted; or reports the denial a person gave it; or
	// files it as a pending request, or finds the one already pending, and reports it pending.
	Resolve(ctx context.Context, a ApprovalAsk) (Approval, error)
}

// ApprovalAsk is a tool call a guardrail asked about, with what an approval is bound to.
type ApprovalAsk struct {
	Run RunInfo
	// Call is the call as it would run: after every modification the stage made.
	Call ToolCall
	// Decision is the asking guardrail's decision: its reasons are what the person deciding reads.
	Decision Decision
	// Policy is the version of the policy that asked: the engine's Spec.PolicyVersion, the asking guardrail
	// and its decision's PolicyID. An approval given under one policy does not carry over to another.
	Policy string
	// Time is when the call was checked.
	Time time.Time
}

// ApprovalStatus is where an approval request stands.
type ApprovalStatus uint8

// Approval statuses. The zero value is no status, which the engine treats as an error (and so denies).
const (
	// ApprovalPending waits for a person.
	ApprovalPending ApprovalStatus = iota + 1
	// ApprovalGranted: a person approved the call, and this check consumed the approval.
	ApprovalGranted
	// ApprovalDenied: a person denied the call.
	ApprovalDenied
)

var approvalStatusNames = [...]string{ApprovalPending: "pending", ApprovalGranted: "granted", ApprovalDenied: "denied"}

func (s ApprovalStatus) String() string {
	if int(s) < len(approvalStatusNames) && approvalStatusNames[s] != "" {
		return approvalStatusNames[s]
	}
	return fmt.Sprintf("approval_status(%d)", uint8(s))
}

// MarshalText encodes the status by name.
func (s ApprovalStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Approval is the answer to an ApprovalAsk.
type Approval struct {
	// ID names the request: what a person approves or denies, and what the model is told to wait for.
	ID     string
	Status ApprovalStatus
	// Digest is the hex SHA-256 of what the approval is bound to: principal, tool, canonical arguments and
	// policy version.
	Digest string
	// Expires is when a pending request or an unused approval lapses.
	Expires time.Time
	// Approver is who decided, as the approvals service authenticated them; empty while pending.
	Approver string
	// Note is what the approver wrote with the decision, if anything.
	Note string
}

// Reason codes of the approval flow.
const (
	// CodeApproved is the reason of a call that passes because a person approved it.
	CodeApproved = "warden.approved"
	// CodeApprovalDenied rejects a call a person denied.
	CodeApprovalDenied = "warden.approval_denied"
	// CodeApprovalUnavailable rejects a call a guardrail asked about when no approvals are configured.
	CodeApprovalUnavailable = "warden.approval_unavailable"
	// CodeApprovalError rejects a call whose approval could not be resolved (the store failed).
	CodeApprovalError = "warden.approval_error"
)

// AskMessage returns what the model reads in place of a call that waits for a person's approval:
//
//	Guardrail asks for approval: tool '{name}' needs a person's approval ({code}). Reason: {message}. The call did not run. It waits for approval under id {id}; once approved, make the identical call again and it runs once.
func AskMessage(toolName string, d Decision, a Approval) string {
	r := d.FirstReason()
	var b strings.Builder
	b.WriteString("Guardrail asks for approval: tool '")
	b.WriteString(toolName)
	b.WriteString("' needs a person's approval (")
	b.WriteString(r.Code)
	b.WriteString("). Reason: ")
	b.WriteString(r.Message)
	b.WriteString(". The call did not run. It waits for approval under id ")
	b.WriteString(a.ID)
	b.WriteString("; once approved, make the identical call again and it runs once.")
	return b.String()
}

// policyVersion is what an approval asked by one guardrail's decision is bound to.
func (e *Engine) policyVersion(guardrail string, d Decision) string {
	return e.policy + "\x00" + guardrail + "\x00" + d.PolicyID
}

// resolveAsk turns the tool-call stage's ask into the outcome the surface acts on: allow once a person
// approved, reject when they denied or nothing can be resolved (fail closed), ask with the pending request
// otherwise.
func (e *Engine) resolveAsk(ctx context.Context, c ToolCallCheck, out Outcome[ToolCall]) Outcome[ToolCall] {
	asked := out.Decision
	reject := func(code, msg string) Outcome[ToolCall] {
		out.Decision = Decision{Action: ActionReject, Guardrail: asked.Guardrail, PolicyID: asked.PolicyID, Reasons: []Reason{{Code: code, Message: msg}}}
		out.Message = DenyMessage(c.Call.Name, out.Decision)
		return out
	}
	if e.approvals == nil {
		return reject(CodeApprovalUnavailable, "the call needs a person's approval and no approvals are configured")
	}
	a, err := e.approvals.Resolve(ctx, ApprovalAsk{Run: c.Run, Call: out.Value, Decision: asked, Policy: e.policyVersion(asked.Guardrail, asked), Time: c.Time})
	switch {
	case err != nil:
		return reject(CodeApprovalError, "the call's approval could not be looked up (fail-closed)")
	case a.Status == ApprovalGranted:
		action := ActionAllow
		if out.Value.ID != c.Call.ID || out.Value.Name != c.Call.Name || string(out.Value.Arguments) != string(c.Call.Arguments) {
			action = ActionModify
		}
		out.Decision = Decision{Action: action, Guardrail: asked.Guardrail, PolicyID: asked.PolicyID, Reasons: []Reason{{Code: CodeApproved, Message: "approved by " + a.Approver}}}
		if action == ActionModify {
			out.Decision.Replacement = out.Value
		}
		out.Approval = &a
		return out
	case a.Status == ApprovalDenied:
		msg := "a person denied the call"
		if a.Approver != "" {
			msg = a.Approver + " denied the call"
		}
		if a.Note != "" {
			msg += ": " + a.Note
		}
		out = reject(CodeApprovalDenied, msg)
		out.Approval = &a
		return out
	case a.Status == ApprovalPending && a.ID != "":
		out.Approval = &a
		out.Message = AskMessage(c.Call.Name, asked, a)
		return out
	}
	return reject(CodeApprovalError, fmt.Sprintf("the approvals store answered %s without an id (fail-closed)", a.Status))
}
