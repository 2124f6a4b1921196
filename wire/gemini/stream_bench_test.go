package gemini_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/gemini"
)

// BenchmarkGuardTextStream: a 1,000-chunk text stream through the stream guard (issue #4 target for
// passthrough: ≤ 2 µs per event); the decision at the end is a no-op here.
func BenchmarkGuardTextStream(b *testing.B) {
	var in strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&in, "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"token %d \"}],\"role\":\"model\"},\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":50,\"candidatesTokenCount\":%d,\"totalTokenCount\":%d},\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}\r\n\r\n", i, i, 50+i)
	}
	in.WriteString("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"modelVersion\":\"gemini-2.5-flash\",\"responseId\":\"r1\"}\r\n\r\n")
	data := []byte(in.String())
	keep := func(r warden.Response) (warden.Response, error) { return r, nil }
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := gemini.GuardStream(bytes.NewReader(data), io.Discard, nil, keep, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n+1), "ns/event")
}
