package gatewaybench

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A probe times, inside a proxy, what is the proxy's own in an exchange. Taken on the wire, a figure on a
// machine whose CPUs the proxy shares with the client and the upstream carries their scheduling too, and
// on a small VM that tail is many times the 5µs a chunk may add: the bare proxy's p99 moves by tens of
// microseconds from one run to the next. Benches that pin the proxy to cores of its own remove most of it;
// the probe removes it by timing only the spans the proxy is responsible for:
//
//   - a whole request: from the request reaching the proxy's handler to the handler's return, less the
//     time it waited on the upstream: inside the upstream calls and inside the reads of their bodies;
//   - the first token: from the request reaching the handler to the first chunk's flush to the client,
//     less the time it waited on the upstream until it read that chunk;
//   - a chunk: from the proxy's read of it from the upstream's body to its flush to the client.
//
// Only the waits count as the upstream's. What a proxy does between an upstream call's return and its
// first read, or between two reads, is its own: the bare proxy copying a whole answer to the client as it
// reads it, or Warden sending a stream's head before it reads the first event. (Until the seventeenth
// session the upstream's span ran from the call to the body's end, which gave those to the upstream.)
//
// The probe wraps the bare proxy and Warden alike (the handler, its ResponseWriter, and the upstream
// transport), so what it costs falls on both. It is armed for one exchange at a time: the
// concurrency-1 phases arm it before each exchange, and an unarmed probe passes everything through.
type probe struct {
	armed atomic.Pointer[probed]
}

// probed is what the probe noted of one exchange. Its fields are written by the handler's goroutine and
// the transport's, and read once done is closed.
type probed struct {
	mu                sync.Mutex
	arrived, returned time.Time
	upstream          time.Duration // waited on the upstream: inside its calls and the reads of their bodies
	firstWait         time.Duration // upstream as it stood once the first chunk was read
	firstRead         bool          // firstWait is set
	read, flushed     []time.Time   // by chunk index
	written           []int         // chunks written and not yet flushed
	done              chan struct{} // closed when the handler returns
}

type probeKey struct{}

// arm makes the next exchange the handler sees the probed one, for a stream of chunks text chunks.
func (p *probe) arm(chunks int) *probed {
	x := &probed{read: make([]time.Time, chunks), flushed: make([]time.Time, chunks), done: make(chan struct{})}
	p.armed.Store(x)
	return x
}

// disarm forgets an armed probe that no exchange took (one that failed before reaching the proxy).
func (p *probe) disarm() { p.armed.Store(nil) }

// A prober arms a proxy's probe for one exchange: a probe in this process, or a remoteProbe in the
// proxies' own process (see Options.Pin).
type prober interface {
	open(chunks int) (armedProbe, error)
}

// armedProbe is a probe armed for one exchange.
type armedProbe interface {
	// notes waits for the exchange's handler to return and gives what the probe noted.
	notes(ctx context.Context) (probeNotes, error)
	// disarm forgets the arming when no exchange took it.
	disarm() error
}

// probeNotes is what a probe noted of one exchange, in the form that crosses to the bench's process.
type probeNotes struct {
	Whole      time.Duration   `json:"whole"`       // see probed.whole
	FirstToken time.Duration   `json:"first_token"` // see probed.firstToken
	FirstSeen  bool            `json:"first_seen"`
	Stays      []time.Duration `json:"stays"` // see probed.stays
	StaysSeen  bool            `json:"stays_seen"`
	// Heap is what the proxies' own process allocated from the arming to the handler's return; 0 when
	// the proxies run in the bench's process, whose count covers it.
	Heap uint64 `json:"heap"`
}

func (p *probe) open(chunks int) (armedProbe, error) { return armedHere{p, p.arm(chunks)}, nil }

// armedHere is a probe of this process, armed.
type armedHere struct {
	p *probe
	x *probed
}

func (a armedHere) notes(ctx context.Context) (probeNotes, error) {
	if err := a.x.wait(ctx); err != nil {
		return probeNotes{}, err
	}
	return a.x.notes(), nil
}

func (a armedHere) disarm() error { a.p.disarm(); return nil }

