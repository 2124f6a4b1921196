package gateway_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentwarden/warden/gateway"
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
