package gatewaybench

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Report is one run's figures.
type Report struct {
	Options    Options `json:"-"`
	GoVersion  string  `json:"go_version"`
	OS         string  `json:"os"`
	Arch       string  `json:"arch"`
	GOMAXPROCS int     `json:"gomaxprocs"`
	// Wire is the wire format the run spoke.
	Wire string `json:"wire"`
	// Guardrails names the config of the guarded target.
	Guardrails string `json:"guardrails"`
	// Stalls is how often this machine took the CPU from a busy thread, measured before the run: the
	// noise under every p99.
	Stalls Stalls `json:"stalls"`
	// Wakes is what waking a waiting thread costs here, on one CPU and across two, measured before the run.
	Wakes Wakes `json:"wakes"`
	// TimedGC says the collector ran when due inside the concurrency-1 exchanges; otherwise the bench made
	// Collections collections between them (see collector).
	TimedGC     bool `json:"timed_gc"`
	Collections int  `json:"collections_between_exchanges"`
	// DelayedAcks says the connections the bench dialed asked for delayed-ACK mode before each write
	// (see Options.KernelAcks); false when the mode was the kernel's.
	DelayedAcks bool `json:"delayed_acks"`
	// Pinned says where each part ran with Options.Pin; nil when everything shared this process's CPUs.
	Pinned *Pinning `json:"pinned,omitempty"`
	// Apart says each proxy ran in a process of its own (Options.Apart).
	Apart bool `json:"apart,omitempty"`
	// ProxyCollections is the collections the proxies' processes made between the concurrency-1
	// exchanges, when they had processes of their own.
	ProxyCollections int            `json:"proxy_collections_between_exchanges,omitempty"`
	Targets          []TargetResult `json:"targets"`
	// Checks set the guarded target against the bare proxy, one row per target of issue #7.
	Checks []Check `json:"checks"`
}

// Pinning is where a pinned run's parts ran (Options.Pin).
type Pinning struct {
	// BenchCPUs ran the client and the upstream (and the bench's own process); ProxyCPUs the proxies' process.
	BenchCPUs []int `json:"bench_cpus"`
	ProxyCPUs []int `json:"proxy_cpus"`
	// ProxyGOMAXPROCS is the proxies' process's; the report's GOMAXPROCS is the bench's process's.
	ProxyGOMAXPROCS int `json:"proxy_gomaxprocs"`
	// ProxyStalls is the stall rate of the proxies' CPUs, measured at the same time as the report's Stalls.
	ProxyStalls Stalls `json:"proxy_stalls"`
}

// TargetResult is one target's figures.
type TargetResult struct {
	Name string `json:"name"`
	// Whole is the latency of a whole request at concurrency 1; TTFT is the time to a stream's first text
	// chunk (sent on its own); Stream is the time to a paced stream's end, Chunk each of its text chunks'
	// trip from the upstream to the client.
	Whole  Latency `json:"whole"`
	TTFT   Latency `json:"ttft"`
	Stream Latency `json:"stream"`
	Chunk  Latency `json:"chunk"`
	// WholeInProxy, TTFTInProxy and ChunkInProxy are the same exchanges timed inside the proxy, counting
	// only the spans that are its own (see probe); none for the upstream reached directly. Only the waits
	// on the upstream are left out, so the bare proxy's copying of an answer as it reads it counts as its
	// own, as Warden's reading it first and working on it after does.
	WholeInProxy Latency `json:"whole_in_proxy"`
	TTFTInProxy  Latency `json:"ttft_in_proxy"`
	ChunkInProxy Latency `json:"chunk_in_proxy"`
	// WholeHeap and StreamHeap are the heap a whole exchange and a stream allocated at concurrency 1, in
	// bytes: the whole process's (both processes' when pinned), client, upstream and the bench's notes
	// included, the same for every proxy; the differences between targets are what each proxy leaves the
	// collector.
	WholeHeap  uint64 `json:"whole_heap_bytes"`
	StreamHeap uint64 `json:"stream_heap_bytes"`
	// WholeRate and StreamRate are the throughput phase's.
	WholeRate  Rate `json:"whole_rate"`
	StreamRate Rate `json:"stream_rate"`
	// Evaluated and Decision are the last X-Warden-Evaluated and X-Warden-Decision of a whole answer, and
	// StreamEvaluated and StreamDecision of a stream (Warden targets only): proof of what ran.
	Evaluated       string `json:"evaluated,omitempty"`
	Decision        string `json:"decision,omitempty"`
	StreamEvaluated string `json:"stream_evaluated,omitempty"`
	StreamDecision  string `json:"stream_decision,omitempty"`
	// Memory is the proxy's process's resident memory after the throughput phase (Options.Apart, Linux).
	Memory Memory `json:"memory,omitzero"`

	// The samples behind the p99s, in their units, for the checks' intervals.
	wholeUnits, ttftUnits, chunkUnits, chunkInProxyUnits units
}

