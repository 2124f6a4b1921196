package openai_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/openai"
)

// BenchmarkGuardTextStream: a 1,000-delta text stream through the stream guard (issue #4 target for
// passthrough: ≤ 2 µs per event); the decision at the end is a no-op here.
func BenchmarkGuardTextStream(b *testing.B) {
	var in strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&in, "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token %d \"},\"finish_reason\":null}]}\n\n", i)
	}
	in.WriteString("data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	data := []byte(in.String())
	keep := func(r warden.Response) (warden.Response, error) { return r, nil }
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := openai.GuardChatStream(bytes.NewReader(data), io.Discard, nil, keep, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n+2), "ns/event")
}
