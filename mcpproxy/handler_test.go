package mcpproxy_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/mcpproxy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servedProxy is the proxy's Handler in front of an upstream that answers every request with a tool
// result naming the method it received, and initialize with a session of its own.
func servedProxy(t *testing.T) (warden *httptest.Server, upstreamHits *int) {
	t.Helper()
	return servedProxyWith(t, nil)
}

// servedProxyWith is servedProxy with the Handler set up by with before it serves.
func servedProxyWith(t *testing.T, with func(*mcpproxy.Handler)) (warden *httptest.Server, upstreamHits *int) {
	t.Helper()
	px, _ := newProxy(t)
	hits := 0
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "no stream", http.StatusMethodNotAllowed)
			return
		}
		hits++
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &m)
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "upstream-1")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"u","version":"1"}}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"content":[{"type":"text","text":"ran `+m.Method+`"}]}}`)
	}))
	t.Cleanup(upstream.Close)
	h := mcpproxy.NewHandler(px.To(func() mcpproxy.Conn { return mcpproxy.NewHTTPConn(upstream.URL, nil, nil, nil) }), nil)
	if with != nil {
		with(h)
	}
	warden = httptest.NewServer(h)
	t.Cleanup(warden.Close)
	return warden, &hits
}

func do(t *testing.T, method, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// What the served transport answers to each kind of HTTP request, before and around the proxy's stages.
func TestHandler(t *testing.T) {
	t.Parallel()
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a"}}}`
	for _, tc := range []struct {
		desc       string
		method     string
		body       string
		header     map[string]string
		wantStatus int
		wantBody   string
		reaches    bool
	}{
		{"a stateless call is answered", http.MethodPost, call, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "read_file"}, 200, "ran tools/call", true},
		{"a method header that disagrees with the body is refused", http.MethodPost, call, map[string]string{"Mcp-Method": "tools/list"}, 400, `"code":-32020`, false},
		{"a name header that disagrees with the body is refused", http.MethodPost, call, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "list_files"}, 400, `header Mcp-Name \"list_files\" disagrees`, false},
		{"a denied call is a tool error and never reaches the server", http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"rm -rf /"}}}`, nil, 200, `"isError":true`, false},
		{"a body that is not JSON-RPC is refused", http.MethodPost, `{"id":1}`, nil, 400, `"code":-32600`, false},
		{"an unknown session is not found", http.MethodPost, call, map[string]string{"Mcp-Session-Id": "nope"}, 404, "no such session", false},
		{"a notification of no session is accepted and goes nowhere", http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil, 202, "", false},
		{"a stream needs a session", http.MethodGet, "", nil, 405, "initialize first", false},
		{"deleting an unknown session is not found", http.MethodDelete, "", map[string]string{"Mcp-Session-Id": "nope"}, 404, "", false},
		{"another method is not allowed", http.MethodPut, call, nil, 405, "", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			warden, hits := servedProxy(t)
			resp, body := do(t, tc.method, warden.URL, tc.body, tc.header)
			if resp.StatusCode != tc.wantStatus || !strings.Contains(body, tc.wantBody) {
				t.Errorf("%d %s, want %d holding %q", resp.StatusCode, body, tc.wantStatus, tc.wantBody)
			}
			if (*hits > 0) != tc.reaches {
				t.Errorf("the upstream was reached %d times; want reached=%v", *hits, tc.reaches)
			}
		})
	}
}

// A session opened by initialize carries on under Warden's own session id and ends with DELETE.
func TestHandlerSession(t *testing.T) {
	t.Parallel()
	warden, _ := servedProxy(t)
	resp, body := do(t, http.MethodPost, warden.URL, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, nil)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || session == "" || session == "upstream-1" || !strings.Contains(body, "serverInfo") {
		t.Fatalf("initialize: %d, session %q, %s; want Warden's own session id", resp.StatusCode, session, body)
	}
	h := map[string]string{"Mcp-Session-Id": session}
	if resp, _ := do(t, http.MethodPost, warden.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); resp.StatusCode != 202 {
		t.Errorf("initialized: %d, want 202", resp.StatusCode)
	}
	if _, body := do(t, http.MethodPost, warden.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{}}}`, h); !strings.Contains(body, "ran tools/call") {
		t.Errorf("a call in the session: %s", body)
	}
	if resp, _ := do(t, http.MethodDelete, warden.URL, "", h); resp.StatusCode != 204 {
		t.Errorf("DELETE: %d, want 204", resp.StatusCode)
	}
	if resp, _ := do(t, http.MethodPost, warden.URL, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, h); resp.StatusCode != 404 {
		t.Errorf("after DELETE: %d, want 404", resp.StatusCode)
	}
}

