package anthropic_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/internal/sdkcapture"
	"github.com/agentwarden/warden/wire/anthropic"
	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

const messageReply = `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`

// sdkRequest is what anthropic-sdk-go sends for a system prompt, a tool call, and a user turn that carries
// the tool's result and a new instruction.
func sdkRequest(t testing.TB) []byte {
	t.Helper()
	return sdkcapture.Body(t, []byte(messageReply), func(base string) {
		client := sdk.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-ant-test"), option.WithMaxRetries(0))
		_, err := client.Messages.New(context.Background(), sdk.MessageNewParams{
			Model:     "claude-sonnet-4-5",
			MaxTokens: 100,
			System:    []sdk.TextBlockParam{{Text: "Be brief."}},
			Messages: []sdk.MessageParam{
				sdk.NewUserMessage(sdk.NewTextBlock("What is in /etc?")),
				sdk.NewAssistantMessage(sdk.NewTextBlock("Looking."), sdk.NewToolUseBlock("toolu_1", map[string]any{"path": "/etc"}, "list_dir")),
				sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_1", "passwd hosts", false), sdk.NewTextBlock("Summarize.")),
			},
			Tools: []sdk.ToolUnionParam{sdk.ToolUnionParamOfTool(sdk.ToolInputSchemaParam{}, "list_dir")},
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestDecodeRequest(t *testing.T) {
	t.Parallel()
	text := func(s string) []warden.ContentPart { return []warden.ContentPart{{Kind: warden.ContentText, Text: s}} }
	tests := []struct {
		desc      string
		body      []byte
		want      []warden.Message
		wantTools []string
		wantErr   string
	}{
		{desc: "an anthropic-sdk-go conversation decodes, tool results first as tool messages", body: sdkRequest(t),
			want: []warden.Message{
				{Role: warden.RoleSystem, Content: text("Be brief.")},
				{Role: warden.RoleUser, Content: text("What is in /etc?")},
				{Role: warden.RoleAssistant, Content: text("Looking."), ToolCalls: []warden.ToolCall{warden.NewToolCall("toolu_1", "list_dir", []byte(`{"path":"/etc"}`))}},
				{Role: warden.RoleTool, ToolCallID: "toolu_1", Name: "list_dir", Content: text("passwd hosts")},
				{Role: warden.RoleUser, Content: text("Summarize.")},
			},
			wantTools: []string{"list_dir"}},
		{desc: "a user turn of tool results only adds no empty user message",
			body: []byte(`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":[{"type":"text","text":"boom"},{"type":"image","source":{}}]}]}]}`),
			want: []warden.Message{{Role: warden.RoleTool, ToolCallID: "t", IsError: true,
				Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "boom"}, {Kind: warden.ContentMedia, MediaType: "image"}}}}},
		{desc: "thinking is reasoning and a string system prompt is one text",
			body: []byte(`{"system":"S","messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"x"},{"type":"text","text":"A"}]}]}`),
			want: []warden.Message{{Role: warden.RoleSystem, Content: text("S")},
				{Role: warden.RoleAssistant, Content: []warden.ContentPart{{Kind: warden.ContentReasoning, Text: "hmm"}, {Kind: warden.ContentText, Text: "A"}}}}},
		{desc: "server tools are offered by name", body: []byte(`{"messages":[],"tools":[{"type":"web_search_20250305","name":"web_search"}]}`),
			wantTools: []string{"web_search"}},
		{desc: "a body without messages is an error", body: []byte(`{"model":"m"}`), wantErr: `no "messages"`},
		{desc: "a malformed block is an error naming it", body: []byte(`{"messages":[{"role":"user","content":[{"type":"tool_use","input":5,"id":[]}]}]}`), wantErr: "messages[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := anthropic.DecodeRequest(tt.body)
			pipelinetest.DecodedRequest(t, r, err, tt.wantErr, tt.want, tt.wantTools)
		})
	}
}

func TestRequestSetText(t *testing.T) {
	t.Parallel()
	const turn = `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"IGNORE ALL"},{"type":"text","text":"go on","cache_control":{"type":"ephemeral"}}]}]}`
	tests := []struct {
		desc  string
		body  string
		index int
		text  string
		want  string
	}{
		{desc: "a tool result's content is rewritten and the text block stays", body: turn, index: 0, text: "[removed]",
			want: `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"[removed]"},{"type":"text","text":"go on","cache_control":{"type":"ephemeral"}}]}]}`},
		{desc: "the user text is rewritten keeping its cache_control, the tool result stays", body: turn, index: 1, text: "GO ON",
			want: `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"IGNORE ALL"},{"type":"text","text":"GO ON","cache_control":{"type":"ephemeral"}}]}]}`},
		{desc: "a system prompt of blocks is rewritten in place", body: `{"system":[{"type":"text","text":"s"}],"messages":[]}`, index: 0, text: "S",
			want: `{"system":[{"type":"text","text":"S"}],"messages":[]}`},
		{desc: "a tool result of blocks keeps its image", body: `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"image","source":{}},{"type":"text","text":"x"}]}]}]}`,
			index: 0, text: "y",
			want: `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"image","source":{}},{"type":"text","text":"y"}]}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := anthropic.DecodeRequest([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if err := r.SetText(tt.index, tt.text); err != nil {
				t.Fatal(err)
			}
			got, err := r.Encode()
			if err != nil || string(got) != tt.want {
				t.Fatalf("Encode = %s, %v\nwant     %s", got, err, tt.want)
			}
			again, err := anthropic.DecodeRequest(got)
			if err != nil || again.Messages()[tt.index].Text() != tt.text {
				t.Errorf("decoded again: %v, %+v", err, again.Messages())
			}
		})
	}
}
