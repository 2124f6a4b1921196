package openai_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
)

// BenchmarkGuardResponsesTextStream: a message item of 1,000 text deltas through the Responses stream guard
// (issue #4 target for passthrough: ≤ 2 µs per event), and through the redact guardrail; the decision at the end
// is a no-op.
func BenchmarkGuardResponsesTextStream(b *testing.B) {
	data, events := responsesTextStream(b)
	pipelinetest.BenchStream(b, data, events, openai.GuardResponsesStream)
}

// responsesTextStream builds the benchmarks' stream and says how many events it has.
func responsesTextStream(b *testing.B) ([]byte, int) {
	var in strings.Builder
	const n = 1000
	in.WriteString("event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]},\"sequence_number\":0}\n\n")
	for i := range n {
		fmt.Fprintf(&in, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"token %d \",\"logprobs\":[],\"sequence_number\":%d}\n\n", i, i+1)
	}
	in.WriteString("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"object\":\"response\",\"status\":\"completed\",\"output\":[]},\"sequence_number\":1001}\n\n")
	return []byte(in.String()), n + 2
}

// BenchmarkGuardResponsesStreamOpening: the events before a Responses stream's first text delta (created
// and in_progress, each with the whole response object; the message item and its part added), the first
// delta and the completion: what the stream guard adds to a stream's time to its first token and its end,
// which a long stream's per-event figure hides.
func BenchmarkGuardResponsesStreamOpening(b *testing.B) {
	shell := `{"id":"resp_1","object":"response","created_at":1760000000,"status":"in_progress","model":"gpt-4.1","output":[],"usage":null}`
	data := []byte("event: response.created\ndata: {\"type\":\"response.created\",\"response\":" + shell + ",\"sequence_number\":0}\n\n" +
		"event: response.in_progress\ndata: {\"type\":\"response.in_progress\",\"response\":" + shell + ",\"sequence_number\":1}\n\n" +
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]},\"sequence_number\":2}\n\n" +
		"event: response.content_part.added\ndata: {\"type\":\"response.content_part.added\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"annotations\":[],\"text\":\"\"},\"sequence_number\":3}\n\n" +
		"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hello\",\"logprobs\":[],\"sequence_number\":4}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"created_at\":1760000000,\"status\":\"completed\",\"model\":\"gpt-4.1\",\"output\":[],\"usage\":null},\"sequence_number\":5}\n\n")
	pipelinetest.BenchStream(b, data, 6, openai.GuardResponsesStream)
}

// BenchmarkGuardResponsesStreamOpeningTools is BenchmarkGuardResponsesStreamOpening with the response
// object as OpenAI's created, in_progress and completed events carry it: echoing the request's
// instructions and its tools (24, with schemas), some 14 KB each.
func BenchmarkGuardResponsesStreamOpeningTools(b *testing.B) {
	tools := pipelinetest.AgentTools(24, func(name, desc, schema string) string {
		return `{"type":"function","name":"` + name + `","description":"` + desc + `","parameters":` + schema + `,"strict":true}`
	})
	shell := func(status string) string {
		return `{"id":"resp_1","object":"response","created_at":1760000000,"status":"` + status + `","model":"gpt-4.1",` +
			`"instructions":"You are a coding agent. Work in the repository you are given; run the tests before you finish.",` +
			`"output":[],"parallel_tool_calls":true,"temperature":1.0,"tool_choice":"auto","tools":` + tools + `,"top_p":1.0,"usage":null}`
	}
	data := []byte("event: response.created\ndata: {\"type\":\"response.created\",\"response\":" + shell("in_progress") + ",\"sequence_number\":0}\n\n" +
		"event: response.in_progress\ndata: {\"type\":\"response.in_progress\",\"response\":" + shell("in_progress") + ",\"sequence_number\":1}\n\n" +
		"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]},\"sequence_number\":2}\n\n" +
		"event: response.content_part.added\ndata: {\"type\":\"response.content_part.added\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"annotations\":[],\"text\":\"\"},\"sequence_number\":3}\n\n" +
		"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hello\",\"logprobs\":[],\"sequence_number\":4}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":" + shell("completed") + ",\"sequence_number\":5}\n\n")
	pipelinetest.BenchStream(b, data, 6, openai.GuardResponsesStream)
}

// BenchmarkGuardResponsesColdChunk: one text delta of a paced Responses stream through the stream guard
// with the CPU caches emptied first, as `warden bench` meets it, against a plain copy (see
// pipelinetest.BenchColdChunk). Each delta carries the next sequence_number, as a provider's do.
func BenchmarkGuardResponsesColdChunk(b *testing.B) {
	const head = "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]},\"sequence_number\":0}\n\n"
	const delta = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"%s\",\"logprobs\":[],\"sequence_number\":%d}\n\n"
	pipelinetest.BenchColdChunk(b, []byte(head+fmt.Sprintf(delta, "Hello", 1)), func(n int) []byte { return fmt.Appendf(nil, delta, " token", n+2) }, openai.GuardResponsesStream)
}

// BenchmarkGuardResponsesColdOpening: a Responses stream's first read (created and in_progress with the
// response and its one tool echoed, the message item and its part added, the first text delta) through a
// new stream guard with the CPU caches emptied first, against a plain copy (see
// pipelinetest.BenchColdOpening).
func BenchmarkGuardResponsesColdOpening(b *testing.B) {
	event := func(typ, members string, seq int) string {
		return "event: " + typ + "\n" + `data: {"type":"` + typ + `",` + members + fmt.Sprintf(`,"sequence_number":%d}`, seq) + "\n\n"
	}
	const shell = `{"id":"resp_1","object":"response","created_at":1760000000,"status":"in_progress","model":"gpt-4.1","instructions":"You are a coding agent.","output":[],"parallel_tool_calls":true,"tool_choice":"auto",` +
		`"tools":[{"type":"function","name":"bash","description":"Run a shell command.","parameters":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]},"strict":false}],"usage":null}`
	head := event("response.created", `"response":`+shell, 0) +
		event("response.in_progress", `"response":`+shell, 1) +
		event("response.output_item.added", `"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}`, 2) +
		event("response.content_part.added", `"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"text":""}`, 3) +
		event("response.output_text.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hello","logprobs":[]`, 4)
	pipelinetest.BenchColdOpening(b, []byte(head), openai.GuardResponsesStream)
}
