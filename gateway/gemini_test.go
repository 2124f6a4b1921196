package gateway_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/genai"
)

func geminiClient(t *testing.T, h *harness) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "g-client", Backend: genai.BackendGeminiAPI,
		HTTPOptions: genai.HTTPOptions{BaseURL: h.url}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var geminiInput = []*genai.Content{genai.NewContentFromText("Tidy up the repository.", genai.RoleUser)}

// geminiSummary is what a client acts on: the text, the function calls and the finish reason.
func geminiSummary(rs []*genai.GenerateContentResponse) (text string, calls []string, finish genai.FinishReason) {
	for _, r := range rs {
		for _, c := range r.Candidates {
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
			if c.Content == nil {
				continue
			}
			for _, p := range c.Content.Parts {
				text += p.Text
				if p.FunctionCall != nil {
					args, _ := json.Marshal(p.FunctionCall.Args)
					calls = append(calls, p.FunctionCall.Name+" "+string(args))
				}
			}
		}
	}
	return text, calls, finish
}

func TestGemini(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc       string
		reply      reply
		wantText   string
		wantCalls  []string
		wantFinish genai.FinishReason
		wantTallyD string
	}{
		{desc: "a healthy function call reaches the client unchanged", reply: reply{body: fixture(t, "gemini", "healthy_function_call.json")},
			wantText: "Running the tests.", wantCalls: []string{`bash {"command":"go test ./..."}`}, wantFinish: "STOP", wantTallyD: "allow"},
		{desc: "a safety stop's function call never reaches the client", reply: reply{body: fixture(t, "gemini", "safety_function_call.json")},
			wantText: "were suppressed", wantFinish: "SAFETY", wantTallyD: "modify"},
		{desc: "a blocked prompt is explained as a model answer", reply: reply{body: fixture(t, "gemini", "prompt_blocked.json")},
			wantText: "returned no content", wantTallyD: "modify"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(tc.reply)
			r, err := geminiClient(t, h).Models.GenerateContent(context.Background(), "gemini-2.5-flash", geminiInput, nil)
			if err != nil {
				t.Fatal(err)
			}
			text, calls, finish := geminiSummary([]*genai.GenerateContentResponse{r})
			checkAnswer(t, answer{text, calls, string(finish)}, tc.wantText, tc.wantCalls, string(tc.wantFinish))
			if r.SDKHTTPResponse == nil {
				t.Fatal("the SDK kept no HTTP response")
			}
			hdr := map[string][]string(r.SDKHTTPResponse.Headers)
			checkTally(t, hdr, tc.wantTallyD)
		})
	}
}

func TestGeminiStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc       string
		body       []byte
		wantText   string
		wantCalls  []string
		wantFinish genai.FinishReason
	}{
		{desc: "a streamed function call reaches the client", body: fixture(t, "gemini", "stream_function_call.sse"),
			wantCalls: []string{`bash {"command":"go test ./..."}`}, wantFinish: "STOP"},
		{desc: "a denied streamed call is held back and the model told why", body: fixture(t, "gemini", "stream_denied_first_call.sse"),
			wantText: "warden.destructive_delete", wantCalls: []string{`bash {"command":"ls"}`}, wantFinish: "STOP"},
		{desc: "a streamed safety stop releases no function call", body: fixture(t, "gemini", "stream_safety_function_call.sse"),
			wantText: "were suppressed", wantFinish: "SAFETY"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(reply{contentType: "text/event-stream", body: tc.body})
			var rs []*genai.GenerateContentResponse
			for r, err := range geminiClient(t, h).Models.GenerateContentStream(context.Background(), "gemini-2.5-flash", geminiInput, nil) {
				if err != nil {
					t.Fatal(err)
				}
				rs = append(rs, r)
			}
			text, calls, finish := geminiSummary(rs)
			checkAnswer(t, answer{text, calls, string(finish)}, tc.wantText, tc.wantCalls, string(tc.wantFinish))
			if path, query, _, _, _ := h.up.sent(); !strings.HasSuffix(path, ":streamGenerateContent") || !strings.Contains(query, "alt=sse") {
				t.Errorf("upstream got %s?%s", path, query)
			}
		})
	}
}
