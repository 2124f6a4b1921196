package gateway_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	_ "github.com/agentwarden/warden/builtin"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

// BenchmarkExchange is one request at a time (concurrency 1) over loopback to a fake upstream: directly,
// through a bare httputil.ReverseProxy, and through Warden with no guardrails and with the embedded
// defaults. The differences are what each adds to a request's latency, whole and streamed (64 text
// chunks). The side-by-side with percentiles and concurrency 64 is `warden bench` (gateway/gatewaybench).
func BenchmarkExchange(b *testing.B) {
	whole, sse := exchangeAnswers(b)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if strings.Contains(r.URL.RawQuery, "stream") {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(sse)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(whole)
	}))
	defer up.Close()
	bare := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(mustURL(b, up.URL))
	}})
	defer bare.Close()
	wardenOn := func(configYAML string) string {
		s := httptest.NewServer(newBenchGateway(b, configYAML, mustURL(b, up.URL), nil))
		b.Cleanup(s.Close)
		return s.URL
	}
	targets := []struct{ name, url string }{
		{"direct", up.URL},
		{"bare-proxy", bare.URL},
		{"warden-off", wardenOn("version: 1\naudit:\n  sink: none\n")},
		{"warden-default", wardenOn(defaultWithoutAudit(b))},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	for _, kind := range exchangeKinds {
		for _, tg := range targets {
			b.Run(kind.name+"/"+tg.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					resp, err := client.Post(tg.url+"/v1/chat/completions"+kind.query, "application/json", strings.NewReader(kind.body))
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Fatalf("status %d", resp.StatusCode)
					}
				}
			})
		}
	}
}

// exchangeKinds are the two requests the exchange benchmarks send: one answered whole, one streamed.
var exchangeKinds = []struct{ name, query, body string }{
	{"whole", "", chatBody},
	{"stream", "?stream=1", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`},
}

// exchangeAnswers are the fake upstream's answers: a healthy chat completion with a tool call, and a
// stream of 64 text chunks and the finish.
func exchangeAnswers(b testing.TB) (whole, stream []byte) {
	whole, err := os.ReadFile(filepath.Join("..", "wire", "openai", "testdata", "healthy_tool_calls.json"))
	if err != nil {
		b.Fatal(err)
	}
	var sse bytes.Buffer
	for range 64 {
		sse.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"token "},"finish_reason":null}]}` + "\n\n")
	}
	sse.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	return whole, sse.Bytes()
}

// newBenchGateway is Warden as warden serve builds it, with metrics, from configYAML (the embedded
// defaults when empty), with every built-in upstream at upURL, reached through transport (the default
// one when nil).
func newBenchGateway(b testing.TB, configYAML string, upURL *url.URL, transport http.RoundTripper) http.Handler {
	file := ""
	if configYAML != "" {
		file = filepath.Join(b.TempDir(), "w.yaml")
		if err := os.WriteFile(file, []byte(configYAML), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	metrics := gateway.NewMetrics()
	l, err := config.Load(context.Background(), file, config.Options{Stderr: io.Discard,
		WrapRecorder: func(next warden.Recorder) warden.Recorder { return gateway.Tally(metrics.Recorder(next)) }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	var ups []gateway.Upstream
	for _, n := range []string{"openai", "anthropic", "gemini"} {
		ups = append(ups, gateway.Upstream{Name: n, URL: upURL})
	}
	g, err := gateway.New(gateway.Config{Pipeline: pipeline.New(l, nil), Upstreams: ups, Metrics: metrics, Transport: transport})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// defaultWithoutAudit is the embedded default config with its audit records discarded, so that the
// benchmark measures the guardrails and not stderr.
func defaultWithoutAudit(b testing.TB) string {
	s := string(config.Default())
	i := strings.Index(s, "\naudit:")
	if i < 0 {
		b.Fatal("the default config has no audit section")
	}
	return s[:i] + "\naudit:\n  sink: none\n"
}

func mustURL(b testing.TB, raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	return u
}
