package gateway_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkHandlerChunk times what one paced stream chunk costs each proxy's handler, as `warden bench`
// times a chunk inside the proxy: from the proxy's read of the chunk off the upstream's body to the flush
// that sends it to the client (ns-span/chunk), with the upstream handing the stream one chunk a read and
// waiting for each to be flushed before the next. The handlers are the bare httputil.ReverseProxy and
// Warden as warden serve builds it (no guardrails, and the embedded defaults); the client's side is a
// ResponseWriter in memory, so the server's writing, which every proxy shares, is not in the figure.
//
// cold empties the CPU caches before each chunk (32 MiB written, inside the loop: ns/op is mostly that),
// as a paced stream's chunk, tens of milliseconds after the last one, finds them on a shared machine; warm
// does not. Under valgrind --tool=callgrind --cache-sim=yes, the difference between two -benchtime counts
// gives each proxy's instructions and cache misses a chunk, the same from run to run.
func BenchmarkHandlerChunk(b *testing.B) {
	upURL := mustURL(b, "http://upstream.invalid")
	targets := []struct {
		name string
		h    func(http.RoundTripper) http.Handler
	}{
		{"bare-proxy", func(rt http.RoundTripper) http.Handler {
			return &httputil.ReverseProxy{Transport: rt, Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(upURL) }}
		}},
		{"warden-off", func(rt http.RoundTripper) http.Handler {
			return newBenchGateway(b, "version: 1\naudit:\n  sink: none\n", upURL, rt)
		}},
		{"warden-default", func(rt http.RoundTripper) http.Handler { return newBenchGateway(b, defaultWithoutAudit(b), upURL, rt) }},
	}
	const chunk = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"token "},"finish_reason":null}]}` + "\n\n"
	const finish = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	for _, temp := range []string{"cold", "warm"} {
		for _, tg := range targets {
			b.Run(temp+"/"+tg.name, func(b *testing.B) {
				up := &pacedUpstream{chunks: make(chan []byte)}
				w := &chunkWriter{header: http.Header{}, up: up, flushed: make(chan struct{}, 1)}
				h := tg.h(up)
				done := make(chan struct{})
				go func() {
					defer close(done)
					r := httptest.NewRequest(http.MethodPost, "/v1/chat/completions?stream=1", strings.NewReader(exchangeKinds[1].body))
					h.ServeHTTP(w, r)
				}()
				send := func(p []byte) {
					select {
					case up.chunks <- p:
					case <-done:
						b.Fatalf("the handler returned: status %d", w.status)
					}
					select {
					case <-w.flushed:
					case <-done:
						b.Fatalf("the handler returned: status %d", w.status)
					}
				}
				for range 2 { // the stream's opening, and what a guard learns from its first chunk
					send([]byte(chunk))
				}
				w.span = 0
				var caches []byte
				if temp == "cold" {
					caches = make([]byte, 32<<20)
				}
				b.ReportAllocs()
				for b.Loop() {
					if caches != nil {
						evictCaches(caches)
					}
					send([]byte(chunk))
				}
				select {
				case up.chunks <- []byte(finish):
				case <-done:
					b.Fatalf("the handler returned before the stream's finish: status %d", w.status)
				}
				close(up.chunks)
				<-done
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
				b.ReportMetric(float64(w.span.Nanoseconds())/float64(b.N), "ns-span/chunk")
			})
		}
	}
}

// pacedUpstream answers with a stream whose body hands out one chunk a read, as they come on chunks, and
// notes when each read returned.
type pacedUpstream struct {
	chunks   chan []byte
	mu       sync.Mutex
	returned time.Time
}

func (u *pacedUpstream) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: pacedBody{u}, ContentLength: -1, Request: r}, nil
}

type pacedBody struct{ u *pacedUpstream }

func (b pacedBody) Read(p []byte) (int, error) {
	c, ok := <-b.u.chunks
	if !ok {
		return 0, io.EOF
	}
	if len(c) > len(p) {
		return 0, io.ErrShortBuffer // a chunk is one read: cut, it would not be the chunk timed
	}
	n := copy(p, c)
	b.u.mu.Lock()
	b.u.returned = time.Now()
	b.u.mu.Unlock()
	return n, nil
}

func (pacedBody) Close() error { return nil }

// chunkWriter is a client's ResponseWriter in memory: at each flush of something written since the last
// read off the upstream, it adds the time since that read to span and signals flushed.
type chunkWriter struct {
	header  http.Header
	status  int
	up      *pacedUpstream
	dirty   bool
	span    time.Duration
	flushed chan struct{}
}

func (w *chunkWriter) Header() http.Header { return w.header }

func (w *chunkWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.dirty = true
	return len(p), nil
}

func (w *chunkWriter) Flush() {
	w.up.mu.Lock()
	read := w.up.returned
	w.up.mu.Unlock()
	if !w.dirty || read.IsZero() {
		return // the head, flushed on its own: no chunk was read
	}
	w.dirty = false
	w.span += time.Since(read)
	w.up.mu.Lock()
	w.up.returned = time.Time{}
	w.up.mu.Unlock()
	w.flushed <- struct{}{}
}
