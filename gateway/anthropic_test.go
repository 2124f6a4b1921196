package gateway_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

func anthropicClient(h *harness) *sdk.Client {
	c := sdk.NewClient(option.WithBaseURL(h.url), option.WithAPIKey("sk-ant-client"), option.WithMaxRetries(0))
	return &c
}

var messageParams = sdk.MessageNewParams{
	Model:     "claude-sonnet-4-5",
	MaxTokens: 1024,
	Messages:  []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("Tidy up the repository."))},
}

// anthropicSummary is what a client acts on: the text, the tool calls and the stop reason.
func anthropicSummary(m *sdk.Message) (text string, calls []string) {
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			text += b.Text
		case "tool_use":
			calls = append(calls, b.Name+" "+strings.ReplaceAll(string(b.Input), " ", ""))
		}
	}
	return text, calls
}

func TestAnthropicMessages(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc       string
		reply      reply
		wantText   string
		wantCalls  []string
		wantStop   sdk.StopReason
		wantTallyD string
	}{
		{desc: "a healthy tool use reaches the client unchanged", reply: reply{body: fixture(t, "anthropic", "healthy_tool_use.json")},
			wantText: "I'll run the tests.", wantCalls: []string{`bash {"command":"gotest./..."}`}, wantStop: "tool_use", wantTallyD: "allow"},
		{desc: "a refusal's tool use never reaches the client", reply: reply{body: fixture(t, "anthropic", "refusal_tool_use.json")},
			wantText: "were suppressed", wantStop: "refusal", wantTallyD: "modify"},
		{desc: "a blank refusal is explained", reply: reply{body: fixture(t, "anthropic", "refusal_blank.json")},
			wantText: "stopped this response", wantStop: "refusal", wantTallyD: "modify"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(tc.reply)
			var resp *http.Response
			m, err := anthropicClient(h).Messages.New(context.Background(), messageParams, option.WithResponseInto(&resp))
			if err != nil {
				t.Fatal(err)
			}
			text, calls := anthropicSummary(m)
			checkAnswer(t, answer{text, calls, string(m.StopReason)}, tc.wantText, tc.wantCalls, string(tc.wantStop))
			checkTally(t, resp.Header, tc.wantTallyD)
			if _, _, hdr, _, _ := h.up.sent(); hdr.Get("X-Api-Key") != "sk-ant-client" {
				t.Errorf("the client's key did not reach the upstream")
			}
		})
	}
}

func TestAnthropicMessagesStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc      string
		body      []byte
		wantText  string
		wantCalls []string
		wantStop  sdk.StopReason
	}{
		{desc: "a streamed tool use reaches the client", body: fixture(t, "anthropic", "stream_tool_use.sse"),
			wantCalls: []string{`bash {"command":"gotest./..."}`}, wantStop: "tool_use"},
		{desc: "a denied streamed tool use is held back and the model told why", body: fixture(t, "anthropic", "stream_denied_first_call.sse"),
			wantText: "warden.destructive_delete", wantCalls: []string{`bash {"command":"ls"}`}, wantStop: "tool_use"},
		{desc: "a streamed refusal releases no tool use", body: fixture(t, "anthropic", "stream_refusal_tool_use.sse"),
			wantText: "were suppressed", wantStop: "refusal"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(reply{contentType: "text/event-stream", body: tc.body})
			s := anthropicClient(h).Messages.NewStreaming(context.Background(), messageParams)
			var m sdk.Message
			for s.Next() {
				if err := m.Accumulate(s.Current()); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			text, calls := anthropicSummary(&m)
			checkAnswer(t, answer{text, calls, string(m.StopReason)}, tc.wantText, tc.wantCalls, string(tc.wantStop))
		})
	}
}
