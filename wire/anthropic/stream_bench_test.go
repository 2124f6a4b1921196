package anthropic_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/anthropic"
)

// BenchmarkGuardTextStream: a 1,000-delta text block through the stream guard (issue #4 target for
// passthrough: ≤ 2 µs per event), and through the redact guardrail; the decision at the end is a no-op.
func BenchmarkGuardTextStream(b *testing.B) {
	data, events := textStream(b)
	pipelinetest.BenchStream(b, data, events, anthropic.GuardStream)
}

// textStream builds the benchmarks' stream and says how many events it has.
func textStream(b *testing.B) ([]byte, int) {
	var in strings.Builder
	const n = 1000
	in.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_b\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}\n\n")
	in.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	for i := range n {
		fmt.Fprintf(&in, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"token %d \"}}\n\n", i)
	}
	in.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	in.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":1000}}\n\n")
	in.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return []byte(in.String()), n + 5
}

// BenchmarkGuardColdChunk: one text delta of a paced stream through the stream guard with the CPU caches
// emptied first, as `warden bench --wire anthropic` meets it, against a plain copy (see
// pipelinetest.BenchColdChunk).
func BenchmarkGuardColdChunk(b *testing.B) {
	const start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_b\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	const delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" token\"}}\n\n"
	pipelinetest.BenchColdChunk(b, []byte(start), func(int) []byte { return []byte(delta) }, anthropic.GuardStream)
}

// BenchmarkGuardStreamOpening: a stream of one text delta between the events a Messages stream opens and
// ends with (message_start, a block's start and stop, message_delta, message_stop): what the stream guard
// adds to a stream's time to its first token and its end, which a long stream's per-event figure hides.
func BenchmarkGuardStreamOpening(b *testing.B) {
	data := []byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_b\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":1}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	pipelinetest.BenchStream(b, data, 6, anthropic.GuardStream)
}

// BenchmarkGuardColdOpening: a Messages stream's first read (message_start, the text block's start, its
// first delta) through a new stream guard with the CPU caches emptied first, against a plain copy (see
// pipelinetest.BenchColdOpening).
func BenchmarkGuardColdOpening(b *testing.B) {
	const head = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_b\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\n"
	pipelinetest.BenchColdOpening(b, []byte(head), anthropic.GuardStream)
}
