// Package gatewaybench measures what the gateway adds to an exchange, side by side in one run: a fake
// upstream of one wire format (OpenAI Chat Completions unless told) on loopback, reached directly, through a bare httputil.ReverseProxy, and through Warden
// with no guardrails and with a config's guardrails (the embedded defaults unless told). It reports latency
// percentiles at concurrency 1, time to first token and per-chunk delay of streams, and throughput at a
// higher concurrency, and sets each against the bare proxy. `warden bench` runs it.
//
// It must never report a figure for an exchange that went wrong: a non-200 answer, a stream that lost a
// chunk, or a Warden answer without its X-Warden-Evaluated report fails the run. By default everything
// runs in one process, so the load generator and the upstream share the CPUs with the proxy under test;
// the figures are comparable with each other, not with a bench that pins each part to its own cores.
// That is why the concurrency-1 exchanges are timed inside the proxies as well (see probe), and why the
// report gives this machine's stall rate and what a wake across CPUs costs. Options.Pin runs the proxies
// in a process of their own on CPUs of their own instead, and Options.Apart each proxy in a process of
// its own, as users run them, so that each one's CPU and resident memory are its alone (see proxies.go).
// Its API serves the CLI and may change.
package gatewaybench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	_ "github.com/agentwarden/warden/builtin" // the guardrail modules a config may name
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

// Options say how much to measure. Zero values take the defaults below.
type Options struct {
	// Config is the Warden config file of the guarded target; empty means the embedded defaults.
	Config string
	// Wire is the wire format the bench speaks (see Wires); empty means openai-chat.
	Wire string
	// KeepAudit writes the config's audit records to its sink; by default they are discarded, so that the
	// figures are the gateway's and not the sink's.
	KeepAudit bool
	// Requests is how many whole requests each target answers at concurrency 1, and how many streams it
	// answers there to time their first token.
	Requests int
	// StreamRequests is how many streams paced by ChunkInterval each target answers at concurrency 1, to
	// time each chunk's trip.
	StreamRequests int
	// Chunks is how many text deltas a stream carries before its tool call and finish.
	Chunks int
	// ChunkInterval is the upstream's pause between a stream's events (text deltas, the tool call, the
	// finish) in the concurrency-1 streams, as a model streams them; throughput streams have none, so that
	// the CPU is what limits them.
	ChunkInterval time.Duration
	// Concurrency is how many clients the throughput phase runs at once.
	Concurrency int
	// Duration is how long each target's throughput phase lasts, for whole requests and for streams each.
	Duration time.Duration
	// Rounds interleaves the targets: each concurrency-1 phase runs in this many rounds, every target
	// taking its share in each, so that a slow spell of a shared machine falls on all of them alike. It is
	// at most the fewer of Requests and StreamRequests; by default each round gives a target one paced
	// stream.
	Rounds int
	// ThroughputRounds does the same for the throughput phase: each target's Duration is cut in this many
	// shares.
	ThroughputRounds int
	// TimedGC leaves the garbage collector alone in the concurrency-1 phases: it runs when due, inside the
	// timed exchanges. By default the bench collects between them instead (see collector).
	TimedGC bool
	// KernelAcks leaves each connection's TCP ACK mode to the kernel. By default every connection the bench
	// dials asks for delayed-ACK mode before each write, so that every target's exchanges start in the
	// same mode (see acks.go); Linux only, elsewhere the mode is always the kernel's.
	KernelAcks bool
	// Pin runs the proxies (the bare one and both Warden targets) in a process of their own on the upper
	// half of this process's CPUs, and the client and the upstream on the rest, as the public gateway
	// benchmarks pin the gateway to cores of its own: the proxies then share neither CPUs nor caches with
	// the load, and their figures are the proxies'. Linux only; it needs two CPUs at least.
	Pin bool
	// Apart runs each proxy in a process of its own, as a user runs a proxy: the throughput phase's CPU
	// per exchange is then that proxy's alone, with the client's and upstream's, and the report gives each
	// process's resident memory after the throughput phase. With Pin the processes share the proxies'
	// CPUs; without it, every CPU.
	Apart bool
	// ProxyCommand is the command line that starts the proxies' process with Pin or Apart: a program that
	// calls ServeProxies with its standard input and output (`warden bench --serve-proxies`).
	ProxyCommand []string
	// Progress, when set, gets a line as each phase starts.
	Progress io.Writer
}

