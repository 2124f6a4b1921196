package approvals_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/internal/redistest"
)

// asker asks about every call of git_push.
var asker = warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	if c.Call.Name == "git_push" {
		return warden.Decision{Action: warden.ActionAsk, PolicyID: "rules/push", Reasons: []warden.Reason{{Code: "x.ask_push", Message: "pushes"}}}, nil
	}
	return warden.Allow(), nil
})

type recordedEvents struct {
	mu      sync.Mutex
	filed   []approvals.Record
	decided []approvals.Record
}

func (e *recordedEvents) Filed(_ context.Context, r approvals.Record) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.filed = append(e.filed, r)
}

func (e *recordedEvents) Decided(_ context.Context, r approvals.Record) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.decided = append(e.decided, r)
}

func newService(t *testing.T, store approvals.Store, cfg approvals.Config) *approvals.Service {
	t.Helper()
	cfg.Store = store
	s, err := approvals.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func engineWith(t *testing.T, s warden.Approvals, version string) *warden.Engine {
	t.Helper()
	e, err := warden.NewEngine(warden.Spec{ToolCall: []warden.Entry{{Name: "ask-push", Guardrail: asker}}, Approvals: s, PolicyVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func check(t *testing.T, e *warden.Engine, user, args string) warden.Outcome[warden.ToolCall] {
	t.Helper()
	out, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: warden.RunInfo{UserID: user}, Call: warden.NewToolCall("c1", "git_push", []byte(args))})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestApprovalFlow is the library's flow: ask, a person decides, the call is checked again.
func TestApprovalFlow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const args = `{"remote":"origin","branch":"main"}`
	tests := []struct {
		desc string
		// after the first ask was approved by alice, the call checked again
		user, args, version string
		want                warden.Action
		wantCode            string
	}{
		{desc: "the identical call passes", user: "u1", args: args, version: "v1", want: warden.ActionAllow, wantCode: warden.CodeApproved},
		{desc: "the identical call with its members reordered and spaced passes", user: "u1", args: ` { "branch" : "main", "remote":"origin" }`, version: "v1", want: warden.ActionAllow, wantCode: warden.CodeApproved},
		{desc: "changed arguments ask again", user: "u1", args: `{"remote":"origin","branch":"main","force":true}`, version: "v1", want: warden.ActionAsk, wantCode: "x.ask_push"},
		{desc: "another principal asks again", user: "u2", args: args, version: "v1", want: warden.ActionAsk, wantCode: "x.ask_push"},
		{desc: "another policy version asks again", user: "u1", args: args, version: "v2", want: warden.ActionAsk, wantCode: "x.ask_push"},
		{desc: "arguments naming a member twice are rejected", user: "u1", args: `{"remote":"origin","branch":"dev","branch":"main"}`, version: "v1", want: warden.ActionReject, wantCode: warden.CodeApprovalError},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			store := approvals.NewMemory()
			s := newService(t, store, approvals.Config{})
			first := check(t, engineWith(t, s, "v1"), "u1", args)
			if first.Decision.Action != warden.ActionAsk || first.Approval == nil || first.Approval.Status != warden.ApprovalPending {
				t.Fatalf("first check: %s %+v, want a pending ask", first.Decision.Action, first.Approval)
			}
			if !strings.Contains(first.Message, first.Approval.ID) {
				t.Errorf("the model's message %q does not name the request", first.Message)
			}
			if _, err := s.Decide(ctx, first.Approval.ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
				t.Fatal(err)
			}
			out := check(t, engineWith(t, s, tt.version), tt.user, tt.args)
			if out.Decision.Action != tt.want || out.Decision.FirstReason().Code != tt.wantCode {
				t.Errorf("after approval: %s (%s), want %s (%s)", out.Decision.Action, out.Decision.FirstReason().Code, tt.want, tt.wantCode)
			}
			if tt.want == warden.ActionAllow && !strings.Contains(out.Decision.FirstReason().Message, "alice") {
				t.Errorf("the approved call's reason %q does not name the approver", out.Decision.FirstReason().Message)
			}
		})
	}
}

func TestApprovedCallRunsOnce(t *testing.T) {
	t.Parallel()
	s := newService(t, approvals.NewMemory(), approvals.Config{})
	e := engineWith(t, s, "v1")
	first := check(t, e, "u1", `{}`)
	if _, err := s.Decide(context.Background(), first.Approval.ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
		t.Fatal(err)
	}
	if out := check(t, e, "u1", `{}`); !out.Allowed() {
		t.Fatalf("approved call: %s", out.Decision.Action)
	}
	again := check(t, e, "u1", `{}`)
	if again.Decision.Action != warden.ActionAsk || again.Approval.ID == first.Approval.ID {
		t.Errorf("second submit of the approved call: %s under %+v, want a new ask", again.Decision.Action, again.Approval)
	}
}

func TestDeniedCallIsRejectedWithTheNote(t *testing.T) {
	t.Parallel()
	s := newService(t, approvals.NewMemory(), approvals.Config{})
	e := engineWith(t, s, "v1")
	first := check(t, e, "u1", `{}`)
	if _, err := s.Decide(context.Background(), first.Approval.ID, approvals.Verdict{Approver: "bob", Note: "push to a branch"}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		out := check(t, e, "u1", `{}`)
		if out.Decision.Action != warden.ActionReject || out.Decision.FirstReason().Code != warden.CodeApprovalDenied || !strings.Contains(out.Message, "push to a branch") {
			t.Errorf("denied call: %s %q, want a reject carrying the note", out.Decision.Action, out.Message)
		}
	}
}