// Latency is a sample's nearest-rank percentiles and mean.
type Latency struct {
	N              int
	P50, P99, Mean time.Duration
}

// MarshalJSON writes microseconds, which is what people compare.
func (l Latency) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		N    int     `json:"n"`
		P50  float64 `json:"p50_us"`
		P99  float64 `json:"p99_us"`
		Mean float64 `json:"mean_us"`
	}{l.N, micros(l.P50), micros(l.P99), micros(l.Mean)})
}

// Rate is a throughput phase's result. CPUPerExchange is the whole process's CPU time (both processes'
// when pinned; load generator and upstream included, the same for every target) divided by the
// exchanges: the differences between targets are what each proxy spends.
type Rate struct {
	Exchanges      int64
	PerSecond      float64
	CPUPerExchange time.Duration
	// ProxyCPUPerExchange is the proxy's own process's share of CPUPerExchange, when each proxy has a
	// process of its own (Options.Apart); with a CPU of its own (Options.Pin too), its time per exchange
	// against the elapsed time per exchange says how busy it was.
	ProxyCPUPerExchange    time.Duration
	elapsed, cpu, proxyCPU time.Duration // summed over the rounds
}

// done computes the rates from the sums.
func (r Rate) done() Rate {
	if r.Exchanges > 0 && r.elapsed > 0 {
		r.PerSecond = float64(r.Exchanges) / r.elapsed.Seconds()
		r.CPUPerExchange = r.cpu / time.Duration(r.Exchanges)
		r.ProxyCPUPerExchange = r.proxyCPU / time.Duration(r.Exchanges)
	}
	return r
}

// MarshalJSON writes the CPU time in microseconds.
func (r Rate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Exchanges int64   `json:"exchanges"`
		PerSecond float64 `json:"per_second"`
		CPU       float64 `json:"cpu_per_exchange_us"`
		ProxyCPU  float64 `json:"proxy_cpu_per_exchange_us,omitempty"`
	}{r.Exchanges, r.PerSecond, micros(r.CPUPerExchange), micros(r.ProxyCPUPerExchange)})
}

// Memory is a process's resident memory: now, and the most it held since it started.
type Memory struct {
	Resident uint64 `json:"resident_bytes"`
	Peak     uint64 `json:"peak_resident_bytes"`
}

// Check is one target: what the guarded target measured against the bare proxy, and the limit.
type Check struct {
	Name     string  `json:"name"`
	Measured float64 `json:"measured"`
	Limit    float64 `json:"limit"`
	Unit     string  `json:"unit"`
	// AtMost says the measure must not exceed the limit (added latency); otherwise it must reach it
	// (throughput as a percentage of the bare proxy's).
	AtMost bool `json:"at_most"`
	Met    bool `json:"met"`
	// Low and High bound an added latency's 95 % bootstrap interval (see p99DiffInterval); Clear says the
	// limit lies outside it, so that the verdict is not the luck of this run.
	Low   float64 `json:"interval_low,omitempty"`
	High  float64 `json:"interval_high,omitempty"`
	Clear bool    `json:"clear"`
}

// Targets, with the embedded default guardrails on, against the bare proxy in the same run: the whole
// request's p99 added, the time to first token's p99 added, the median added per chunk, throughput, and
// resident memory after load. Throughput has two limits: with each proxy in a process of its own
// (Options.Apart), as users run them, Warden must carry at least the bare proxy's load; in one shared
// process, where the load generator's and the upstream's garbage is collected on the proxies' time too,
// at least 70 % of it. Memory can only be told apart when the processes are.
const (
	LimitAddedP99          = 150 * time.Microsecond
	LimitAddedTTFT         = 100 * time.Microsecond
	LimitAddedChunk        = 5 * time.Microsecond
	LimitThroughputPc      = 70.0
	LimitThroughputApartPc = 100.0
	LimitResidentPc        = 150.0
)

