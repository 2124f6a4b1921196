package pipeline

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/agentwarden/warden"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

func TestUsageTap(t *testing.T) {
	t.Parallel()
	anthropic := formats["anthropic"]
	chat := formats["openai-chat"]
	tests := []struct {
		desc   string
		f      *Format
		stream string
		want   warden.Usage
	}{
		{"input at the start and output at the end add up", anthropic,
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}\n\n" +
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"hi\"}}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":20}}\n\n",
			warden.Usage{InputTokens: 40, OutputTokens: 20}},
		{"one last chunk after the finish", chat,
			"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\r\n\r\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":82,\"completion_tokens\":17}}\r\n\r\ndata: [DONE]\r\n\r\n",
			warden.Usage{InputTokens: 82, OutputTokens: 17}},
		{"a stream without usage reports none", chat, "data: {\"choices\":[]}\n\ndata: [DONE]\n\n", warden.Usage{}},
		{"text that mentions usage is not an event", chat, "data: {\"choices\":[{\"delta\":{\"content\":\"usage: {\\\"prompt_tokens\\\": 9}\"}}]}\n\n", warden.Usage{}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			tap := &usageTap{r: iotest.OneByteReader(bytes.NewReader([]byte(tt.stream))), read: tt.f.Usage}
			got, err := io.ReadAll(tap)
			if err != nil || string(got) != tt.stream {
				t.Fatalf("the tap changed the stream: %q (%v)", got, err)
			}
			if tap.u != tt.want {
				t.Errorf("usage %+v, want %+v", tap.u, tt.want)
			}
		})
	}
}

func TestUsageTapReadsEventStreams(t *testing.T) {
	t.Parallel()
	var stream bytes.Buffer
	enc := eventstream.NewEncoder()
	for _, ev := range []struct{ typ, payload string }{
		{"messageStart", `{"role":"assistant"}`},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"the usage is fine"}}`},
		{"messageStop", `{"stopReason":"end_turn"}`},
		{"metadata", `{"usage":{"inputTokens":412,"outputTokens":58,"totalTokens":470,"cacheReadInputTokens":8},"metrics":{"latencyMs":900}}`},
	} {
		m := eventstream.Message{Payload: []byte(ev.payload)}
		m.Headers.Set(":event-type", eventstream.StringValue(ev.typ))
		m.Headers.Set(":message-type", eventstream.StringValue("event"))
		if err := enc.Encode(&stream, m); err != nil {
			t.Fatal(err)
		}
	}
	want := stream.String()
	tap := &usageTap{r: iotest.OneByteReader(&stream), read: formats["bedrock"].Usage, frames: true}
	got, err := io.ReadAll(tap)
	if err != nil || string(got) != want {
		t.Fatalf("the tap changed the stream (%v)", err)
	}
	if tap.u != (warden.Usage{InputTokens: 420, OutputTokens: 58}) {
		t.Errorf("usage %+v, want the metadata event's, cache reads as input", tap.u)
	}
}

// TestUsageTapObservesAsItReads: the figures are reported as the events that show them are read, each
// growth once, so that a stream reporting usage in parts or as a running total counts its whole cost once.
func TestUsageTapObservesAsItReads(t *testing.T) {
	t.Parallel()
	var told []warden.Usage
	stream := "data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}\n\n" +
		"data: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":20}}\n\n" +
		"data: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":20}}\n\n"
	tap := &usageTap{r: bytes.NewReader([]byte(stream)), read: formats["anthropic"].Usage, observe: func(u warden.Usage) { told = append(told, u) }}
	io.ReadAll(tap)
	var total warden.Usage
	for _, u := range told {
		total.InputTokens += u.InputTokens
		total.OutputTokens += u.OutputTokens
	}
	if len(told) != 2 || total != (warden.Usage{InputTokens: 40, OutputTokens: 20}) {
		t.Errorf("told %+v (total %+v), want 40/1 then 0/19", told, total)
	}
}