// Defaults of Options.
const (
	DefaultRequests         = 2000
	DefaultStreamRequests   = 200
	DefaultChunks           = 64
	DefaultChunkInterval    = time.Millisecond
	DefaultConcurrency      = 64
	DefaultDuration         = 2 * time.Second
	DefaultRounds           = DefaultStreamRequests
	DefaultThroughputRounds = 4
)

// Check says what is wrong with o, if anything: a negative count or duration, an unknown wire format.
func (o Options) Check() error {
	for _, v := range []struct {
		name string
		n    int64
	}{
		{"requests", int64(o.Requests)}, {"stream requests", int64(o.StreamRequests)}, {"chunks", int64(o.Chunks)},
		{"concurrency", int64(o.Concurrency)}, {"rounds", int64(o.Rounds)}, {"throughput rounds", int64(o.ThroughputRounds)},
		{"chunk interval", int64(o.ChunkInterval)}, {"duration", int64(o.Duration)},
	} {
		if v.n < 0 {
			return fmt.Errorf("%s cannot be negative", v.name)
		}
	}
	if _, ok := wires[o.Wire]; !ok && o.Wire != "" {
		return fmt.Errorf("wire format %q: the bench speaks %s", o.Wire, strings.Join(Wires(), ", "))
	}
	if o.Pin && len(o.ProxyCommand) == 0 {
		return fmt.Errorf("pinning the proxies needs the command that serves them in a process of their own")
	}
	if o.Apart && len(o.ProxyCommand) == 0 {
		return fmt.Errorf("running the proxies apart needs the command that serves each in a process of its own")
	}
	return nil
}

// fill checks o and gives its zero values their defaults.
func (o *Options) fill() error {
	if err := o.Check(); err != nil {
		return err
	}
	def := func(p *int, d int) {
		if *p == 0 {
			*p = d
		}
	}
	if o.Wire == "" {
		o.Wire = WireChat
	}
	def(&o.Requests, DefaultRequests)
	def(&o.StreamRequests, DefaultStreamRequests)
	def(&o.Chunks, DefaultChunks)
	def(&o.Concurrency, DefaultConcurrency)
	def(&o.Rounds, DefaultRounds)
	def(&o.ThroughputRounds, DefaultThroughputRounds)
	if o.ChunkInterval == 0 {
		o.ChunkInterval = DefaultChunkInterval
	}
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	o.Rounds = min(o.Rounds, o.Requests, o.StreamRequests)
	return nil
}

// Target names, in the order they are reported.
const (
	Direct      = "direct"
	BareProxy   = "bare-proxy"
	WardenOff   = "warden-off"
	WardenGuard = "warden"
)

// target is one way to reach the upstream.
type target struct {
	name   string
	url    string
	warden bool   // its answers must carry X-Warden-Evaluated
	probe  prober // times what is the proxy's own; nil for the upstream reached directly
	// process is the proxy's own process (Options.Pin, Options.Apart); nil when it is served here.
	process *proxiesProcess
}

// Run starts the upstream and the three proxies on loopback, measures each and reports. It turns the
// process's automatic garbage collection off during the concurrency-1 phases (see collector), and with
// o.Pin moves the process's threads to half its CPUs until it returns, so two Runs must not overlap.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.fill(); err != nil {
		return nil, err
	}
	cpus, err := allowedCPUs()
	if err != nil && o.Pin {
		return nil, err
	}
	var proxyCPUs []int
	var pinned *Pinning
	if o.Pin {
		if len(cpus) < 2 {
			return nil, fmt.Errorf("pinning the proxies needs two CPUs at least; this process may use %v", cpus)
		}
		half := len(cpus) - len(cpus)/2
		pinned = &Pinning{BenchCPUs: cpus[:half], ProxyCPUs: cpus[half:]}
		proxyCPUs = pinned.ProxyCPUs
	}
	// Before any pinning, while the bench's threads may still use every CPU.
	wakes, err := measureWakesOn(cpus)
	if err != nil {
		return nil, err
	}
	b, err := start(ctx, o, proxyCPUs)
	if err != nil {
		return nil, err
	}
	defer b.close()
	if pinned != nil {
		restore, err := pinProcess(pinned.BenchCPUs)
		if err != nil {
			return nil, err
		}
		defer restore()
		pinned.ProxyGOMAXPROCS = b.proxies[0].gomaxprocs
	}
	up, targets := b.up, b.targets
	m := &measurer{o: o, up: up, proxies: b.proxies, client: &http.Client{Transport: o.dialing(tunedTransport())}}
	rep := &Report{Options: o, DelayedAcks: o.acksDelayed(), Wire: o.Wire, GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version(),
		OS: runtime.GOOS, Arch: runtime.GOARCH, Guardrails: guardrailsName(o.Config), Pinned: pinned, Apart: o.Apart, Wakes: wakes}
	for _, t := range targets {
		rep.Targets = append(rep.Targets, TargetResult{Name: t.name})
	}
	m.progress("timing this machine's stalls")
	if err := m.stalls(rep); err != nil {
		return nil, err
	}
	if err := m.warmUp(ctx, targets); err != nil {
		return nil, err
	}
	if err := m.concurrencyOne(ctx, targets, rep); err != nil {
		return nil, err
	}
	if err := m.throughput(ctx, targets, rep); err != nil {
		return nil, err
	}
	if err := m.memory(targets, rep); err != nil {
		return nil, err
	}
	rep.judge()
	return rep, nil
}

