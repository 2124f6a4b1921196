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

// BenchmarkGuardResponsesTextStream: a message item of 1,000 text deltas through the Responses stream guard
// (issue #4 target for passthrough: ≤ 2 µs per event); the decision at the end is a no-op here.
func BenchmarkGuardResponsesTextStream(b *testing.B) {
	var in strings.Builder
	const n = 1000
	in.WriteString("event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]},\"sequence_number\":0}\n\n")
	for i := range n {
		fmt.Fprintf(&in, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"token %d \",\"logprobs\":[],\"sequence_number\":%d}\n\n", i, i+1)
	}
	in.WriteString("event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"object\":\"response\",\"status\":\"completed\",\"output\":[]},\"sequence_number\":1001}\n\n")
	data := []byte(in.String())
	keep := func(r warden.Response) (warden.Response, error) { return r, nil }
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := openai.GuardResponsesStream(bytes.NewReader(data), io.Discard, nil, keep, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n+2), "ns/event")
}
