// Package gateway is Warden's HTTP surface: a reverse proxy that speaks the providers' own wire formats
// (OpenAI Chat Completions and Responses, Anthropic Messages, Gemini generateContent; streaming and not) and
// runs every exchange through the pipeline, so that an agent in any language is guarded by changing its
// client's base URL.
//
// It must never release what a guardrail has not passed: a refused request never goes upstream, a held
// tool call is never released after an error, and a stream that breaks off ends with the provider's error
// event. It never logs content or credentials: logs name routes, guardrails, statuses and reason codes.
// Its Go API serves `warden serve` and may change until the gateway is stable; the HTTP surface is the
// providers' own.
package gateway

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden/pipeline"
)

// Provider families: how an upstream authenticates and which paths it serves by default.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderGemini    = "gemini"
)

// Upstream is a provider endpoint Warden forwards to.
type Upstream struct {
	// Name identifies the upstream in flags, logs and metrics.
	Name string
	// URL is the base the request path (after Prefix) is appended to, e.g. https://api.openai.com.
	URL *url.URL
	// Prefix is the path prefix that selects this upstream ("/deepseek"); empty for the three built-in
	// upstreams, which are chosen by path and headers.
	Prefix string
	// Provider is the upstream's family (openai, anthropic, gemini): which header carries an injected key.
	Provider string
	// APIKey, when set, replaces whatever credential the client sent; empty passes the client's through.
	APIKey string
	// Timeout bounds a whole exchange with this upstream, a stream included; 0 means DefaultTimeout.
	Timeout time.Duration
}

// DefaultUpstreams are the providers' public endpoints, used for the built-in names unless overridden.
var DefaultUpstreams = map[string]string{
	ProviderOpenAI:    "https://api.openai.com",
	ProviderAnthropic: "https://api.anthropic.com",
	ProviderGemini:    "https://generativelanguage.googleapis.com",
}

// Defaults of Config.
const (
	DefaultMaxBodyBytes     = 32 << 20
	DefaultMaxResponseBytes = 64 << 20
	DefaultTimeout          = 10 * time.Minute
	DefaultBodyTimeout      = time.Minute
	DefaultOnDeny           = pipeline.DenyRetry
	DefaultDenyRetries      = 2
	DefaultStreamRetries    = 2
)

// StreamRetriesOf is Config.StreamRetries for a config file's gateway.stream_retries: the default when
// unset (nil), none when 0.
func StreamRetriesOf(n *int) int {
	switch {
	case n == nil:
		return 0
	case *n == 0:
		return -1
	}
	return *n
}

// Config is what a Gateway is built from.
type Config struct {
	Pipeline *pipeline.Pipeline
	// Upstreams lists every upstream; the built-in openai, anthropic and gemini are added with their public
	// endpoints when absent.
	Upstreams []Upstream
	// MaxBodyBytes bounds a request body (DefaultMaxBodyBytes when 0); MaxResponseBytes a whole upstream
	// response body (DefaultMaxResponseBytes when 0). Streams are not bounded as a whole.
	MaxBodyBytes, MaxResponseBytes int64
	// BodyTimeout bounds the reading of a request body, from the exchange's start (DefaultBodyTimeout when
	// 0): a client that sends its headers and then its body slowly, or never, gets 408 and its connection
	// back, instead of holding a goroutine and a connection for ever. The answer, a stream included, is not
	// bounded by it. The headers are the http.Server's to bound (ReadHeaderTimeout).
	BodyTimeout time.Duration
	// UserHeader names the HTTP header that identifies the end user when the body names none.
	UserHeader string
	// Transport carries requests upstream; a tuned http.Transport when nil.
	Transport http.RoundTripper
	// Logger receives one line per exchange, without content; nil discards.
	Logger *slog.Logger
	// OnDeny says what a response with a denied tool call becomes: retry (the default), explain or error;
	// see pipeline.OnDeny.
	OnDeny pipeline.OnDeny
	// DenyRetries bounds the follow-up requests one exchange makes under retry; DefaultDenyRetries when 0.
	// When they are spent, the last response is explained.
	DenyRetries int
	// StreamRetries bounds the self-corrections of one streamed exchange: a stream guardrail's retry writes
	// its feedback into the client's stream and re-issues the request so that the model continues from it
	// (pipeline.Rounds). DefaultStreamRetries when 0; negative allows none, and the retry ends the stream
	// with the format's error event.
	StreamRetries int
	// Metrics are served at /metrics; new ones (without guardrail evaluations, which only a recorder
	// wrapped by Metrics.Recorder counts) when nil.
	Metrics *Metrics
}