// A tool whose schema marks an argument x-mcp-header (2026-07-28): Warden learns it from the listing, sends
// the Mcp-Param-* header it derives from the body it forwards (the SDK's server requires it), and refuses a
// client's header that disagrees with the client's body.
func TestParamHeaders(t *testing.T) {
	t.Parallel()
	px, _ := newProxy(t)
	server := func(*http.Request) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "ops", Version: "1.0.0"}, nil)
		s.AddTool(&mcp.Tool{Name: "deploy", Description: "Deploy a service.", InputSchema: map[string]any{
			"type": "object", "properties": map[string]any{
				"region":  map[string]any{"type": "string", "x-mcp-header": "Region"},
				"service": map[string]any{"type": "string"},
			}}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deployed " + string(req.Params.Arguments)}}}, nil
			})
		return s
	}
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(upstream.Close)
	params := mcpproxy.NewParamHeaders()
	warden := httptest.NewServer(mcpproxy.NewHandler(px.To(func() mcpproxy.Conn { return mcpproxy.NewHTTPConn(upstream.URL, nil, nil, params) }), params))
	t.Cleanup(warden.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1.0.0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: warden.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"region": "eu-west-1", "service": "api"}})
	if err != nil || res.IsError || !strings.Contains(textOf(res), "eu-west-1") {
		t.Fatalf("a call with a header argument: %v %v", res, err)
	}
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"deploy","arguments":{"region":"eu-west-1","service":"api"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	for _, tc := range []struct {
		desc, region string
		status       int
	}{
		{"a header that disagrees with the body is refused", "us-east-1", 400},
		{"a missing header is refused", "", 400},
		{"a base64-wrapped header that agrees passes", "=?base64?ZXUtd2VzdC0x?=", 200},
	} {
		h := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "deploy", "MCP-Protocol-Version": "2026-07-28"}
		if tc.region != "" {
			h["Mcp-Param-Region"] = tc.region
		}
		resp, got := do(t, http.MethodPost, warden.URL, body, h)
		if resp.StatusCode != tc.status || tc.status == 400 && !strings.Contains(got, `"code":-32020`) {
			t.Errorf("%s: %d %s, want %d", tc.desc, resp.StatusCode, got, tc.status)
		}
	}
}

// A second request under an id still open in the session is refused, and the first still gets its answer.
func TestHandlerRefusesAnOpenID(t *testing.T) {
	t.Parallel()
	px, _ := newProxy(t)
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(string(body), `"initialize"`) {
			w.Header().Set("Mcp-Session-Id", "u")
			io.WriteString(w, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"u","version":"1"}}}`)
			return
		}
		<-release
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"first"}]}}`)
	}))
	t.Cleanup(upstream.Close)
	warden := httptest.NewServer(mcpproxy.NewHandler(px.To(func() mcpproxy.Conn { return mcpproxy.NewHTTPConn(upstream.URL, nil, nil, nil) }), nil))
	t.Cleanup(warden.Close)
	resp, _ := do(t, http.MethodPost, warden.URL, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, nil)
	h := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id")}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{}}}`
	first := make(chan string, 1)
	go func() { _, body := do(t, http.MethodPost, warden.URL, call, h); first <- body }()
	time.Sleep(100 * time.Millisecond) // the first is open
	if resp, body := do(t, http.MethodPost, warden.URL, call, h); resp.StatusCode != 400 || !strings.Contains(body, "still open") {
		t.Errorf("the second request under id 1: %d %s", resp.StatusCode, body)
	}
	close(release)
	if body := <-first; !strings.Contains(body, "first") {
		t.Errorf("the first request's answer: %s", body)
	}
}

