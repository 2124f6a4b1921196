package gateway_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"runtime"
	"strings"
	"testing"

	"github.com/agentwarden/warden/config"
)

// BenchmarkHandler is BenchmarkExchange without the network: each proxy's handler is called in the
// benchmark's goroutine and reaches an upstream that answers from memory, so that the figures are the
// proxy's own CPU on one exchange, and a profile shows nothing else (go test -bench
// 'Handler/whole/warden-off' -cpuprofile cpu.out).
//
// whole-after-gc is a whole exchange that follows a garbage collection (not timed): the first exchange
// after each one finds the caches cold, the allocator's per-P caches empty and the goroutine's stack
// shrunk, and at concurrency 1 those exchanges, about one in a hundred, are where a whole request's p99
// sits. whole-cold-caches is a whole exchange after every cache line was evicted
// (64 MiB written, not timed) and nothing else: what the exchange's code and data cost when they all come
// from memory, an upper bound on the cache part of the exchange after a collection. Under valgrind
// --tool=callgrind --cache-sim=yes its last-level instruction misses count the cache lines of code an
// exchange runs, the same from run to run, where time on a shared VM is not.
func BenchmarkHandler(b *testing.B) {
	whole, sse := exchangeAnswers(b)
	mem := memoryUpstream{whole: whole, stream: sse}
	upURL := mustURL(b, "http://upstream.invalid")
	targets := []struct {
		name string
		h    http.Handler
	}{
		{"bare-proxy", &httputil.ReverseProxy{Transport: mem, Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(upURL) }}},
		{"warden-off", newBenchGateway(b, "version: 1\naudit:\n  sink: none\n", upURL, mem)},
		{"warden-default", newBenchGateway(b, defaultWithoutAudit(b), upURL, mem)},
		// the default config whole, its audit records encoded and written to a writer that keeps nothing
		{"warden-default-audit", newBenchGateway(b, string(config.Default()), upURL, mem)},
	}
	serve := func(b *testing.B, h http.Handler, query, body string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/chat/completions"+query, strings.NewReader(body)))
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	for _, kind := range exchangeKinds {
		for _, tg := range targets {
			b.Run(kind.name+"/"+tg.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					serve(b, tg.h, kind.query, kind.body)
				}
			})
		}
	}
	wholeKind := exchangeKinds[0]
	var evict []byte // made by the first cold-caches case that runs, dropped before the after-gc ones
	for _, tg := range targets {
		b.Run("whole-cold-caches/"+tg.name, func(b *testing.B) {
			if evict == nil {
				evict = make([]byte, 64<<20)
			}
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				evictCaches(evict)
				b.StartTimer()
				serve(b, tg.h, wholeKind.query, wholeKind.body)
			}
		})
	}
	evict = nil
	for _, tg := range targets {
		b.Run("whole-after-gc/"+tg.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				runtime.GC()
				b.StartTimer()
				serve(b, tg.h, wholeKind.query, wholeKind.body)
			}
		})
	}
}

// evictCaches writes every cache line of buf, which is larger than the CPU's caches (64 MiB against the
// 32 MiB last level of the VM the figures come from), so that what an exchange reads next comes from
// memory.
//
//go:noinline
func evictCaches(buf []byte) {
	for i := 0; i < len(buf); i += 64 {
		buf[i]++
	}
}

// memoryUpstream is an upstream transport that answers every request from memory: whole, or stream when
// the query asks for one.
type memoryUpstream struct{ whole, stream []byte }

func (m memoryUpstream) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	body, ctype := m.whole, "application/json"
	if strings.Contains(r.URL.RawQuery, "stream") {
		body, ctype = m.stream, "text/event-stream"
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {ctype}}, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}
