package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/usage"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// observeBody tells the engine's usage observers what a whole response cost.
func (p *Pipeline) observeBody(ctx context.Context, f *Format, body []byte, run warden.RunInfo) {
	if f.Usage == nil || !p.Engine.ObservesUsage() {
		return
	}
	if u, ok := f.Usage(body); ok {
		p.Engine.ObserveUsage(ctx, run, u)
	}
}

// maxUsageLine bounds the event line a usageTap keeps while it waits for the line's end: usage comes in
// small events, and a longer line is passed on without being read.
const maxUsageLine = 1 << 20

// usageTap reads a provider stream as the stream guard reads it and keeps the largest usage its events
// report (see usage.Max): input at the start and output at the end in Anthropic's, a running total in
// Gemini's, one last event in OpenAI's. It changes nothing of what it reads. With observe set, it reports
// each growth of the figures as soon as the event that shows it is read, before the guard writes that
// event on: a client that has read the stream's end cannot start its next request before its cost counts.
type usageTap struct {
	r       io.Reader
	read    func([]byte) (warden.Usage, bool)
	observe func(warden.Usage)
	told    warden.Usage // what observe has been told so far
	// frames is set for an AWS event stream (Bedrock): its messages are length-prefixed binary frames,
	// whose payloads are read instead of SSE data lines.
	frames bool
	line   []byte
	skip   bool // the current line grew past maxUsageLine
	u      warden.Usage
}

func (t *usageTap) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if t.frames {
		t.scanFrames(b[:n])
	} else {
		t.scan(b[:n])
	}
	return n, err
}

// scanFrames reads AWS event-stream messages (a 4-byte big-endian total length first) and the usage of
// their JSON payloads: Bedrock's metadata event carries it.
func (t *usageTap) scanFrames(b []byte) {
	if t.skip {
		return
	}
	t.line = append(t.line, b...)
	for len(t.line) >= 12 {
		total := int(binary.BigEndian.Uint32(t.line))
		if total < 16 || total > maxUsageLine {
			t.skip = true // not a frame this tap can follow: read nothing more
			return
		}
		if len(t.line) < total {
			return
		}
		if m, err := eventstream.NewDecoder().Decode(bytes.NewReader(t.line[:total]), nil); err == nil && bytes.Contains(m.Payload, []byte("sage")) {
			if u, ok := t.read(m.Payload); ok {
				t.grow(u)
			}
		}
		t.line = append(t.line[:0], t.line[total:]...)
	}
}

func (t *usageTap) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			t.keep(b)
			return
		}
		t.keep(b[:i])
		if !t.skip {
			t.event(bytes.TrimSuffix(t.line, []byte("\r")))
		}
		t.line, t.skip = t.line[:0], false
		b = b[i+1:]
	}
}

func (t *usageTap) keep(b []byte) {
	if t.skip {
		return
	}
	if len(t.line)+len(b) > maxUsageLine {
		t.skip = true
		return
	}
	t.line = append(t.line, b...)
}

func (t *usageTap) event(line []byte) {
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok || !bytes.Contains(data, []byte("sage")) { // usage, usageMetadata: most events carry neither
		return
	}
	if u, ok := t.read(bytes.TrimSpace(data)); ok {
		t.grow(u)
	}
}

// grow takes an event's figures and tells observe how much they added.
func (t *usageTap) grow(u warden.Usage) {
	t.u = usage.Max(t.u, u)
	if t.observe == nil {
		return
	}
	if add := (warden.Usage{InputTokens: t.u.InputTokens - t.told.InputTokens, OutputTokens: t.u.OutputTokens - t.told.OutputTokens}); !add.IsZero() {
		t.told = t.u
		t.observe(add)
	}
}
