package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

func TestGatewayUpstreams(t *testing.T) {
	t.Parallel()
	env := func(k string) (string, bool) {
		if k == "DEEPSEEK_API_KEY" {
			return "sk-ds", true
		}
		return "", false
	}
	tests := []struct {
		desc      string
		cfg       []config.Upstream
		flags     []string
		want      []string // name prefix url key
		wantError string
	}{
		{desc: "a flag points a built-in upstream elsewhere", flags: []string{"openai=http://127.0.0.1:9000"},
			want: []string{"openai  http://127.0.0.1:9000 "}},
		{desc: "a configured upstream gets its default prefix and its key from the environment",
			cfg:  []config.Upstream{{Name: "deepseek", URL: "https://api.deepseek.com", APIKeyEnv: "DEEPSEEK_API_KEY"}},
			want: []string{"deepseek /deepseek https://api.deepseek.com sk-ds"}},
		{desc: "a flag wins over the configured URL", cfg: []config.Upstream{{Name: "deepseek", URL: "https://api.deepseek.com"}},
			flags: []string{"deepseek=http://127.0.0.1:9001"}, want: []string{"deepseek /deepseek http://127.0.0.1:9001 "}},
		{desc: "an unset key variable stops the start", cfg: []config.Upstream{{Name: "openai", APIKeyEnv: "OPENAI_API_KEY"}},
			wantError: "api_key_env names OPENAI_API_KEY, which is not set"},
		{desc: "a flag for an unknown upstream is a usage error", flags: []string{"cohere=http://x"},
			wantError: "--upstream cohere: no such upstream"},
		{desc: "a flag without a URL is a usage error", flags: []string{"openai"}, wantError: "want NAME=URL"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			overrides, err := parseUpstreamFlags(tc.flags)
			var ups []gateway.Upstream
			if err == nil {
				ups, err = gatewayUpstreams(tc.cfg, overrides, env)
			}
			if tc.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantError) {
					t.Fatalf("err = %v, want %q", err, tc.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range ups {
				got = append(got, u.Name+" "+u.Prefix+" "+u.URL.String()+" "+u.APIKey)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("upstreams = %q, want %q", got, tc.want)
			}
		})
	}
}

// serveGateway answers until its context ends, then drains and returns without error.
func TestServeGatewayDrainsOnShutdown(t *testing.T) {
	t.Parallel()
	g, ln := defaultGateway(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveGateway(ctx, ln, g, slog.New(slog.DiscardHandler), 5*time.Second, serverTimeouts{})
	}()
	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/healthz = %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveGateway = %v, want a clean stop", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serveGateway did not stop")
	}
}

// A client that holds a connection without sending a request loses it: one that never finishes its
// headers, and one that keeps a connection idle after its answer.
func TestServeGatewayClosesConnectionsThatSendNothing(t *testing.T) {
	t.Parallel()
	g, ln := defaultGateway(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // after the parallel subtests
	go serveGateway(ctx, ln, g, slog.New(slog.DiscardHandler), time.Second, serverTimeouts{header: 300 * time.Millisecond, idle: 300 * time.Millisecond})
	tests := []struct {
		desc, send string
	}{
		{"headers that never finish", "GET /healthz HTTP/1.1\r\nHost: x\r\n"},
		{"a kept-alive connection left idle after its answer", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(20 * time.Second))
			if _, err := io.WriteString(conn, tt.send); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadAll(conn); err != nil { // until the server closes the connection
				t.Errorf("the server kept the connection: %v", err)
			}
		})
	}
}

// defaultGateway is a gateway on the embedded default config and a loopback listener for it.
func defaultGateway(t *testing.T) (*gateway.Gateway, net.Listener) {
	t.Helper()
	l, err := config.Load(context.Background(), "", config.Options{Stderr: io.Discard, WrapRecorder: gateway.Tally})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	g, err := gateway.New(gateway.Config{Pipeline: pipeline.New(l, nil)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return g, ln
}
