package gateway_test

import (
	"context"
	"net/http"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

var responsesParams = responses.ResponseNewParams{
	Model: "gpt-5.1",
	Input: responses.ResponseNewParamsInputUnion{OfString: sdk.String("Tidy up the repository.")},
}

// responsesSummary is what a client acts on: the output text, the function calls and the status.
func responsesSummary(r *responses.Response) (text string, calls []string, status string) {
	for _, item := range r.Output {
		switch item.Type {
		case "message":
			for _, c := range item.Content {
				text += c.Text
			}
		case "function_call":
			calls = append(calls, item.Name+" "+item.Arguments.OfString)
		}
	}
	return text, calls, string(r.Status)
}

func TestOpenAIResponses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc       string
		reply      reply
		wantText   string
		wantCalls  []string
		wantStatus string
		wantTallyD string
	}{
		{desc: "a healthy function call reaches the client unchanged", reply: reply{body: fixture(t, "openai", "responses_healthy_function_call.json")},
			wantText: "Running the tests.", wantCalls: []string{`bash {"command":"go test ./..."}`}, wantStatus: "completed", wantTallyD: "allow"},
		{desc: "a content-filtered response's function call never reaches the client", reply: reply{body: fixture(t, "openai", "responses_content_filter_function_call.json")},
			wantText: "were suppressed", wantStatus: "incomplete", wantTallyD: "modify"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(tc.reply)
			var resp *http.Response
			r, err := openaiClient(h).Responses.New(context.Background(), responsesParams, option.WithResponseInto(&resp))
			if err != nil {
				t.Fatal(err)
			}
			text, calls, status := responsesSummary(r)
			checkAnswer(t, answer{text, calls, status}, tc.wantText, tc.wantCalls, tc.wantStatus)
			checkTally(t, resp.Header, tc.wantTallyD)
		})
	}
}

func TestOpenAIResponsesStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	tests := []struct {
		desc       string
		body       []byte
		wantText   string
		wantCalls  []string
		wantStatus string
	}{
		{desc: "a streamed function call reaches the client", body: fixture(t, "openai", "responses_stream_function_call.sse"),
			wantCalls: []string{`bash {"command":"go test ./..."}`}, wantStatus: "completed"},
		{desc: "a denied streamed call is held back and the model told why", body: fixture(t, "openai", "responses_stream_denied_first_call.sse"),
			wantText: "warden.destructive_delete", wantCalls: []string{`bash {"command":"ls"}`}, wantStatus: "completed"},
		{desc: "a content-filtered stream releases no function call", body: fixture(t, "openai", "responses_stream_content_filter.sse"),
			wantText: "were suppressed", wantStatus: "incomplete"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			h.up.answer(reply{contentType: "text/event-stream", body: tc.body})
			s := openaiClient(h).Responses.NewStreaming(context.Background(), responsesParams)
			var final *responses.Response
			for s.Next() {
				ev := s.Current()
				switch ev.Type {
				case "response.completed", "response.incomplete", "response.failed":
					r := ev.Response
					final = &r
				}
			}
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			if final == nil {
				t.Fatal("the stream has no final response event")
			}
			text, calls, status := responsesSummary(final)
			checkAnswer(t, answer{text, calls, status}, tc.wantText, tc.wantCalls, tc.wantStatus)
		})
	}
}
