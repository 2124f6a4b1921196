package warden_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/google/go-cmp/cmp"
)

// fakeApprovals answers every Resolve with its answer and remembers what it was asked.
type fakeApprovals struct {
	answer warden.Approval
	err    error
	mu     sync.Mutex
	asks   []warden.ApprovalAsk
}

func (f *fakeApprovals) Resolve(_ context.Context, a warden.ApprovalAsk) (warden.Approval, error) {
	f.mu.Lock()
	f.asks = append(f.asks, a)
	f.mu.Unlock()
	return f.answer, f.err
}

func askTool() warden.ToolCallGuardrailFunc {
	return toolGuard(warden.Decision{Action: warden.ActionAsk, PolicyID: "rules/push-main", Reasons: []warden.Reason{{Code: "commands.ask_push", Message: "pushes to main"}}}, nil)
}

func TestAskDecisions(t *testing.T) {
	t.Parallel()
	pending := warden.Approval{ID: "ap-1", Status: warden.ApprovalPending, Digest: "d"}
	type want struct {
		action   warden.Action
		code     string
		approval warden.ApprovalStatus // 0: no approval on the outcome
		message  string                // a part of Outcome.Message
		resolved bool                  // Resolve was called
	}
	tests := []struct {
		desc      string
		guards    []warden.Entry
		approvals *fakeApprovals // nil: none configured
		want      want
	}{
		{desc: "ask without approvals configured rejects, fail closed",
			guards: []warden.Entry{entry("ask", askTool())},
			want:   want{action: warden.ActionReject, code: warden.CodeApprovalUnavailable, message: "no approvals are configured"}},
		{desc: "ask with no decision yet waits under the request's id",
			guards:    []warden.Entry{entry("ask", askTool())},
			approvals: &fakeApprovals{answer: pending},
			want:      want{action: warden.ActionAsk, code: "commands.ask_push", approval: warden.ApprovalPending, message: "under id ap-1", resolved: true}},
		{desc: "ask a person approved allows, naming the approver",
			guards:    []warden.Entry{entry("ask", askTool())},
			approvals: &fakeApprovals{answer: warden.Approval{ID: "ap-1", Status: warden.ApprovalGranted, Approver: "alice"}},
			want:      want{action: warden.ActionAllow, code: warden.CodeApproved, approval: warden.ApprovalGranted, resolved: true}},
		{desc: "ask a person denied rejects with their note",
			guards:    []warden.Entry{entry("ask", askTool())},
			approvals: &fakeApprovals{answer: warden.Approval{ID: "ap-1", Status: warden.ApprovalDenied, Approver: "alice", Note: "use staging"}},
			want:      want{action: warden.ActionReject, code: warden.CodeApprovalDenied, approval: warden.ApprovalDenied, message: "alice denied the call: use staging", resolved: true}},
		{desc: "approvals store error rejects, fail closed",
			guards:    []warden.Entry{entry("ask", askTool())},
			approvals: &fakeApprovals{err: errors.New("disk full")},
			want:      want{action: warden.ActionReject, code: warden.CodeApprovalError, resolved: true}},
		{desc: "pending answer without an id rejects",
			guards:    []warden.Entry{entry("ask", askTool())},
			approvals: &fakeApprovals{answer: warden.Approval{Status: warden.ApprovalPending}},
			want:      want{action: warden.ActionReject, code: warden.CodeApprovalError, resolved: true}},
		{desc: "answer without a status rejects",
			guards:    []warden.Entry{entry("ask", askTool())},
			approvals: &fakeApprovals{answer: warden.Approval{ID: "ap-1"}},
			want:      want{action: warden.ActionReject, code: warden.CodeApprovalError, resolved: true}},
		{desc: "a later reject wins over an earlier ask, and nothing is filed",
			guards:    []warden.Entry{entry("ask", askTool()), entry("deny", toolGuard(warden.Reject("x.deny", "no"), nil))},
			approvals: &fakeApprovals{answer: pending},
			want:      want{action: warden.ActionReject, code: "x.deny"}},
		{desc: "an earlier reject wins over a later ask",
			guards:    []warden.Entry{entry("deny", toolGuard(warden.Reject("x.deny", "no"), nil)), entry("ask", askTool())},
			approvals: &fakeApprovals{answer: pending},
			want:      want{action: warden.ActionReject, code: "x.deny"}},
		{desc: "an ask after an allow still asks",
			guards:    []warden.Entry{entry("allow", allowTool()), entry("ask", askTool())},
			approvals: &fakeApprovals{answer: pending},
			want:      want{action: warden.ActionAsk, code: "commands.ask_push", approval: warden.ApprovalPending, resolved: true}},
		{desc: "a monitored ask allows without filing a request",
			guards:    []warden.Entry{entry("ask", askTool(), monitor)},
			approvals: &fakeApprovals{answer: pending},
			want:      want{action: warden.ActionAllow}},
		{desc: "an ask from a guardrail that is off is not asked",
			guards:    []warden.Entry{entry("ask", askTool(), off)},
			approvals: &fakeApprovals{answer: pending},
			want:      want{action: warden.ActionAllow}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			spec := warden.Spec{ToolCall: tt.guards}
			if tt.approvals != nil {
				spec.Approvals = tt.approvals
			}
			e := mustEngine(t, spec)
			out, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c1", "git_push", []byte(`{"branch":"main"}`))})
			if err != nil {
				t.Fatal(err)
			}
			got := want{action: out.Decision.Action, message: tt.want.message}
			if len(out.Decision.Reasons) > 0 {
				got.code = out.Decision.Reasons[0].Code
			}
			if out.Approval != nil {
				got.approval = out.Approval.Status
			}
			if tt.want.message != "" && !strings.Contains(out.Message, tt.want.message) {
				got.message = out.Message
			}
			if tt.approvals != nil {
				got.resolved = len(tt.approvals.asks) > 0
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			if want := tt.want.action == warden.ActionAllow; out.Allowed() != want {
				t.Errorf("Allowed() = %v, want %v", out.Allowed(), want)
			}
		})
	}
}

