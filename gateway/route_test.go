package gateway_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

func TestRoutesAreChosenByPathAlone(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	anthropicHeader := map[string]string{"anthropic-version": "2023-06-01"}
	tests := []struct {
		desc, method, path       string
		header                   map[string]string
		wantUpstream, wantFormat string
	}{
		{"chat completions go to OpenAI as Chat", "POST", "/v1/chat/completions", nil, "openai", "openai-chat"},
		{"an anthropic-version header does not move chat completions", "POST", "/v1/chat/completions", anthropicHeader, "openai", "openai-chat"},
		{"an anthropic-version header does not move responses", "POST", "/v1/responses", anthropicHeader, "openai", "openai-responses"},
		{"an x-goog-api-key header does not move chat completions", "POST", "/v1/chat/completions", map[string]string{"x-goog-api-key": "k"}, "openai", "openai-chat"},
		{"messages go to Anthropic without the header", "POST", "/v1/messages", nil, "anthropic", "anthropic"},
		{"Gemini's OpenAI-compatible path is Gemini's, read as Chat", "POST", "/v1beta/openai/chat/completions", nil, "gemini", "openai-chat"},
		{"generateContent goes to Gemini", "POST", "/v1beta/models/g:generateContent", anthropicHeader, "gemini", "gemini"},
		{"an unguarded path goes where its header says", "GET", "/v1/models", anthropicHeader, "anthropic", ""},
		{"an unguarded path without the header goes to OpenAI", "GET", "/v1/models", nil, "openai", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, _ := http.NewRequest(tt.method, "http://warden"+tt.path, nil)
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			up, format, ok := gateway.RouteOf(h.g, r)
			if !ok || up != tt.wantUpstream || format != tt.wantFormat {
				t.Errorf("routed to %q as %q (ok %v), want %q as %q", up, format, ok, tt.wantUpstream, tt.wantFormat)
			}
		})
	}
}

// A body that is not a JSON object is the client's mistake: a 400 in the format's shape, and nothing goes
// upstream.
func TestBodiesThatAreNotObjectsAreBadRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	h.up.answer(reply{body: fixture(t, "openai", "healthy_text.json")})
	paths := []struct{ path, wantShape string }{
		{"/v1/chat/completions", `"code":"warden.bad_request"`},
		{"/v1/responses", `"code":"warden.bad_request"`},
		{"/v1/messages", `"type":"invalid_request_error"`},
		{"/v1beta/models/g:generateContent", `"status":"INVALID_ARGUMENT"`},
	}
	for _, p := range paths {
		for _, body := range []string{`null`, `[]`, `"hello"`, `42`, `true`, `[{"role":"user","content":"hi"}]`} {
			t.Run(p.path+" "+body, func(t *testing.T) {
				t.Parallel()
				_, _, _, _, before := h.up.sent()
				resp, out := h.post(t, p.path, "application/json", body, nil)
				if resp.StatusCode != http.StatusBadRequest || !strings.Contains(out, p.wantShape) {
					t.Errorf("got %d %s, want 400 with %s", resp.StatusCode, out, p.wantShape)
				}
				if _, _, _, _, after := h.up.sent(); after != before {
					t.Errorf("the upstream was called for a body that is not an object")
				}
			})
		}
	}
}

// An answer Warden made itself says so in its headers: the decision that made it and its reason code.
func TestWardensOwnAnswersCarryTheirDecisionAndReason(t *testing.T) {
	t.Parallel()
	h := boundedHarness(t)
	down := newHarness(t, "", upstreamsAt("http://127.0.0.1:1"))
	tests := []struct {
		desc                     string
		h                        *harness
		reply                    reply
		path, body               string
		wantStatus               int
		wantDecision, wantReason string
	}{
		{"a body too large is Warden's reject", h, reply{}, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("a", 2000) + `"}]}`,
			413, "reject", gateway.CodeTooLarge},
		{"a body that is not an object is Warden's reject", h, reply{}, "/v1/messages", `null`, 400, "reject", "warden.bad_request"},
		{"an upstream that is down is an upstream fault", down, reply{}, "/v1/chat/completions", chatBody, 502, "allow", gateway.CodeUpstream},
		{"an upstream too slow is an upstream fault", h, reply{delay: 2 * time.Second, body: []byte(`{}`)}, "/v1/chat/completions", chatBody, 504, "allow", gateway.CodeTimeout},
		{"an unreadable upstream answer is an upstream fault", h, reply{body: []byte(`{"choices":[`)}, "/v1/chat/completions", chatBody, 502, "allow", "warden.bad_upstream"},
		{"a denied call answered as an error carries the guardrail's reason", newHarness(t, "", func(c *gateway.Config) { c.OnDeny = pipeline.DenyError }),
			reply{body: []byte(strings.Replace(string(fixture(t, "openai", "healthy_tool_calls.json")), "go test ./...", "rm -rf ~", 1))},
			"/v1/chat/completions", chatBody, 403, "reject", "warden.destructive_delete"},
		{"the provider's own answer carries no reason", h, reply{body: fixture(t, "openai", "healthy_text.json")}, "/v1/chat/completions", chatBody, 200, "allow", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			tt.h.up.answer(tt.reply)
			resp, body := tt.h.post(t, tt.path, "application/json", tt.body, nil)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, body)
			}
			if got := resp.Header.Get(gateway.HeaderDecision); got != tt.wantDecision {
				t.Errorf("%s = %q, want %q", gateway.HeaderDecision, got, tt.wantDecision)
			}
			got := resp.Header.Get(gateway.HeaderReason)
			switch {
			case tt.wantReason != "" && got != tt.wantReason:
				t.Errorf("%s = %q, want %q", gateway.HeaderReason, got, tt.wantReason)
			case tt.wantReason == "" && tt.wantStatus == 200 && got != "":
				t.Errorf("%s = %q on the provider's own answer, want none", gateway.HeaderReason, got)
			case tt.wantReason == "" && tt.wantStatus != 200 && got == "":
				t.Errorf("no %s on Warden's answer", gateway.HeaderReason)
			}
		})
	}
}
