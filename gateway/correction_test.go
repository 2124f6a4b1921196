package gateway_test

import (
	"bytes"
	"strings"
	"testing"
)

// TestStreamGuardrailCorrection: a stream guardrail's retry shows its feedback in the client's stream and
// the model continues from it in the same stream, as each official SDK reads it; a continuation Warden
// cannot get ends the stream with the guardrail's reason.
func TestStreamGuardrailCorrection(t *testing.T) {
	t.Parallel()
	const feedback = "I used a phrase I must not use here."
	config := func(extra string) string {
		return "version: 1\n" + extra + "guardrails:\n  stream:\n    - use: blocked_terms\n      config: {terms: [FORBIDDEN], action: retry, code: acme.forbidden}\n"
	}
	type stream struct{ bad, good reply }
	streams := map[string]stream{}
	for ask, f := range map[string]struct{ provider, fixture, word string }{
		"openai-chat stream":      {"openai", "stream_text.sse", "world"},
		"openai-responses stream": {"openai", "responses_stream_text.sse", "pass"},
		"anthropic stream":        {"anthropic", "stream_text.sse", "pass"},
		"gemini stream":           {"gemini", "stream_text.sse", "pass"},
	} {
		good := fixture(t, f.provider, f.fixture)
		bad := bytes.ReplaceAll(good, []byte(f.word), []byte("FORBIDDEN"))
		streams[ask] = stream{reply{contentType: "text/event-stream", body: bad}, reply{contentType: "text/event-stream", body: good}}
	}
	goodText := map[string]string{"openai-chat stream": "Hello, world", "openai-responses stream": "All 42 tests pass.",
		"anthropic stream": "All 42 tests pass.", "gemini stream": "All 42 tests pass."}
	tests := []struct {
		desc      string
		extra     string // gateway config
		replies   func(s stream) []reply
		wantErr   bool
		wantSent  int
		wantCarry bool // the continuation carries the message with the feedback
	}{
		{desc: "the feedback shows and the model's continuation follows in the same stream",
			replies: func(s stream) []reply { return []reply{s.bad, s.good} }, wantSent: 2, wantCarry: true},
		{desc: "a retry after the corrections are spent ends the stream with the guardrail's error",
			replies: func(s stream) []reply { return []reply{s.bad, s.bad, s.bad} }, wantErr: true, wantSent: 3, wantCarry: true},
		{desc: "stream_retries 0 ends the stream at the first retry", extra: "gateway:\n  stream_retries: 0\n",
			replies: func(s stream) []reply { return []reply{s.bad} }, wantErr: true, wantSent: 1},
		{desc: "a continuation the provider refuses ends the stream with the guardrail's error",
			replies: func(s stream) []reply {
				return []reply{s.bad, {status: 400, body: []byte(`{"error":{"message":"bad"}}`)}}
			}, wantErr: true, wantSent: 2, wantCarry: true},
	}
	for _, tc := range tests {
		for _, ask := range []string{"openai-chat stream", "openai-responses stream", "anthropic stream", "gemini stream"} {
			t.Run(ask+"/"+tc.desc, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, config(tc.extra))
				h.up.answer(tc.replies(streams[ask])...)
				got, err := askers[ask](t, h, false)
				sent := h.up.received()
				if len(sent) != tc.wantSent {
					t.Errorf("%d requests upstream, want %d", len(sent), tc.wantSent)
				}
				if tc.wantCarry && (len(sent) < 2 || !bytes.Contains(sent[1], []byte(feedback))) {
					t.Errorf("the continuation does not carry the message with the feedback: %s", sent[min(1, len(sent)-1)])
				}
				if tc.wantErr {
					if err == nil {
						t.Fatalf("the stream ended cleanly (%+v), want the guardrail's error", got)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(got.text, feedback) || !strings.HasSuffix(got.text, goodText[ask]) || strings.Contains(got.text, "FORBIDDEN") {
					t.Errorf("text = %q, want the feedback, then %q, and never the blocked term", got.text, goodText[ask])
				}
			})
		}
	}
}