func TestAskIsBoundToTheCallAsItWouldRun(t *testing.T) {
	t.Parallel()
	rewrite := toolGuard(warden.Modify(warden.NewToolCall("c1", "git_push", []byte(`{"branch":"main","force":false}`))), nil)
	fake := &fakeApprovals{answer: warden.Approval{ID: "ap-1", Status: warden.ApprovalGranted, Approver: "bob"}}
	e := mustEngine(t, warden.Spec{ToolCall: []warden.Entry{entry("rewrite", rewrite), entry("ask", askTool())}, Approvals: fake, PolicyVersion: "cfg-7"})
	run := warden.RunInfo{UserID: "u1"}
	out, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: run, Call: warden.NewToolCall("c1", "git_push", []byte(`{"branch":"main","force":true}`))})
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.asks) != 1 {
		t.Fatalf("Resolve called %d times, want 1", len(fake.asks))
	}
	ask := fake.asks[0]
	if got := string(ask.Call.Arguments); got != `{"branch":"main","force":false}` {
		t.Errorf("bound to arguments %s, want the modified call's", got)
	}
	if ask.Run.Principal() != "user:u1" || ask.Decision.FirstReason().Code != "commands.ask_push" {
		t.Errorf("ask carries principal %q and code %q", ask.Run.Principal(), ask.Decision.FirstReason().Code)
	}
	for _, part := range []string{"cfg-7", "ask", "rules/push-main"} {
		if !strings.Contains(ask.Policy, part) {
			t.Errorf("policy version %q lacks %q", ask.Policy, part)
		}
	}
	if out.Decision.Action != warden.ActionModify || string(out.Value.Arguments) != `{"branch":"main","force":false}` {
		t.Errorf("approved modified call: action %s, value %s; want modify with the modified call", out.Decision.Action, out.Value.Arguments)
	}
}

func TestAskPolicyVersionDiffersByGuardrailAndConfig(t *testing.T) {
	t.Parallel()
	policyOf := func(version, name string) string {
		fake := &fakeApprovals{answer: warden.Approval{ID: "x", Status: warden.ApprovalPending}}
		e := mustEngine(t, warden.Spec{ToolCall: []warden.Entry{entry(name, askTool())}, Approvals: fake, PolicyVersion: version})
		if _, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "t", []byte(`{}`))}); err != nil {
			t.Fatal(err)
		}
		return fake.asks[0].Policy
	}
	base := policyOf("v1", "a")
	for _, other := range []string{policyOf("v2", "a"), policyOf("v1", "b")} {
		if other == base {
			t.Errorf("policy version %q equals another configuration's", other)
		}
	}
}

func TestAskIsInvalidOutsideTheToolCallStage(t *testing.T) {
	t.Parallel()
	asks := warden.InputGuardrailFunc(func(context.Context, warden.InputCheck) (warden.Decision, error) {
		return warden.Ask("x.ask", "why"), nil
	})
	e := mustEngine(t, warden.Spec{Input: []warden.Entry{entry("ask", asks)}})
	_, err := e.CheckInput(context.Background(), warden.InputCheck{Messages: []warden.Message{warden.TextMessage(warden.RoleUser, "hi")}})
	var tw *warden.TripwireError
	if !errors.As(err, &tw) {
		t.Fatalf("ask at the input stage: err %v, want a tripwire (the guardrail's mistake denies)", err)
	}
}

func TestPrincipal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		run  warden.RunInfo
		want string
	}{
		{desc: "the end user when one is named", run: warden.RunInfo{UserID: "u", AgentID: "a"}, want: "user:u"},
		{desc: "an end user beside a credential is that credential's user", run: warden.RunInfo{UserID: "u", Credential: "k", AgentID: "a"}, want: "key:k/user:u"},
		{desc: "the credential when no user is named", run: warden.RunInfo{Credential: "k", AgentID: "a"}, want: "key:k"},
		{desc: "the agent when nothing else is named", run: warden.RunInfo{AgentID: "a"}, want: "agent:a"},
		{desc: "empty when the run names no one", run: warden.RunInfo{}, want: ""},
		{desc: "a user and a key of one name stay apart", run: warden.RunInfo{Credential: "u"}, want: "key:u"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := tt.run.Principal(); got != tt.want {
				t.Errorf("Principal() = %q, want %q", got, tt.want)
			}
		})
	}
}
