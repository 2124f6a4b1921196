package bedrock_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/bedrock"
)

// BenchmarkGuardTextStream: a ConverseStream text block of 1,000 deltas through the stream guard (issue #4
// target for passthrough: ≤ 2 µs per event); the decision at the end is a no-op here.
func BenchmarkGuardTextStream(b *testing.B) {
	const n = 1000
	var in bytes.Buffer
	in.Write(event(b, "messageStart", `{"role":"assistant"}`))
	for i := range n {
		in.Write(event(b, "contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":0,"delta":{"text":"token %d "},"p":"abcdefgh"}`, i)))
	}
	in.Write(event(b, "contentBlockStop", `{"contentBlockIndex":0}`))
	in.Write(event(b, "messageStop", `{"stopReason":"end_turn"}`))
	data := in.Bytes()
	keep := func(r warden.Response) (warden.Response, error) { return r, nil }
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := bedrock.GuardStream(bytes.NewReader(data), io.Discard, nil, keep, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n+3), "ns/event")
}
