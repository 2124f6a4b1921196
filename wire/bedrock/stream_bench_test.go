package bedrock_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/bedrock"
)

// BenchmarkGuardTextStream: a ConverseStream text block of 1,000 deltas through the stream guard (issue #4
// target for passthrough: ≤ 2 µs per event), and through the redact guardrail; the decision at the end is a no-op.
func BenchmarkGuardTextStream(b *testing.B) {
	data, events := textStream(b)
	pipelinetest.BenchStream(b, data, events, bedrock.GuardStream)
}

// textStream builds the benchmarks' stream and says how many events it has.
func textStream(b *testing.B) ([]byte, int) {
	const n = 1000
	var in bytes.Buffer
	in.Write(event(b, "messageStart", `{"role":"assistant"}`))
	for i := range n {
		in.Write(event(b, "contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":0,"delta":{"text":"token %d "},"p":"abcdefgh"}`, i)))
	}
	in.Write(event(b, "contentBlockStop", `{"contentBlockIndex":0}`))
	in.Write(event(b, "messageStop", `{"stopReason":"end_turn"}`))
	return in.Bytes(), n + 3
}
