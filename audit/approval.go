package audit

import (
	"context"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
)

// ApprovalEvents writes an approval event for each request filed (action ask, decision pending) and decided
// (action approve or deny, naming the approver). Like every event it carries no arguments, no principal and
// no note: only which tool, which guardrail and code, who decided and when.
type ApprovalEvents struct {
	Recorder *Recorder
}

var _ approvals.Events = ApprovalEvents{}

// Filed implements approvals.Events.
func (a ApprovalEvents) Filed(ctx context.Context, r approvals.Record) {
	a.Recorder.write(ctx, []Event{approvalEvent(r, "ask", r.Created)})
}

// Decided implements approvals.Events.
func (a ApprovalEvents) Decided(ctx context.Context, r approvals.Record) {
	action := "deny"
	if r.Status == approvals.StatusApproved {
		action = "approve"
	}
	ev := approvalEvent(r, action, r.Decided)
	ev.Approver = r.Approver
	a.Recorder.write(ctx, []Event{ev})
}

func approvalEvent(r approvals.Record, action string, at time.Time) Event {
	return Event{V: Version, Time: at.UTC(), Kind: "approval", Stage: warden.StageToolCall.String(), Guardrail: r.Guardrail, Mode: warden.ModeEnforce.String(), Status: "evaluated",
		Action: action, Effect: action, Decision: string(r.Status), Reasons: []warden.Reason{{Code: r.Code}}, ToolName: r.Tool, ApprovalID: r.ID}
}
