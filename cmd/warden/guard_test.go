package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	sdk "github.com/openai/openai-go/v3"
)

func TestGuard(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string { return writeFile(t, dir, name, body) }
	denied := write("denied.json", `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Cleaning up.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"rm -rf ~/\"}"}},{"id":"call_2","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":"tool_calls"}]}`)
	asMessage := write("as_message.yaml", "version: 1\nguardrails:\n  response:\n    - use: safety\n      config: {api_errors: as_message}\n")
	glm := write("glm.json", `{"error":{"code":"1301","message":"System detected potentially unsafe or sensitive content in input or generation."}}`)
	halting := write("halt.yaml", "version: 1\nguardrails:\n  tool_call:\n    - use: cel\n      config: {rules: [{name: stop-all, when: 'true', action: halt, code: acme.stop, message: no tools today}]}\n")
	redacting := write("redact.yaml", "version: 1\nguardrails:\n  stream:\n    - use: redact\n")
	correcting := write("correct.yaml", "version: 1\nguardrails:\n  stream:\n    - use: blocked_terms\n      config: {terms: [the tests], action: retry, code: acme.no_tests}\n")
	chunk := func(delta string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	leaky := chunk(`{"role":"assistant","content":"Write to bob@exa"}`) + chunk(`{"content":"mple.com today."}`) +
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	runCLICases(t, []cliCase{
		{desc: "a recorded stream's text goes through the stream guardrails", args: []string{"guard", "-f", "openai-chat", "--stream", "--config", redacting}, stdin: leaky,
			wantOut: []string{`"content":"Write to "`, `"content":"[EMAIL] "`, `"content":"today."`, `"finish_reason":"stop"`, "data: [DONE]"}, denyOut: []string{"bob", "exa"}},
		{desc: "a stream guardrail's correction request ends a recorded stream with an error event", args: []string{"guard", "-f", "anthropic", "--stream", "--config", correcting, "../../wire/anthropic/testdata/stream_tool_use.sse"}, wantCode: 3,
			wantOut: []string{"Running ", "event: error\n", `stream guardrail \"blocked_terms\" asked the model to correct itself (acme.no_tests), and this stream cannot be re-issued`},
			denyOut: []string{"the tests", `"tool_use"`}},
		{desc: "a safety stop is rewritten as the gateway would", args: []string{"guard", "--format", "openai-chat", "../../wire/openai/testdata/safety_stop_tool_calls.json"},
			wantOut: []string{"Any tool calls produced in this turn were suppressed", `"finish_reason":"content_filter"`}},
		{desc: "a denied tool call is removed and its deny text added", args: []string{"guard", "-f", "openai-chat", denied},
			wantOut: []string{"Cleaning up.\\n\\nGuardrail denied: tool 'bash' was blocked (warden.destructive_delete)", `"id":"call_2"`, `"finish_reason":"tool_calls"`}},
		{desc: "a halt answers the provider's error shape and exits 3", args: []string{"guard", "-f", "openai-chat", "--config", halting, denied}, wantCode: 3,
			wantOut: []string{`{"error":{"code":"acme.stop","message":"Warden stopped this response: tool_call guardrail \"cel\" (acme.stop): no tools today"`}},
		{desc: "standard input is read", args: []string{"guard", "-f", "openai-chat"}, stdin: `{"choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`,
			wantOut: []string{`{"choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}`}},
		{desc: "a body that is not a chat completion is an error", args: []string{"guard", "-f", "openai-chat"}, stdin: `{"error":{}}`, wantCode: 1, wantErr: []string{`<stdin>: not a chat completion: no "choices"`}},
		{desc: "an Anthropic refusal is rewritten", args: []string{"guard", "-f", "anthropic", "../../wire/anthropic/testdata/refusal_tool_use.json"},
			wantOut: []string{`"stop_reason":"refusal"`, "detector='anthropic_refusal'). Any tool calls produced in this turn were suppressed"}},
		{desc: "an Anthropic halt answers Anthropic's error shape", args: []string{"guard", "-f", "anthropic", "--config", halting, "../../wire/anthropic/testdata/healthy_tool_use.json"}, wantCode: 3,
			wantOut: []string{`{"error":{"message":"Warden stopped this response: tool_call guardrail \"cel\" (acme.stop): no tools today","type":"permission_error"},"type":"error"}`}},
		{desc: "a Gemini safety stop is rewritten", args: []string{"guard", "-f", "gemini", "../../wire/gemini/testdata/safety_function_call.json"},
			wantOut: []string{`"finishReason":"SAFETY"`, "detector='gemini_safety'). Any tool calls produced in this turn were suppressed"}},
		{desc: "a Gemini halt answers Google's error shape", args: []string{"guard", "-f", "gemini", "--config", halting, "../../wire/gemini/testdata/healthy_function_call.json"}, wantCode: 3,
			wantOut: []string{`{"error":{"code":403,"message":"Warden stopped this response: tool_call guardrail \"cel\" (acme.stop): no tools today","status":"PERMISSION_DENIED"}}`}},
		{desc: "as a Gemini response too", args: []string{"guard", "-f", "gemini", "--status", "400", "--config", asMessage, glm},
			wantOut: []string{`"finishReason":"SAFETY"`, `detector='glm_policy_block'`}},
		{desc: "a Bedrock guardrail intervention is rewritten", args: []string{"guard", "-f", "bedrock", "../../wire/bedrock/testdata/guardrail_tool_use.json"},
			wantOut: []string{`"stopReason":"guardrail_intervened"`, "detector='bedrock_guardrail'). Any tool calls produced in this turn were suppressed"}},
		{desc: "a Bedrock halt answers Bedrock's error body", args: []string{"guard", "-f", "bedrock", "--config", halting, "../../wire/bedrock/testdata/healthy_tool_use.json"}, wantCode: 3,
			wantOut: []string{`{"message":"Warden stopped this response: tool_call guardrail \"cel\" (acme.stop): no tools today"}`}},
		{desc: "a Responses content filter is rewritten", args: []string{"guard", "-f", "openai-responses", "../../wire/openai/testdata/responses_content_filter_function_call.json"},
			wantOut: []string{`"incomplete_details":{"reason":"content_filter"}`, "detector='openai_responses_incomplete'). Any tool calls produced in this turn were suppressed"}},
		{desc: "a denied Responses function call is removed", args: []string{"guard", "-f", "openai-responses"},
			stdin:   `{"object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"bash","arguments":"{\"command\":\"rm -rf ~/\"}"}]}`,
			wantOut: []string{`{"object":"response","status":"completed","output":[{"type":"message","id":"msg_warden_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Guardrail denied: tool 'bash' was blocked (warden.destructive_delete)`}},
		{desc: "as a Responses body too", args: []string{"guard", "-f", "openai-responses", "--status", "400", "--config", asMessage, glm},
			wantOut: []string{`"object":"response"`, `"incomplete_details":{"reason":"content_filter"}`, `detector='glm_policy_block'`}},
		{desc: "a format not read is a usage error", args: []string{"guard", "-f", "cohere"}, wantCode: 2, wantErr: []string{`--format: "cohere" is not supported (supported: openai-chat, openai-responses, anthropic, gemini, bedrock)`}},
		{desc: "an API-layer safety error passes unchanged by default", args: []string{"guard", "-f", "openai-chat", "--status", "400", glm},
			wantOut: []string{`{"error":{"code":"1301","message":"System detected potentially unsafe or sensitive content in input or generation."}}`}},
		{desc: "with api_errors: as_message it becomes an assistant message", args: []string{"guard", "-f", "openai-chat", "--status", "400", "--config", asMessage, glm},
			wantOut: []string{`"object":"chat.completion"`, `"finish_reason":"content_filter"`, `detector='glm_policy_block'`}},
		{desc: "as an Anthropic message too", args: []string{"guard", "-f", "anthropic", "--status", "400", "--config", asMessage, glm},
			wantOut: []string{`"type":"message"`, `"stop_reason":"refusal"`}},
		{desc: "a recorded stream with a safety stop releases no tool call", args: []string{"guard", "-f", "openai-chat", "--stream", "../../wire/openai/testdata/stream_safety_tool_call.sse"},
			wantOut: []string{"Writing the file.", "Any tool calls produced in this turn were suppressed", `"finish_reason":"content_filter"`, "data: [DONE]"}},
		{desc: "a halt ends a stream with an error event", args: []string{"guard", "-f", "openai-chat", "--stream", "--config", halting, "../../wire/openai/testdata/stream_tool_call.sse"}, wantCode: 3,
			wantOut: []string{`data: {"error":{"code":"acme.stop"`}},
		{desc: "an Anthropic stream with a refusal releases no tool call", args: []string{"guard", "-f", "anthropic", "--stream", "../../wire/anthropic/testdata/stream_refusal_tool_use.sse"},
			wantOut: []string{"Writing the file.", "Any tool calls produced in this turn were suppressed", `"stop_reason":"refusal"`, "event: message_stop"}},
		{desc: "a halt ends an Anthropic stream with an error event", args: []string{"guard", "-f", "anthropic", "--stream", "--config", halting, "../../wire/anthropic/testdata/stream_tool_use.sse"}, wantCode: 3,
			wantOut: []string{"event: error\ndata: {\"error\":{\"message\":\"Warden stopped this response"}},
		{desc: "a Gemini stream with a safety stop releases no function call", args: []string{"guard", "-f", "gemini", "--stream", "../../wire/gemini/testdata/stream_safety_function_call.sse"},
			wantOut: []string{"Writing the file.", "Any tool calls produced in this turn were suppressed", `"finishReason":"SAFETY"`}},
		{desc: "a halt ends a Gemini stream with an error chunk", args: []string{"guard", "-f", "gemini", "--stream", "--config", halting, "../../wire/gemini/testdata/stream_function_call.sse"}, wantCode: 3,
			wantOut: []string{`data: {"error":{"code":403,"message":"Warden stopped this response`}},
		{desc: "a Responses stream with a content filter releases no call", args: []string{"guard", "-f", "openai-responses", "--stream", "../../wire/openai/testdata/responses_stream_content_filter.sse"},
			wantOut: []string{"event: response.incomplete", "Any tool calls produced in this turn were suppressed"}},
		{desc: "a halt ends a Responses stream with an error event", args: []string{"guard", "-f", "openai-responses", "--stream", "--config", halting, "../../wire/openai/testdata/responses_stream_function_call.sse"}, wantCode: 3,
			wantOut: []string{`event: error` + "\n" + `data: {"code":"acme.stop","message":"Warden stopped this response`}},
		{desc: "the format is required", args: []string{"guard"}, wantCode: 2, wantErr: []string{`required flag(s) "format" not set`}},
	})
}

func TestGuardBedrockStream(t *testing.T) {
	t.Parallel()
	frame := func(typ, payload string) []byte {
		var h eventstream.Headers
		h.Set(":event-type", eventstream.StringValue(typ))
		h.Set(":content-type", eventstream.StringValue("application/json"))
		h.Set(":message-type", eventstream.StringValue("event"))
		var buf bytes.Buffer
		if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: h, Payload: []byte(payload)}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	stream := bytes.Join([][]byte{
		frame("messageStart", `{"role":"assistant"}`),
		frame("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"Writing."}}`),
		frame("contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"write_file"}}}`),
		frame("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"path\":\"x"}}}`),
		frame("messageStop", `{"stopReason":"guardrail_intervened"}`),
	}, nil)
	p := filepath.Join(t.TempDir(), "stream.bin")
	if err := os.WriteFile(p, stream, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("", "guard", "-f", "bedrock", "--stream", p)
	if code != 0 || !strings.Contains(out, "Any tool calls produced in this turn were suppressed") || strings.Contains(out, "tooluse_1") {
		t.Errorf("exit %d, stderr %q, stdout %q", code, errOut, out)
	}
}

func TestGuardOutputParsesWithTheSDK(t *testing.T) {
	t.Parallel()
	in := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"sudo reboot\"}"}}]},"finish_reason":"tool_calls"}]}`
	code, out, errOut := runCLI(in, "guard", "-f", "openai-chat")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var cc sdk.ChatCompletion
	if err := json.Unmarshal([]byte(out), &cc); err != nil {
		t.Fatal(err)
	}
	ch := cc.Choices[0]
	if len(ch.Message.ToolCalls) != 0 || ch.FinishReason != "stop" || !strings.HasPrefix(ch.Message.Content, "Guardrail denied: tool 'bash' was blocked (warden.privilege_escalation)") {
		t.Errorf("SDK sees %d calls, finish %q, content %q", len(ch.Message.ToolCalls), ch.FinishReason, ch.Message.Content)
	}
}
