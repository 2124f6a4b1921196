package gatewaybench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// A wire is one provider wire format as the bench speaks it: the same coding agent's second turn (a system
// prompt, a tool definition, the model's earlier call and its result) sent in that format, and the fake
// upstream's answer, a tool call whole or streamed.
type wire struct {
	name string
	// path is the route the client posts to.
	path func(stream bool) string
	// request is the client's body; streamed says how the upstream tells a stream was asked for.
	request  func(stream bool) string
	streamed func(r *http.Request, body []byte) bool
	// whole is the answer to a whole request; toolMark is a piece of it that only a relayed tool call has.
	whole, toolMark string
	// A stream is head (sent with the first text delta), a text delta per chunk, then the tool-call
	// events and the finish events, each group paced as one event.
	head             string
	text             func(i int) string
	toolCall, finish func(chunks int) string
	// textLine says whether an SSE data line is a text delta, the lines whose chunk marks the client
	// reads (a format that repeats the text in its closing events marks it again there).
	textLine func(line []byte) bool
}

// Wire formats the bench speaks, by name.
const (
	WireChat      = "openai-chat"
	WireResponses = "openai-responses"
	WireAnthropic = "anthropic"
	WireGemini    = "gemini"
)

var wires = map[string]*wire{WireChat: &chatWire, WireResponses: &responsesWire, WireAnthropic: &anthropicWire, WireGemini: &geminiWire}

// Wires lists the wire formats the bench speaks, sorted.
func Wires() []string {
	var names []string
	for n := range wires {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func anyLine([]byte) bool { return true }

// streamField reads a body's "stream": true, as Chat Completions, Responses and Anthropic ask for one.
func streamField(_ *http.Request, body []byte) bool {
	var req struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(body, &req) == nil && req.Stream
}

// The turn's pieces, the same in every format.
const (
	systemPrompt = "You are a coding agent. Use the bash tool to inspect and change the repository; keep answers short."
	userTask     = "The tests in ./pkg/parse fail since yesterday. Find out why and fix it."
	earlierArgs  = `{\"command\":\"git log --oneline -5 -- pkg/parse\"}`
	toolOutput   = `a1b2c3d parse: accept trailing commas\n9f8e7d6 parse: faster number scanning\n1234abc parse: doc comments`
	toolDesc     = "Run a shell command in the repository and return its output."
	toolSchema   = `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`
	callArgs     = `{\"command\":\"go test ./pkg/parse/...\"}`
	leadText     = "Let me run the failing test."
)

var chatWire = wire{
	name: WireChat,
	path: func(bool) string { return "/v1/chat/completions" },
	request: func(stream bool) string {
		return `{"model":"gpt-4.1","messages":[` +
			`{"role":"system","content":"` + systemPrompt + `"},` +
			`{"role":"user","content":"` + userTask + `"},` +
			`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"` + earlierArgs + `"}}]},` +
			`{"role":"tool","tool_call_id":"call_1","content":"` + toolOutput + `"}` +
			`],"tools":[{"type":"function","function":{"name":"bash","description":"` + toolDesc + `","parameters":` + toolSchema + `}}]` +
			streamMember(stream) + `}`
	},
	streamed: streamField,
	whole: `{"id":"chatcmpl-bench","object":"chat.completion","created":1760000000,"model":"gpt-4.1",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"` + leadText + `","tool_calls":[` +
		`{"id":"call_2","type":"function","function":{"name":"bash","arguments":"` + callArgs + `"}}]},` +
		`"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":180,"completion_tokens":24,"total_tokens":204}}`,
	toolMark: `"tool_calls"`,
	text: func(i int) string {
		return fmt.Sprintf(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"%s%d "},"finish_reason":null}]}`+"\n\n", chunkMark, i)
	},
	toolCall: func(int) string {
		return `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_2","type":"function","function":{"name":"bash","arguments":"` + callArgs + `"}}]},"finish_reason":null}]}` + "\n\n"
	},
	finish: func(int) string {
		return `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" + "data: [DONE]\n\n"
	},
	textLine: anyLine,
}

func streamMember(stream bool) string {
	if stream {
		return `,"stream":true`
	}
	return ""
}

// streamedText is what a stream of chunks text deltas says in all.
func streamedText(chunks int) string {
	var b strings.Builder
	for i := range chunks {
		fmt.Fprintf(&b, "%s%d ", chunkMark, i)
	}
	return b.String()
}

var anthropicWire = wire{
	name: WireAnthropic,
	path: func(bool) string { return "/v1/messages" },
	request: func(stream bool) string {
		return `{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"` + systemPrompt + `","messages":[` +
			`{"role":"user","content":"` + userTask + `"},` +
			`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"bash","input":` + strings.ReplaceAll(earlierArgs, `\"`, `"`) + `}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"` + toolOutput + `"}]}` +
			`],"tools":[{"name":"bash","description":"` + toolDesc + `","input_schema":` + toolSchema + `}]` + streamMember(stream) + `}`
	},
	streamed: streamField,
	whole: `{"id":"msg_bench","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[` +
		`{"type":"text","text":"` + leadText + `"},` +
		`{"type":"tool_use","id":"toolu_2","name":"bash","input":{"command":"go test ./pkg/parse/..."}}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":180,"output_tokens":24}}`,
	toolMark: `"tool_use"`,
	head: "event: message_start\n" + `data: {"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":180,"output_tokens":1}}}` + "\n\n" +
		"event: content_block_start\n" + `data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n",
	text: func(i int) string {
		return "event: content_block_delta\n" + fmt.Sprintf(`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%s%d "}}`, chunkMark, i) + "\n\n"
	},
	toolCall: func(int) string {
		return "event: content_block_stop\n" + `data: {"type":"content_block_stop","index":0}` + "\n\n" +
			"event: content_block_start\n" + `data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_2","name":"bash","input":{}}}` + "\n\n" +
			"event: content_block_delta\n" + `data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"` + callArgs + `"}}` + "\n\n" +
			"event: content_block_stop\n" + `data: {"type":"content_block_stop","index":1}` + "\n\n"
	},
	finish: func(int) string {
		return "event: message_delta\n" + `data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":24}}` + "\n\n" +
			"event: message_stop\n" + `data: {"type":"message_stop"}` + "\n\n"
	},
	textLine: anyLine,
}

