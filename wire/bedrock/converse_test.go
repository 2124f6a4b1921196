package bedrock_test

import (
	"context"
	"errors"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/bedrock"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func guarded(t *testing.T, body []byte) []byte {
	t.Helper()
	r, err := bedrock.DecodeResponse(body)
	if err != nil {
		t.Fatal(err)
	}
	return pipelinetest.Safety(t, r)
}

// converse sends body to the AWS SDK's Converse client over loopback, as Bedrock would, and returns what the
// SDK makes of it.
func converse(t *testing.T, body []byte) *bedrockruntime.ConverseOutput {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/converse") {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	client := bedrockruntime.New(bedrockruntime.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""),
		HTTPClient:   srv.Client(),
	})
	out, err := client.Converse(context.Background(), &bedrockruntime.ConverseInput{
		ModelId:  aws.String("anthropic.claude-sonnet-4-5"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}},
	})
	if err != nil {
		t.Fatalf("the AWS SDK cannot read the output: %v\n%s", err, body)
	}
	return out
}

func TestFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture    string
		unchanged  bool
		wantBlocks string // the content block kinds the SDK sees afterwards
		wantStop   types.StopReason
		wantInText string
	}{
		{fixture: "healthy_tool_use", unchanged: true, wantBlocks: "reasoning,text,toolUse", wantStop: types.StopReasonToolUse},
		{fixture: "guardrail_tool_use", wantBlocks: "text,text", wantStop: types.StopReasonGuardrailIntervened,
			wantInText: "(stopReason='guardrail_intervened', detector='bedrock_guardrail'). Any tool calls produced in this turn were suppressed"},
		{fixture: "content_filtered_blank", wantBlocks: "text", wantStop: types.StopReasonContentFiltered, wantInText: "and returned no content."},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".json"))
			if err != nil {
				t.Fatal(err)
			}
			in = []byte(strings.TrimSpace(string(in)))
			got := guarded(t, in)
			if tt.unchanged && string(got) != string(in) {
				t.Errorf("an unchanged response was not passed through byte for byte:\n%s", got)
			}
			golden.JSON(t, filepath.Join("testdata", tt.fixture+".golden.json"), got, *update)
			out := converse(t, got)
			msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
			if !ok {
				t.Fatalf("the SDK sees output %T", out.Output)
			}
			var kinds []string
			var text strings.Builder
			for _, b := range msg.Value.Content {
				switch b := b.(type) {
				case *types.ContentBlockMemberText:
					kinds = append(kinds, "text")
					text.WriteString(b.Value)
				case *types.ContentBlockMemberToolUse:
					kinds = append(kinds, "toolUse")
				case *types.ContentBlockMemberReasoningContent:
					kinds = append(kinds, "reasoning")
				default:
					kinds = append(kinds, "other")
				}
			}
			if strings.Join(kinds, ",") != tt.wantBlocks || out.StopReason != tt.wantStop || !strings.Contains(text.String(), tt.wantInText) {
				t.Errorf("the SDK sees blocks %v, stop %q, text %q", kinds, out.StopReason, text.String())
			}
		})
	}
}

