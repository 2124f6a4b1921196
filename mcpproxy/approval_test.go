package mcpproxy_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/mcpproxy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askDeploys asks a person about every run_command that deploys.
var askDeploys = warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	if strings.Contains(string(c.Call.Arguments), "deploy") {
		return warden.Ask("acme.deploy", "deploys to production"), nil
	}
	return warden.Allow(), nil
})

const pageBase = "https://approvals.example/approvals/"

// approvalProxy is a proxy whose engine asks about deploys, resolved by svc, holding calls for wait.
func approvalProxy(t *testing.T, svc *approvals.Service, wait time.Duration) *mcpproxy.Proxy {
	t.Helper()
	e, err := warden.NewEngine(warden.Spec{ToolCall: []warden.Entry{{Name: "ask-deploys", Guardrail: askDeploys}}, Approvals: svc})
	if err != nil {
		t.Fatal(err)
	}
	px, err := mcpproxy.New(mcpproxy.Config{Server: "files", Engine: e, Approvals: svc, AskWait: wait,
		ApprovalPage: func(id string) string { return pageBase + id }, StateKey: []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	return px
}

// sdkClientWith is sdkClient with client options: handlers and capabilities.
func sdkClientWith(t *testing.T, px *mcpproxy.Proxy, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	sr, sw := io.Pipe()
	ur, uw := io.Pipe()
	go sdkServer().Run(ctx, &mcp.IOTransport{Reader: sr, Writer: uw})
	serverConn := mcpproxy.NewStreamConn(ur, sw, 0, func() error { return sw.Close() })
	cr, cw := io.Pipe()
	pr, pw := io.Pipe()
	go px.Serve(ctx, mcpproxy.NewStreamConn(cr, pw, 0, func() error { cr.Close(); return pw.Close() }), serverConn)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1.0.0"}, opts).Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// decideWhenAsked decides the first request that waits, as a person on the page would.
func decideWhenAsked(t *testing.T, svc *approvals.Service, approve bool) {
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			pending, _ := svc.List(context.Background(), approvals.Query{Pending: true})
			if len(pending) > 0 {
				if _, err := svc.Decide(context.Background(), pending[0].ID, approvals.Verdict{Approve: approve, Approver: "alice", Note: "not today"}); err != nil {
					t.Error(err)
				}
				return
			}
		}
	}()
}

func newApprovals(t *testing.T) *approvals.Service {
	t.Helper()
	svc, err := approvals.New(approvals.Config{Store: approvals.NewMemory()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	return svc
}

func deploy(ctx context.Context, cs *mcp.ClientSession) (*mcp.CallToolResult, error) {
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "deploy --env prod"}})
}

// TestApprovalHoldsTheCall: a client that takes no URL elicitation, of either generation, has its call
// held while a person decides.
func TestApprovalHoldsTheCall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		wait     time.Duration
		decide   *bool
		wantText string
		wantErr  bool // the result is a tool error
	}{
		{desc: "approved, the call runs", wait: 10 * time.Second, decide: ptr(true), wantText: "ran: deploy --env prod"},
		{desc: "denied, the model reads the note", wait: 10 * time.Second, decide: ptr(false), wantText: "alice denied the call: not today", wantErr: true},
		{desc: "undecided in time, the call is denied", wait: 100 * time.Millisecond, wantText: "warden.approval_timeout", wantErr: true},
		{desc: "without a wait, the model reads the request's id", wait: 0, wantText: "waits for approval under id apr_", wantErr: true},
	}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, tt := range tests {
			t.Run(version+"/"+tt.desc, func(t *testing.T) {
				t.Parallel()
				svc := newApprovals(t)
				cs := sdkClientWith(t, approvalProxy(t, svc, tt.wait), nil, version)
				if tt.decide != nil {
					decideWhenAsked(t, svc, *tt.decide)
				}
				res, err := deploy(context.Background(), cs)
				if err != nil {
					t.Fatal(err)
				}
				if got := textOf(res); !strings.Contains(got, tt.wantText) || res.IsError != tt.wantErr {
					t.Errorf("result %q (isError %v), want %q (isError %v)", got, res.IsError, tt.wantText, tt.wantErr)
				}
			})
		}
	}
}