// A stateless client may call a tool it never listed: Warden reads the server's listing itself first, so
// that the call carries the Mcp-Param-* headers the server requires.
func TestParamHeadersWithoutAListing(t *testing.T) {
	t.Parallel()
	px, _ := newProxy(t)
	server := func(*http.Request) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "ops", Version: "1.0.0"}, nil)
		s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"region": map[string]any{"type": "string", "x-mcp-header": "Region"}}}},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deployed"}}}, nil
			})
		return s
	}
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(upstream.Close)
	params := mcpproxy.NewParamHeaders()
	warden := httptest.NewServer(mcpproxy.NewHandler(px.To(func() mcpproxy.Conn { return mcpproxy.NewHTTPConn(upstream.URL, nil, nil, params) }), params))
	t.Cleanup(warden.Close)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{"region":"eu"},` + meta + `}}`
	resp, got := do(t, http.MethodPost, warden.URL, body, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "deploy", "MCP-Protocol-Version": "2026-07-28", "Mcp-Param-Region": "eu"})
	if resp.StatusCode != 200 || !strings.Contains(got, "deployed") {
		t.Errorf("a call before any listing: %d %s", resp.StatusCode, got)
	}
}

// A session its client left without a DELETE is ended once it has gone unused for the idle timeout,
// when a new session starts; a session in use stays.
func TestHandlerEndsIdleSessions(t *testing.T) {
	t.Parallel()
	px, _ := newProxy(t)
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdkServer() }, nil))
	t.Cleanup(upstream.Close)
	h := mcpproxy.NewHandler(px.To(func() mcpproxy.Conn { return mcpproxy.NewHTTPConn(upstream.URL, nil, nil, nil) }), nil)
	h.IdleTimeout = 200 * time.Millisecond
	warden := httptest.NewServer(h)
	t.Cleanup(warden.Close)
	t.Cleanup(func() { h.Close() }) // first: the sessions' streams to the upstream end before it closes
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	open := func() string {
		resp, _ := do(t, http.MethodPost, warden.URL, initialize, nil)
		return resp.Header.Get("Mcp-Session-Id")
	}
	ping := func(session string) int {
		resp, _ := do(t, http.MethodPost, warden.URL, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, map[string]string{"Mcp-Session-Id": session})
		return resp.StatusCode
	}
	left, kept := open(), open()
	for range 4 { // kept is used every 100 ms, left never
		time.Sleep(100 * time.Millisecond)
		if code := ping(kept); code != 200 {
			t.Fatalf("the session in use: %d", code)
		}
	}
	open() // a new session sweeps
	if code := ping(left); code != 404 {
		t.Errorf("the session left unused for longer than the idle timeout: %d, want 404", code)
	}
	if code := ping(kept); code != 200 {
		t.Errorf("the session in use: %d, want 200", code)
	}
}

// A halt ends a run, not only the session or stateless request it came in: the credential's later
// requests are refused for Handler.HaltFor, whichever session they belong to or open.
func TestHandlerHaltOutlivesItsRequest(t *testing.T) {
	t.Parallel()
	const (
		halt      = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"self_destruct","arguments":{}}}`
		call      = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a"}}}`
		initalize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	)
	keyA := map[string]string{"Authorization": "Bearer key-a"}
	keyB := map[string]string{"Authorization": "Bearer key-b"}
	inSession := func(t *testing.T, url string, key map[string]string, body string) string {
		resp, _ := do(t, http.MethodPost, url, initalize, key)
		h := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id")}
		for k, v := range key {
			h[k] = v
		}
		_, got := do(t, http.MethodPost, url, body, h)
		return got
	}
	stateless := func(t *testing.T, url string, key map[string]string, body string) string {
		_, got := do(t, http.MethodPost, url, body, key)
		return got
	}
	halted := `"code":-32001`
	for _, tc := range []struct {
		desc     string
		haltFor  time.Duration
		haltWith map[string]string
		haltIn   func(*testing.T, string, map[string]string, string) string
		wait     time.Duration
		next     func(*testing.T, string, map[string]string, string) string
		nextWith map[string]string
		nextBody string
		want     string
	}{
		{"a stateless halt refuses the credential's next stateless request", 0, keyA, stateless, 0, stateless, keyA, call, "Warden halted this client's run: test.halt"},
		{"a stateless halt refuses the credential's new session", 0, keyA, stateless, 0, stateless, keyA, initalize, halted},
		{"a session's halt refuses the credential's stateless requests", 0, keyA, inSession, 0, stateless, keyA, call, halted},
		{"a session's halt refuses the credential's other sessions", 0, keyA, inSession, 0, inSession, keyA, call, halted},
		{"another credential's requests go on", 0, keyA, stateless, 0, stateless, keyB, call, "ran tools/call"},
		{"a request without a credential halts only itself", 0, nil, stateless, 0, stateless, nil, call, "ran tools/call"},
		{"a negative HaltFor keeps a halt to its own request", -1, keyA, stateless, 0, stateless, keyA, call, "ran tools/call"},
		{"the refusal ends when HaltFor has passed", time.Millisecond, keyA, stateless, 20 * time.Millisecond, stateless, keyA, call, "ran tools/call"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			warden, _ := servedProxyWith(t, func(h *mcpproxy.Handler) { h.HaltFor = tc.haltFor })
			if got := tc.haltIn(t, warden.URL, tc.haltWith, halt); !strings.Contains(got, halted) {
				t.Fatalf("the halting call got %s, want the halt", got)
			}
			time.Sleep(tc.wait)
			if got := tc.next(t, warden.URL, tc.nextWith, tc.nextBody); !strings.Contains(got, tc.want) {
				t.Errorf("the next request got %s, want it to hold %q", got, tc.want)
			}
		})
	}
}
