package gateway_test

import (
	"net/http"
	"strings"
	"testing"
)

// A stream event that reads two ways (a member named twice, or in two cases) ends the stream with the
// format's error event, and a tool call held until then never reaches the client.
func TestAmbiguousStreamEventsEndTheStream(t *testing.T) {
	t.Parallel()
	const chatReq, respReq = `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, `{"model":"m","stream":true,"input":"hi"}`
	const anthReq = `{"model":"m","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`
	tests := []struct {
		desc, path, request, fixture, insert string
		at                                   string // the event changed is the one holding this; the tool call's name when empty
	}{
		{"Chat text chunk: Choices beside choices", "/v1/chat/completions", chatReq, "openai/stream_text.sse", `"Choices":[],`, `"content":"`},
		{"Chat text chunk: content in two cases", "/v1/chat/completions", chatReq, "openai/stream_text.sse", ``, `"content":"`},
		{"Responses text delta: Delta beside delta", "/v1/responses", respReq, "openai/responses_stream_text.sse", `"Delta":"x",`, `"delta":"`},
		{"Anthropic text delta: Delta beside delta", "/v1/messages", anthReq, "anthropic/stream_text.sse", `"Delta":{},`, `"text_delta"`},
		{"Gemini text chunk: Candidates beside candidates", "/v1beta/models/g:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
			"gemini/stream_text.sse", `"Candidates":[],`, `"text":"`},
		{"Chat: choices twice", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			"openai/stream_tool_call.sse", `"choices":[],`, ""},
		{"Chat: Choices beside choices", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			"openai/stream_tool_call.sse", `"Choices":[],`, ""},
		{"Responses: Type beside type", "/v1/responses", `{"model":"m","stream":true,"input":"hi"}`,
			"openai/responses_stream_function_call.sse", `"Type":"response.in_progress",`, ""},
		{"Anthropic: type in capitals", "/v1/messages", `{"model":"m","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			"anthropic/stream_tool_use.sse", `"TYPE":"ping",`, ""},
		{"Gemini: candidates twice", "/v1beta/models/g:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
			"gemini/stream_function_call.sse", `"candidates":[],`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "")
			dir, file, _ := strings.Cut(tt.fixture, "/")
			stream := string(fixture(t, dir, file))
			marker := tt.at
			if marker == "" {
				marker = `"name":"bash"`
			}
			at := strings.Index(stream, marker)
			if at < 0 {
				t.Fatalf("the fixture has no %s", marker)
			}
			start := strings.LastIndex(stream[:at], "data: {") + len("data: {")
			changed := stream[:start] + tt.insert + stream[start:]
			if tt.insert == "" { // spell the marked member's name again in another case, right after it
				end := at + len(marker) + strings.Index(stream[at+len(marker):], `"`) + 1
				changed = stream[:end] + `,"Content":"rm -rf ~"` + stream[end:]
			}
			h.up.answer(reply{contentType: "text/event-stream", body: []byte(changed)})
			resp, out := h.post(t, tt.path, "application/json", tt.request, nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, out)
			}
			if strings.Contains(out, "bash") || strings.Contains(out, "rm -rf") || strings.Contains(out, tt.insert) && tt.insert != "" {
				t.Errorf("what Warden could not read one way reached the client:\n%s", out)
			}
			if !strings.Contains(out, "Warden ended this stream") {
				t.Errorf("the stream does not end with Warden's error event:\n%s", out)
			}
		})
	}
}

// A request the guardrails read (here a stream guardrail's, which reads the request's tools) is refused
// when it reads two ways: the provider would act on a value Warden did not check.
func TestAmbiguousRequestsAreBadRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "version: 1\naudit: {sink: none}\nguardrails:\n  stream:\n    - use: blocked_terms\n      config: {terms: [forbidden]}\n")
	h.up.answer(reply{body: fixture(t, "openai", "healthy_text.json")})
	tests := []struct {
		desc, path, body, wantShape string
		wantStatus                  int
	}{
		{"Chat: content in two cases", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi","Content":"forbidden"}]}`, `"code":"warden.bad_request"`, 400},
		{"Chat: messages twice", "/v1/chat/completions", `{"model":"m","messages":[],"messages":[{"role":"user","content":"hi"}]}`, `"code":"warden.bad_request"`, 400},
		{"Chat: a defined name in capitals", "/v1/chat/completions", `{"model":"m","MESSAGES":[{"role":"user","content":"hi"}]}`, `"code":"warden.bad_request"`, 400},
		{"Responses: input in two cases", "/v1/responses", `{"model":"m","input":"hi","Input":"forbidden"}`, `"code":"warden.bad_request"`, 400},
		{"Anthropic: system twice", "/v1/messages", `{"model":"m","max_tokens":1,"system":"a","system":"b","messages":[{"role":"user","content":"hi"}]}`, `"invalid_request_error"`, 400},
		{"Gemini: Contents beside contents", "/v1beta/models/g:generateContent", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"Contents":[]}`, `"INVALID_ARGUMENT"`, 400},
		{"a tool schema with properties in two cases is the user's own", "/v1/chat/completions",
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"Name":{"type":"string"},"name":{"type":"string"}}}}}]}`, `"chat.completion"`, 200},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			resp, out := h.post(t, tt.path, "application/json", tt.body, nil)
			if resp.StatusCode != tt.wantStatus || !strings.Contains(out, tt.wantShape) {
				t.Errorf("got %d %s, want %d with %s", resp.StatusCode, out, tt.wantStatus, tt.wantShape)
			}
		})
	}
}

// A Gemini part is one of its kinds; a part with both text and a function call reads two ways (SDKs join
// every part's text and run every call), whole or streamed.
func TestGeminiPartsWithTwoKindsAreRefused(t *testing.T) {
	t.Parallel()
	both := `{"text":"rm -rf ~ is what I will run","functionCall":{"name":"bash","args":{"command":"ls"}}}`
	whole := `{"candidates":[{"content":{"parts":[` + both + `],"role":"model"},"finishReason":"STOP","index":0}]}`
	stream := "data: {\"candidates\":[{\"content\":{\"parts\":[" + both + "],\"role\":\"model\"},\"index\":0}]}\r\n\r\n" +
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}]}\r\n\r\n"
	req := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	t.Run("whole", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, "")
		h.up.answer(reply{body: []byte(whole)})
		resp, out := h.post(t, "/v1beta/models/g:generateContent", "application/json", req, nil)
		if resp.StatusCode != http.StatusBadGateway || strings.Contains(out, "bash") {
			t.Errorf("got %d %s, want 502 and nothing of the part", resp.StatusCode, out)
		}
	})
	t.Run("streamed", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, "")
		h.up.answer(reply{contentType: "text/event-stream", body: []byte(stream)})
		_, out := h.post(t, "/v1beta/models/g:streamGenerateContent?alt=sse", "application/json", req, nil)
		if strings.Contains(out, "bash") || strings.Contains(out, "rm -rf") || !strings.Contains(out, "Warden ended this stream") {
			t.Errorf("the part reached the client, or the stream did not end with the error event:\n%s", out)
		}
	})
}