// TestApprovalThroughURLElicitation: a client that takes URL-mode elicitation is sent the approval page.
func TestApprovalThroughURLElicitation(t *testing.T) {
	t.Parallel()
	urlCaps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}

	t.Run("2026-07-28: an input-required result, retried with its state, runs once approved", func(t *testing.T) {
		t.Parallel()
		svc := newApprovals(t)
		var shown []string
		opts := &mcp.ClientOptions{Capabilities: urlCaps, ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			shown = append(shown, req.Params.Mode+" "+req.Params.URL)
			// The person opens the page and approves.
			if _, err := svc.Decide(ctx, req.Params.ElicitationID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: "accept"}, nil
		}}
		cs := sdkClientWith(t, approvalProxy(t, svc, 10*time.Second), opts, "2026-07-28")
		res, err := deploy(context.Background(), cs)
		if err != nil {
			t.Fatal(err)
		}
		if textOf(res) != "ran: deploy --env prod" || res.IsError {
			t.Errorf("result %q (isError %v), want the deploy to run", textOf(res), res.IsError)
		}
		if len(shown) != 1 || !strings.HasPrefix(shown[0], "url "+pageBase+"apr_") {
			t.Errorf("the client was shown %q, want the approval page once", shown)
		}
		again, err := deploy(context.Background(), cs)
		if err != nil {
			t.Fatal(err)
		}
		if len(shown) != 2 || textOf(again) != "ran: deploy --env prod" {
			t.Errorf("the identical call again: shown %d pages, result %q; want a new approval asked for", len(shown), textOf(again))
		}
	})

	t.Run("2026-07-28: a forged request state is refused", func(t *testing.T) {
		t.Parallel()
		svc := newApprovals(t)
		cs := sdkClientWith(t, approvalProxy(t, svc, time.Second), &mcp.ClientOptions{Capabilities: urlCaps}, "2026-07-28")
		raw := &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "deploy --env prod"}, RequestState: "eyJpZCI6ImFwcl94In0.AAAA"}
		res, err := cs.CallTool(context.Background(), raw)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(textOf(res), "the approval state does not verify") {
			t.Errorf("a forged state: %q (isError %v), want the call refused", textOf(res), res.IsError)
		}
	})

	t.Run("2026-07-28: a request state replayed after its approval was used is refused", func(t *testing.T) {
		t.Parallel()
		svc := newApprovals(t)
		opts := &mcp.ClientOptions{Capabilities: urlCaps, MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept"}, nil
			}}
		cs := sdkClientWith(t, approvalProxy(t, svc, 5*time.Second), opts, "2026-07-28")
		first, err := deploy(context.Background(), cs)
		if err != nil {
			t.Fatal(err)
		}
		if !first.NeedsInput() || first.RequestState == "" || len(first.InputRequests) != 1 {
			t.Fatalf("first call: %+v, want an input-required result with a request state", first)
		}
		var id string
		for _, ir := range first.InputRequests {
			if p, ok := ir.(*mcp.ElicitParams); ok && p.Mode == "url" {
				id = p.ElicitationID
			}
		}
		if _, err := svc.Decide(context.Background(), id, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
			t.Fatalf("deciding %q: %v", id, err)
		}
		retry := func() *mcp.CallToolResult {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "deploy --env prod"},
				RequestState: first.RequestState, InputResponses: mcp.InputResponseMap{"warden_approval": &mcp.ElicitResult{Action: "accept"}}})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if res := retry(); textOf(res) != "ran: deploy --env prod" {
			t.Fatalf("the retry with the state: %q, want the deploy to run", textOf(res))
		}
		if res := retry(); !res.IsError || !strings.Contains(textOf(res), "does not name this call's request") {
			t.Errorf("the same state replayed: %q (isError %v), want it refused", textOf(res), res.IsError)
		}
	})

	t.Run("2025-11-25: elicitation/create of the page while the call is held, then the call runs", func(t *testing.T) {
		t.Parallel()
		svc := newApprovals(t)
		completed := make(chan string, 1)
		var shown []string
		opts := &mcp.ClientOptions{Capabilities: urlCaps,
			ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				shown = append(shown, req.Params.Mode+" "+req.Params.URL)
				go func() { // the person decides after the page was opened
					time.Sleep(50 * time.Millisecond)
					svc.Decide(context.Background(), req.Params.ElicitationID, approvals.Verdict{Approve: true, Approver: "alice"})
				}()
				return &mcp.ElicitResult{Action: "accept"}, nil
			},
			ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
				completed <- req.Params.ElicitationID
			}}
		cs := sdkClientWith(t, approvalProxy(t, svc, 10*time.Second), opts, "2025-11-25")
		res, err := deploy(context.Background(), cs)
		if err != nil || textOf(res) != "ran: deploy --env prod" {
			t.Fatalf("the held call: %v %q, want the deploy to run", err, textOfSafe(res))
		}
		if len(shown) != 1 || !strings.HasPrefix(shown[0], "url "+pageBase+"apr_") {
			t.Errorf("the client was shown %q, want the approval page once", shown)
		}
		select {
		case id := <-completed:
			if !strings.HasSuffix(shown[0], id) {
				t.Errorf("completion of %s, want the shown request's", id)
			}
		case <-time.After(10 * time.Second):
			t.Error("no notifications/elicitation/complete after the decision")
		}
	})

	t.Run("2025-11-25: a declined page refuses the call at once", func(t *testing.T) {
		t.Parallel()
		svc := newApprovals(t)
		opts := &mcp.ClientOptions{Capabilities: urlCaps,
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}}
		cs := sdkClientWith(t, approvalProxy(t, svc, 30*time.Second), opts, "2025-11-25")
		start := time.Now()
		res, err := deploy(context.Background(), cs)
		if err != nil || !res.IsError || !strings.Contains(textOf(res), "approval page was declined") {
			t.Errorf("declined: %v %q, want the call refused", err, textOfSafe(res))
		}
		if time.Since(start) > 20*time.Second {
			t.Error("the call waited out its hold after the page was declined")
		}
	})
}

