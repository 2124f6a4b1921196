package gateway_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/gateway"
)

// rawRequest sends a request's headers and the first part of its body over a connection of its own, then
// sends the rest of the body in pieces `gap` apart (nothing more when rest is empty: a body that never
// finishes), and reads the answer, for up to 20 s.
func rawRequest(t *testing.T, base, path string, declared int, first string, rest []string, gap time.Duration) (*http.Response, string) {
	t.Helper()
	u, _ := url.Parse(base)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	head := "POST " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\nContent-Length: " +
		itoa(declared) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head+first); err != nil {
		t.Fatal(err)
	}
	go func() {
		for _, p := range rest {
			time.Sleep(gap)
			if _, err := io.WriteString(conn, p); err != nil {
				return
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestRequestBodiesHaveATimeToArrive(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "", func(c *gateway.Config) { c.BodyTimeout = 400 * time.Millisecond })
	chat := `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	tests := []struct {
		desc, path, wantBody string
	}{
		{"an OpenAI Chat body that never finishes is a 408 in OpenAI's shape", "/v1/chat/completions", `"code":"warden.request_timeout"`},
		{"a Responses body that never finishes is a 408 in OpenAI's shape", "/v1/responses", `"code":"warden.request_timeout"`},
		{"an Anthropic body that never finishes is a 408 in Anthropic's shape", "/v1/messages", `"type":"error"`},
		{"a Gemini body that never finishes is a 408 in Google's shape", "/v1beta/models/g:generateContent", `"code":408`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, _, _, _, before := h.up.sent()
			resp, body := rawRequest(t, h.url, tt.path, 1000, `{"model":`, nil, 0)
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(body, tt.wantBody) {
				t.Errorf("got %d %s, want 408 with %s", resp.StatusCode, body, tt.wantBody)
			}
			if got := resp.Header.Get(gateway.HeaderDecision); got == "" {
				t.Errorf("no %s header on the 408", gateway.HeaderDecision)
			}
			if _, _, _, _, after := h.up.sent(); after != before {
				t.Errorf("the upstream was called for a body that never arrived")
			}
		})
	}
	t.Run("a body that arrives in pieces within the time is answered", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, "", func(c *gateway.Config) { c.BodyTimeout = 5 * time.Second })
		h.up.answer(reply{body: fixture(t, "openai", "healthy_text.json")})
		pieces := []string{chat[10:20], chat[20:40], chat[40:]}
		resp, body := rawRequest(t, h.url, "/v1/chat/completions", len(chat), chat[:10], pieces, 50*time.Millisecond)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("got %d %s, want 200", resp.StatusCode, body)
		}
	})
	t.Run("a stream that lasts longer than the body's time is not cut", func(t *testing.T) {
		t.Parallel()
		stream := fixture(t, "openai", "stream_text.sse")
		h := newHarness(t, "", func(c *gateway.Config) { c.BodyTimeout = 200 * time.Millisecond })
		h.up.answer(reply{contentType: "text/event-stream", body: stream, pauseAfter: len(stream) / 2, pause: 600 * time.Millisecond})
		resp, out := h.post(t, "/v1/chat/completions", "application/json", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(out, "[DONE]") || strings.Contains(out, "warden.") {
			t.Errorf("got %d, a stream that did not end cleanly:\n%s", resp.StatusCode, out)
		}
	})
}
