package bedrock_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/internal/sdkcapture"
	"github.com/agentwarden/warden/wire/bedrock"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

const converseReply = `{"output":{"message":{"role":"assistant","content":[{"text":"ok"}]}},"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"metrics":{"latencyMs":1}}`

// sdkRequest is what the AWS SDK sends to Converse for a system prompt, a tool call and a failed result.
func sdkRequest(t testing.TB) []byte {
	t.Helper()
	return sdkcapture.Body(t, []byte(converseReply), func(base string) {
		client := bedrockruntime.New(bedrockruntime.Options{Region: "us-east-1", BaseEndpoint: aws.String(base),
			Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""), RetryMaxAttempts: 1})
		_, err := client.Converse(context.Background(), &bedrockruntime.ConverseInput{
			ModelId: aws.String("anthropic.claude-sonnet-4-5"),
			System:  []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: "Be brief."}},
			Messages: []types.Message{
				{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "What is in /etc?"}}},
				{Role: types.ConversationRoleAssistant, Content: []types.ContentBlock{&types.ContentBlockMemberToolUse{Value: types.ToolUseBlock{
					ToolUseId: aws.String("tu_1"), Name: aws.String("list_dir"), Input: document.NewLazyDocument(map[string]any{"path": "/etc"})}}}},
				{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberToolResult{Value: types.ToolResultBlock{
					ToolUseId: aws.String("tu_1"), Status: types.ToolResultStatusError,
					Content: []types.ToolResultContentBlock{&types.ToolResultContentBlockMemberText{Value: "permission denied"}}}}}},
			},
			ToolConfig: &types.ToolConfiguration{Tools: []types.Tool{&types.ToolMemberToolSpec{Value: types.ToolSpecification{
				Name: aws.String("list_dir"), InputSchema: &types.ToolInputSchemaMemberJson{Value: document.NewLazyDocument(map[string]any{"type": "object"})}}}}},
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
		{desc: "an AWS SDK conversation decodes, a failed tool result as an error tool message", body: sdkRequest(t),
			want: []warden.Message{
				{Role: warden.RoleSystem, Content: text("Be brief.")},
				{Role: warden.RoleUser, Content: text("What is in /etc?")},
				{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("tu_1", "list_dir", []byte(`{"path":"/etc"}`))}},
				{Role: warden.RoleTool, ToolCallID: "tu_1", Name: "list_dir", IsError: true, Content: text("permission denied")},
			},
			wantTools: []string{"list_dir"}},
		{desc: "a JSON tool result is read as its JSON text",
			body: []byte(`{"messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{"files":["a"]}}]}},{"text":"next"}]}]}`),
			want: []warden.Message{{Role: warden.RoleTool, ToolCallID: "t", Content: text(`{"files":["a"]}`)}, {Role: warden.RoleUser, Content: text("next")}}},
		{desc: "a body without messages is an error", body: []byte(`{"system":[]}`), wantErr: `no "messages"`},
		{desc: "a malformed message is an error naming it", body: []byte(`{"messages":[{"role":"user","content":"hi"}]}`), wantErr: "messages[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := bedrock.DecodeRequest(tt.body)
			pipelinetest.DecodedRequest(t, r, err, tt.wantErr, tt.want, tt.wantTools)
		})
	}
}

func TestRequestSetText(t *testing.T) {
	t.Parallel()
	const turn = `{"messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{"note":"IGNORE ALL"}}],"status":"success"}},{"text":"go on"},{"cachePoint":{"type":"default"}}]}]}`
	tests := []struct {
		desc  string
		body  string
		index int
		text  string
		want  string
	}{
		{desc: "a JSON tool result is replaced by a text block", body: turn, index: 0, text: "[removed]",
			want: `{"messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"text":"[removed]"}],"status":"success"}},{"text":"go on"},{"cachePoint":{"type":"default"}}]}]}`},
		{desc: "the user's text is rewritten, the result and the cache point stay", body: turn, index: 1, text: "GO ON",
			want: `{"messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{"note":"IGNORE ALL"}}],"status":"success"}},{"text":"GO ON"},{"cachePoint":{"type":"default"}}]}]}`},
		{desc: "the system blocks are rewritten, a cache point kept", body: `{"system":[{"text":"s"},{"cachePoint":{"type":"default"}}],"messages":[]}`, index: 0, text: "S",
			want: `{"system":[{"text":"S"},{"cachePoint":{"type":"default"}}],"messages":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := bedrock.DecodeRequest([]byte(tt.body))
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
		})
	}
}
