package gateway_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/internal/redistest"
	"github.com/agentwarden/warden/pipeline"
)

// askTests is a config whose command policy asks a person before `go test` runs: the call every healthy
// fixture makes.
const askConfig = `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules:
          - {id: tests-need-a-person, programs: [go], args: [test], action: ask, code: acme.ask_tests, message: runs the test suite}
approvals:
  store: memory
  on_ask: %s
  wait_timeout: %s
audit: {sink: none}
`

// decideFirst waits for the first pending request and decides it, as a person on the page would.
func decideFirst(t *testing.T, h *harness, approve bool) {
	t.Helper()
	svc := h.loaded.Approvals
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			pending, err := svc.List(context.Background(), approvals.Query{Pending: true})
			if err != nil {
				t.Error(err)
				return
			}
			if len(pending) > 0 {
				if _, err := svc.Decide(context.Background(), pending[0].ID, approvals.Verdict{Approve: approve, Approver: "alice", Note: "not now"}); err != nil {
					t.Error(err)
				}
				return
			}
		}
	}()
}

// TestOnAsk drives every format, whole and streamed, through an official SDK client while a guardrail asks a
// person about the answer's tool call.
func TestOnAsk(t *testing.T) {
	t.Parallel()
	sse := func(b []byte) reply { return reply{contentType: "text/event-stream", body: b} }
	answers := map[string]reply{
		"openai-chat":             {body: fixture(t, "openai", "healthy_tool_calls.json")},
		"openai-responses":        {body: fixture(t, "openai", "responses_healthy_function_call.json")},
		"anthropic":               {body: fixture(t, "anthropic", "healthy_tool_use.json")},
		"gemini":                  {body: fixture(t, "gemini", "healthy_function_call.json")},
		"openai-chat stream":      sse(fixture(t, "openai", "stream_tool_call.sse")),
		"openai-responses stream": sse(fixture(t, "openai", "responses_stream_function_call.sse")),
		"anthropic stream":        sse(fixture(t, "anthropic", "stream_tool_use.sse")),
		"gemini stream":           sse(fixture(t, "gemini", "stream_function_call.sse")),
	}
	goTest := []string{`bash {"command":"go test ./..."}`}
	tests := []struct {
		desc      string
		onAsk     string
		wait      string
		decide    func(t *testing.T, h *harness)
		wantCalls []string
		wantText  string
	}{
		{desc: "wait: a person approves and the call reaches the client", onAsk: "wait", wait: "20s",
			decide: func(t *testing.T, h *harness) { decideFirst(t, h, true) }, wantCalls: goTest},
		{desc: "wait: a person denies and the model reads their note", onAsk: "wait", wait: "20s",
			decide: func(t *testing.T, h *harness) { decideFirst(t, h, false) }, wantText: "warden.approval_denied"},
		{desc: "wait: nobody decides in time and the call is denied", onAsk: "wait", wait: "200ms",
			wantText: "warden.approval_timeout"},
		{desc: "deny: the model reads the id the call waits under", onAsk: "deny", wait: "20s",
			wantText: "waits for approval under id apr_"},
	}
	for _, tc := range tests {
		for _, format := range []string{"openai-chat", "openai-responses", "anthropic", "gemini", "openai-chat stream", "openai-responses stream", "anthropic stream", "gemini stream"} {
			t.Run(format+"/"+tc.desc, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, fmt.Sprintf(askConfig, tc.onAsk, tc.wait), withOnDeny(pipeline.DenyExplain))
				h.up.answer(answers[format])
				if tc.decide != nil {
					tc.decide(t, h)
				}
				got, err := askers[format](t, h, false)
				if err != nil {
					t.Fatal(err)
				}
				if noSpace(got.calls) != noSpace(tc.wantCalls) {
					t.Errorf("tool calls = %q, want %q", got.calls, tc.wantCalls)
				}
				if !strings.Contains(got.text, tc.wantText) {
					t.Errorf("text = %q, want it to contain %q", got.text, tc.wantText)
				}
				if n := len(h.up.received()); n != 1 {
					t.Errorf("%d requests upstream, want 1", n)
				}
			})
		}
	}
}

