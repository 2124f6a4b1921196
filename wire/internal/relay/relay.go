// Package relay tells a stream guard when to flush what it wrote to its client. A guard relays a
// provider's stream event by event, and the client should have everything written at once when the guard
// is about to wait: for the provider's next bytes, or for a check (a stream guardrail, the response
// stage). It should not flush more often than that, since each flush is a write to the client's
// connection. The package must never hold or reorder what is written; it only says when.
package relay

import (
	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/sse"
)

// Flusher flushes what a guard writes of a stream it reads with an sse.Reader, at the moments its client
// should have all of it:
//
//   - when the events handled have used up what the reader had buffered: a paced stream's every event
//     goes out as soon as it is handled, not after the guard has come round to its next read, and a
//     burst's events go out in one flush, one write to the client;
//   - before the reader waits for more of its input, as when an event written is followed by part of
//     the next;
//   - before a check that may wait: a text gate's call, or decide (see Gate and Decide).
//
// Nothing is flushed twice. Not safe for concurrent use; the zero value never flushes.
type Flusher struct {
	flush   func()
	r       *sse.Reader
	written bool
}

// Bind makes f flush with flush (nil: never) what is written while r's events are handled. With r nil,
// Handled flushes whatever was written: a guard that writes without reading (a correction's feedback).
func (f *Flusher) Bind(r *sse.Reader, flush func()) {
	f.flush, f.r = flush, r
	if r != nil && flush != nil {
		r.OnWait(f.Flush)
	}
}

// Wrote notes that something was written to the client since the last flush.
func (f *Flusher) Wrote() { f.written = true }

// Handled is called after each event a guard handled: it flushes what was written when the reader has
// nothing more buffered. A partial event buffered is flushed before, when the reader waits for the rest.
func (f *Flusher) Handled() {
	if f.written && (f.r == nil || f.r.Buffered() == 0) {
		f.Flush()
	}
}

// Flush flushes what was written since the last flush, if anything. A guard calls it when it returns, so
// that what it wrote before an error is not left in a buffer.
func (f *Flusher) Flush() {
	if f.written && f.flush != nil {
		f.written = false
		f.flush()
	}
}

// Gate returns g flushing what was written before each of its calls, which may wait on a stream
// guardrail; nil stays nil, so that a guard's "no gate" path is unchanged.
func (f *Flusher) Gate(g warden.TextGate) warden.TextGate {
	if g == nil || f.flush == nil {
		return g
	}
	return flushingGate{g, f}
}

type flushingGate struct {
	inner warden.TextGate
	f     *Flusher
}

func (g flushingGate) Text(delta string) (string, error) {
	g.f.Flush()
	return g.inner.Text(delta)
}

func (g flushingGate) Finish(end warden.Part) (string, error) {
	g.f.Flush()
	return g.inner.Finish(end)
}

// Decide returns decide flushing what was written before it runs: the response stage may wait (a webhook
// authorizer, a remote guardrail), and released text must not wait on it. Nil stays nil.
func (f *Flusher) Decide(decide func(warden.Response) (warden.Response, error)) func(warden.Response) (warden.Response, error) {
	if decide == nil || f.flush == nil {
		return decide
	}
	return func(r warden.Response) (warden.Response, error) {
		f.Flush()
		return decide(r)
	}
}