// Gateway is the HTTP handler. It is safe for concurrent use.
type Gateway struct {
	cfg       Config
	builtin   map[string]*Upstream // by provider
	prefixed  []*Upstream          // longest prefix first
	proxies   map[*Upstream]*httputil.ReverseProxy
	client    *http.Client
	log       *slog.Logger
	draining  atomic.Bool
	mux       *http.ServeMux
	transport http.RoundTripper
	// deciding answers responses under cfg.OnDeny; explaining under explain, once retries are spent.
	deciding, explaining *pipeline.Pipeline
	// continued maps the response ids clients hold to the stored responses they stand for (continuity.go).
	continued continuity
}

// New checks cfg and builds a Gateway.
func New(cfg Config) (*Gateway, error) {
	if cfg.Pipeline == nil || cfg.Pipeline.Engine == nil {
		return nil, fmt.Errorf("gateway: no pipeline")
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	switch cfg.OnDeny {
	case "":
		cfg.OnDeny = DefaultOnDeny
	case pipeline.DenyRetry, pipeline.DenyExplain, pipeline.DenyError:
	default:
		return nil, fmt.Errorf("gateway: on_deny %q is not one of %s", cfg.OnDeny, strings.Join(pipeline.OnDenyNames, ", "))
	}
	if cfg.DenyRetries < 0 {
		return nil, fmt.Errorf("gateway: deny_retries %d is negative", cfg.DenyRetries)
	}
	if cfg.DenyRetries == 0 {
		cfg.DenyRetries = DefaultDenyRetries
	}
	switch {
	case cfg.StreamRetries == 0:
		cfg.StreamRetries = DefaultStreamRetries
	case cfg.StreamRetries < 0:
		cfg.StreamRetries = 0
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics()
	}
	// The gateway waits for parallel input guardrails before it reads the answer, so they may overlap the
	// upstream call.
	overlapping := *cfg.Pipeline
	overlapping.OverlapInput = true
	cfg.Pipeline = &overlapping
	g := &Gateway{cfg: cfg, builtin: map[string]*Upstream{}, proxies: map[*Upstream]*httputil.ReverseProxy{}, log: cfg.Logger,
		deciding: cfg.Pipeline.WithOnDeny(cfg.OnDeny), explaining: cfg.Pipeline.WithOnDeny(pipeline.DenyExplain)}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	g.transport = cfg.Transport
	if g.transport == nil {
		g.transport = NewTransport()
	}
	g.client = &http.Client{Transport: g.transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	names := map[string]bool{}
	for i := range cfg.Upstreams {
		u := cfg.Upstreams[i]
		if err := checkUpstream(&u); err != nil {
			return nil, err
		}
		if names[u.Name] {
			return nil, fmt.Errorf("gateway: upstream %q is defined twice", u.Name)
		}
		names[u.Name] = true
		up := &u
		if up.Prefix == "" {
			g.builtin[up.Provider] = up
		} else {
			g.prefixed = append(g.prefixed, up)
		}
	}
	for name, base := range DefaultUpstreams {
		if g.builtin[name] == nil && !names[name] {
			u, _ := url.Parse(base)
			up := &Upstream{Name: name, URL: u, Provider: name}
			if err := checkUpstream(up); err != nil {
				panic(err) // the defaults are valid
			}
			g.builtin[name] = up
		}
	}
	sort.SliceStable(g.prefixed, func(i, j int) bool { return len(g.prefixed[i].Prefix) > len(g.prefixed[j].Prefix) })
	for _, up := range g.upstreams() {
		g.proxies[up] = g.passthroughProxy(up)
	}
	g.mux = http.NewServeMux()
	g.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	g.mux.HandleFunc("GET /readyz", g.ready)
	g.mux.Handle("GET /metrics", cfg.Metrics.Handler())
	g.mux.HandleFunc("/", g.serveProvider)
	return g, nil
}

// checkUpstream fills an upstream's defaults and rejects what cannot work.
func checkUpstream(u *Upstream) error {
	switch {
	case u.Name == "":
		return fmt.Errorf("gateway: an upstream has no name")
	case u.URL == nil || u.URL.Host == "" || (u.URL.Scheme != "http" && u.URL.Scheme != "https"):
		return fmt.Errorf("gateway: upstream %q: the URL must be http:// or https:// with a host", u.Name)
	case u.Prefix != "" && (!strings.HasPrefix(u.Prefix, "/") || strings.HasSuffix(u.Prefix, "/")):
		return fmt.Errorf("gateway: upstream %q: prefix %q must start with / and not end with one", u.Name, u.Prefix)
	}
	if u.Provider == "" {
		u.Provider = ProviderOpenAI
		if _, builtin := DefaultUpstreams[u.Name]; builtin {
			u.Provider = u.Name
		}
	}
	if _, ok := DefaultUpstreams[u.Provider]; !ok {
		return fmt.Errorf("gateway: upstream %q: provider %q is not one of openai, anthropic, gemini", u.Name, u.Provider)
	}
	_, builtin := DefaultUpstreams[u.Name]
	switch {
	case u.Prefix == "" && !builtin:
		return fmt.Errorf("gateway: upstream %q needs a prefix (only openai, anthropic and gemini are chosen by path)", u.Name)
	case u.Prefix != "" && builtin:
		return fmt.Errorf("gateway: upstream %q is chosen by path and takes no prefix; give a prefixed upstream another name", u.Name)
	case builtin && u.Provider != u.Name:
		return fmt.Errorf("gateway: upstream %q is a %s upstream; its provider cannot be %q", u.Name, u.Name, u.Provider)
	}
	if u.Timeout <= 0 {
		u.Timeout = DefaultTimeout
	}
	return nil
}

// upstreams lists every upstream, built-in ones first in a fixed order.
func (g *Gateway) upstreams() []*Upstream {
	var out []*Upstream
	for _, name := range []string{ProviderOpenAI, ProviderAnthropic, ProviderGemini} {
		if up := g.builtin[name]; up != nil {
			out = append(out, up)
		}
	}
	return append(out, g.prefixed...)
}

// NewTransport returns the transport a Gateway uses when Config.Transport is nil, tuned for many
// concurrent exchanges with few upstream hosts; a caller that wraps the transport (to trace or time the
// upstream calls) starts from it.
func NewTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          1024,
		MaxIdleConnsPerHost:   256,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// ServeHTTP implements http.Handler.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) { g.mux.ServeHTTP(w, r) }

// Drain makes /readyz answer 503 so that a load balancer stops sending new requests while the server
// finishes the ones in flight (http.Server.Shutdown waits for them, streams included).
func (g *Gateway) Drain() { g.draining.Store(true) }

func (g *Gateway) ready(w http.ResponseWriter, _ *http.Request) {
	if g.draining.Load() {
		http.Error(w, "draining", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ready\n"))
}

// Upstreams describes the configured upstreams for a start-up log line: name, prefix and URL.
func (g *Gateway) Upstreams() []string {
	var out []string
	for _, up := range g.upstreams() {
		prefix := up.Prefix
		if prefix == "" {
			prefix = "(by path)"
		}
		key := "client's key"
		if up.APIKey != "" {
			key = "injected key"
		}
		out = append(out, fmt.Sprintf("%s %s → %s (%s)", up.Name, prefix, up.URL.Redacted(), key))
	}
	return out
}