// concurrencyOne runs the phases that time one exchange at a time, with the collector kept out of them
// unless o.TimedGC.
func (m *measurer) concurrencyOne(ctx context.Context, targets []target, rep *Report) (err error) {
	for _, p := range m.proxies {
		if err := p.startCollector(m.o.TimedGC); err != nil {
			return err
		}
		defer func() {
			cycles, stopErr := p.stopCollector()
			rep.ProxyCollections += cycles
			err = errors.Join(err, stopErr)
		}()
	}
	m.gc = startCollector(m.o.TimedGC)
	defer func() {
		m.gc.stop()
		rep.TimedGC, rep.Collections = m.o.TimedGC, m.gc.cycles
	}()
	if err := m.latency(ctx, targets, rep); err != nil {
		return err
	}
	if err := m.firstToken(ctx, targets, rep); err != nil {
		return err
	}
	return m.streamLatency(ctx, targets, rep)
}

// stalls times this machine's stalls, on the proxies' CPUs too when they have their own, both at once.
func (m *measurer) stalls(rep *Report) error {
	d := m.o.Duration / 4
	if rep.Pinned == nil {
		rep.Stalls = measureStalls(d)
		return nil
	}
	theirs := make(chan error, 1)
	go func() {
		s, err := m.proxies[0].stalls(d)
		rep.Pinned.ProxyStalls = s
		theirs <- err
	}()
	runtime.Gosched() // the call goes out before this thread spins, on a bench of one CPU too
	rep.Stalls = measureStalls(d)
	return <-theirs
}

// bench is the upstream and the targets, serving on loopback.
type bench struct {
	up      *upstream
	targets []target
	proxies []*proxiesProcess // with Options.Pin, one; with Options.Apart, one a proxy
	closers []func()
}

func (b *bench) close() {
	for i := len(b.closers) - 1; i >= 0; i-- {
		b.closers[i]()
	}
}

// start serves the upstream and the proxies in front of it: in this process, or with o.Pin in a process
// of their own on proxyCPUs, or with o.Apart each in a process of its own (on proxyCPUs when pinned).
func start(ctx context.Context, o Options, proxyCPUs []int) (_ *bench, err error) {
	b := &bench{up: &upstream{wire: wires[o.Wire], chunks: o.Chunks, epoch: time.Now()}}
	defer func() {
		if err != nil {
			b.close()
		}
	}()
	upURL, err := serveLoopback(b.up, &b.closers)
	if err != nil {
		return nil, err
	}
	var proxies []target
	startProcess := func(only string) error {
		p, ts, err := startProxiesProcess(ctx, o, upURL, proxyCPUs, only)
		if p != nil {
			b.proxies = append(b.proxies, p)
			b.closers = append(b.closers, p.close)
		}
		proxies = append(proxies, ts...)
		return err
	}
	switch {
	case o.Apart:
		for _, name := range proxyNames {
			if err := startProcess(name); err != nil {
				return nil, err
			}
		}
	case o.Pin:
		err = startProcess("")
	default:
		base, _ := url.Parse(upURL)
		proxies, err = serveProxies(ctx, base, o, "", &b.closers)
	}
	if err != nil {
		return nil, err
	}
	b.targets = append([]target{{name: Direct, url: upURL}}, proxies...)
	return b, nil
}

// serveLoopback serves h on a loopback port of its own and gives its base URL; closers get its close.
func serveLoopback(h http.Handler, closers *[]func()) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	*closers = append(*closers, func() { srv.Close() })
	return "http://" + ln.Addr().String(), nil
}

// proxyNames are the proxies, in the order they are reported.
var proxyNames = []string{BareProxy, WardenOff, WardenGuard}

