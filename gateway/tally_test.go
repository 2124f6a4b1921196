package gateway_test

import (
	"net/http"
	"testing"

	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

// X-Warden-Decision says what was decided about the answer the client got: allow when it passed (a retry
// that ended cleanly included), modify when Warden changed it (a denied call removed and explained),
// reject when Warden refused; on a stream the headers say pending and the trailer says what was.
func TestDecisionSaysWhatHappenedToTheAnswer(t *testing.T) {
	t.Parallel()
	chat := `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"clean up"}]}`
	chatStream := `{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"clean up"}]}`
	text := func(t *testing.T) reply { return reply{body: fixture(t, "openai", "healthy_text.json")} }
	denied := func(t *testing.T) reply {
		return reply{body: denyWhole(fixture(t, "openai", "healthy_tool_calls.json"))}
	}
	streamText := func(t *testing.T) reply {
		return reply{contentType: "text/event-stream", body: fixture(t, "openai", "stream_text.sse")}
	}
	streamDenied := func(t *testing.T) reply {
		return reply{contentType: "text/event-stream", body: onlyDenied(fixture(t, "openai", "stream_denied_call.sse"))}
	}
	tests := []struct {
		desc        string
		body        string
		onDeny      pipeline.OnDeny
		replies     func(t *testing.T) []reply
		wantHeader  string
		wantTrailer string // "" for a whole answer
		wantStatus  int
	}{
		{desc: "an answer that passed reads allow", body: chat, replies: func(t *testing.T) []reply { return []reply{text(t)} },
			wantHeader: "allow", wantStatus: http.StatusOK},
		{desc: "a retry that ended cleanly reads allow", body: chat, replies: func(t *testing.T) []reply { return []reply{denied(t), text(t)} },
			wantHeader: "allow", wantStatus: http.StatusOK},
		{desc: "an answer whose denied call was explained reads modify", body: chat, onDeny: pipeline.DenyExplain,
			replies: func(t *testing.T) []reply { return []reply{denied(t)} }, wantHeader: "modify", wantStatus: http.StatusOK},
		{desc: "a refusal reads reject", body: chat, onDeny: pipeline.DenyError,
			replies: func(t *testing.T) []reply { return []reply{denied(t)} }, wantHeader: "reject", wantStatus: http.StatusForbidden},
		{desc: "a stream reads pending, and its trailer allow when it passed", body: chatStream,
			replies: func(t *testing.T) []reply { return []reply{streamText(t)} }, wantHeader: gateway.DecisionPending, wantTrailer: "allow", wantStatus: http.StatusOK},
		{desc: "a stream retried cleanly has the trailer allow", body: chatStream,
			replies: func(t *testing.T) []reply { return []reply{streamDenied(t), streamText(t)} }, wantHeader: gateway.DecisionPending, wantTrailer: "allow", wantStatus: http.StatusOK},
		{desc: "a stream whose call was explained has the trailer modify", body: chatStream, onDeny: pipeline.DenyExplain,
			replies: func(t *testing.T) []reply { return []reply{streamDenied(t)} }, wantHeader: gateway.DecisionPending, wantTrailer: "modify", wantStatus: http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			var opts []harnessOption
			if tc.onDeny != "" {
				opts = append(opts, withOnDeny(tc.onDeny))
			}
			h := newHarness(t, "", opts...)
			h.up.answer(tc.replies(t)...)
			resp, _ := h.post(t, "/v1/chat/completions", "application/json", tc.body, nil)
			if resp.StatusCode != tc.wantStatus {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.wantStatus)
			}
			if got := resp.Header.Get(gateway.HeaderDecision); got != tc.wantHeader {
				t.Errorf("header %s = %q, want %q", gateway.HeaderDecision, got, tc.wantHeader)
			}
			if tc.wantTrailer != "" {
				if got := resp.Trailer.Get(gateway.HeaderDecision); got != tc.wantTrailer {
					t.Errorf("trailer %s = %q, want %q", gateway.HeaderDecision, got, tc.wantTrailer)
				}
			}
		})
	}
}