// TestCancellingAHeldCall: the client's cancellation ends the hold, and the server never sees the call.
func TestCancellingAHeldCall(t *testing.T) {
	t.Parallel()
	svc := newApprovals(t)
	cs := sdkClientWith(t, approvalProxy(t, svc, 30*time.Second), nil, "2025-11-25")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := deploy(ctx, cs); err == nil {
		t.Fatal("a cancelled call returned a result")
	}
	// The session goes on: another call is answered.
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "ls"}})
	if err != nil || textOf(res) != "ran: ls" {
		t.Errorf("after the cancellation: %v %q", err, textOfSafe(res))
	}
}

func ptr[T any](v T) *T { return &v }

func textOfSafe(r *mcp.CallToolResult) string {
	if r == nil {
		return ""
	}
	return textOf(r)
}

type withAuth struct {
	token string
	next  http.RoundTripper
}

func (a withAuth) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return a.next.RoundTrip(r)
}

// TestServedSessionsBelongToTheirCredential: over served HTTP, a session is the principal of the key that
// opened it; an approval given for one key's call does not pass another key's identical call.
func TestServedSessionsBelongToTheirCredential(t *testing.T) {
	t.Parallel()
	svc := newApprovals(t)
	px := approvalProxy(t, svc, 0) // on_ask deny: the model is told, the identical call passes once approved
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdkServer() }, nil))
	t.Cleanup(upstream.Close)
	served := httptest.NewServer(mcpproxy.NewHandler(px.To(func() mcpproxy.Conn {
		return mcpproxy.NewHTTPConn(upstream.URL, upstream.Client(), nil, nil)
	}), nil))
	t.Cleanup(served.Close)
	connect := func(token string) *mcp.ClientSession {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		t.Cleanup(cancel)
		hc := &http.Client{Transport: withAuth{token, http.DefaultTransport}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: served.URL, HTTPClient: hc}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	alice, bob := connect("key-alice"), connect("key-bob")
	first, err := deploy(context.Background(), alice)
	if err != nil || !first.IsError {
		t.Fatalf("alice's first call: %v %q, want it held", err, textOfSafe(first))
	}
	pending, _ := svc.List(context.Background(), approvals.Query{Pending: true})
	if len(pending) != 1 || !strings.HasPrefix(pending[0].Principal, "key:") {
		t.Fatalf("pending %+v, want one request bound to alice's key", pending)
	}
	if _, err := svc.Decide(context.Background(), pending[0].ID, approvals.Verdict{Approve: true, Approver: "ops"}); err != nil {
		t.Fatal(err)
	}
	if res, err := deploy(context.Background(), bob); err != nil || !res.IsError {
		t.Errorf("bob's identical call after alice's approval: %v %q, want it held", err, textOfSafe(res))
	}
	if res, err := deploy(context.Background(), alice); err != nil || textOf(res) != "ran: deploy --env prod" {
		t.Errorf("alice's call after her approval: %v %q, want it to run", err, textOfSafe(res))
	}
}

// TestApprovalThroughAnAggregate: a call to one server of several waits for a person the same way.
func TestApprovalThroughAnAggregate(t *testing.T) {
	t.Parallel()
	svc := newApprovals(t)
	e, err := warden.NewEngine(warden.Spec{ToolCall: []warden.Entry{{Name: "ask-deploys", Guardrail: askDeploys}}, Approvals: svc})
	if err != nil {
		t.Fatal(err)
	}
	cs := aggregateOf(t, "", map[string]*mcp.Server{"files": sdkServer(), "math": mathServer()}, func(name string) mcpproxy.Config {
		return mcpproxy.Config{Server: name, Engine: e, Approvals: svc, AskWait: 10 * time.Second}
	})
	ctx := context.Background()
	decideWhenAsked(t, svc, true)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "files__run_command", Arguments: map[string]any{"command": "deploy --env prod"}})
	if err != nil || textOf(res) != "ran: deploy --env prod" {
		t.Errorf("the held call through the aggregate: %v %q", err, textOfSafe(res))
	}
}
