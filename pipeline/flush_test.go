package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/pipeline"
	"github.com/agentwarden/warden/stream"
	"github.com/agentwarden/warden/wire/sse"
)

// flushedClient is a client's stream behind a buffer that only the guard's flush empties: it is not an
// http.Flusher, so the pipeline's own flush before the finish checks does not reach it.
type flushedClient struct {
	pending, client bytes.Buffer
	flushes         int
}

func (c *flushedClient) Write(p []byte) (int, error) { return c.pending.Write(p) }

func (c *flushedClient) flush() {
	c.flushes++
	c.pending.WriteTo(&c.client)
}

// readsChecked hands out a stream in the given reads and notes every read made while something written
// to the client was not flushed: a wait on the provider with the client short of what passed.
type readsChecked struct {
	reads   [][]byte
	client  *flushedClient
	unsent  []string
	readsIn int
}

func (r *readsChecked) Read(p []byte) (int, error) {
	if r.client.pending.Len() > 0 {
		r.unsent = append(r.unsent, fmt.Sprintf("read %d began with %d bytes written and not flushed", r.readsIn, r.client.pending.Len()))
	}
	r.readsIn++
	if len(r.reads) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.reads[0])
	if r.reads[0] = r.reads[0][n:]; len(r.reads[0]) == 0 {
		r.reads = r.reads[1:]
	}
	return n, nil
}

// eventReads cuts a stream at its events' ends, one event a read, as a paced provider sends it.
func eventReads(t *testing.T, b []byte) [][]byte {
	t.Helper()
	rd := sse.NewReader(bytes.NewReader(b))
	var out [][]byte
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev.Raw)
	}
}

// byteReads cuts a stream every n bytes, so that events are split across reads.
func byteReads(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

func TestStreamFlushesBeforeEveryWait(t *testing.T) {
	t.Parallel()
	fixtures := []struct{ format, path string }{
		{"openai-chat", "../wire/openai/testdata/stream_denied_call.sse"},
		{"openai-responses", "../wire/openai/testdata/responses_stream_function_call.sse"},
		{"anthropic", "../wire/anthropic/testdata/stream_tool_use.sse"},
		{"gemini", "../wire/gemini/testdata/stream_function_call.sse"},
	}
	cuts := []struct {
		desc  string
		reads func(t *testing.T, b []byte) [][]byte
		// maxFlushes bounds the flushes of the whole stream; 0 leaves them unbounded.
		maxFlushes int
	}{
		{desc: "one event a read: each is flushed before the next read", reads: eventReads},
		{desc: "seven bytes a read: an event written is flushed before the read that completes the next", reads: func(_ *testing.T, b []byte) [][]byte { return byteReads(b, 7) }},
		// Before the finish checks, and after the last event: one flush a read would be one; one a write,
		// one an event.
		{desc: "the whole stream in one read: flushed before the checks and at its end, not an event at a time", reads: func(_ *testing.T, b []byte) [][]byte { return [][]byte{b} }, maxFlushes: 2},
	}
	for _, fx := range fixtures {
		for _, cut := range cuts {
			for _, gated := range []bool{false, true} {
				name := fx.format + "/" + cut.desc
				if gated {
					name += "/with a stream guardrail"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					body := read(t, fx.path)
					client := &flushedClient{}
					in := &readsChecked{reads: cut.reads(t, body), client: client}
					var checkedUnsent []string // checks that began with something written and not flushed
					checkSent := func(what string) {
						if client.pending.Len() > 0 {
							checkedUnsent = append(checkedUnsent, fmt.Sprintf("%s with %d bytes written and not flushed", what, client.pending.Len()))
						}
					}
					spec := warden.Spec{ToolCall: []warden.Entry{{Name: "authorize", Guardrail: warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
						checkSent("a call was authorized")
						return warden.Allow(), nil
					})}}}
					if gated {
						spec.Stream = []warden.Entry{{Name: "look", Guardrail: warden.StreamGuardrailFunc(func(context.Context, warden.PartCheck) (warden.Decision, error) {
							checkSent("a stream guardrail ran")
							return warden.Allow(), nil
						})}}
					}
					e, err := warden.NewEngine(spec)
					if err != nil {
						t.Fatal(err)
					}
					err = (&pipeline.Pipeline{Engine: e}).Stream(context.Background(), format(t, fx.format), in, client, client.flush, stream.Info{})
					if err != nil {
						t.Fatal(err)
					}
					if client.pending.Len() > 0 {
						t.Errorf("the stream ended with %d bytes written and not flushed", client.pending.Len())
					}
					if client.client.Len() == 0 {
						t.Fatal("nothing reached the client")
					}
					for _, u := range append(in.unsent, checkedUnsent...) {
						t.Error(u)
					}
					if cut.maxFlushes > 0 && !gated && client.flushes > cut.maxFlushes {
						t.Errorf("%d flushes, want at most %d", client.flushes, cut.maxFlushes)
					}
				})
			}
		}
	}
}