func TestDecideNeedsAnApprover(t *testing.T) {
	t.Parallel()
	s := newService(t, approvals.NewMemory(), approvals.Config{})
	first := check(t, engineWith(t, s, "v1"), "u1", `{}`)
	if _, err := s.Decide(context.Background(), first.Approval.ID, approvals.Verdict{Approve: true, Approver: " "}); err == nil {
		t.Error("a decision without an approver was taken")
	}
}

func TestEventsHearOfFilingAndDeciding(t *testing.T) {
	t.Parallel()
	ev := &recordedEvents{}
	s := newService(t, approvals.NewMemory(), approvals.Config{Events: ev})
	e := engineWith(t, s, "v1")
	first := check(t, e, "u1", `{"a":1}`)
	check(t, e, "u1", `{"a":1}`) // waiting on the same request: not filed again
	if _, err := s.Decide(context.Background(), first.Approval.ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
		t.Fatal(err)
	}
	if len(ev.filed) != 1 || ev.filed[0].ID != first.Approval.ID || ev.filed[0].Tool != "git_push" {
		t.Errorf("filed events: %+v, want the one request", ev.filed)
	}
	if len(ev.decided) != 1 || ev.decided[0].Approver != "alice" || ev.decided[0].Status != approvals.StatusApproved {
		t.Errorf("decided events: %+v, want alice's approval", ev.decided)
	}
}

func TestAwait(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("a decision in this process releases the waiting call", func(t *testing.T) {
		t.Parallel()
		s := newService(t, approvals.NewMemory(), approvals.Config{Poll: time.Hour}) // only the wake can release it
		first := check(t, engineWith(t, s, "v1"), "u1", `{}`)
		done := make(chan approvals.Record, 1)
		go func() {
			rec, err := s.Await(ctx, first.Approval.ID)
			if err != nil {
				t.Error(err)
			}
			done <- rec
		}()
		time.Sleep(10 * time.Millisecond)
		if _, err := s.Decide(ctx, first.Approval.ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
			t.Fatal(err)
		}
		if rec := <-done; rec.Status != approvals.StatusApproved {
			t.Errorf("await returned %s, want approved", rec.Status)
		}
	})
	t.Run("a request nobody decides returns expired", func(t *testing.T) {
		t.Parallel()
		s := newService(t, approvals.NewMemory(), approvals.Config{TTL: 30 * time.Millisecond})
		first := check(t, engineWith(t, s, "v1"), "u1", `{}`)
		rec, err := s.Await(ctx, first.Approval.ID)
		if err != nil || rec.StatusAt(time.Now()) != approvals.StatusExpired {
			t.Errorf("await: %s (%v), want expired", rec.StatusAt(time.Now()), err)
		}
	})
	t.Run("a caller that gives up gets its context's error", func(t *testing.T) {
		t.Parallel()
		s := newService(t, approvals.NewMemory(), approvals.Config{})
		first := check(t, engineWith(t, s, "v1"), "u1", `{}`)
		cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		if _, err := s.Await(cctx, first.Approval.ID); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("await: %v, want the deadline", err)
		}
	})
	t.Run("an unknown request is an error", func(t *testing.T) {
		t.Parallel()
		s := newService(t, approvals.NewMemory(), approvals.Config{})
		if _, err := s.Await(ctx, "apr_nope"); !errors.Is(err, approvals.ErrNotFound) {
			t.Errorf("await: %v, want ErrNotFound", err)
		}
	})
}

// TestReplicasShareApprovals runs two services, as two gateway replicas, on one Redis: a decision on one
// releases the call waiting on the other at once (not at a poll), and the approval passes once in all.
func TestReplicasShareApprovals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, c := redistest.Start(t)
	replica := func() *approvals.Service {
		store, err := approvals.NewRedis(c, "warden:approvals:")
		if err != nil {
			t.Fatal(err)
		}
		return newService(t, store, approvals.Config{Poll: time.Hour})
	}
	a, b := replica(), replica()
	ea, eb := engineWith(t, a, "v1"), engineWith(t, b, "v1")
	first := check(t, ea, "u1", `{}`)
	if again := check(t, eb, "u1", `{}`); again.Approval == nil || again.Approval.ID != first.Approval.ID {
		t.Fatalf("the other replica filed %+v, want it to wait on %s", again.Approval, first.Approval.ID)
	}
	done := make(chan approvals.Record, 1)
	go func() {
		rec, err := a.Await(ctx, first.Approval.ID)
		if err != nil {
			t.Error(err)
		}
		done <- rec
	}()
	time.Sleep(20 * time.Millisecond)
	if _, err := b.Decide(ctx, first.Approval.ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
		t.Fatal(err)
	}
	select {
	case rec := <-done:
		if rec.Status != approvals.StatusApproved {
			t.Fatalf("released with %s", rec.Status)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the decision on one replica never released the call waiting on the other")
	}
	passed := 0
	for _, e := range []*warden.Engine{ea, eb, ea} {
		if check(t, e, "u1", `{}`).Allowed() {
			passed++
		}
	}
	if passed != 1 {
		t.Errorf("the approval passed %d calls across replicas, want 1", passed)
	}
}