// Gemini's streams end their lines with \r\n, as Google's servers send them.
var geminiWire = wire{
	name: WireGemini,
	path: func(stream bool) string {
		if stream {
			return "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
		}
		return "/v1beta/models/gemini-2.5-pro:generateContent"
	},
	request: func(bool) string {
		return `{"systemInstruction":{"parts":[{"text":"` + systemPrompt + `"}]},"contents":[` +
			`{"role":"user","parts":[{"text":"` + userTask + `"}]},` +
			`{"role":"model","parts":[{"functionCall":{"name":"bash","args":` + strings.ReplaceAll(earlierArgs, `\"`, `"`) + `}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"name":"bash","response":{"output":"` + toolOutput + `"}}}]}` +
			`],"tools":[{"functionDeclarations":[{"name":"bash","description":"` + toolDesc + `","parameters":` + toolSchema + `}]}]}`
	},
	streamed: func(r *http.Request, _ []byte) bool { return strings.Contains(r.URL.Path, ":streamGenerateContent") },
	whole: `{"candidates":[{"content":{"role":"model","parts":[{"text":"` + leadText + `"},` +
		`{"functionCall":{"name":"bash","args":{"command":"go test ./pkg/parse/..."}}}]},"finishReason":"STOP","index":0}],` +
		`"usageMetadata":{"promptTokenCount":180,"candidatesTokenCount":24,"totalTokenCount":204},"modelVersion":"gemini-2.5-pro","responseId":"r-bench"}`,
	toolMark: `"functionCall"`,
	text: func(i int) string {
		return fmt.Sprintf(`data: {"candidates":[{"content":{"parts":[{"text":"%s%d "}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-pro","responseId":"r-bench"}`, chunkMark, i) + "\r\n\r\n"
	},
	toolCall: func(int) string {
		return `data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"bash","args":{"command":"go test ./pkg/parse/..."}}}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-pro","responseId":"r-bench"}` + "\r\n\r\n"
	},
	finish: func(int) string {
		return `data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":180,"candidatesTokenCount":24,"totalTokenCount":204},"modelVersion":"gemini-2.5-pro","responseId":"r-bench"}` + "\r\n\r\n"
	},
	textLine: anyLine,
}

