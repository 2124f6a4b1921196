package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
	"github.com/spf13/cobra"
)

const defaultListen = "127.0.0.1:8787"

func newServeCommand(s streams) *cobra.Command {
	var configFile, listen, logFormat, adminAddr string
	var upstreamFlags []string
	var drain time.Duration
	cmd := &cobra.Command{
		Use:   "serve [--config FILE] [--listen ADDR] [--upstream NAME=URL]...",
		Short: "Run the gateway: guard OpenAI, Anthropic and Gemini traffic by changing a base URL",
		Long: `Serve runs Warden's gateway, a reverse proxy that speaks the providers' own wire formats. Point an
agent's LLM client at it instead of the provider and every turn is guarded: the end-user ledger and the
input and tool-result guardrails before the request goes upstream; safety termination, tool-call
authorization and the response guardrails on the answer, streamed or whole.

Guarded routes (POST, streaming and not):
  /v1/chat/completions                       OpenAI Chat Completions (upstream openai)
  /v1/responses                              OpenAI Responses (upstream openai)
  /v1/messages                               Anthropic Messages (upstream anthropic)
  /v1beta/models/{model}:generateContent     Gemini (upstream gemini)
  /v1beta/models/{model}:streamGenerateContent?alt=sse
Other /v1/ paths go to openai (to anthropic when the request has an anthropic-version header) and /v1beta/
paths to gemini, unguarded but logged. Upstreams configured with a prefix (gateway.upstreams in the config:
Azure, DeepSeek, GLM, Kimi, any OpenAI-compatible base URL) serve the same routes under that prefix, e.g.
/deepseek/chat/completions. Anything else gets 404. /healthz, /readyz.

The client's API key passes through, unless the upstream names api_key_env: then Warden sends that key
instead. Keys and content never reach the logs. Each answer carries X-Warden-Evaluated (guardrails
evaluated / configured for the stages the exchange went through) and X-Warden-Decision (what was decided
about the answer the client got: allow, modify, reject, halt); a stream's headers say pending, and its
trailers carry the final values.

A tool call a guardrail asks about (action: ask) waits for a person when the config has an approvals
section: on_ask wait holds the answer until someone approves or denies it on the approvals page (--admin,
or approvals.admin in the config) or with warden approvals; see docs/approval.md.

On SIGINT or SIGTERM Warden stops accepting connections, answers /readyz with 503, and lets exchanges in
flight, streams included, finish for up to --drain before closing them.`,
		Example: `  warden serve
  warden serve --config warden.yaml --listen :8787
  warden serve --upstream openai=http://127.0.0.1:9000

  # then, for an OpenAI client:
  export OPENAI_BASE_URL=http://127.0.0.1:8787/v1`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			logger, err := newLogger(s, logFormat)
			if err != nil {
				return usageError{err}
			}
			overrides, err := parseUpstreamFlags(upstreamFlags)
			if err != nil {
				return usageError{err}
			}
			metrics := gateway.NewMetrics()
			l, err := config.Load(cmd.Context(), configFile, config.Options{Stderr: s.err, Stdout: s.out,
				WrapRecorder: func(next warden.Recorder) warden.Recorder { return gateway.Tally(metrics.Recorder(next)) }})
			if err != nil {
				return err
			}
			defer l.Close()
			gc := l.Parsed.File.Gateway
			if gc == nil {
				gc = &config.Gateway{}
			}
			ups, err := gatewayUpstreams(gc.Upstreams, overrides, os.LookupEnv)
			if err != nil {
				return err
			}
			cfg := gateway.Config{Pipeline: pipeline.New(l, logger), Upstreams: ups, MaxBodyBytes: gc.MaxBodyBytes,
				MaxResponseBytes: gc.MaxResponseBytes, BodyTimeout: gc.ReadBodyTimeout.Std(), Logger: logger, OnDeny: pipeline.OnDeny(gc.OnDeny), DenyRetries: gc.DenyRetries, StreamRetries: gateway.StreamRetriesOf(gc.StreamRetries), Metrics: metrics}
			if lg := l.Parsed.File.Ledger; lg != nil {
				cfg.UserHeader = lg.UserHeader
			}
			g, err := gateway.New(cfg)
			if err != nil {
				return err
			}
			addr := listen
			if addr == "" {
				addr = gc.Listen
			}
			if addr == "" {
				addr = defaultListen
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if _, err := startAdmin(ctx, l, adminAddr, logger); err != nil {
				ln.Close()
				return err
			}
			return serveGateway(ctx, ln, g, logger, drain, serverTimeouts{header: gc.ReadHeaderTimeout.Std(), idle: gc.IdleTimeout.Std()})
		},
	}
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "config `file` (default: the embedded default)")
	cmd.Flags().StringVar(&listen, "listen", "", "`address` to listen on (default: gateway.listen, else "+defaultListen+")")
	cmd.Flags().StringArrayVar(&upstreamFlags, "upstream", nil, "`NAME=URL`: send upstream NAME's traffic to URL (repeatable), e.g. openai=http://127.0.0.1:9000")
	cmd.Flags().DurationVar(&drain, "drain", 30*time.Second, "on shutdown, how long exchanges in flight may take to finish")
	cmd.Flags().StringVar(&logFormat, "log-format", "text", "log lines as text or json (stderr)")
	cmd.Flags().StringVar(&adminAddr, "admin", "", "serve the approvals page and API on `address` (default: approvals.admin.listen when configured; off otherwise)")
	return cmd
}

