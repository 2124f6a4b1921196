package gemini

import (
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
)

func TestFollowUp(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile("testdata/healthy_function_call.json")
	if err != nil {
		t.Fatal(err)
	}
	signed := []byte(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc-1","name":"bash","args":{"command":"ls"}},"thoughtSignature":"c2ln"}]},"finishReason":"STOP"}]}`)
	req := []byte(`{"contents":[{"role":"user","parts":[{"text":"run the tests"}]}]}`)
	anonymous := warden.NewToolCall(syntheticID+"0-1", "bash", []byte(`{"command":"go test ./..."}`))
	named := warden.NewToolCall("fc-1", "bash", []byte(`{"command":"ls"}`))
	tests := []struct {
		desc        string
		resp        []byte
		call        warden.ToolCall
		want, avoid string
	}{
		{desc: "a whole response's content goes back as the provider wrote it", resp: whole, call: anonymous, want: `{"text":"Running the tests."},{"functionCall"`},
		{desc: "thought signatures go back with their calls", resp: signed, call: named, want: `"thoughtSignature":"c2ln"`},
		{desc: "a call Gemini sent without an id is answered without one", resp: whole, call: anonymous, avoid: syntheticID},
		{desc: "a call with an id is answered by that id", resp: signed, call: named, want: `"functionResponse":{"id":"fc-1"`},
		{desc: "a streamed message is written as text and functionCall parts", call: anonymous, want: `{"parts":[{"text":"Running the tests."},{"functionCall":{"args":{"command":"go test ./..."},"name":"bash"}}],"role":"model"}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			msg := warden.Message{Role: warden.RoleAssistant, Content: []warden.ContentPart{{Kind: warden.ContentText, Text: "Running the tests."}}, ToolCalls: []warden.ToolCall{tt.call}}
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
				t.Fatalf("%d messages, want user, model, tool: %s", len(msgs), out)
			}
			if a := msgs[1]; a.Role != warden.RoleAssistant || len(a.ToolCalls) != 1 {
				t.Errorf("model content = %+v", a)
			}
			if m := msgs[2]; m.Role != warden.RoleTool || !m.IsError || !strings.Contains(m.Text(), "denied: no tests") {
				t.Errorf("function response = %+v, want the deny message as an error", m)
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
		desc, partial, wantTail, wantErr string
	}{
		{desc: "the partial message goes last, as the model's content", partial: "Tidying. Let me rephrase.",
			wantTail: `{"role":"model","parts":[{"text":"Tidying. Let me rephrase."}]}]}`},
		{desc: "no partial message fails", partial: "\n", wantErr: "no partial message"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out, err := Continue([]byte(`{"contents":[{"role":"user","parts":[{"text":"tidy"}]}]}`), tt.partial)
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
