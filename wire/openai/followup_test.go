package openai

import (
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
)

func TestChatFollowUp(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile("testdata/healthy_tool_calls.json")
	if err != nil {
		t.Fatal(err)
	}
	req := []byte(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"run the tests"}],"tools":[{"type":"function","function":{"name":"bash"}}]}`)
	call := warden.NewToolCall("call_a1", "bash", []byte(`{"command":"go test ./..."}`))
	streamed := warden.Message{Role: warden.RoleAssistant, Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "Running."}}, ToolCalls: []warden.ToolCall{call}}
	cut := warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("call_b", "bash", []byte(`{"comm`))}}
	tests := []struct {
		desc    string
		resp    []byte
		msg     warden.Message
		results []string
		want    string // a substring of the assistant message as sent
		wantErr string
	}{
		{desc: "a whole response's message goes back as the provider wrote it", resp: whole, msg: warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{call}}, results: []string{"denied: no tests"}, want: `"refusal":null`},
		{desc: "a streamed message is written as a request's assistant message", msg: streamed, results: []string{"denied: no tests"}, want: `"content":"Running."`},
		{desc: "cut-off arguments go back as an empty object", msg: cut, results: []string{"denied"}, want: `"arguments":"{}"`},
		{desc: "a result count other than the calls' fails", msg: streamed, results: nil, wantErr: "0 results for 1 tool calls"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out, err := ChatFollowUp(req, tt.resp, tt.msg, tt.results)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := DecodeChatRequest(out)
			if err != nil {
				t.Fatalf("the follow-up does not decode: %v\n%s", err, out)
			}
			msgs := r.Messages()
			if len(msgs) != 2+len(tt.results) {
				t.Fatalf("%d messages, want %d: %s", len(msgs), 2+len(tt.results), out)
			}
			a := msgs[1]
			if a.Role != warden.RoleAssistant || len(a.ToolCalls) != len(tt.msg.ToolCalls) || a.ToolCalls[0].ID != tt.msg.ToolCalls[0].ID {
				t.Errorf("assistant message = %+v", a)
			}
			for i, res := range tt.results {
				m := msgs[2+i]
				if m.Role != warden.RoleTool || m.ToolCallID != tt.msg.ToolCalls[i].ID || m.Text() != res {
					t.Errorf("tool message %d = %+v, want the result for %s", i, m, tt.msg.ToolCalls[i].ID)
				}
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("follow-up lacks %s: %s", tt.want, out)
			}
			if strings.Contains(string(out), `"annotations"`) {
				t.Errorf("follow-up carries a response-only member: %s", out)
			}
		})
	}
}

func TestResponsesFollowUp(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile("testdata/responses_healthy_function_call.json")
	if err != nil {
		t.Fatal(err)
	}
	unstored := []byte(strings.Replace(strings.Replace(string(whole), `"encrypted_content":"gAAAAABo-enc"`, `"encrypted_content":null`, 1), `"status":"completed"`, `"store":false,"status":"completed"`, 1))
	call := warden.NewToolCall("call_Qx1", "bash", []byte(`{"command":"go test ./..."}`))
	msg := warden.Message{Role: warden.RoleAssistant, Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "Running the tests."}}, ToolCalls: []warden.ToolCall{call}}
	withTools := `"tools":[{"type":"function","name":"bash"}]`
	builtin := warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("call_sh", "local_shell", []byte(`{"type":"exec","command":["ls"]}`))}}
	tests := []struct {
		desc        string
		req         string
		msg         warden.Message
		resp        []byte
		wantItems   int // after the request's own input
		want, avoid string
		wantErr     string
	}{
		{desc: "a whole response's items go back, reasoning included", req: `{"model":"m","input":[{"role":"user","content":"run"}],` + withTools + `}`, resp: whole, wantItems: 4, want: `"encrypted_content":"gAAAAABo-enc"`},
		{desc: "a string input becomes a user item first", req: `{"model":"m","input":"run",` + withTools + `}`, resp: whole, wantItems: 4, want: `{"content":"run","role":"user"}`},
		{desc: "reasoning neither stored nor encrypted is left out", req: `{"model":"m","input":"run",` + withTools + `}`, resp: unstored, wantItems: 3, avoid: `"type":"reasoning"`},
		{desc: "a streamed message becomes a message item and a function_call item", req: `{"model":"m","input":"run",` + withTools + `}`, wantItems: 3, want: `"type":"function_call_output"`},
		{desc: "a streamed call of a tool the request does not declare is taken as a function's", req: `{"model":"m","input":"run"}`, wantItems: 3, want: `"type":"function_call_output"`},
		{desc: "a streamed call of a built-in tool fails", req: `{"model":"m","input":"run"}`, msg: builtin, wantErr: "not of a function or custom tool"},
		{desc: "a streamed call of a tool the request declares other than a function fails", req: `{"model":"m","input":"run","tools":[{"type":"custom","name":"bash"}]}`, wantErr: "not of a function or custom tool"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			m := msg
			if tt.msg.ToolCalls != nil {
				m = tt.msg
			}
			out, err := ResponsesFollowUp([]byte(tt.req), tt.resp, m, []string{"denied: no tests"})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := DecodeResponsesRequest(out)
			if err != nil {
				t.Fatalf("the follow-up does not decode: %v\n%s", err, out)
			}
			if got := len(r.input) - 1; got != tt.wantItems {
				t.Errorf("%d items after the input, want %d: %s", got, tt.wantItems, out)
			}
			msgs := r.Messages()
			last := msgs[len(msgs)-1]
			if last.Role != warden.RoleTool || last.ToolCallID != "call_Qx1" || last.Text() != "denied: no tests" {
				t.Errorf("last message = %+v, want the call's output", last)
			}
			if tt.want != "" && !strings.Contains(string(out), tt.want) {
				t.Errorf("follow-up lacks %s: %s", tt.want, out)
			}
			if tt.avoid != "" && strings.Contains(string(out), tt.avoid) {
				t.Errorf("follow-up has %s: %s", tt.avoid, out)
			}
		})
	}
}

func TestContinue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		cont     func([]byte, string) ([]byte, error)
		req      string
		partial  string
		wantTail string
		wantErr  string
	}{
		{desc: "a chat request gets the partial message last, as the assistant's", cont: ChatContinue,
			req: `{"model":"m","messages":[{"role":"user","content":"tidy"}]}`, partial: "Tidying. Let me rephrase.",
			wantTail: `{"content":"Tidying. Let me rephrase.","role":"assistant"}]}`},
		{desc: "a Responses request gets the partial message as the last input item", cont: ResponsesContinue,
			req: `{"model":"m","input":[{"role":"user","content":"tidy"}]}`, partial: "Tidying.",
			wantTail: `{"content":[{"text":"Tidying.","type":"output_text"}],"role":"assistant","type":"message"}]}`},
		{desc: "a Responses string input becomes a user item before it", cont: ResponsesContinue,
			req: `{"model":"m","input":"tidy"}`, partial: "Tidying.",
			wantTail: `"input":[{"content":"tidy","role":"user"},{"content":[{"text":"Tidying.","type":"output_text"}],"role":"assistant","type":"message"}]}`},
		{desc: "no partial message fails", cont: ChatContinue, req: `{"model":"m","messages":[]}`, partial: "", wantErr: "no partial message"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out, err := tt.cont([]byte(tt.req), tt.partial)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !strings.HasSuffix(string(out), tt.wantTail) {
				t.Errorf("got %s (err %v), want it to end with %s", out, err, tt.wantTail)
			}
		})
	}
}
