package gateway_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agentwarden/warden/gateway"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

func openaiClient(h *harness) *sdk.Client {
	c := sdk.NewClient(option.WithBaseURL(h.url+"/v1/"), option.WithAPIKey("sk-client"), option.WithMaxRetries(0))
	return &c
}

var chatParams = sdk.ChatCompletionNewParams{
	Model:    "gpt-5.1",
	Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("Tidy up the repository.")},
}

// checkTally asserts that every guardrail configured for the stages the exchange went through evaluated.
func checkTally(t *testing.T, header http.Header, wantDecision string) {
	t.Helper()
	ev := header.Get(gateway.HeaderEvaluated)
	n, m, ok := strings.Cut(ev, "/")
	if !ok || n != m || m == "0" {
		t.Errorf("%s = %q, want every configured guardrail evaluated (N/N, N > 0)", gateway.HeaderEvaluated, ev)
	}
	if got := header.Get(gateway.HeaderDecision); got != wantDecision {
		t.Errorf("%s = %q, want %q", gateway.HeaderDecision, got, wantDecision)
	}
}

func toolCallNames(calls []sdk.ChatCompletionMessageToolCallUnion) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Function.Name+" "+c.Function.Arguments)
	}
	return out
}

func TestOpenAIChat(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	destructive := strings.Replace(string(fixture(t, "openai", "healthy_tool_calls.json")), `go test ./...`, `rm -rf ~/`, 1)
	tests := []struct {
		desc         string
		reply        reply
		wantCalls    []string
		wantFinish   string
		wantText     string // a part of the assistant's text
		wantDecision string
	}{
		{desc: "a healthy tool call reaches the client unchanged",
			reply: reply{body: fixture(t, "openai", "healthy_tool_calls.json")}, wantCalls: []string{`bash {"command":"go test ./..."}`},
			wantFinish: "tool_calls", wantDecision: "allow"},
		{desc: "a destructive tool call is removed, the model is told why, and the turn ends as a stop",
			reply: reply{body: []byte(destructive)}, wantFinish: "stop", wantText: "warden.destructive_delete", wantDecision: "modify"},
		{desc: "a safety stop's tool calls never reach the client",
			reply: reply{body: fixture(t, "openai", "safety_stop_tool_calls.json")}, wantFinish: "content_filter",
			wantText: "Any tool calls produced in this turn were suppressed", wantDecision: "modify"},
		{desc: "a blank safety stop is explained",
			reply: reply{body: fixture(t, "openai", "safety_stop_blank.json")}, wantFinish: "content_filter",
			wantText: "stopped this response", wantDecision: "modify"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(tc.reply)
			var resp *http.Response
			c, err := openaiClient(h).Chat.Completions.New(context.Background(), chatParams, option.WithResponseInto(&resp))
			if err != nil {
				t.Fatal(err)
			}
			msg := c.Choices[0].Message
			checkAnswer(t, answer{msg.Content, toolCallNames(msg.ToolCalls), c.Choices[0].FinishReason}, tc.wantText, tc.wantCalls, tc.wantFinish)
			checkTally(t, resp.Header, tc.wantDecision)
			if got := resp.Header.Get("X-Request-Id"); got != "req-upstream" {
				t.Errorf("the upstream's X-Request-Id = %q, want it passed on", got)
			}
		})
	}
}

func TestOpenAIChatStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc       string
		body       []byte
		wantText   string
		wantCalls  []string
		wantFinish string
	}{
		{desc: "a text stream reaches the client as it was", body: fixture(t, "openai", "stream_text.sse"),
			wantText: "Hello, world", wantFinish: "stop"},
		{desc: "a denied streamed call is held back and the rest released", body: fixture(t, "openai", "stream_denied_call.sse"),
			wantText: "warden.destructive_delete", wantCalls: []string{`bash {"command":"ls"}`}, wantFinish: "tool_calls"},
		{desc: "a streamed safety stop releases no tool call", body: fixture(t, "openai", "stream_safety_tool_call.sse"),
			wantText: "suppressed", wantFinish: "content_filter"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(reply{contentType: "text/event-stream", body: tc.body})
			var resp *http.Response
			s := openaiClient(h).Chat.Completions.NewStreaming(context.Background(), chatParams, option.WithResponseInto(&resp))
			var acc sdk.ChatCompletionAccumulator
			for s.Next() {
				acc.AddChunk(s.Current())
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			msg := acc.Choices[0].Message
			checkAnswer(t, answer{msg.Content, toolCallNames(msg.ToolCalls), acc.Choices[0].FinishReason}, tc.wantText, tc.wantCalls, tc.wantFinish)
			if resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Errorf("Content-Type = %q", resp.Header.Get("Content-Type"))
			}
		})
	}
}

func TestOpenAIErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	azureFilter := `{"error":{"message":"The response was filtered","type":null,"param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_result":{"hate":{"filtered":true,"severity":"high"}}}}}`
	tests := []struct {
		desc       string
		reply      reply
		stream     bool
		wantStatus int
		wantCode   string
	}{
		{desc: "an API-layer safety error passes on in the provider's shape",
			reply: reply{status: 400, body: []byte(azureFilter)}, wantStatus: 400, wantCode: "content_filter"},
		{desc: "a malformed upstream body is a bad gateway, not a guess",
			reply: reply{body: []byte(`{"choices":[`)}, wantStatus: 502, wantCode: "warden.bad_upstream"},
		{desc: "an upstream reset before the answer is a bad gateway",
			reply: reply{body: []byte(`{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"par`), cutAfter: 40}, wantStatus: 502},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(tc.reply)
			_, err := openaiClient(h).Chat.Completions.New(context.Background(), chatParams)
			var apiErr *sdk.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want an *openai.Error", err)
			}
			if apiErr.StatusCode != tc.wantStatus {
				t.Errorf("status = %d, want %d", apiErr.StatusCode, tc.wantStatus)
			}
			if tc.wantCode != "" && apiErr.Code != tc.wantCode {
				t.Errorf("code = %q, want %q", apiErr.Code, tc.wantCode)
			}
		})
	}
}