// TestOnAskDenyPassesTheApprovedCallOnce: under on_ask deny, the identical call passes once a person
// approved it, and only once.
func TestOnAskDenyPassesTheApprovedCallOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fmt.Sprintf(askConfig, "deny", "1s"), withOnDeny(pipeline.DenyExplain))
	body := fixture(t, "openai", "healthy_tool_calls.json")
	h.up.answer(reply{body: body}, reply{body: body}, reply{body: body})
	first, err := askers["openai-chat"](t, h, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.calls) != 0 || !strings.Contains(first.text, "under id apr_") {
		t.Fatalf("first answer: calls %q, text %q; want the call held under an id", first.calls, first.text)
	}
	pending, err := h.loaded.Approvals.List(context.Background(), approvals.Query{Pending: true})
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending: %v (%v), want one request", pending, err)
	}
	if !strings.Contains(first.text, pending[0].ID) {
		t.Errorf("the model was told %q, not the request's id %s", first.text, pending[0].ID)
	}
	if _, err := h.loaded.Approvals.Decide(context.Background(), pending[0].ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
		t.Fatal(err)
	}
	second, err := askers["openai-chat"](t, h, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.calls) != 1 {
		t.Errorf("after approval: calls %q, want the call", second.calls)
	}
	third, err := askers["openai-chat"](t, h, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(third.calls) != 0 || !strings.Contains(third.text, "under id apr_") {
		t.Errorf("the same call again: calls %q, want it held anew", third.calls)
	}
}

// TestReplicasOnOneRedis: two gateway replicas share approvals and session counts through one Redis. A
// call waiting on one is released by an approval given on the other, and the loop breaker counts the calls
// both answered.
func TestReplicasOnOneRedis(t *testing.T) {
	t.Parallel()
	addr, _ := redistest.Start(t)
	cfg := `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules:
          - {id: tests-need-a-person, programs: [go], args: [test], action: ask, code: acme.ask_tests}
approvals:
  store: redis
  key: 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
  redis: {addr: "` + addr + `", prefix: "replicas:"}
  wait_timeout: 20s
audit: {sink: none}
`
	a := newHarness(t, cfg, withOnDeny(pipeline.DenyExplain))
	b := newHarness(t, cfg, withOnDeny(pipeline.DenyExplain))
	a.up.answer(reply{body: fixture(t, "openai", "healthy_tool_calls.json")})
	decideFirst(t, b, true) // the person uses replica b's service; the call waits on replica a
	got, err := askers["openai-chat"](t, a, false)
	if err != nil {
		t.Fatal(err)
	}
	if noSpace(got.calls) != noSpace([]string{`bash {"command":"go test ./..."}`}) {
		t.Errorf("replica a answered calls %q, text %q: want the call approved on replica b", got.calls, got.text)
	}

	loop := `version: 1
guardrails:
  tool_call:
    - use: loop_breaker
      config: {max_repeats: 1, per: principal, store: redis, redis: {addr: "` + addr + `", prefix: "replicas:"}}
audit: {sink: none}
`
	c, d := newHarness(t, loop, withOnDeny(pipeline.DenyExplain)), newHarness(t, loop, withOnDeny(pipeline.DenyExplain))
	body := fixture(t, "openai", "healthy_tool_calls.json")
	c.up.answer(reply{body: body})
	d.up.answer(reply{body: body})
	first, err := askers["openai-chat"](t, c, false)
	if err != nil {
		t.Fatal(err)
	}
	second, err := askers["openai-chat"](t, d, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.calls) != 1 || len(second.calls) != 0 || !strings.Contains(second.text, "warden.loop_detected") {
		t.Errorf("replica c passed %d calls, replica d %d (%q): want the repeat on d stopped", len(first.calls), len(second.calls), second.text)
	}
}

// TestWaitingStreamsStayAlive: a stream whose call waits for a person carries keep-alives meanwhile, which
// every official SDK reads past. Gemini's carries none: its Go SDK fails on an SSE comment.
func TestWaitingStreamsStayAlive(t *testing.T) {
	t.Parallel()
	sse := func(b []byte) reply { return reply{contentType: "text/event-stream", body: b} }
	answers := map[string]reply{
		"openai-chat stream":      sse(fixture(t, "openai", "stream_tool_call.sse")),
		"openai-responses stream": sse(fixture(t, "openai", "responses_stream_function_call.sse")),
		"anthropic stream":        sse(fixture(t, "anthropic", "stream_tool_use.sse")),
		"gemini stream":           sse(fixture(t, "gemini", "stream_function_call.sse")),
	}
	keepAlive := func(c *gateway.Config) { c.Pipeline.KeepAlive = 20 * time.Millisecond }
	for format, answer := range answers {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fmt.Sprintf(askConfig, "wait", "20s"), withOnDeny(pipeline.DenyExplain), keepAlive)
			h.up.answer(answer)
			decideLater(t, h, 200*time.Millisecond)
			got, err := askers[format](t, h, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.calls) != 1 {
				t.Errorf("calls %q, text %q: want the approved call after the keep-alives", got.calls, got.text)
			}
		})
	}
	t.Run("the keep-alive is an SSE comment between events", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, fmt.Sprintf(askConfig, "wait", "20s"), withOnDeny(pipeline.DenyExplain), keepAlive)
		h.up.answer(answers["openai-chat stream"])
		decideLater(t, h, 200*time.Millisecond)
		_, body := h.post(t, "/v1/chat/completions", "application/json", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, nil)
		if !strings.Contains(body, "\n\n: waiting for a person's approval\n\n") || !strings.Contains(body, `"tool_calls"`) {
			t.Errorf("stream %q: want keep-alive comments between events, then the call", body)
		}
	})
}

