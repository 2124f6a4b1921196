package anthropic

import (
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
)

func TestFollowUp(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile("testdata/healthy_tool_use.json")
	if err != nil {
		t.Fatal(err)
	}
	thinking := []byte(`{"id":"msg_02","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"plan","signature":"sig-123"},{"type":"tool_use","id":"toolu_01","name":"bash","input":{"command":"go test ./..."}}],"stop_reason":"tool_use"}`)
	req := []byte(`{"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"run the tests"}]}`)
	call := warden.NewToolCall("toolu_01", "bash", []byte(`{"command":"go test ./..."}`))
	msg := warden.Message{Role: warden.RoleAssistant, Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "I'll run the tests."}}, ToolCalls: []warden.ToolCall{call}}
	tests := []struct {
		desc string
		resp []byte
		want string
	}{
		{desc: "a whole response's content goes back as the provider wrote it", resp: whole, want: `"content":[{"type":"text","text":"I'll run the tests."},{"type":"tool_use"`},
		{desc: "thinking blocks keep their signatures", resp: thinking, want: `"signature":"sig-123"`},
		{desc: "a streamed message is written as text and tool_use blocks", want: `"input":{"command":"go test ./..."}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out, err := FollowUp(req, tt.resp, msg, []string{"denied: no tests"})
			if err != nil {
				t.Fatal(err)
			}
			r, err := DecodeRequest(out)
			if err != nil {
				t.Fatalf("the follow-up does not decode: %v\n%s", err, out)
			}
			msgs := r.Messages()
			if len(msgs) != 3 {
				t.Fatalf("%d messages, want user, assistant, tool: %s", len(msgs), out)
			}
			if a := msgs[1]; a.Role != warden.RoleAssistant || len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "toolu_01" {
				t.Errorf("assistant message = %+v", a)
			}
			if m := msgs[2]; m.Role != warden.RoleTool || m.ToolCallID != "toolu_01" || m.Text() != "denied: no tests" || !m.IsError {
				t.Errorf("tool result = %+v, want the deny message as an error result", m)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("follow-up lacks %s: %s", tt.want, out)
			}
		})
	}
}

func TestContinue(t *testing.T) {
	t.Parallel()
	req := `{"model":"c","max_tokens":9,"messages":[{"role":"user","content":"tidy"}]}`
	tests := []struct {
		desc, partial, want, wantErr string
	}{
		{desc: "the partial message goes last, as the assistant's, for the model to continue", partial: "Tidying. I used a phrase I must not.",
			want: `{"role":"assistant","content":[{"type":"text","text":"Tidying. I used a phrase I must not."}]}]`},
		{desc: "trailing white space, which the API refuses, is cut", partial: "Tidying. \n",
			want: `"text":"Tidying."}]}]`},
		{desc: "no partial message fails", partial: " ", wantErr: "no partial message"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out, err := Continue([]byte(req), tt.partial)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !strings.HasSuffix(string(out), tt.want+"}") {
				t.Errorf("Continue = %s (err %v), want it to end with %s}", out, err, tt.want)
			}
		})
	}
}
