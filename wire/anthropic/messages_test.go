package anthropic_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/anthropic"
	sdk "github.com/anthropics/anthropic-sdk-go"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func guarded(t *testing.T, body []byte) []byte {
	t.Helper()
	r, err := anthropic.DecodeMessage(body)
	if err != nil {
		t.Fatal(err)
	}
	return pipelinetest.Safety(t, messageBody{r})
}

func TestFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture    string
		unchanged  bool
		wantTypes  string // the content block types afterwards
		wantStop   string
		wantInText string
	}{
		{fixture: "healthy_tool_use", unchanged: true, wantTypes: "text,tool_use", wantStop: "tool_use"},
		{fixture: "refusal_tool_use", wantTypes: "thinking,text,text", wantStop: "refusal",
			wantInText: "The model provider stopped this response with a safety-related signal (stop_reason='refusal', detector='anthropic_refusal'). Any tool calls produced in this turn were suppressed"},
		{fixture: "refusal_blank", wantTypes: "text", wantStop: "refusal", wantInText: "and returned no content."},
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
				t.Errorf("an unchanged message was not passed through byte for byte:\n%s", got)
			}
			golden.JSON(t, filepath.Join("testdata", tt.fixture+".golden.json"), got, *update)
			var msg sdk.Message
			if err := json.Unmarshal(got, &msg); err != nil {
				t.Fatalf("anthropic-sdk-go cannot parse the output: %v", err)
			}
			var types []string
			var text strings.Builder
			for _, b := range msg.Content {
				types = append(types, b.Type)
				if b.Type == "text" {
					text.WriteString(b.Text)
				}
			}
			if strings.Join(types, ",") != tt.wantTypes || string(msg.StopReason) != tt.wantStop || !strings.Contains(text.String(), tt.wantInText) {
				t.Errorf("SDK sees blocks %v, stop %q, text %q", types, msg.StopReason, text.String())
			}
		})
	}
}

func TestThinkingSignatureIsKept(t *testing.T) {
	t.Parallel()
	in, _ := os.ReadFile("testdata/refusal_tool_use.json")
	got := guarded(t, []byte(strings.TrimSpace(string(in))))
	if !strings.Contains(string(got), `{"type":"thinking","thinking":"The user asks for","signature":"EqQBCgIYAhIM"}`) {
		t.Errorf("the thinking block changed:\n%s", got)
	}
	if strings.Contains(string(got), "toolu_02") || strings.Contains(string(got), `"content":"part"`) {
		t.Errorf("the suppressed call is still there:\n%s", got)
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body string
		check      func(t *testing.T, r warden.Response)
		wantErr    string
	}{
		{desc: "stop reasons are normalized, the raw value kept", body: `{"type":"message","role":"assistant","content":[],"stop_reason":"max_tokens"}`,
			check: func(t *testing.T, r warden.Response) {
				if r.FinishReason != warden.FinishLength || r.Signal != (warden.Signal{Field: "stop_reason", Value: "max_tokens"}) {
					t.Errorf("%s %+v", r.FinishReason, r.Signal)
				}
			}},
		{desc: "tool input is the call's arguments", body: `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"bash","input":{"command":"ls"}}],"stop_reason":"tool_use"}`,
			check: func(t *testing.T, r warden.Response) {
				c := r.Message.ToolCalls[0]
				if c.ID != "t1" || c.Name != "bash" || string(c.Arguments) != `{"command":"ls"}` || !c.Complete {
					t.Errorf("%+v", c)
				}
			}},
		{desc: "thinking is reasoning, not text", body: `{"type":"message","role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"hi"}]}`,
			check: func(t *testing.T, r warden.Response) {
				if r.Message.Text() != "hi" || r.Message.Content[0].Kind != warden.ContentReasoning {
					t.Errorf("%+v", r.Message.Content)
				}
			}},
		{desc: "an error body is not a message", body: `{"type":"error","error":{"type":"overloaded_error","message":"x"}}`, wantErr: `type is "error"`},
		{desc: "garbage is not a message", body: `nope`, wantErr: "not a message"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			m, err := anthropic.DecodeMessage([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, m.Response())
		})
	}
}

// messageBody gives an Anthropic message (one response) the shape of a body of responses.
type messageBody struct{ *anthropic.Message }

func (b messageBody) Len() int                           { return 1 }
func (b messageBody) Response(int) warden.Response       { return b.Message.Response() }
func (b messageBody) Set(_ int, r warden.Response) error { return b.Message.Set(r) }
