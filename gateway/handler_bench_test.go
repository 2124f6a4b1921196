package gateway_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"testing"
)

// BenchmarkHandler is BenchmarkExchange without the network: each proxy's handler is called in the
// benchmark's goroutine and reaches an upstream that answers from memory, so that the figures are the
// proxy's own CPU on one exchange, and a profile shows nothing else (go test -bench
// 'Handler/whole/warden-off' -cpuprofile cpu.out).
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
	}
	for _, kind := range exchangeKinds {
		for _, tg := range targets {
			b.Run(kind.name+"/"+tg.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					w := httptest.NewRecorder()
					tg.h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/v1/chat/completions"+kind.query, strings.NewReader(kind.body)))
					if w.Code != http.StatusOK {
						b.Fatalf("status %d: %s", w.Code, w.Body)
					}
				}
			})
		}
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