// serveProxies serves the bare proxy and the two Warden targets in front of the upstream at base (only
// the one named, when only is set), each behind a probe of its own, in the order they are reported.
func serveProxies(ctx context.Context, base *url.URL, o Options, only string, closers *[]func()) ([]target, error) {
	if only != "" && !slices.Contains(proxyNames, only) {
		return nil, fmt.Errorf("no proxy %q: the proxies are %s", only, strings.Join(proxyNames, ", "))
	}
	var targets []target
	for _, name := range proxyNames {
		if only != "" && name != only {
			continue
		}
		p := new(probe)
		var h http.Handler
		switch name {
		case BareProxy:
			h = bareProxy(base, probeTransport{o.dialing(tunedTransport())})
		default:
			file, off := o.Config, name == WardenOff
			if off {
				file = ""
			}
			g, closeGateway, err := newWarden(ctx, base, file, o, off, probeTransport{o.dialing(gateway.NewTransport())})
			if err != nil {
				return nil, err
			}
			*closers = append(*closers, closeGateway)
			h = g
		}
		u, err := serveLoopback(p.handler(h), closers)
		if err != nil {
			return nil, err
		}
		targets = append(targets, target{name: name, url: u, warden: name != BareProxy, probe: p})
	}
	return targets, nil
}

func guardrailsName(file string) string {
	if file == "" {
		return "embedded defaults"
	}
	return file
}

// newWarden builds a gateway the way `warden serve` does, reaching the upstream through transport. off
// builds it with no guardrails at all.
func newWarden(ctx context.Context, upstreamURL *url.URL, file string, o Options, off bool, transport http.RoundTripper) (http.Handler, func(), error) {
	metrics := gateway.NewMetrics()
	opts := config.Options{Stderr: io.Discard, Stdout: io.Discard,
		WrapRecorder: func(next warden.Recorder) warden.Recorder { return gateway.Tally(metrics.Recorder(next)) }}
	if !o.KeepAudit || off {
		opts.Recorder = warden.RecorderFunc(func(context.Context, *warden.Record) {})
	}
	var l *config.Loaded
	var err error
	if off {
		var p *config.Parsed
		if p, err = config.Parse("guardrails off", []byte("version: 1\n")); err == nil {
			l, err = p.Build(ctx, opts)
		}
	} else {
		l, err = config.Load(ctx, file, opts)
	}
	if err != nil {
		return nil, nil, err
	}
	var ups []gateway.Upstream
	for _, name := range []string{gateway.ProviderOpenAI, gateway.ProviderAnthropic, gateway.ProviderGemini} {
		ups = append(ups, gateway.Upstream{Name: name, URL: upstreamURL})
	}
	cfg := gateway.Config{Pipeline: pipeline.New(l, nil), Upstreams: ups, Metrics: metrics, Transport: transport}
	if gc := l.Parsed.File.Gateway; gc != nil && !off {
		cfg.OnDeny, cfg.DenyRetries = pipeline.OnDeny(gc.OnDeny), gc.DenyRetries
		cfg.StreamRetries = gateway.StreamRetriesOf(gc.StreamRetries)
		cfg.MaxBodyBytes, cfg.MaxResponseBytes = gc.MaxBodyBytes, gc.MaxResponseBytes
	}
	g, err := gateway.New(cfg)
	if err != nil {
		l.Close()
		return nil, nil, err
	}
	return g, func() { l.Close() }, nil
}

// bareProxy is the floor: an httputil.ReverseProxy with a transport tuned as Warden's is (tunedTransport),
// so that connection reuse at concurrency 64 favours neither. It reads the request body before forwarding it, as
// Warden does (and must, to inspect it). Streaming the body through instead breaks streams now and then:
// the upstream answers once it has the body, the proxy flushes the answer's headers, which ends the
// client's body, and the transport's check for bytes beyond Content-Length then fails and closes the
// upstream connection mid-stream.
func bareProxy(base *url.URL, transport http.RoundTripper) http.Handler {
	rp := &httputil.ReverseProxy{Transport: transport, Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(base) }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		rp.ServeHTTP(w, r)
	})
}

// dialing makes t's connections ask for delayed ACKs, unless o.KernelAcks; it returns t.
func (o Options) dialing(t *http.Transport) *http.Transport {
	if o.KernelAcks {
		return t
	}
	return delayingAcks(t)
}

// acksDelayed says whether the run's connections ask for delayed ACKs.
func (o Options) acksDelayed() bool { return acksDelayable && !o.KernelAcks }

// tunedTransport is the client's and the bare proxy's: enough idle connections for the concurrency.
func tunedTransport() *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        1024,
		MaxIdleConnsPerHost: 256,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
}