func (r *Report) target(name string) *TargetResult {
	for i := range r.Targets {
		if r.Targets[i].Name == name {
			return &r.Targets[i]
		}
	}
	return nil
}

// judge fills the checks.
func (r *Report) judge() {
	bare, guarded := r.target(BareProxy), r.target(WardenGuard)
	added := func(name string, g, b Latency, gu, bu units, limit time.Duration) Check {
		d, lim := micros(g.P99-b.P99), micros(limit)
		low, high := p99DiffInterval(gu, bu)
		c := Check{Name: name, Measured: d, Limit: lim, Unit: "µs", AtMost: true, Met: d <= lim,
			Low: micros(low), High: micros(high)}
		c.Clear = c.High <= lim || c.Low > lim
		return c
	}
	addedMedian := func(name string, g, b Latency, gu, bu units, limit time.Duration) Check {
		d, lim := micros(g.P50-b.P50), micros(limit)
		low, high := quantileDiffInterval(gu, bu, 0.5)
		c := Check{Name: name, Measured: d, Limit: lim, Unit: "µs", AtMost: true, Met: d <= lim,
			Low: micros(low), High: micros(high)}
		c.Clear = c.High <= lim || c.Low > lim
		return c
	}
	share := func(name string, g, b Rate) Check {
		pc, limit := 100*g.PerSecond/b.PerSecond, LimitThroughputPc
		if r.Apart {
			limit = LimitThroughputApartPc
		}
		return Check{Name: name, Measured: pc, Limit: limit, Unit: "%", Met: pc >= limit, Clear: true}
	}
	r.Checks = []Check{
		added("added p99, whole, concurrency 1", guarded.Whole, bare.Whole, guarded.wholeUnits, bare.wholeUnits, LimitAddedP99),
		added("added time to first token, p99", guarded.TTFT, bare.TTFT, guarded.ttftUnits, bare.ttftUnits, LimitAddedTTFT),
		// A chunk's 5µs is far below what a shared machine's scheduling moves a chunk's p99 by (the bare
		// proxy's own chunk p99 is about ten times its median on a 2-vCPU VM): the median is judged, on the
		// wire and inside the proxy, the part a proxy answers for; the p99s are in the tables, not judged.
		addedMedian("added delay per chunk, median", guarded.Chunk, bare.Chunk, guarded.chunkUnits, bare.chunkUnits, LimitAddedChunk),
		addedMedian("added delay per chunk in the proxy, median", guarded.ChunkInProxy, bare.ChunkInProxy, guarded.chunkInProxyUnits, bare.chunkInProxyUnits, LimitAddedChunk),
		share("whole throughput of the bare proxy's", guarded.WholeRate, bare.WholeRate),
		share("stream throughput of the bare proxy's", guarded.StreamRate, bare.StreamRate),
	}
	if g, b := guarded.Memory.Resident, bare.Memory.Resident; g > 0 && b > 0 {
		pc := 100 * float64(g) / float64(b)
		r.Checks = append(r.Checks, Check{Name: "resident memory after load, of the bare proxy's", Measured: pc,
			Limit: LimitResidentPc, Unit: "%", AtMost: true, Met: pc <= LimitResidentPc, Clear: true})
	}
}

