package gateway_test

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/gateway"
)

const chatBody = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`

func TestRouting(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	h2 := newHarness(t, "", func(c *gateway.Config) {
		c.Upstreams = append(c.Upstreams, gateway.Upstream{Name: "deepseek", URL: c.Upstreams[0].URL, Prefix: "/deepseek"})
	})
	healthy := fixture(t, "openai", "healthy_tool_calls.json")
	tests := []struct {
		desc       string
		h          *harness
		method     string
		path       string
		header     map[string]string
		wantStatus int
		wantPath   string // what the upstream saw; "" when nothing should reach it
		guarded    bool
	}{
		{desc: "chat completions are guarded and keep their path", h: h, method: "POST", path: "/v1/chat/completions", wantStatus: 200, wantPath: "/v1/chat/completions", guarded: true},
		{desc: "a prefixed upstream gets the path without its prefix", h: h2, method: "POST", path: "/deepseek/chat/completions", wantStatus: 200, wantPath: "/chat/completions", guarded: true},
		{desc: "other provider paths pass through unguarded", h: h, method: "GET", path: "/v1/models", wantStatus: 200, wantPath: "/v1/models"},
		{desc: "an anthropic-flagged path goes to anthropic unguarded", h: h, method: "POST", path: "/v1/messages/count_tokens", header: map[string]string{"anthropic-version": "2023-06-01"}, wantStatus: 200, wantPath: "/v1/messages/count_tokens"},
		{desc: "an unknown path is a 404 naming the served routes", h: h, method: "POST", path: "/chat/completions", wantStatus: 404},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			tc.h.up.answer(reply{body: healthy})
			_, _, _, _, before := tc.h.up.sent()
			req, _ := http.NewRequest(tc.method, tc.h.url+tc.path, strings.NewReader(chatBody))
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status = %d, want %d (%s)", resp.StatusCode, tc.wantStatus, body)
			}
			path, _, _, _, calls := tc.h.up.sent()
			if tc.wantPath == "" {
				if calls != before {
					t.Errorf("the upstream was called")
				}
				if !strings.Contains(string(body), "/v1/chat/completions") {
					t.Errorf("404 body %s does not name the served routes", body)
				}
				return
			}
			if path != tc.wantPath {
				t.Errorf("upstream path = %q, want %q", path, tc.wantPath)
			}
			if got := resp.Header.Get(gateway.HeaderEvaluated) != ""; got != tc.guarded {
				t.Errorf("guarded = %v, want %v", got, tc.guarded)
			}
		})
	}
}

func TestCredentials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		inject  string
		path    string
		header  map[string]string
		query   string
		wantHdr map[string]string
	}{
		{desc: "the client's OpenAI key passes through", path: "/v1/chat/completions",
			header: map[string]string{"Authorization": "Bearer sk-client"}, wantHdr: map[string]string{"Authorization": "Bearer sk-client"}},
		{desc: "an injected key replaces the client's", inject: "sk-warden", path: "/v1/chat/completions",
			header: map[string]string{"Authorization": "Bearer sk-client"}, wantHdr: map[string]string{"Authorization": "Bearer sk-warden"}},
		{desc: "an injected Gemini key goes in x-goog-api-key and the query key is dropped", inject: "g-warden",
			path: "/v1beta/models/gemini-2.5-flash:generateContent", query: "key=g-client",
			wantHdr: map[string]string{"X-Goog-Api-Key": "g-warden"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "", func(c *gateway.Config) {
				for i := range c.Upstreams {
					c.Upstreams[i].APIKey = tc.inject
				}
			})
			h.up.answer(reply{body: fixture(t, "openai", "healthy_tool_calls.json")})
			if strings.Contains(tc.path, "gemini") {
				h.up.answer(reply{body: fixture(t, "gemini", "healthy_function_call.json")})
			}
			path := tc.path
			if tc.query != "" {
				path += "?" + tc.query
			}
			body := chatBody
			if strings.Contains(tc.path, "gemini") {
				body = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
			}
			resp, out := h.post(t, path, "application/json", body, tc.header)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d: %s", resp.StatusCode, out)
			}
			_, query, header, _, _ := h.up.sent()
			for k, v := range tc.wantHdr {
				if got := header.Get(k); got != v {
					t.Errorf("upstream %s = %q, want %q", k, got, v)
				}
			}
			if tc.inject != "" && strings.Contains(query, "key=") {
				t.Errorf("upstream query %q still carries the client's key", query)
			}
		})
	}
}

func TestHeadersCrossLessTheHopByHopOnes(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	h.up.answer(reply{body: fixture(t, "openai", "healthy_tool_calls.json"), header: map[string]string{
		"X-Upstream": "kept", "Content-Encoding": "identity", "Keep-Alive": "timeout=5", "Proxy-Authenticate": "Basic"}})
	resp, _ := h.post(t, "/v1/chat/completions", "application/json", chatBody, map[string]string{
		"X-Client": "kept", "Authorization": "Bearer sk-client", "Keep-Alive": "timeout=5",
		"Proxy-Authorization": "Basic c2VjcmV0", "Upgrade": "websocket"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	_, _, sent, _, _ := h.up.sent()
	tests := []struct {
		desc   string
		header http.Header
		name   string
		want   string
	}{
		{"a client's own header reaches the upstream", sent, "X-Client", "kept"},
		{"the client's credential reaches the upstream", sent, "Authorization", "Bearer sk-client"},
		{"the content type reaches the upstream", sent, "Content-Type", "application/json"},
		{"keep-alive stays on the client's hop", sent, "Keep-Alive", ""},
		{"the proxy credential stays on the client's hop", sent, "Proxy-Authorization", ""},
		{"an upgrade stays on the client's hop", sent, "Upgrade", ""},
		{"an upstream's own header reaches the client", resp.Header, "X-Upstream", "kept"},
		{"the upstream's request id reaches the client", resp.Header, "X-Request-Id", "req-upstream"},
		{"the content encoding of a body the transport read stays behind", resp.Header, "Content-Encoding", ""},
		{"keep-alive stays on the upstream's hop", resp.Header, "Keep-Alive", ""},
		{"a proxy challenge stays on the upstream's hop", resp.Header, "Proxy-Authenticate", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.header.Get(tc.name); got != tc.want {
				t.Errorf("%s = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}

func TestUpstreamFailures(t *testing.T) {
	t.Parallel()
	h := boundedHarness(t)
	down := newHarness(t, "", upstreamsAt("http://127.0.0.1:1")) // nothing listens on port 1
	tests := []struct {
		desc       string
		h          *harness
		reply      reply
		path, body string
		wantStatus int
		wantBody   string
	}{
		{desc: "an upstream that is down is a 502 in the provider's shape", h: down, path: "/v1/chat/completions", body: chatBody,
			wantStatus: 502, wantBody: `"code":"warden.upstream_error"`},
		{desc: "an upstream that does not answer in time is a 504", h: h, reply: reply{delay: 2 * time.Second, body: []byte(`{}`)},
			path: "/v1/chat/completions", body: chatBody, wantStatus: 504, wantBody: `"code":"warden.upstream_timeout"`},
		{desc: "a body over the limit is a 413 and never goes upstream", h: h, path: "/v1/messages",
			body:       `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"` + strings.Repeat("a", 2000) + `"}]}`,
			wantStatus: 413, wantBody: `"type":"request_too_large"`},
		{desc: "a request Warden cannot read is a 400 in the provider's shape", h: h, path: "/v1beta/models/g:generateContent", body: `{"contents":`,
			wantStatus: 400, wantBody: `"status":"INVALID_ARGUMENT"`},
		{desc: "a Gemini stream without alt=sse is refused with how to ask", h: h, path: "/v1beta/models/g:streamGenerateContent", body: `{}`,
			wantStatus: 400, wantBody: "alt=sse"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			tc.h.up.answer(tc.reply)
			_, _, _, _, before := tc.h.up.sent()
			resp, body := tc.h.post(t, tc.path, "application/json", tc.body, nil)
			if resp.StatusCode != tc.wantStatus || !strings.Contains(body, tc.wantBody) {
				t.Errorf("got %d %s, want %d with %s", resp.StatusCode, body, tc.wantStatus, tc.wantBody)
			}
			if _, _, _, _, after := tc.h.up.sent(); tc.wantStatus < 500 && after != before {
				t.Errorf("the upstream was called for a request Warden refused")
			}
		})
	}
}

// A stream that breaks off after a tool call's delta ends with the provider's error event, and the held
// call never reaches the client.
func TestStreamCutMidwayReleasesNothingHeld(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	body := fixture(t, "openai", "stream_denied_call.sse")
	cut := strings.Index(string(body), `"finish_reason":"tool_calls"`) - 100
	h.up.answer(reply{contentType: "text/event-stream", body: body, cutAfter: cut})
	resp, out := h.post(t, "/v1/chat/completions", "application/json", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if strings.Contains(out, "tool_calls") {
		t.Errorf("a held tool call was released: %s", out)
	}
	if !strings.Contains(out, gateway.CodeStreamBroken) {
		t.Errorf("the stream does not end with Warden's error event: %s", out)
	}
	if got := resp.Trailer.Get(gateway.HeaderDecision); got == "" {
		t.Errorf("no %s trailer", gateway.HeaderDecision)
	}
}

func TestReadyzTurnsUnavailableWhenDraining(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	for _, tc := range []struct {
		desc  string
		drain bool
		want  int
	}{{"ready before draining", false, 200}, {"unavailable while draining", true, 503}} {
		if tc.drain {
			h.g.Drain()
		}
		rec := httptest.NewRecorder()
		h.g.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
		if rec.Code != tc.want {
			t.Errorf("%s: /readyz = %d, want %d", tc.desc, rec.Code, tc.want)
		}
	}
}

// streamInBackground sends a streamed chat request to the gateway at base and answers with what read makes
// of the response (or the request's error): a test that waits for it with a liveness bound must not block
// in the request itself.
func streamInBackground(base string, read func(*http.Response) string) <-chan string {
	ch := make(chan string, 1)
	go func() {
		resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			ch <- err.Error()
			return
		}
		defer resp.Body.Close()
		ch <- read(resp)
	}()
	return ch
}

// TestStreamHeadReachesTheClientBeforeTheFirstEvent: the response's head goes out as soon as the upstream's
// arrives, so that a client with a timeout on the head (Go's ResponseHeaderTimeout, say) sees the response
// begin however long the model takes to its first token, as it would from the provider.
func TestStreamHeadReachesTheClientBeforeTheFirstEvent(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Write(fixture(t, "openai", "stream_text.sse"))
	}))
	defer up.Close()
	h := newHarness(t, "", upstreamsAt(up.URL))
	defer close(release) // before the servers close, which wait for the exchange to end
	head := streamInBackground(h.url, func(resp *http.Response) string { return resp.Header.Get("Content-Type") })
	select {
	case ct := <-head:
		if ct != "text/event-stream" {
			t.Errorf("head's Content-Type = %q, want text/event-stream", ct)
		}
	case <-time.After(10 * time.Second): // a liveness bound, not a speed check: a held head never comes
		t.Fatal("the response's head did not reach the client while the upstream held its first event")
	}
}

// unwrapOnly is a middleware's writer that does not flush itself but hands out the writer it wraps, as
// http.ResponseController expects of middleware.
type unwrapOnly struct{ http.ResponseWriter }

func (w unwrapOnly) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// flushesItself is a middleware's writer that flushes through to the writer it wraps.
type flushesItself struct{ http.ResponseWriter }

func (w flushesItself) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestStreamedTextReachesTheClientWhileTheUpstreamWaits: an event goes out before the gateway waits for the
// next one, though the gateway flushes before reading rather than after every write, and whichever way the
// writer it is handed can be flushed.
func TestStreamedTextReachesTheClientWhileTheUpstreamWaits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		wrap func(http.ResponseWriter) http.ResponseWriter
	}{
		{"the server's own writer", func(w http.ResponseWriter) http.ResponseWriter { return w }},
		{"a middleware writer that only unwraps", func(w http.ResponseWriter) http.ResponseWriter { return unwrapOnly{w} }},
		{"a middleware writer that flushes", func(w http.ResponseWriter) http.ResponseWriter { return flushesItself{w} }},
		{"two middleware writers deep", func(w http.ResponseWriter) http.ResponseWriter { return unwrapOnly{flushesItself{w}} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"first"},"finish_reason":null}]}` + "\n\n"))
				http.NewResponseController(w).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				w.Write([]byte(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"))
			}))
			defer up.Close()
			h := newHarness(t, "", upstreamsAt(up.URL))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.g.ServeHTTP(tc.wrap(w), r)
			}))
			defer srv.Close()
			defer close(release) // before the servers close, which wait for the exchange to end
			// The request goes in the background too: without a flush even the response's head stays in
			// the gateway's buffer.
			line := streamInBackground(srv.URL, func(resp *http.Response) string {
				l, _ := bufio.NewReader(resp.Body).ReadString('\n')
				return l
			})
			select {
			case l := <-line:
				if !strings.Contains(l, `"content":"first"`) {
					t.Errorf("first line = %q, want the first event", l)
				}
			case <-time.After(10 * time.Second): // a liveness bound, not a speed check: without a flush it never comes
				t.Fatal("the first event did not reach the client while the upstream waited")
			}
		})
	}
}
