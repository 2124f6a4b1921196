package gateway_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

func withOnDeny(d pipeline.OnDeny) harnessOption {
	return func(c *gateway.Config) { c.OnDeny = d }
}

func TestOnDeny(t *testing.T) {
	t.Parallel()
	destroy := func(b []byte) []byte { return bytes.Replace(b, []byte(`go test ./...`), []byte(`rm -rf ~/`), 1) }
	sse := func(b []byte) reply { return reply{contentType: "text/event-stream", body: b} }
	type replies struct{ denied, allowed reply }
	// A follow-up's answer has ids of its own, as a provider gives every response (roundIDs).
	followUp := func(r reply) reply { r.body = roundIDs(r.body, 1); return r }
	byFormat := map[string]replies{
		"openai-chat":             {reply{body: destroy(fixture(t, "openai", "healthy_tool_calls.json"))}, followUp(reply{body: fixture(t, "openai", "healthy_tool_calls.json")})},
		"openai-responses":        {reply{body: destroy(fixture(t, "openai", "responses_healthy_function_call.json"))}, followUp(reply{body: fixture(t, "openai", "responses_healthy_function_call.json")})},
		"anthropic":               {reply{body: destroy(fixture(t, "anthropic", "healthy_tool_use.json"))}, followUp(reply{body: fixture(t, "anthropic", "healthy_tool_use.json")})},
		"gemini":                  {reply{body: destroy(fixture(t, "gemini", "healthy_function_call.json"))}, followUp(reply{body: fixture(t, "gemini", "healthy_function_call.json")})},
		"openai-chat stream":      {sse(fixture(t, "openai", "stream_denied_call.sse")), followUp(sse(fixture(t, "openai", "stream_tool_call.sse")))},
		"openai-responses stream": {sse(fixture(t, "openai", "responses_stream_denied_first_call.sse")), followUp(sse(fixture(t, "openai", "responses_stream_function_call.sse")))},
		"anthropic stream":        {sse(fixture(t, "anthropic", "stream_denied_first_call.sse")), followUp(sse(fixture(t, "anthropic", "stream_tool_use.sse")))},
		"gemini stream":           {sse(fixture(t, "gemini", "stream_denied_first_call.sse")), followUp(sse(fixture(t, "gemini", "stream_function_call.sse")))},
	}
	goTest := []string{`bash {"command":"go test ./..."}`}
	ls := []string{`bash {"command":"ls"}`}
	type row struct {
		desc       string
		ask        string
		onDeny     pipeline.OnDeny
		replies    func(r replies) []reply
		wantCalls  []string // the client's tool calls, compared without spaces (Anthropic's summary drops them)
		wantText   string
		wantStatus int // an SDK error's status
		wantSent   int // requests upstream
		wantRetry  bool
		// wantFollowUp is in the follow-up when it was built from the whole body a stream's guard assembled
		// (item ids, thinking, separate blocks), not from the turn model.
		wantFollowUp string
	}
	var tests []row
	for _, f := range []string{"openai-chat", "openai-responses", "anthropic", "gemini"} {
		tests = append(tests,
			row{desc: "retry gives the model its denied call and returns its next answer", ask: f, onDeny: pipeline.DenyRetry,
				replies: func(r replies) []reply { return []reply{r.denied, r.allowed} }, wantCalls: goTest, wantSent: 2, wantRetry: true},
			row{desc: "retry explains the last answer once the retries are spent", ask: f, onDeny: pipeline.DenyRetry,
				replies: func(r replies) []reply { return []reply{r.denied} }, wantText: "warden.destructive_delete", wantSent: 1 + gateway.DefaultDenyRetries, wantRetry: true},
			row{desc: "retry explains when the provider refuses the follow-up", ask: f, onDeny: pipeline.DenyRetry,
				replies: func(r replies) []reply {
					return []reply{r.denied, {status: 400, body: []byte(`{"error":{"message":"bad"}}`)}}
				}, wantText: "warden.destructive_delete", wantSent: 2, wantRetry: true},
			row{desc: "explain removes the denied call and says why", ask: f, onDeny: pipeline.DenyExplain,
				replies: func(r replies) []reply { return []reply{r.denied} }, wantText: "warden.destructive_delete", wantSent: 1},
			row{desc: "error answers 403 in the provider's shape", ask: f, onDeny: pipeline.DenyError,
				replies: func(r replies) []reply { return []reply{r.denied} }, wantStatus: http.StatusForbidden, wantSent: 1},
		)
	}
	streamBody := map[string]string{
		"openai-responses stream": `"id":"fc_3a"`,
		"anthropic stream":        `{"type":"text","text":"Cleaning up."}`,
		"gemini stream":           `"thoughtSignature":"U0lHMQ=="`,
	}
	for _, f := range []string{"openai-chat stream", "openai-responses stream", "anthropic stream", "gemini stream"} {
		tests = append(tests,
			row{desc: "retry goes on in the client's stream with the model's next answer", ask: f, onDeny: pipeline.DenyRetry,
				replies: func(r replies) []reply { return []reply{r.denied, r.allowed} }, wantCalls: goTest, wantText: "Cleaning up.", wantSent: 2, wantRetry: true,
				wantFollowUp: streamBody[f]},
			row{desc: "retry explains the last stream once the retries are spent", ask: f, onDeny: pipeline.DenyRetry,
				replies: func(r replies) []reply { return []reply{r.denied} }, wantCalls: ls, wantText: "warden.destructive_delete", wantSent: 1 + gateway.DefaultDenyRetries, wantRetry: true},
			row{desc: "explain ends a turn whose only call was denied as a plain answer", ask: f, onDeny: pipeline.DenyExplain,
				replies: func(r replies) []reply {
					return []reply{{contentType: r.denied.contentType, body: onlyDenied(r.denied.body)}}
				},
				wantText: "warden.destructive_delete", wantSent: 1},
			row{desc: "retry ends the stream with the explanation when the provider refuses the follow-up", ask: f, onDeny: pipeline.DenyRetry,
				replies: func(r replies) []reply {
					return []reply{r.denied, {status: 429, body: []byte(`{"error":{"message":"slow down"}}`)}}
				}, wantText: "warden.destructive_delete", wantSent: 2, wantRetry: true},
		)
	}
	for _, f := range []string{"openai-chat stream", "openai-responses stream", "anthropic stream", "gemini stream"} {
		tests = append(tests, row{desc: "error ends the stream with the provider's error event", ask: f, onDeny: pipeline.DenyError,
			replies: func(r replies) []reply { return []reply{r.denied} }, wantStatus: -1, wantSent: 1})
	}
	for _, tc := range tests {
		t.Run(tc.ask+"/"+tc.desc, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "", withOnDeny(tc.onDeny))
			h.up.answer(tc.replies(byFormat[tc.ask])...)
			got, err := askers[tc.ask](t, h, false)
			sent := h.up.received()
			if len(sent) != tc.wantSent {
				t.Errorf("%d requests upstream, want %d", len(sent), tc.wantSent)
			}
			switch {
			case tc.wantStatus == -1: // an error event in a stream
				if err == nil {
					t.Fatalf("the stream ended cleanly (%+v), want the error event", got)
				}
				return
			case tc.wantStatus != 0:
				if s := sdkStatus(err); s != tc.wantStatus {
					t.Fatalf("err = %v (status %d), want status %d", err, s, tc.wantStatus)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if noSpace(got.calls) != noSpace(tc.wantCalls) {
				t.Errorf("tool calls = %q, want %q", got.calls, tc.wantCalls)
			}
			if !strings.Contains(got.text, tc.wantText) {
				t.Errorf("text = %q, want it to contain %q", got.text, tc.wantText)
			}
			if tc.wantRetry {
				if len(sent) < 2 || !bytes.Contains(sent[1], []byte("Guardrail denied")) || !bytes.Contains(sent[1], []byte(`rm -rf ~/`)) {
					t.Errorf("the follow-up does not carry the model's call and its deny message: %s", sent[min(1, len(sent)-1)])
				}
				if len(sent) > 1 && !bytes.Contains(sent[1], []byte(tc.wantFollowUp)) {
					t.Errorf("the follow-up lacks %s: %s", tc.wantFollowUp, sent[1])
				}
			}
		})
	}
}

func noSpace(calls []string) string { return strings.ReplaceAll(strings.Join(calls, "|"), " ", "") }
