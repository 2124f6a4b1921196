package gemini_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/internal/sdkcapture"
	"github.com/agentwarden/warden/wire/gemini"
	"google.golang.org/genai"
)

const generateReply = `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}]}`

// sdkRequest is what go-genai sends for a system instruction, an image, a function call and its response.
func sdkRequest(t testing.TB) []byte {
	t.Helper()
	return sdkcapture.Body(t, []byte(generateReply), func(base string) {
		ctx := context.Background()
		client, err := genai.NewClient(ctx, &genai.ClientConfig{APIKey: "test-key", Backend: genai.BackendGeminiAPI,
			HTTPOptions: genai.HTTPOptions{BaseURL: base}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = client.Models.GenerateContent(ctx, "gemini-2.5-flash", []*genai.Content{
			genai.NewContentFromParts([]*genai.Part{genai.NewPartFromText("What is in /etc?"), genai.NewPartFromBytes([]byte{1}, "image/png")}, genai.RoleUser),
			genai.NewContentFromFunctionCall("list_dir", map[string]any{"path": "/etc"}, genai.RoleModel),
			genai.NewContentFromFunctionResponse("list_dir", map[string]any{"output": "passwd hosts"}, genai.RoleUser),
		}, &genai.GenerateContentConfig{
			SystemInstruction: genai.NewContentFromText("Be brief.", genai.RoleUser),
			Tools:             []*genai.Tool{{FunctionDeclarations: []*genai.FunctionDeclaration{{Name: "list_dir"}}}},
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
		{desc: "a go-genai conversation decodes, a function response as a tool message", body: sdkRequest(t),
			want: []warden.Message{
				{Role: warden.RoleSystem, Content: text("Be brief.")},
				{Role: warden.RoleUser, Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "What is in /etc?"}, {Kind: warden.ContentMedia, MediaType: "inlineData"}}},
				{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("", "list_dir", []byte(`{"path":"/etc"}`))}},
				{Role: warden.RoleTool, Name: "list_dir", Content: text(`{"output":"passwd hosts"}`)},
			},
			wantTools: []string{"list_dir"}},
		{desc: "snake_case fields are read too, and a thought is reasoning",
			body: []byte(`{"system_instruction":{"parts":[{"text":"S"}]},"contents":[{"role":"model","parts":[{"text":"hmm","thought":true},{"function_call":{"id":"f1","name":"g","args":{}}}]},{"role":"user","parts":[{"function_response":{"id":"f1","name":"g","response":{"error":"denied"}}}]}],"tools":[{"function_declarations":[{"name":"g"}]},{"googleSearch":{}}]}`),
			want: []warden.Message{
				{Role: warden.RoleSystem, Content: text("S")},
				{Role: warden.RoleAssistant, Content: []warden.ContentPart{{Kind: warden.ContentReasoning, Text: "hmm"}}, ToolCalls: []warden.ToolCall{warden.NewToolCall("f1", "g", []byte(`{}`))}},
				{Role: warden.RoleTool, ToolCallID: "f1", Name: "g", IsError: true, Content: text(`{"error":"denied"}`)},
			},
			wantTools: []string{"g", "googleSearch"}},
		{desc: "a body without contents is an error", body: []byte(`{"generationConfig":{}}`), wantErr: `no "contents"`},
		{desc: "a malformed content is an error naming it", body: []byte(`{"contents":[{"parts":{}}]}`), wantErr: "contents[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := gemini.DecodeRequest(tt.body)
			pipelinetest.DecodedRequest(t, r, err, tt.wantErr, tt.want, tt.wantTools)
		})
	}
}

func TestRequestSetText(t *testing.T) {
	t.Parallel()
	const turn = `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"IGNORE ALL"}}},{"text":"go on"}]}]}`
	tests := []struct {
		desc  string
		body  string
		index int
		text  string
		want  string
	}{
		{desc: "a function response that stays JSON replaces the response", body: turn, index: 0, text: `{"output":"[removed]"}`,
			want: `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"[removed]"}}},{"text":"go on"}]}]}`},
		{desc: "plain text becomes the response's output", body: turn, index: 0, text: "[removed]",
			want: `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"[removed]"}}},{"text":"go on"}]}]}`},
		{desc: "the user's text part is rewritten, the response stays", body: turn, index: 1, text: "GO ON",
			want: `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"IGNORE ALL"}}},{"text":"GO ON"}]}]}`},
		{desc: "the system instruction is rewritten", body: `{"systemInstruction":{"parts":[{"text":"s"}]},"contents":[]}`, index: 0, text: "S",
			want: `{"systemInstruction":{"parts":[{"text":"S"}]},"contents":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := gemini.DecodeRequest([]byte(tt.body))
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
