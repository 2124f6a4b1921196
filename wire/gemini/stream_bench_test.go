package gemini_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/gemini"
)

// BenchmarkGuardTextStream: a 1,000-chunk text stream through the stream guard (issue #4 target for
// passthrough: ≤ 2 µs per event), and through the redact guardrail; the decision at the end is a no-op.
func BenchmarkGuardTextStream(b *testing.B) {
	data, events := textStream(b)
	pipelinetest.BenchStream(b, data, events, gemini.GuardStream)
}

// textStream builds the benchmarks' stream and says how many events it has.
func textStream(b *testing.B) ([]byte, int) {
	var in strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&in, "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"token %d \"}],\"role\":\"model\"},\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":50,\"candidatesTokenCount\":%d,\"totalTokenCount\":%d},\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}\r\n\r\n", i, i, 50+i)
	}
	in.WriteString("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}\r\n\r\n")
	return []byte(in.String()), n + 1
}

// BenchmarkGuardColdChunk: one text chunk of a paced stream through the stream guard with the CPU caches
// emptied first, as `warden bench` meets it, against a plain copy (see pipelinetest.BenchColdChunk).
func BenchmarkGuardColdChunk(b *testing.B) {
	const chunk = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"%s\"}],\"role\":\"model\"},\"index\":0}],\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}\r\n\r\n"
	next := []byte(fmt.Sprintf(chunk, " token"))
	pipelinetest.BenchColdChunk(b, []byte(fmt.Sprintf(chunk, "Hello")), func(int) []byte { return next }, gemini.GuardStream)
}

// BenchmarkGuardToolCallStream: a recorded stream of two text chunks, a chunk with a function call and
// the finishing chunk through the stream guard. The call's chunk and the finish are the ones the guard
// reads whole: it holds the call, and decides on the response when the finish reason comes.
func BenchmarkGuardToolCallStream(b *testing.B) {
	data, err := os.ReadFile("testdata/stream_function_call.sse")
	if err != nil {
		b.Fatal(err)
	}
	pipelinetest.BenchStream(b, data, 4, gemini.GuardStream)
}

// BenchmarkGuardColdOpening: a stream's first chunk, its first text, through a new stream guard with the
// CPU caches emptied first, against a plain copy (see pipelinetest.BenchColdOpening).
func BenchmarkGuardColdOpening(b *testing.B) {
	const head = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hello\"}],\"role\":\"model\"},\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":50,\"candidatesTokenCount\":1,\"totalTokenCount\":51},\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}\r\n\r\n"
	pipelinetest.BenchColdOpening(b, []byte(head), gemini.GuardStream)
}