func newLogger(s streams, format string) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(s.err, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(s.err, nil)), nil
	}
	return nil, fmt.Errorf("--log-format: %q is not text or json", format)
}

// parseUpstreamFlags reads --upstream NAME=URL flags.
func parseUpstreamFlags(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		name, raw, ok := strings.Cut(f, "=")
		if !ok || name == "" || raw == "" {
			return nil, fmt.Errorf("--upstream %q: want NAME=URL, e.g. openai=http://127.0.0.1:9000", f)
		}
		if u, err := url.Parse(raw); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("--upstream %s: %q is not an http:// or https:// URL with a host", name, raw)
		}
		out[name] = raw
	}
	return out, nil
}

// gatewayUpstreams merges the config's upstreams with --upstream overrides and reads injected keys from
// the environment. A flag may name a built-in upstream or a configured one; any other name is an error.
func gatewayUpstreams(cfg []config.Upstream, overrides map[string]string, env func(string) (string, bool)) ([]gateway.Upstream, error) {
	byName := map[string]config.Upstream{}
	var order []string
	for _, u := range cfg {
		byName[u.Name] = u
		order = append(order, u.Name)
	}
	for name := range overrides {
		if _, ok := byName[name]; ok {
			continue
		}
		if _, builtin := gateway.DefaultUpstreams[name]; !builtin {
			return nil, usageError{fmt.Errorf("--upstream %s: no such upstream (built-in: openai, anthropic, gemini; others are defined in gateway.upstreams)", name)}
		}
		byName[name] = config.Upstream{Name: name}
		order = append(order, name)
	}
	var out []gateway.Upstream
	for _, name := range order {
		c := byName[name]
		raw := c.URL
		if o, ok := overrides[name]; ok {
			raw = o
		}
		if raw == "" {
			raw = gateway.DefaultUpstreams[name]
		}
		u, err := url.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: %v", name, err)
		}
		up := gateway.Upstream{Name: name, URL: u, Provider: c.Provider, Timeout: time.Duration(c.Timeout)}
		if _, builtin := gateway.DefaultUpstreams[name]; !builtin {
			up.Prefix = c.Prefix
			if up.Prefix == "" {
				up.Prefix = "/" + name
			}
		}
		if c.APIKeyEnv != "" {
			key, ok := env(c.APIKeyEnv)
			if !ok || key == "" {
				return nil, fmt.Errorf("upstream %s: api_key_env names %s, which is not set", name, c.APIKeyEnv)
			}
			up.APIKey = key
		}
		out = append(out, up)
	}
	return out, nil
}

// Defaults of serverTimeouts.
const (
	defaultReadHeaderTimeout = 10 * time.Second
	defaultIdleTimeout       = 2 * time.Minute
)

// serverTimeouts bound what a client can hold of the server without sending a request: the time to send
// a request's headers, and a kept-alive connection's wait for its next request (0 for the defaults). A
// body's time is the gateway's (gateway.Config.BodyTimeout), so that it is lifted once the body is read
// and never bounds a long answer, as http.Server's ReadTimeout would.
type serverTimeouts struct{ header, idle time.Duration }

// serveGateway serves until ctx ends, then drains: /readyz turns 503, the listener closes, and exchanges in
// flight get up to drain to finish.
func serveGateway(ctx context.Context, ln net.Listener, g *gateway.Gateway, logger *slog.Logger, drain time.Duration, to serverTimeouts) error {
	if to.header <= 0 {
		to.header = defaultReadHeaderTimeout
	}
	if to.idle <= 0 {
		to.idle = defaultIdleTimeout
	}
	srv := &http.Server{Handler: g, ReadHeaderTimeout: to.header, IdleTimeout: to.idle, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	logger.Info("warden gateway listening", "addr", ln.Addr().String(), "upstreams", g.Upstreams())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down: draining exchanges in flight", "drain", drain)
	g.Drain()
	sctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("drain: exchanges still in flight after %s were cut off", drain)
		}
		return err
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}
