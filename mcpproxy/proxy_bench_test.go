package mcpproxy_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/mcpproxy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolCall is one tools/call from the official Go SDK's client to its server over MCP's stdio
// framing on in-process pipes: directly, and through the proxy with the embedded default guardrails (the
// command policy judging the call). The difference between the two is what the proxy adds to a call.
func BenchmarkToolCall(b *testing.B) {
	for _, tc := range benchTargets(b) {
		b.Run(tc.name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cs := connect(b, ctx, tc.through)
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "go test ./pkg/parse/..."}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, params)
				if err != nil || res.IsError {
					b.Fatalf("CallTool: %v %v", res, err)
				}
			}
		})
	}
}

// connect gives an SDK client session with sdkServer, through px when it is not nil.
func connect(b *testing.B, ctx context.Context, px *mcpproxy.Proxy) *mcp.ClientSession {
	cr, cw := io.Pipe() // client → (proxy →) server
	pr, pw := io.Pipe() // (proxy →) client
	serverIn, serverOut := cr, pw
	if px != nil {
		sr, sw := io.Pipe()
		ur, uw := io.Pipe()
		go px.Serve(ctx, mcpproxy.NewStreamConn(cr, pw, 0, func() error { cr.Close(); return pw.Close() }),
			mcpproxy.NewStreamConn(ur, sw, 0, sw.Close))
		serverIn, serverOut = sr, uw
	}
	go sdkServer().Run(ctx, &mcp.IOTransport{Reader: serverIn, Writer: serverOut})
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

// BenchmarkRoundTrip is the proxy alone: a tools/call line and its result line, between a client and a
// server that do nothing but write and read them, directly and through the proxy with the embedded
// defaults. The SDKs' own cost (BenchmarkToolCall) is left out, so the difference is the proxy's.
func BenchmarkRoundTrip(b *testing.B) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"go test ./pkg/parse/..."}}}`)
	result := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok  \tpkg/parse\t0.012s"}]}}`)
	for _, tc := range benchTargets(b) {
		b.Run(tc.name, func(b *testing.B) {
			client := serveLines(b, tc.through, result)
			b.ReportAllocs()
			for b.Loop() {
				if err := client.WriteMessage(call); err != nil {
					b.Fatal(err)
				}
				if _, err := client.ReadMessage(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// target is one way a benchmark's client reaches its server: directly (through is nil) or through a proxy.
type target struct {
	name    string
	through *mcpproxy.Proxy
}

// benchTargets are both: directly, and through a proxy with the embedded default guardrails, or the
// config file named, whose audit is discarded.
func benchTargets(b *testing.B, file ...string) []target {
	l, err := config.Load(context.Background(), strings.Join(file, ""), config.Options{Recorder: warden.RecorderFunc(func(context.Context, *warden.Record) {})})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	px, err := mcpproxy.New(mcpproxy.Config{Server: "files", Engine: l.Engine})
	if err != nil {
		b.Fatal(err)
	}
	return []target{{"direct", nil}, {"warden-default", px}}
}

// BenchmarkToolListing500 is a tools/list answer of 500 tools, each with a description and an input
// schema, through the proxy with examples/mcp.yaml: every tool's text goes through the injection
// guardrail before the client sees the listing. Against the same answer directly.
func BenchmarkToolListing500(b *testing.B) {
	var tools []string
	for i := range 500 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"Looks up record %d in the inventory service and returns its fields as JSON. Use it when the user asks about stock levels, prices or suppliers.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"The record's identifier, as shown in the inventory."},"fields":{"type":"array","items":{"type":"string"}}},"required":["id"]}}`, i, i))
	}
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[` + strings.Join(tools, ",") + `]}}`)
	list := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	for _, tc := range benchTargets(b, filepath.Join("..", "examples", "mcp.yaml")) {
		b.Run(tc.name, func(b *testing.B) {
			client := serveLines(b, tc.through, answer)
			b.SetBytes(int64(len(answer)))
			b.ReportAllocs()
			for b.Loop() {
				if err := client.WriteMessage(list); err != nil {
					b.Fatal(err)
				}
				got, err := client.ReadMessage()
				if err != nil || len(got) < len(answer)/2 {
					b.Fatalf("listing: %d bytes, %v", len(got), err)
				}
			}
		})
	}
}

// serveLines gives the client's end of a connection to a server that answers every message with answer,
// directly or through px; both ends close when the benchmark ends.
func serveLines(b *testing.B, px *mcpproxy.Proxy, answer []byte) *mcpproxy.StreamConn {
	ctx, cancel := context.WithCancel(context.Background())
	cr, cw := io.Pipe()
	pr, pw := io.Pipe()
	serverR, serverW := cr, pw
	if px != nil {
		sr, sw := io.Pipe()
		ur, uw := io.Pipe()
		go px.Serve(ctx, mcpproxy.NewStreamConn(cr, pw, 0, nil), mcpproxy.NewStreamConn(ur, sw, 0, nil))
		serverR, serverW = sr, uw
		b.Cleanup(func() { sw.Close(); uw.Close() })
	}
	server := mcpproxy.NewStreamConn(serverR, serverW, 0, nil)
	go func() {
		for {
			if _, err := server.ReadMessage(); err != nil {
				return
			}
			if server.WriteMessage(answer) != nil {
				return
			}
		}
	}()
	b.Cleanup(func() { cancel(); cw.Close(); pw.Close() })
	return mcpproxy.NewStreamConn(pr, cw, 0, nil)
}

// BenchmarkIdleSession is what a client session that is connected and idle holds: the heap of its
// proxy session (its reader goroutines, buffers and maps) and its goroutines, the connections' pipes
// included, measured over b.N sessions open at once.
func BenchmarkIdleSession(b *testing.B) {
	px := benchTargets(b)[1].through
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	goroutines := runtime.NumGoroutine()
	var closers []io.Closer
	for range b.N {
		cr, cw := io.Pipe()
		pr, pw := io.Pipe()
		sr, sw := io.Pipe()
		ur, uw := io.Pipe()
		go px.Serve(ctx, mcpproxy.NewStreamConn(cr, pw, 0, nil), mcpproxy.NewStreamConn(ur, sw, 0, nil))
		closers = append(closers, cw, pr, sr, uw)
	}
	time.Sleep(100 * time.Millisecond) // every session's readers are waiting
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/float64(b.N), "heap-B/session")
	b.ReportMetric(float64(after.StackInuse-before.StackInuse)/float64(b.N), "stack-B/session")
	b.ReportMetric(float64(runtime.NumGoroutine()-goroutines)/float64(b.N), "goroutines/session")
	for _, c := range closers {
		c.Close()
	}
}

// BenchmarkToolCallHTTP is BenchmarkToolCall over streamable HTTP on loopback: the official Go SDK's
// client calling the SDK's HTTP server directly, through a bare httputil.ReverseProxy (the floor for any
// HTTP proxy: a hop on loopback), and through Warden's Handler and its connection to the server, with the
// embedded defaults.
func BenchmarkToolCallHTTP(b *testing.B) {
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdkServer() }, nil))
	defer upstream.Close()
	upURL, _ := url.Parse(upstream.URL)
	bare := httptest.NewServer(&httputil.ReverseProxy{FlushInterval: -1, Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(upURL) }})
	defer bare.Close()
	targets := append([]target{{name: "bare-proxy"}}, benchTargets(b)...)
	for _, tc := range targets {
		b.Run(tc.name, func(b *testing.B) {
			endpoint := upstream.URL
			if tc.name == "bare-proxy" {
				endpoint = bare.URL
			}
			if tc.through != nil {
				params := mcpproxy.NewParamHeaders()
				warden := httptest.NewServer(mcpproxy.NewHandler(tc.through.To(func() mcpproxy.Conn {
					return mcpproxy.NewHTTPConn(upstream.URL, nil, nil, params)
				}), params))
				defer warden.Close()
				endpoint = warden.URL
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "go test ./pkg/parse/..."}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := cs.CallTool(ctx, params)
				if err != nil || res.IsError {
					b.Fatalf("CallTool: %v %v", res, err)
				}
			}
		})
	}
}
