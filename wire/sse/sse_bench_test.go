package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentwarden/warden/wire/sse"
)

// BenchmarkPassthrough reads an OpenAI-style stream of 1,000 chunk events and writes each event's raw bytes
// on, as the gateway does for events it does not change (issue #4 target: ≤ 2 µs per event).
func BenchmarkPassthrough(b *testing.B) {
	var in strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&in, "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token %d \"},\"finish_reason\":null}]}\n\n", i)
	}
	in.WriteString("data: [DONE]\n\n")
	data := in.String()
	var out bytes.Buffer
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		rd := sse.NewReader(strings.NewReader(data))
		for {
			ev, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			out.Write(ev.Raw)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n+1), "ns/event")
}

// BenchmarkReadOneEvent reads one held event again, as a stream guard does to edit or renumber it (every
// event of a follow-up's stream, under Anthropic and the Responses API): through a new Reader, as the
// guards did, and through ParseEvent.
func BenchmarkReadOneEvent(b *testing.B) {
	raw := []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"text_delta\",\"text\":\"token 12 \"}}\n\n")
	b.Run("new-reader", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sse.NewReader(bytes.NewReader(raw)).Next(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse-event", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sse.ParseEvent(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