// The Responses API numbers its events: the head takes 0–3, text delta i takes 4+i, and the closing
// events count on from there.
var responsesWire = wire{
	name: WireResponses,
	path: func(bool) string { return "/v1/responses" },
	request: func(stream bool) string {
		return `{"model":"gpt-4.1","instructions":"` + systemPrompt + `","input":[` +
			`{"role":"user","content":"` + userTask + `"},` +
			`{"type":"function_call","call_id":"call_1","name":"bash","arguments":"` + earlierArgs + `"},` +
			`{"type":"function_call_output","call_id":"call_1","output":"` + toolOutput + `"}` +
			`],"tools":[{"type":"function","name":"bash","description":"` + toolDesc + `","parameters":` + toolSchema + `}]` + streamMember(stream) + `}`
	},
	streamed: streamField,
	whole: strings.Replace(responsesShell("completed", responsesMessage(leadText)+","+responsesCall),
		`"usage":null`, `"usage":{"input_tokens":180,"output_tokens":24,"total_tokens":204}`, 1),
	toolMark: `"function_call"`,
	head: responsesEvent("response.created", `"response":`+responsesShell("in_progress", ""), 0) +
		responsesEvent("response.in_progress", `"response":`+responsesShell("in_progress", ""), 1) +
		responsesEvent("response.output_item.added", `"output_index":0,"item":{"id":"msg_bench","type":"message","status":"in_progress","role":"assistant","content":[]}`, 2) +
		responsesEvent("response.content_part.added", `"item_id":"msg_bench","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""}`, 3),
	text: func(i int) string {
		return responsesEvent("response.output_text.delta", fmt.Sprintf(`"item_id":"msg_bench","output_index":0,"content_index":0,"delta":"%s%d "`, chunkMark, i), 4+i)
	},
	toolCall: func(chunks int) string {
		text, seq := streamedText(chunks), 4+chunks
		return responsesEvent("response.output_text.done", `"item_id":"msg_bench","output_index":0,"content_index":0,"text":"`+text+`"`, seq) +
			responsesEvent("response.content_part.done", `"item_id":"msg_bench","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":"`+text+`"}`, seq+1) +
			responsesEvent("response.output_item.done", `"output_index":0,"item":`+responsesMessage(text), seq+2) +
			responsesEvent("response.output_item.added", `"output_index":1,"item":{"id":"fc_bench","type":"function_call","status":"in_progress","arguments":"","call_id":"call_2","name":"bash"}`, seq+3) +
			responsesEvent("response.function_call_arguments.delta", `"item_id":"fc_bench","output_index":1,"delta":"`+callArgs+`"`, seq+4) +
			responsesEvent("response.function_call_arguments.done", `"item_id":"fc_bench","output_index":1,"arguments":"`+callArgs+`"`, seq+5) +
			responsesEvent("response.output_item.done", `"output_index":1,"item":`+responsesCall, seq+6)
	},
	finish: func(chunks int) string {
		return responsesEvent("response.completed", `"response":`+responsesShell("completed", responsesMessage(streamedText(chunks))+","+responsesCall), 4+chunks+7)
	},
	textLine: func(line []byte) bool { return bytes.Contains(line, []byte(`"response.output_text.delta"`)) },
}

const responsesCall = `{"id":"fc_bench","type":"function_call","status":"completed","arguments":"` + callArgs + `","call_id":"call_2","name":"bash"}`

func responsesMessage(text string) string {
	return `{"id":"msg_bench","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"` + text + `"}]}`
}

// responsesShell is the response object a Responses stream's created, in_progress and completed events
// carry, echoing the request's instructions and tools as OpenAI's does.
func responsesShell(status, output string) string {
	return `{"id":"resp_bench","object":"response","created_at":1760000000,"status":"` + status + `","model":"gpt-4.1",` +
		`"instructions":"` + systemPrompt + `","output":[` + output + `],"parallel_tool_calls":true,"tool_choice":"auto",` +
		`"tools":[{"type":"function","name":"bash","description":"` + toolDesc + `","parameters":` + toolSchema + `,"strict":false}],"usage":null}`
}

func responsesEvent(typ, members string, seq int) string {
	return "event: " + typ + "\n" + `data: {"type":"` + typ + `",` + members + fmt.Sprintf(`,"sequence_number":%d}`, seq) + "\n\n"
}