// decideLater approves the first pending request once it has waited for after.
func decideLater(t *testing.T, h *harness, after time.Duration) {
	svc := h.loaded.Approvals
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			pending, _ := svc.List(context.Background(), approvals.Query{Pending: true})
			if len(pending) > 0 {
				time.Sleep(after)
				if _, err := svc.Decide(context.Background(), pending[0].ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
					t.Error(err)
				}
				return
			}
		}
	}()
}

// TestTypeScriptClientsReadAWaitingAnswer: the official TypeScript SDKs read an answer whose call waited for
// a person, streamed (with keep-alives) and whole.
func TestTypeScriptClientsReadAWaitingAnswer(t *testing.T) {
	t.Parallel()
	dir := tsClients(t)
	sse := func(b []byte) reply { return reply{contentType: "text/event-stream", body: b} }
	answers := map[string][2]reply{ // whole, stream
		"chat":      {{body: fixture(t, "openai", "healthy_tool_calls.json")}, sse(fixture(t, "openai", "stream_tool_call.sse"))},
		"responses": {{body: fixture(t, "openai", "responses_healthy_function_call.json")}, sse(fixture(t, "openai", "responses_stream_function_call.sse"))},
		"anthropic": {{body: fixture(t, "anthropic", "healthy_tool_use.json")}, sse(fixture(t, "anthropic", "stream_tool_use.sse"))},
		"gemini":    {{body: fixture(t, "gemini", "healthy_function_call.json")}, sse(fixture(t, "gemini", "stream_function_call.sse"))},
	}
	keepAlive := func(c *gateway.Config) { c.Pipeline.KeepAlive = 20 * time.Millisecond }
	for format, rs := range answers {
		for i, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stream=%v", format, stream), func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, fmt.Sprintf(askConfig, "wait", "20s"), withOnDeny(pipeline.DenyExplain), keepAlive)
				h.up.answer(rs[i])
				decideLater(t, h, 150*time.Millisecond)
				r := runTS(t, dir, format, stream, h.url)
				checkTS(t, r, 0)
				if len(r.Calls) != 1 || !strings.Contains(r.Calls[0], "go test") {
					t.Errorf("the client read calls %q (%s), want the approved call", r.Calls, r.Error)
				}
			})
		}
	}
}

// TestAnApprovalIsTheKeysUser: the end user a request names is the caller's word, so an approval given for
// one key's user does not pass another key's identical call that names the same user.
func TestAnApprovalIsTheKeysUser(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fmt.Sprintf(askConfig, "deny", "1s"), withOnDeny(pipeline.DenyExplain))
	body := fixture(t, "openai", "healthy_tool_calls.json")
	h.up.answer(reply{body: body}, reply{body: body}, reply{body: body})
	req := `{"model":"gpt-4o","user":"alice","messages":[{"role":"user","content":"run the tests"}]}`
	ask := func(key string) string {
		_, text := h.post(t, "/v1/chat/completions", "application/json", req, map[string]string{"Authorization": "Bearer " + key})
		return text
	}
	if first := ask("sk-alice-app"); !strings.Contains(first, "under id apr_") {
		t.Fatalf("first answer %s: want the call held", first)
	}
	pending, _ := h.loaded.Approvals.List(context.Background(), approvals.Query{Pending: true})
	if len(pending) != 1 || !strings.HasPrefix(pending[0].Principal, "key:") || !strings.HasSuffix(pending[0].Principal, "/user:alice") {
		t.Fatalf("pending %+v: want one request bound to the key's user", pending)
	}
	if _, err := h.loaded.Approvals.Decide(context.Background(), pending[0].ID, approvals.Verdict{Approve: true, Approver: "ops"}); err != nil {
		t.Fatal(err)
	}
	if other := ask("sk-mallory"); !strings.Contains(other, "under id apr_") {
		t.Errorf("another key naming alice: %s, want the call held", other)
	}
	if same := ask("sk-alice-app"); !strings.Contains(same, `go test`) || strings.Contains(same, "under id apr_") {
		t.Errorf("alice's own key again: %s, want the approved call", same)
	}
}
