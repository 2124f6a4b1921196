package gateway_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRateLimitAnswers429: a request past a principal's rate is refused before it goes upstream, with 429
// and Retry-After, which every official SDK reads as a rate limit.
func TestRateLimitAnswers429(t *testing.T) {
	t.Parallel()
	const cfg = `version: 1
guardrails:
  input:
    - use: rate_limit
      config: {requests: 1, every: 1h, counter: %s}
audit: {sink: none}
`
	answers := map[string]reply{
		"openai-chat":      {body: fixture(t, "openai", "healthy_tool_calls.json")},
		"openai-responses": {body: fixture(t, "openai", "responses_healthy_function_call.json")},
		"anthropic":        {body: fixture(t, "anthropic", "healthy_tool_use.json")},
		"gemini":           {body: fixture(t, "gemini", "healthy_function_call.json")},
	}
	for format, answer := range answers {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, strings.Replace(cfg, "%s", counterFor(t), 1))
			h.up.answer(answer, answer)
			if _, err := askers[format](t, h, false); err != nil {
				t.Fatalf("the first request: %v", err)
			}
			_, err := askers[format](t, h, false)
			if s := sdkStatus(err); s != http.StatusTooManyRequests {
				t.Fatalf("the second request: %v (status %d), want 429", err, s)
			}
			if n := len(h.up.received()); n != 1 {
				t.Errorf("%d requests upstream, want 1: the refused one never leaves", n)
			}
		})
	}
	t.Run("the refusal says when to come back", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, strings.Replace(cfg, "%s", counterFor(t), 1))
		h.up.answer(reply{body: fixture(t, "openai", "healthy_tool_calls.json")})
		body := `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`
		hdr := map[string]string{"Authorization": "Bearer sk-one"}
		h.post(t, "/v1/chat/completions", "application/json", body, hdr)
		resp, text := h.post(t, "/v1/chat/completions", "application/json", body, hdr)
		after, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if resp.StatusCode != 429 || err != nil || after < 1 || after > 3600 || !strings.Contains(text, "warden.rate_limited") {
			t.Errorf("status %d, Retry-After %q, body %s", resp.StatusCode, resp.Header.Get("Retry-After"), text)
		}
		// Another key is another principal, with its own allowance.
		h.up.answer(reply{body: fixture(t, "openai", "healthy_tool_calls.json")})
		if other, _ := h.post(t, "/v1/chat/completions", "application/json", body, map[string]string{"Authorization": "Bearer sk-two"}); other.StatusCode != 200 {
			t.Errorf("another key: status %d, want 200", other.StatusCode)
		}
	})
}

// TestLoopBreakerInTheGateway: the same call answered again and again to one principal is stopped.
func TestLoopBreakerInTheGateway(t *testing.T) {
	t.Parallel()
	h := newHarness(t, `version: 1
guardrails:
  tool_call:
    - use: loop_breaker
      config: {max_repeats: 2, per: principal, counter: `+counterFor(t)+`}
audit: {sink: none}
`, withOnDeny("explain"))
	body := fixture(t, "openai", "healthy_tool_calls.json")
	h.up.answer(reply{body: body}, reply{body: body}, reply{body: body})
	var got []int
	var last answer
	for range 3 {
		a, err := askers["openai-chat"](t, h, false)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, len(a.calls))
		last = a
	}
	if got[0] != 1 || got[1] != 1 || got[2] != 0 || !strings.Contains(last.text, "warden.loop_detected") {
		t.Errorf("calls per answer %v, last text %q: want the third identical call stopped", got, last.text)
	}
}

// TestTokenBudgetReadsUsage: the tokens each answer cost, read from the provider's usage fields (a whole
// body's, a stream's events), count against the principal's budget; once spent, the next request is
// refused with 429 before it goes upstream.
func TestTokenBudgetReadsUsage(t *testing.T) {
	t.Parallel()
	sse := func(b []byte) reply { return reply{contentType: "text/event-stream", body: b} }
	chatStream := bytes.Replace(fixture(t, "openai", "stream_tool_call.sse"), []byte("data: [DONE]"),
		[]byte(`data: {"id":"chatcmpl-S1","object":"chat.completion.chunk","created":1732000100,"model":"kimi-k2","choices":[],"usage":{"prompt_tokens":82,"completion_tokens":17,"total_tokens":99}}`+"\n\ndata: [DONE]"), 1)
	responsesStream := bytes.Replace(fixture(t, "openai", "responses_stream_function_call.sse"), []byte(`"usage":null`),
		[]byte(`"usage":{"input_tokens":300,"output_tokens":40,"total_tokens":340}`), -1)
	answers := map[string]reply{
		"openai-chat":             {body: fixture(t, "openai", "healthy_tool_calls.json")},
		"openai-responses":        {body: fixture(t, "openai", "responses_healthy_function_call.json")},
		"anthropic":               {body: fixture(t, "anthropic", "healthy_tool_use.json")},
		"gemini":                  {body: fixture(t, "gemini", "healthy_function_call.json")},
		"openai-chat stream":      sse(chatStream),
		"openai-responses stream": sse(responsesStream),
		"anthropic stream":        sse(fixture(t, "anthropic", "stream_tool_use.sse")),
		"gemini stream":           sse(fixture(t, "gemini", "stream_function_call.sse")),
	}
	for format, answer := range answers {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			// Every answer above costs more than 50 tokens: one answer spends the budget.
			h := newHarness(t, `version: 1
guardrails:
  input:
    - use: token_budget
      config: {max_tokens: 50, counter: `+counterFor(t)+`}
audit: {sink: none}
`)
			h.up.answer(answer, answer)
			if _, err := askers[format](t, h, false); err != nil {
				t.Fatalf("the first request: %v", err)
			}
			_, err := askers[format](t, h, false)
			if s := sdkStatus(err); s != http.StatusTooManyRequests {
				t.Fatalf("after the budget was spent: %v (status %d), want 429", err, s)
			}
			if n := len(h.up.received()); n != 1 {
				t.Errorf("%d requests upstream, want 1", n)
			}
		})
	}
}

// counterFor names a count of the process-wide memory store for one run of one test, so that repeated
// runs (go test -count) and other tests never share it.
func counterFor(t *testing.T) string {
	sum := sha256.Sum256([]byte(t.Name()))
	return fmt.Sprintf("c%x-%d", sum[:6], time.Now().UnixNano())
}
