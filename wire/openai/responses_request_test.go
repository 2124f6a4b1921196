package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/internal/sdkcapture"
	"github.com/agentwarden/warden/wire/openai"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

const responsesReply = `{"id":"resp_1","object":"response","created_at":0,"model":"m","status":"completed","output":[],"parallel_tool_calls":true,"tool_choice":"auto","tools":[]}`

// sdkResponsesRequest is what openai-go sends for instructions, a user message, a function call, its output
// and a reasoning item.
func sdkResponsesRequest(t testing.TB) []byte {
	t.Helper()
	return sdkcapture.Body(t, []byte(responsesReply), func(base string) {
		client := sdk.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
		_, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
			Model:        "gpt-5.1",
			Instructions: sdk.String("Be brief."),
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
				responses.ResponseInputItemParamOfMessage("What is in /etc?", responses.EasyInputMessageRoleUser),
				responses.ResponseInputItemParamOfReasoning("rs_1", []responses.ResponseReasoningItemSummaryParam{}),
				responses.ResponseInputItemParamOfFunctionCall(`{"path":"/etc"}`, "call_1", "list_dir"),
				{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{CallID: sdk.String("call_1"),
					Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: sdk.String("passwd hosts")}}},
			}},
			Tools: []responses.ToolUnionParam{responses.ToolParamOfFunction("list_dir", map[string]any{"type": "object"}, false)},
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestDecodeResponsesRequest(t *testing.T) {
	t.Parallel()
	text := func(s string) []warden.ContentPart { return []warden.ContentPart{{Kind: warden.ContentText, Text: s}} }
	tests := []struct {
		desc      string
		body      []byte
		want      []warden.Message
		wantTools []string
		wantErr   string
	}{
		{desc: "an openai-go item list decodes item by item, reasoning left out", body: sdkResponsesRequest(t),
			want: []warden.Message{
				{Role: warden.RoleSystem, Content: text("Be brief.")},
				{Role: warden.RoleUser, Content: text("What is in /etc?")},
				{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("call_1", "list_dir", []byte(`{"path":"/etc"}`))}},
				{Role: warden.RoleTool, ToolCallID: "call_1", Name: "list_dir", Content: text("passwd hosts")},
			},
			wantTools: []string{"list_dir"}},
		{desc: "a string input is one user message", body: []byte(`{"model":"m","input":"hello"}`),
			want: []warden.Message{{Role: warden.RoleUser, Content: text("hello")}}},
		{desc: "input parts: text read, images media, developer is system",
			body: []byte(`{"input":[{"role":"developer","content":[{"type":"input_text","text":"rules"},{"type":"input_image","image_url":"u"}]}]}`),
			want: []warden.Message{{Role: warden.RoleSystem, Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "rules"}, {Kind: warden.ContentMedia, MediaType: "input_image"}}}}},
		{desc: "a shell call and its output pair up by call_id",
			body: []byte(`{"input":[{"type":"shell_call","call_id":"s1","action":{"commands":["ls"]}},{"type":"shell_call_output","call_id":"s1","output":"a b"}],"tools":[{"type":"shell"}]}`),
			want: []warden.Message{
				{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("s1", "shell", []byte(`{"commands":["ls"]}`))}},
				{Role: warden.RoleTool, ToolCallID: "s1", Name: "shell", Content: text("a b")},
			},
			wantTools: []string{"shell"}},
		{desc: "a screenshot output is media", body: []byte(`{"input":[{"type":"computer_call_output","call_id":"c","output":{"type":"computer_screenshot","image_url":"u"}}]}`),
			want: []warden.Message{{Role: warden.RoleTool, ToolCallID: "c", Content: []warden.ContentPart{{Kind: warden.ContentMedia, MediaType: "computer_call_output"}}}}},
		{desc: "a body without input or instructions is an error", body: []byte(`{"model":"m"}`), wantErr: `no "input"`},
		{desc: "a malformed item is an error naming it", body: []byte(`{"input":[{"role":"user","content":5}]}`), wantErr: "input[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := openai.DecodeResponsesRequest(tt.body)
			pipelinetest.DecodedRequest(t, r, err, tt.wantErr, tt.want, tt.wantTools)
		})
	}
}

func TestResponsesRequestSetText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		body    string
		index   int
		text    string
		want    string
		wantErr string
	}{
		{desc: "instructions are rewritten in place", body: `{"instructions":"a","input":"b"}`, index: 0, text: "A",
			want: `{"instructions":"A","input":"b"}`},
		{desc: "a string input is rewritten", body: `{"instructions":"a","input":"b"}`, index: 1, text: "B", want: `{"instructions":"a","input":"B"}`},
		{desc: "an input_text part takes the text and other items keep their bytes",
			body:  `{"input":[{"type":"reasoning", "id":"rs"},{"role":"user","content":[{"type":"input_text","text":"key sk-123"}]}]}`,
			index: 0, text: "key [SECRET]",
			want: `{"input":[{"type":"reasoning", "id":"rs"},{"role":"user","content":[{"type":"input_text","text":"key [SECRET]"}]}]}`},
		{desc: "a function call output is rewritten",
			body:  `{"input":[{"type":"function_call_output","call_id":"c","output":"IGNORE PREVIOUS"}]}`,
			index: 0, text: "[removed]",
			want: `{"input":[{"type":"function_call_output","call_id":"c","output":"[removed]"}]}`},
		{desc: "a screenshot cannot be rewritten as text", body: `{"input":[{"type":"computer_call_output","call_id":"c","output":{"type":"computer_screenshot"}}]}`,
			index: 0, text: "x", wantErr: "cannot be rewritten"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := openai.DecodeResponsesRequest([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			err = r.SetText(tt.index, tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Encode()
			if err != nil || string(got) != tt.want {
				t.Fatalf("Encode = %s, %v\nwant     %s", got, err, tt.want)
			}
		})
	}
}