// Met says whether every check passed.
func (r *Report) Met() bool {
	for _, c := range r.Checks {
		if !c.Met {
			return false
		}
	}
	return len(r.Checks) > 0
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// WriteText writes the report as tables a person reads.
func (r *Report) WriteText(w io.Writer) error {
	o := r.Options
	bare := r.target(BareProxy)
	fmt.Fprintf(w, "warden bench: %s over loopback, %s %s/%s, GOMAXPROCS=%d; guarded target: %s\n\n",
		r.Wire, r.GoVersion, r.OS, r.Arch, r.GOMAXPROCS, r.Guardrails)
	fmt.Fprintf(w, "This machine took the CPU from a busy thread for over 20µs %.0f times a second, over 100µs %.0f (worst %s):\na span of w µs is hit about rate·w/10⁶ of the time, which is what the p99s of short spans measure here.\n\n",
		r.Stalls.Over20us, r.Stalls.Over100us, us(r.Stalls.Worst))
	if wk := r.Wakes; wk.AcrossCPUs > 0 {
		fmt.Fprintf(w, "Waking a waiting thread: a pipe round trip takes %s between two threads on one CPU, %s across CPUs %d and %d.\n",
			usFine(wk.OneCPU), usFine(wk.AcrossCPUs), wk.CPUs[0], wk.CPUs[len(wk.CPUs)-1])
		if wk.costly() {
			fmt.Fprintf(w, "Here that is more than most spans timed: where an exchange crosses CPUs, its p99 measures the wake. On one\nCPU (taskset -c %d warden bench) the proxies' own costs show; --pin makes every chunk cross CPUs twice.\n", wk.CPUs[0])
		}
		fmt.Fprintln(w)
	}
	collections, process := fmt.Sprintf("%d times", r.Collections), "the whole process's"
	if p := r.Pinned; p != nil {
		fmt.Fprintf(w, "Pinned: the proxies ran in a process of their own on CPUs %v (GOMAXPROCS=%d), the client and the upstream\non CPUs %v (GOMAXPROCS=%d). The proxies' CPUs stalled over 20µs %.0f times a second, over 100µs %.0f (worst %s).\n\n",
			p.ProxyCPUs, p.ProxyGOMAXPROCS, p.BenchCPUs, r.GOMAXPROCS, p.ProxyStalls.Over20us, p.ProxyStalls.Over100us, us(p.ProxyStalls.Worst))
		process = "both processes'"
	}
	if r.Apart {
		where := ", on every CPU"
		if r.Pinned != nil {
			where = " on the proxies' CPUs"
		}
		fmt.Fprintf(w, "Apart: each proxy ran in a process of its own%s. CPU per exchange counts the bench's process and every\nproxy's, of which only the one under load works.\n\n", where)
		process = "the processes'"
	}
	if r.Pinned != nil || r.Apart {
		collections = fmt.Sprintf("%d times in the bench's process, %d in the proxies'", r.Collections, r.ProxyCollections)
	}
	if r.DelayedAcks {
		fmt.Fprintf(w, "Every connection the bench dialed asked for delayed ACKs before each write, so that the client acknowledges\nevery target's chunks alike (--kernel-acks leaves the mode to the kernel).\n\n")
	}
	if r.TimedGC {
		fmt.Fprintf(w, "The garbage collector ran when due, inside the concurrency-1 exchanges as well.\n\n")
	} else {
		fmt.Fprintf(w, "The garbage collector ran between the concurrency-1 exchanges (%s), not inside them; the heap each\nexchange allocated (%s) is shown, and the throughput phase runs with the collector as it comes.\n\n", collections, process)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "Whole requests (answer: a tool call), concurrency 1, %d a target:\n", o.Requests)
	fmt.Fprintln(tw, "target\tp50\tp99\tmean\tp99 vs bare proxy\theap\t")
	for _, t := range r.Targets {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", t.Name, us(t.Whole.P50), us(t.Whole.P99), us(t.Whole.Mean), vs(t.Name, t.Whole.P99-bare.Whole.P99), kb(t.WholeHeap))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nStreams (%d text chunks, a tool call, the finish), concurrency 1: first token over %d a target (sent alone), chunks over %d a target (events %v apart):\n",
		o.Chunks, o.Requests, o.StreamRequests, o.ChunkInterval)
	fmt.Fprintln(tw, "target\tTTFT p50\tTTFT p99\tvs bare\tchunk p50\tchunk p99\tvs bare\tstream p50\theap\t")
	for _, t := range r.Targets {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", t.Name, us(t.TTFT.P50), us(t.TTFT.P99), vs(t.Name, t.TTFT.P99-bare.TTFT.P99),
			us(t.Chunk.P50), us(t.Chunk.P99), vs(t.Name, t.Chunk.P99-bare.Chunk.P99), us(t.Stream.P50), kb(t.StreamHeap))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nThe same exchanges timed inside each proxy, its own spans only: a whole request less its waits on the\nupstream, the first token less those until it read the chunk, each chunk from its read off the upstream to its flush:\n")
	fmt.Fprintln(tw, "target\twhole p50\twhole p99\tvs bare\tTTFT p50\tTTFT p99\tvs bare\tchunk p50\tchunk p99\tvs bare\t")
	for _, t := range r.Targets {
		if t.ChunkInProxy.N == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", t.Name,
			us(t.WholeInProxy.P50), us(t.WholeInProxy.P99), vs(t.Name, t.WholeInProxy.P99-bare.WholeInProxy.P99),
			us(t.TTFTInProxy.P50), us(t.TTFTInProxy.P99), vs(t.Name, t.TTFTInProxy.P99-bare.TTFTInProxy.P99),
			usFine(t.ChunkInProxy.P50), usFine(t.ChunkInProxy.P99), vsFine(t.Name, t.ChunkInProxy.P99-bare.ChunkInProxy.P99))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nThroughput, concurrency %d, %v a target in %d rounds (upstream without pauses); CPU is %s per exchange:\n", o.Concurrency, o.Duration, o.ThroughputRounds, process)
	cpuOf := func(r Rate) string {
		if r.ProxyCPUPerExchange == 0 {
			return us(r.CPUPerExchange)
		}
		return us(r.CPUPerExchange) + " (" + us(r.ProxyCPUPerExchange) + " its own)"
	}
	fmt.Fprintln(tw, "target\twhole/s\tof bare\tCPU\tstreams/s\tof bare\tCPU\t")
	for _, t := range r.Targets {
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f%%\t%s\t%.0f\t%.0f%%\t%s\t\n", t.Name,
			t.WholeRate.PerSecond, 100*t.WholeRate.PerSecond/bare.WholeRate.PerSecond, cpuOf(t.WholeRate),
			t.StreamRate.PerSecond, 100*t.StreamRate.PerSecond/bare.StreamRate.PerSecond, cpuOf(t.StreamRate))
	}
	tw.Flush()
	if bare.Memory.Resident > 0 {
		fmt.Fprintf(w, "\nResident memory of each proxy's process after the throughput phase, and its peak:\n")
		fmt.Fprintln(tw, "target\tresident\tof bare\tpeak\t")
		for _, t := range r.Targets {
			if t.Memory.Resident == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%.0f%%\t%s\t\n", t.Name, mb(t.Memory.Resident), 100*float64(t.Memory.Resident)/float64(bare.Memory.Resident), mb(t.Memory.Peak))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	for _, t := range r.Targets {
		if t.Evaluated != "" {
			fmt.Fprintf(w, "%s evaluated %s guardrails on a whole answer (decision %s), %s on a stream (decision %s)\n",
				t.Name, t.Evaluated, t.Decision, t.StreamEvaluated, t.StreamDecision)
		}
	}
	fmt.Fprintf(w, "\nTargets (guarded target against the bare proxy; [95 %% bootstrap interval]; a limit inside it is one this run cannot judge):\n")
	for _, c := range r.Checks {
		verdict, rel, interval := "met", "≤", ""
		if !c.Met {
			verdict = "NOT MET"
		}
		if !c.Clear {
			verdict += ", within this run's noise"
		}
		if !c.AtMost {
			rel = "≥"
		}
		if c.Low != 0 || c.High != 0 {
			interval = fmt.Sprintf("[%.1f, %.1f]", c.Low, c.High)
		}
		fmt.Fprintf(w, "  %-46s %8.1f %s %-16s (%s %g %s)  %s\n", c.Name, c.Measured, c.Unit, interval, rel, c.Limit, c.Unit, verdict)
	}
	return nil
}

// WriteJSON writes the report as one JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func us(d time.Duration) string { return fmt.Sprintf("%.0fµs", micros(d)) }

// kb shows a heap size in kilobytes.
func kb(n uint64) string { return fmt.Sprintf("%.1fKB", float64(n)/1000) }

// mb shows a resident size in megabytes.
func mb(n uint64) string { return fmt.Sprintf("%.1fMB", float64(n)/1e6) }

// usFine shows a tenth of a microsecond, for the spans of a few microseconds.
func usFine(d time.Duration) string { return fmt.Sprintf("%.1fµs", micros(d)) }

func vsFine(name string, d time.Duration) string {
	if name == BareProxy {
		return "—"
	}
	return fmt.Sprintf("%+.1fµs", micros(d))
}

func vs(name string, d time.Duration) string {
	if name == BareProxy {
		return "—"
	}
	return fmt.Sprintf("%+.0fµs", micros(d))
}
