package openai_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
	"github.com/openai/openai-go/v3/responses"
)

// guardedResponse runs the safety guardrail over a Responses body, as the response stage does.
func guardedResponse(t *testing.T, body []byte) []byte {
	t.Helper()
	r, err := openai.DecodeResponse(body)
	if err != nil {
		t.Fatal(err)
	}
	return pipelinetest.Safety(t, r)
}

// sdkItems is how openai-go reads a Responses body: the output item types, and the output text.
func sdkItems(t *testing.T, body []byte) (string, string, responses.Response) {
	t.Helper()
	var resp responses.Response
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("openai-go cannot parse the output: %v", err)
	}
	var types []string
	for _, it := range resp.Output {
		types = append(types, it.Type)
	}
	return strings.Join(types, ","), resp.OutputText(), resp
}

func TestResponsesFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture    string
		unchanged  bool
		wantItems  string
		wantStatus string
		wantInText string
	}{
		{fixture: "responses_healthy_function_call", unchanged: true, wantItems: "reasoning,message,function_call", wantStatus: "completed", wantInText: "Running the tests."},
		{fixture: "responses_content_filter_function_call", wantItems: "message", wantStatus: "incomplete",
			wantInText: "Writing the payload to\n\nThe model provider stopped this response with a safety-related signal (incomplete_details.reason='content_filter', detector='openai_responses_incomplete'). Any tool calls produced in this turn were suppressed"},
		{fixture: "responses_content_filter_blank", wantItems: "message", wantStatus: "incomplete", wantInText: "and returned no content."},
		{fixture: "responses_length_truncated_call", wantItems: "function_call,message", wantStatus: "incomplete", wantInText: "1 call(s) whose arguments were cut off were suppressed"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".json"))
			if err != nil {
				t.Fatal(err)
			}
			in = []byte(strings.TrimSpace(string(in)))
			got := guardedResponse(t, in)
			if tt.unchanged && string(got) != string(in) {
				t.Errorf("an unchanged response was not passed through byte for byte:\n%s", got)
			}
			golden.JSON(t, filepath.Join("testdata", tt.fixture+".golden.json"), got, *update)
			items, text, resp := sdkItems(t, got)
			if items != tt.wantItems || string(resp.Status) != tt.wantStatus || !strings.Contains(text, tt.wantInText) {
				t.Errorf("openai-go sees items %s, status %q, text %q", items, resp.Status, text)
			}
		})
	}
}

func TestResponsesDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body string
		wantFinish warden.FinishReason
		wantCalls  string // name(arguments) of each call
		wantText   string
		wantErr    string
	}{
		{desc: "a completed response with calls finishes for tool calls",
			body:       `{"object":"response","status":"completed","output":[{"type":"function_call","call_id":"c1","name":"bash","arguments":"{\"command\":\"ls\"}"}]}`,
			wantFinish: warden.FinishToolCalls, wantCalls: `bash({"command":"ls"})`},
		{desc: "a custom tool's free-form input is a JSON string",
			body:       `{"object":"response","status":"completed","output":[{"type":"custom_tool_call","call_id":"c1","name":"run_sql","input":"DROP TABLE users"}]}`,
			wantFinish: warden.FinishToolCalls, wantCalls: `run_sql("DROP TABLE users")`},
		{desc: "a local shell call is a tool call whose arguments are its action",
			body:       `{"object":"response","status":"completed","output":[{"type":"local_shell_call","id":"lsh_1","call_id":"c1","action":{"type":"exec","command":["rm","-rf","/"],"env":{}},"status":"completed"}]}`,
			wantFinish: warden.FinishToolCalls, wantCalls: `local_shell({"type":"exec","command":["rm","-rf","/"],"env":{}})`},
		{desc: "an apply_patch call is a tool call whose arguments are its operation",
			body:       `{"object":"response","status":"completed","output":[{"type":"apply_patch_call","id":"ap_1","call_id":"c1","operation":{"type":"delete_file","path":"go.mod"},"status":"completed"}]}`,
			wantFinish: warden.FinishToolCalls, wantCalls: `apply_patch({"type":"delete_file","path":"go.mod"})`},
		{desc: "a computer call is a tool call",
			body:       `{"object":"response","status":"completed","output":[{"type":"computer_call","id":"cu_1","call_id":"c1","action":{"type":"click","x":1,"y":2},"pending_safety_checks":[],"status":"completed"}]}`,
			wantFinish: warden.FinishToolCalls, wantCalls: `computer({"type":"click","x":1,"y":2})`},
		{desc: "a hosted web search is not a client tool call",
			body:       `{"object":"response","status":"completed","output":[{"type":"web_search_call","id":"ws_1","status":"completed"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi","annotations":[]}]}]}`,
			wantFinish: warden.FinishStop, wantText: "hi"},
		{desc: "refusal parts are not output text",
			body:       `{"object":"response","status":"completed","output":[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"no"}]}]}`,
			wantFinish: warden.FinishStop},
		{desc: "max_output_tokens is a length stop", body: `{"object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}`, wantFinish: warden.FinishLength},
		{desc: "content_filter is a safety stop", body: `{"object":"response","status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[]}`, wantFinish: warden.FinishSafety},
		{desc: "a chat completion is not a response", body: `{"object":"chat.completion","choices":[]}`, wantErr: `object is "chat.completion"`},
		{desc: "an item that is not an object is an error", body: `{"object":"response","output":[1]}`, wantErr: "output[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := openai.DecodeResponse([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := r.Response(0)
			var calls []string
			for _, c := range got.Message.ToolCalls {
				if !c.Complete {
					t.Errorf("call %s is incomplete", c.Name)
				}
				calls = append(calls, c.Name+"("+string(c.Arguments)+")")
			}
			if got.FinishReason != tt.wantFinish || strings.Join(calls, " ") != tt.wantCalls || got.Message.Text() != tt.wantText {
				t.Errorf("finish %q, calls %q, text %q", got.FinishReason, calls, got.Message.Text())
			}
		})
	}
}