// handler wraps a proxy's handler so that an armed probe times the exchange it serves.
func (p *probe) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := p.armed.Swap(nil)
		if x == nil {
			next.ServeHTTP(w, r)
			return
		}
		x.arrived = time.Now()
		defer func() {
			x.mu.Lock()
			x.returned = time.Now()
			x.stamp(x.flushed, x.returned) // what the server flushes after the handler returns
			x.mu.Unlock()
			close(x.done)
		}()
		next.ServeHTTP(&probeWriter{ResponseWriter: w, x: x}, r.WithContext(context.WithValue(r.Context(), probeKey{}, x)))
	})
}

// stamp gives the chunks written since the last flush the time t in into, and forgets them.
func (x *probed) stamp(into []time.Time, t time.Time) {
	for _, i := range x.written {
		if i < len(into) && into[i].IsZero() {
			into[i] = t
		}
	}
	x.written = x.written[:0]
}

// probeWriter notes which chunks the proxy writes, and when its flushes of them return.
type probeWriter struct {
	http.ResponseWriter
	x *probed
}

var _ http.Flusher = (*probeWriter)(nil)

func (w *probeWriter) Write(p []byte) (int, error) {
	w.x.mu.Lock()
	w.x.written = chunkIndexes(p, w.x.written)
	w.x.mu.Unlock()
	return w.ResponseWriter.Write(p)
}

func (w *probeWriter) Flush() {
	http.NewResponseController(w.ResponseWriter).Flush()
	now := time.Now()
	w.x.mu.Lock()
	w.x.stamp(w.x.flushed, now)
	w.x.mu.Unlock()
}

// Unwrap lets http.ResponseController reach the server's writer, as every writer wrapper must.
func (w *probeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// probeTransport times the upstream calls of a probed exchange and the reads of their bodies, and notes
// when each chunk is read.
type probeTransport struct{ next http.RoundTripper }

func (t probeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	x, _ := r.Context().Value(probeKey{}).(*probed)
	if x == nil {
		return t.next.RoundTrip(r)
	}
	start := time.Now()
	resp, err := t.next.RoundTrip(r)
	x.mu.Lock()
	x.upstream += time.Since(start)
	x.mu.Unlock()
	if err != nil {
		return nil, err
	}
	resp.Body = &probeBody{ReadCloser: resp.Body, x: x}
	return resp, nil
}

type probeBody struct {
	io.ReadCloser
	x     *probed
	marks []int
}

func (b *probeBody) Read(p []byte) (int, error) {
	start := time.Now()
	n, err := b.ReadCloser.Read(p)
	now := time.Now()
	b.marks = chunkIndexes(p[:n], b.marks[:0])
	b.x.mu.Lock()
	b.x.upstream += now.Sub(start)
	for _, i := range b.marks {
		if i < len(b.x.read) && b.x.read[i].IsZero() {
			b.x.read[i] = now
			if i == 0 && !b.x.firstRead {
				b.x.firstWait, b.x.firstRead = b.x.upstream, true
			}
		}
	}
	b.x.mu.Unlock()
	return n, err
}

// wait blocks until the probed exchange's handler returned.
func (x *probed) wait(ctx context.Context) error {
	select {
	case <-x.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// whole is the proxy's own time in a whole exchange.
func (x *probed) whole() time.Duration { return x.returned.Sub(x.arrived) - x.upstream }

// firstToken is the proxy's own time to the first chunk's flush: false when the chunk was not seen both
// coming and going.
func (x *probed) firstToken() (time.Duration, bool) {
	if len(x.read) == 0 || !x.firstRead || x.flushed[0].IsZero() {
		return 0, false
	}
	return x.flushed[0].Sub(x.arrived) - x.firstWait, true
}

// notes is what the measurer takes of the exchange once its handler returned.
func (x *probed) notes() probeNotes {
	n := probeNotes{Whole: x.whole()}
	n.FirstToken, n.FirstSeen = x.firstToken()
	n.Stays, n.StaysSeen = x.stays(nil)
	return n
}

// stays appends each chunk's stay in the proxy, from its read to its flush: false when a chunk was not
// seen both coming and going.
func (x *probed) stays(into []time.Duration) ([]time.Duration, bool) {
	for i := range x.read {
		if x.read[i].IsZero() || x.flushed[i].IsZero() {
			return into, false
		}
		into = append(into, x.flushed[i].Sub(x.read[i]))
	}
	return into, true
}
