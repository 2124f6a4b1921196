package gateway_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/childtest"
)

// deepInputs are requests and answers nested far deeper than any parser Warden feeds them to may recurse,
// each with the status the client must get.
var deepInputs = []struct {
	desc, path, request string
	answer              func() []byte // the upstream's answer; nil: the request never goes upstream
	contentType         string
	wantStatus          int
	wantInBody          string
}{
	{"a request nested 200,000 deep", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":` + strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000) + `}]}`,
		nil, "", 400, "warden.bad_request"},
	{"an answer nested 200,000 deep", "/v1/chat/completions", chatBody,
		func() []byte {
			return []byte(`{"choices":` + strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000) + `}`)
		}, "application/json", 502, "warden.bad_upstream"},
	{"a tool call whose arguments nest 200,000 deep", "/v1/chat/completions", chatBody,
		func() []byte {
			args := `{"command":"ls","x":` + strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000) + `}`
			return []byte(strings.Replace(string(deepFixture("openai", "healthy_tool_calls.json")), `"{\"command\":\"go test ./...\"}"`, quoteJSON(args), 1))
		}, "application/json", 200, "Guardrail denied"},
	{"a tool call whose command nests 150,000 deep", "/v1/chat/completions", chatBody,
		func() []byte {
			args, _ := json.Marshal(map[string]string{"command": "echo $((" + strings.Repeat("(", 150_000) + "1" + strings.Repeat(")", 150_000) + "))"})
			return []byte(strings.Replace(string(deepFixture("openai", "healthy_tool_calls.json")), `"{\"command\":\"go test ./...\"}"`, quoteJSON(string(args)), 1))
		}, "application/json", 200, "warden.command_too_complex"},
	{"a stream event nested 200,000 deep", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		func() []byte {
			return []byte("data: {\"choices\":" + strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000) + "}\n\n")
		}, "text/event-stream", 200, "Warden ended this stream"},
}

func deepFixture(provider, name string) []byte {
	b, err := os.ReadFile("../wire/" + provider + "/testdata/" + name)
	if err != nil {
		panic(err)
	}
	return b
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestDeepInputsDoNotCrashTheGateway sends each deep input through the gateway in a child process: a
// stack overflow is a fatal error no recover catches, and it must fail this test, not end the test binary
// (or, in production, the gateway and every exchange in it).
func TestDeepInputsDoNotCrashTheGateway(t *testing.T) {
	if which := childtest.Case(); which != "" {
		for _, in := range deepInputs {
			if in.desc != which {
				continue
			}
			h := newHarness(t, "")
			if in.answer != nil {
				h.up.answer(reply{body: in.answer(), contentType: in.contentType})
			}
			resp, out := h.post(t, in.path, "application/json", in.request, nil)
			fmt.Printf("status=%d body=%.300s\n", resp.StatusCode, out)
		}
		return
	}
	t.Parallel()
	for _, in := range deepInputs {
		t.Run(in.desc, func(t *testing.T) {
			t.Parallel()
			out := childtest.Run(t, "TestDeepInputsDoNotCrashTheGateway", in.desc)
			if want := fmt.Sprintf("status=%d ", in.wantStatus); !strings.Contains(out, want) || !strings.Contains(out, in.wantInBody) {
				t.Errorf("want %s with %q; the child said:\n%.1000s", want, in.wantInBody, out)
			}
		})
	}
}