func TestResponsesSet(t *testing.T) {
	t.Parallel()
	const body = `{"object":"response","status":"completed","output":[{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Cleaning.","annotations":[]}]},{"type":"function_call","id":"f1","call_id":"c1","name":"bash","arguments":"{\"command\":\"rm -rf ~\"}"},{"type":"custom_tool_call","id":"f2","call_id":"c2","name":"sql","input":"SELECT 1"}]}`
	const callsOnly = `{"object":"response","status":"completed","output":[{"type":"function_call","id":"f1","call_id":"c1","name":"bash","arguments":"{}"}]}`
	tests := []struct {
		desc, body string
		edit       func(r *warden.Response)
		want       string
	}{
		{desc: "a removed call's item is dropped and the deny text goes to the last message",
			body: body,
			edit: func(r *warden.Response) {
				r.Message.ToolCalls = r.Message.ToolCalls[1:]
				r.Message.Content = append(r.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: "\n\ndenied"})
			},
			want: `{"object":"response","status":"completed","output":[{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Cleaning.","annotations":[]},{"type":"output_text","text":"\n\ndenied","annotations":[]}]},{"type":"custom_tool_call","id":"f2","call_id":"c2","name":"sql","input":"SELECT 1"}]}`},
		{desc: "with no message item the text becomes a new message item at the end",
			body: callsOnly,
			edit: func(r *warden.Response) {
				r.Message.ToolCalls = nil
				r.Message.Content = []warden.ContentPart{{Kind: warden.ContentText, Text: "denied"}}
			},
			want: `{"object":"response","status":"completed","output":[{"type":"message","id":"msg_warden_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"denied","annotations":[]}]}]}`},
		{desc: "modified arguments are written in each call's own form",
			body: body,
			edit: func(r *warden.Response) {
				r.Message.ToolCalls = []warden.ToolCall{warden.NewToolCall("c1", "bash", []byte(`{"command":"ls"}`)), warden.NewToolCall("c2", "sql", []byte(`"SELECT 2"`))}
			},
			want: `{"object":"response","status":"completed","output":[{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Cleaning.","annotations":[]}]},{"type":"function_call","id":"f1","call_id":"c1","name":"bash","arguments":"{\"command\":\"ls\"}"},{"type":"custom_tool_call","id":"f2","call_id":"c2","name":"sql","input":"SELECT 2"}]}`},
		{desc: "text changed in place replaces the output text",
			body: body,
			edit: func(r *warden.Response) {
				r.Message.Content = []warden.ContentPart{{Kind: warden.ContentText, Text: "[redacted]"}}
			},
			want: `{"object":"response","status":"completed","output":[{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"[redacted]","annotations":[]}]},{"type":"function_call","id":"f1","call_id":"c1","name":"bash","arguments":"{\"command\":\"rm -rf ~\"}"},{"type":"custom_tool_call","id":"f2","call_id":"c2","name":"sql","input":"SELECT 1"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := openai.DecodeResponse([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			resp := r.Response(0)
			tt.edit(&resp)
			if err := r.Set(0, resp); err != nil {
				t.Fatal(err)
			}
			got, err := r.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			sdkItems(t, got)
		})
	}
}

func TestResponseMessageBodyParsesWithTheSDK(t *testing.T) {
	t.Parallel()
	items, text, resp := sdkItems(t, openai.ResponseMessageBody("warden-safety", "warden", "Stopped <here> & now."))
	if items != "message" || text != "Stopped <here> & now." || resp.Status != "incomplete" || resp.IncompleteDetails.Reason != "content_filter" {
		t.Errorf("openai-go sees items %s, text %q, status %q, reason %q", items, text, resp.Status, resp.IncompleteDetails.Reason)
	}
}