func TestSet(t *testing.T) {
	t.Parallel()
	const two = `{"output":{"message":{"role":"assistant","content":[{"text":"Cleaning."},{"toolUse":{"toolUseId":"t1","name":"bash","input":{"command":"rm -rf ~"}}},{"toolUse":{"toolUseId":"t2","name":"bash","input":{"command":"ls"}}}]}},"stopReason":"tool_use","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`
	tests := []struct {
		desc string
		edit func(r *warden.Response)
		want string
	}{
		{desc: "a removed call's block is dropped and the deny text appended",
			edit: func(r *warden.Response) {
				r.Message.ToolCalls = r.Message.ToolCalls[1:]
				r.Message.Content = append(r.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: "\n\ndenied"})
			},
			want: `{"output":{"message":{"role":"assistant","content":[{"text":"Cleaning."},{"toolUse":{"toolUseId":"t2","name":"bash","input":{"command":"ls"}}},{"text":"\n\ndenied"}]}},"stopReason":"tool_use","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`},
		{desc: "with no call left tool_use becomes end_turn",
			edit: func(r *warden.Response) { r.Message.ToolCalls = nil },
			want: `{"output":{"message":{"role":"assistant","content":[{"text":"Cleaning."}]}},"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`},
		{desc: "modified arguments replace only the input",
			edit: func(r *warden.Response) {
				r.Message.ToolCalls = []warden.ToolCall{r.Message.ToolCalls[0], warden.NewToolCall("t2", "bash", []byte(`{"command":"ls -la"}`))}
			},
			want: `{"output":{"message":{"role":"assistant","content":[{"text":"Cleaning."},{"toolUse":{"toolUseId":"t1","name":"bash","input":{"command":"rm -rf ~"}}},{"toolUse":{"toolUseId":"t2","name":"bash","input":{"command":"ls -la"}}}]}},"stopReason":"tool_use","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`},
		{desc: "text changed in place replaces the text blocks",
			edit: func(r *warden.Response) {
				r.Message.Content = []warden.ContentPart{{Kind: warden.ContentText, Text: "[redacted]"}}
			},
			want: `{"output":{"message":{"role":"assistant","content":[{"text":"[redacted]"},{"toolUse":{"toolUseId":"t1","name":"bash","input":{"command":"rm -rf ~"}}},{"toolUse":{"toolUseId":"t2","name":"bash","input":{"command":"ls"}}}]}},"stopReason":"tool_use","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := bedrock.DecodeResponse([]byte(two))
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
			converse(t, got)
		})
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body string
		wantFinish warden.FinishReason
		wantCalls  int
		wantErr    string
	}{
		{desc: "a guardrail intervention is a safety finish", body: `{"output":{"message":{"role":"assistant","content":[]}},"stopReason":"guardrail_intervened"}`, wantFinish: warden.FinishSafety},
		{desc: "a context window stop is a length stop", body: `{"output":{"message":{"role":"assistant","content":[]}},"stopReason":"model_context_window_exceeded"}`, wantFinish: warden.FinishLength},
		{desc: "a malformed tool use is not an API error", body: `{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"t","name":"x","input":{}}}]}},"stopReason":"malformed_tool_use"}`, wantFinish: warden.FinishUnknown, wantCalls: 1},
		{desc: "unknown blocks are kept but not read", body: `{"output":{"message":{"role":"assistant","content":[{"citationsContent":{}},{"text":"a"}]}},"stopReason":"end_turn"}`, wantFinish: warden.FinishStop},
		{desc: "an error body is not a response", body: `{"message":"The security token included in the request is invalid."}`, wantErr: `no "output"`},
		{desc: "output without a message is not a response", body: `{"output":{}}`, wantErr: `no "output.message"`},
		{desc: "a block that is not an object is an error", body: `{"output":{"message":{"role":"assistant","content":[1]}}}`, wantErr: "output.message.content[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := bedrock.DecodeResponse([]byte(tt.body))
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
			if got.FinishReason != tt.wantFinish || len(got.Message.ToolCalls) != tt.wantCalls {
				t.Errorf("finish %q, %d calls; want %q, %d", got.FinishReason, len(got.Message.ToolCalls), tt.wantFinish, tt.wantCalls)
			}
		})
	}
}

func TestAnswerBodiesReadWithTheSDK(t *testing.T) {
	t.Parallel()
	out := converse(t, bedrock.MessageBody("Stopped <here> & now.", "content_filtered"))
	msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
	if !ok || len(msg.Value.Content) != 1 || out.StopReason != types.StopReasonContentFiltered {
		t.Fatalf("the SDK sees %#v, stop %q", out.Output, out.StopReason)
	}
	if text, ok := msg.Value.Content[0].(*types.ContentBlockMemberText); !ok || text.Value != "Stopped <here> & now." {
		t.Errorf("the SDK sees %#v", msg.Value.Content[0])
	}
}

func TestErrorBodyReadsAsAccessDenied(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("x-amzn-ErrorType", bedrock.ErrorType)
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write(bedrock.ErrorBody("Warden stopped this response: no tools today"))
	}))
	t.Cleanup(srv.Close)
	client := bedrockruntime.New(bedrockruntime.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""), HTTPClient: srv.Client(),
		RetryMaxAttempts: 1})
	_, err := client.Converse(context.Background(), &bedrockruntime.ConverseInput{ModelId: aws.String("m"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}}})
	var denied *types.AccessDeniedException
	if !errors.As(err, &denied) || denied.ErrorMessage() != "Warden stopped this response: no tools today" {
		t.Errorf("the SDK reads %v (%T)", err, err)
	}
}
