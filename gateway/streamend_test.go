package gateway_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentwarden/warden/gateway"
)

// streamFormats are the four SSE formats with a recorded stream that calls a tool, the request that asks
// for it, and the event that finishes it (whose data holds finishMarker).
var streamFormats = []struct {
	name, path, request, fixture, finishMarker, textMarker string
}{
	{"Chat", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"openai/stream_tool_call.sse", `"finish_reason":"tool_calls"`, ""},
	{"Responses", "/v1/responses", `{"model":"m","stream":true,"input":"hi"}`,
		"openai/responses_stream_function_call.sse", `"type":"response.completed"`, ""},
	{"Anthropic", "/v1/messages", `{"model":"m","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		"anthropic/stream_tool_use.sse", `"type":"message_delta"`, ""},
	{"Gemini", "/v1beta/models/g:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
		"gemini/stream_function_call.sse", `"finishReason":"STOP"`, ""},
}

// A stream ends in one of two ways: the finish its format defines, or the format's error event. One that
// stops cleanly before its finish, or carries what is not SSE or not JSON, ends with Warden's error event,
// and the tool call it held never reaches the client.
func TestStreamsEndWithTheirFinishOrAnErrorEvent(t *testing.T) {
	t.Parallel()
	changes := []struct {
		desc   string
		change func(stream string, finishAt int) string
	}{
		{"a clean end before the finish", func(s string, at int) string { return s[:eventStart(s, at)] }},
		{"a clean end in the middle of the tool call", func(s string, at int) string {
			call := strings.Index(s, `"name":"bash"`)
			return s[:eventStart(s, call)+len("data: ")+10]
		}},
		{"a data event that is not JSON before the finish", func(s string, at int) string {
			i := eventStart(s, at)
			return s[:i] + "data: rm -rf ~\n\n" + s[i:]
		}},
		{"a line that is not SSE before the finish", func(s string, at int) string {
			i := eventStart(s, at)
			return s[:i] + `{"choices":[{"delta":{"content":"hello"}}]}` + "\n\n" + s[i:]
		}},
		{"an empty stream", func(string, int) string { return "" }},
	}
	for _, f := range streamFormats {
		for _, c := range changes {
			t.Run(f.name+": "+c.desc, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, "")
				dir, file, _ := strings.Cut(f.fixture, "/")
				stream := string(fixture(t, dir, file))
				at := strings.Index(stream, f.finishMarker)
				if at < 0 {
					t.Fatalf("the fixture has no %s", f.finishMarker)
				}
				h.up.answer(reply{contentType: "text/event-stream", body: []byte(c.change(stream, at))})
				resp, out := h.post(t, f.path, "application/json", f.request, nil)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d: %s", resp.StatusCode, out)
				}
				if strings.Contains(out, `"bash"`) {
					t.Errorf("the held tool call reached the client:\n%s", out)
				}
				if !strings.Contains(out, "Warden ended this stream") {
					t.Errorf("the stream does not end with Warden's error event:\n%s", out)
				}
				if strings.Contains(out, "permission_error") || strings.Contains(out, "PERMISSION_DENIED") || strings.Contains(out, "warden_guardrail") {
					t.Errorf("an upstream fault reads as a refusal or a key problem, not a server error:\n%s", out)
				}
				if got := resp.Trailer.Get(gateway.HeaderReason); got != gateway.CodeStreamBroken {
					t.Errorf("trailer %s = %q, want %s: an upstream fault", gateway.HeaderReason, got, gateway.CodeStreamBroken)
				}
			})
		}
	}
}

// eventStart is where the event holding s[at] begins.
func eventStart(s string, at int) int {
	i := strings.LastIndex(s[:at], "\n\n")
	if j := strings.LastIndex(s[:at], "\r\n\r\n"); j > i {
		return j + 4
	}
	return i + 2
}
