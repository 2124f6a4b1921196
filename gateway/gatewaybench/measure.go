package gatewaybench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden/gateway"
)

// measurer sends the requests and times them.
type measurer struct {
	o       Options
	up      *upstream
	client  *http.Client
	proxies []*proxiesProcess // the proxies' own processes, when they have them (Options.Pin, Options.Apart)
	gc      *collector        // set for the concurrency-1 phases
	// proxyHeap is what the proxies' own process allocated in the exchange under way, when they have one.
	proxyHeap uint64
}

// cpu is the CPU time spent so far by the bench's process and the proxies', when they have their own.
func (m *measurer) cpu() (time.Duration, error) {
	total := processCPU()
	for _, p := range m.proxies {
		theirs, err := p.cpu()
		if err != nil {
			return 0, err
		}
		total += theirs
	}
	return total, nil
}

// memory reads the resident memory of each proxy that has a process of its own (Options.Apart), after
// the throughput phase: what a proxy holds once it has carried a load.
func (m *measurer) memory(targets []target, rep *Report) error {
	if !m.o.Apart {
		return nil
	}
	for i, t := range targets {
		if t.process == nil {
			continue
		}
		mem, err := t.process.memory()
		if err != nil {
			return err
		}
		rep.Targets[i].Memory = mem
	}
	return nil
}

// answer is what one exchange showed besides its timing.
type answer struct {
	evaluated, decision string
}

func (m *measurer) progress(format string, args ...any) {
	if m.o.Progress != nil {
		fmt.Fprintf(m.o.Progress, format+"\n", args...)
	}
}

func (m *measurer) post(ctx context.Context, t target, stream bool) (*http.Response, error) {
	w := m.up.wire
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url+w.path(stream), strings.NewReader(w.request(stream)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-bench")
	return m.client.Do(req)
}

// check fails an answer that is not what the upstream sent through a working proxy.
func check(t target, resp *http.Response, header http.Header) (answer, error) {
	if resp.StatusCode != http.StatusOK {
		return answer{}, fmt.Errorf("%s answered %s", t.name, resp.Status)
	}
	a := answer{evaluated: header.Get(gateway.HeaderEvaluated), decision: header.Get(gateway.HeaderDecision)}
	if t.warden && a.evaluated == "" {
		return a, fmt.Errorf("%s answered without %s: the exchange was not guarded", t.name, gateway.HeaderEvaluated)
	}
	return a, nil
}

// whole sends one whole request and reads the answer to its end.
func (m *measurer) whole(ctx context.Context, t target) (time.Duration, answer, error) {
	start := time.Now()
	resp, err := m.post(ctx, t, false)
	if err != nil {
		return 0, answer{}, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	elapsed := time.Since(start)
	if err != nil {
		return 0, answer{}, fmt.Errorf("%s: %v", t.name, err)
	}
	a, err := check(t, resp, resp.Header)
	if err == nil && !bytes.Contains(body, []byte(m.up.wire.toolMark)) {
		err = fmt.Errorf("%s answered without the tool call (decision %q): the config denies the bench's `go test` call", t.name, a.decision)
	}
	return elapsed, a, err
}

// streamed is one stream's timing.
type streamed struct {
	ttft, total time.Duration
	arrived     []time.Duration // since the upstream's epoch, by chunk index
}

// stream sends one streamed request and reads it to its end, noting when each text chunk arrived.
func (m *measurer) stream(ctx context.Context, t target) (streamed, answer, error) {
	start := time.Now()
	resp, err := m.post(ctx, t, true)
	if err != nil {
		return streamed{}, answer{}, err
	}
	defer resp.Body.Close()
	s := streamed{arrived: make([]time.Duration, m.o.Chunks)}
	seen := 0
	br := bufio.NewReaderSize(resp.Body, 16<<10)
	var idx []int
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 && bytes.HasPrefix(line, []byte("data:")) && m.up.wire.textLine(line) {
			now := time.Now()
			idx = chunkIndexes(line, idx[:0])
			for _, i := range idx {
				if i >= len(s.arrived) || s.arrived[i] != 0 {
					return s, answer{}, fmt.Errorf("%s sent text chunk %d twice or out of range", t.name, i)
				}
				if seen == 0 {
					s.ttft = now.Sub(start)
				}
				s.arrived[i] = now.Sub(m.up.epoch)
				seen++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil && err != bufio.ErrBufferFull {
			return s, answer{}, fmt.Errorf("%s: %v", t.name, err)
		}
	}
	s.total = time.Since(start)
	header := resp.Header.Clone()
	for k, v := range resp.Trailer { // a stream's X-Warden values come as trailers
		header[k] = v
	}
	a, err := check(t, resp, header)
	if err == nil && seen != m.o.Chunks {
		err = fmt.Errorf("%s delivered %d of %d text chunks", t.name, seen, m.o.Chunks)
	}
	return s, a, err
}

// warmUp opens connections and lets each target's first exchanges pay their one-time costs.
func (m *measurer) warmUp(ctx context.Context, targets []target) error {
	m.progress("warming up")
	for _, t := range targets {
		for range max(m.o.Requests/10, 1) {
			if _, _, err := m.whole(ctx, t); err != nil {
				return err
			}
		}
		for range max(m.o.StreamRequests/10, 1) {
			if _, _, err := m.stream(ctx, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// rounds runs each target's share of n exchanges in each of the rounds, starting with a different target
// each round, with the collector's work between the exchanges. It returns the heap each target's
// exchanges allocated in all: the whole process's, the bench's own notes of them included, and the
// proxies' process's when they have their own.
func (m *measurer) rounds(targets []target, n int, each func(i int, t target) error) ([]uint64, error) {
	heap := make([]uint64, len(targets))
	for r := range m.o.Rounds {
		share := n / m.o.Rounds
		if r < n%m.o.Rounds {
			share++
		}
		for k := range targets {
			i := (k + r) % len(targets)
			for range share {
				before := m.gc.between(i, len(targets))
				m.proxyHeap = 0
				err := each(i, targets[i])
				heap[i] += m.gc.allocated() - before + m.proxyHeap
				if err != nil {
					return heap, err
				}
			}
		}
	}
	return heap, nil
}

// perExchange is the heap an exchange allocated on average.
func perExchange(heap uint64, n int) uint64 {
	if n == 0 {
		return 0
	}
	return heap / uint64(n)
}

func (m *measurer) latency(ctx context.Context, targets []target, rep *Report) error {
	m.progress("whole requests at concurrency 1: %d a target", m.o.Requests)
	samples := make([][]time.Duration, len(targets))
	own := make([][]time.Duration, len(targets))
	heap, err := m.rounds(targets, m.o.Requests, func(i int, t target) error {
		var d time.Duration
		var a answer
		x, err := m.probed(ctx, t, 0, func() (err error) {
			d, a, err = m.whole(ctx, t)
			return err
		})
		if err != nil {
			return err
		}
		samples[i] = append(samples[i], d)
		if x != nil {
			own[i] = append(own[i], x.Whole)
		}
		rep.Targets[i].Evaluated, rep.Targets[i].Decision = a.evaluated, a.decision
		return nil
	})
	for i := range targets {
		rep.Targets[i].Whole, rep.Targets[i].WholeInProxy = summarize(samples[i]), summarize(own[i])
		rep.Targets[i].wholeUnits = units{values: samples[i]}
		rep.Targets[i].WholeHeap = perExchange(heap[i], len(samples[i]))
	}
	return err
}

// probed runs one exchange with t's probe armed and returns what it noted, or nil for a target without
// a probe. What the proxies' own process allocated in the exchange, when they have one, goes to
// m.proxyHeap.
func (m *measurer) probed(ctx context.Context, t target, chunks int, exchange func() error) (*probeNotes, error) {
	if t.probe == nil {
		return nil, exchange()
	}
	x, err := t.probe.open(chunks)
	if err != nil {
		return nil, err
	}
	if err := exchange(); err != nil {
		return nil, errors.Join(err, x.disarm())
	}
	n, err := x.notes(ctx)
	if err != nil {
		return nil, err
	}
	m.proxyHeap += n.Heap
	return &n, nil
}

// firstToken times streams to their first text chunk, as many a target as whole requests. The upstream
// sends the first chunk on its own and the rest after one pause: a p99 needs thousands of samples, which
// streams paced throughout as a model's cannot give in a run's time.
func (m *measurer) firstToken(ctx context.Context, targets []target, rep *Report) error {
	m.progress("streams timed to their first token at concurrency 1: %d a target", m.o.Requests)
	ttft := make([][]time.Duration, len(targets))
	own := make([][]time.Duration, len(targets))
	m.up.setPacing(pacing{interval: m.o.ChunkInterval, firstAlone: true})
	heap, err := m.rounds(targets, m.o.Requests, func(i int, t target) error {
		var s streamed
		x, err := m.probed(ctx, t, m.o.Chunks, func() (err error) {
			s, _, err = m.stream(ctx, t)
			return err
		})
		if err != nil {
			return err
		}
		ttft[i] = append(ttft[i], s.ttft)
		if x != nil {
			if !x.FirstSeen {
				return fmt.Errorf("%s: the probe did not see the first chunk both come and go", t.name)
			}
			own[i] = append(own[i], x.FirstToken)
		}
		return nil
	})
	for i := range targets {
		rep.Targets[i].TTFT, rep.Targets[i].TTFTInProxy = summarize(ttft[i]), summarize(own[i])
		rep.Targets[i].ttftUnits = units{values: ttft[i]}
		rep.Targets[i].StreamHeap = perExchange(heap[i], len(ttft[i]))
	}
	return err
}

func (m *measurer) streamLatency(ctx context.Context, targets []target, rep *Report) error {
	m.progress("streams at concurrency 1: %d a target, their events %v apart", m.o.StreamRequests, m.o.ChunkInterval)
	total := make([][]time.Duration, len(targets))
	chunk := make([]units, len(targets)) // a stream's chunks are one unit
	own := make([]units, len(targets))
	m.up.setPacing(pacing{interval: m.o.ChunkInterval})
	_, err := m.rounds(targets, m.o.StreamRequests, func(i int, t target) error {
		var s streamed
		var a answer
		m.up.trace(true)
		x, err := m.probed(ctx, t, m.o.Chunks, func() (err error) {
			s, a, err = m.stream(ctx, t)
			return err
		})
		m.up.trace(false)
		if err != nil {
			return err
		}
		total[i] = append(total[i], s.total)
		for k, sent := range m.up.departures() {
			chunk[i].values = append(chunk[i].values, s.arrived[k]-sent)
		}
		chunk[i].ends = append(chunk[i].ends, len(chunk[i].values))
		if x != nil {
			if !x.StaysSeen {
				return fmt.Errorf("%s: the probe did not see every chunk both come and go", t.name)
			}
			own[i].values = append(own[i].values, x.Stays...)
			own[i].ends = append(own[i].ends, len(own[i].values))
		}
		rep.Targets[i].StreamEvaluated, rep.Targets[i].StreamDecision = a.evaluated, a.decision
		return nil
	})
	for i := range targets {
		rep.Targets[i].Stream = summarize(total[i])
		rep.Targets[i].Chunk, rep.Targets[i].ChunkInProxy = summarize(chunk[i].values), summarize(own[i].values)
		rep.Targets[i].chunkUnits, rep.Targets[i].chunkInProxyUnits = chunk[i], own[i]
	}
	return err
}

// throughput interleaves the targets as the concurrency-1 phases do: each round gives every target a
// share of Duration, whole and then streamed, and the rates add up over the rounds.
func (m *measurer) throughput(ctx context.Context, targets []target, rep *Report) error {
	m.up.setPacing(pacing{})
	m.progress("throughput at concurrency %d: %v a target, whole and streamed each, in %d rounds", m.o.Concurrency, m.o.Duration, m.o.ThroughputRounds)
	share := m.o.Duration / time.Duration(m.o.ThroughputRounds)
	whole := make([]Rate, len(targets))
	streams := make([]Rate, len(targets))
	for r := range m.o.ThroughputRounds {
		for k := range targets {
			i := (k + r) % len(targets)
			t := targets[i]
			if err := m.rate(ctx, share, t, &whole[i], func(ctx context.Context) error { _, _, err := m.whole(ctx, t); return err }); err != nil {
				return err
			}
			if err := m.rate(ctx, share, t, &streams[i], func(ctx context.Context) error { _, _, err := m.stream(ctx, t); return err }); err != nil {
				return err
			}
		}
	}
	for i := range targets {
		rep.Targets[i].WholeRate, rep.Targets[i].StreamRate = whole[i].done(), streams[i].done()
	}
	return nil
}

// rate runs Concurrency clients of t for d and adds the exchanges they finish, the time and the CPU to
// into: every process's, and the proxy's own when it has a process of its own.
func (m *measurer) rate(ctx context.Context, d time.Duration, t target, into *Rate, exchange func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var finished atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	own := func() (time.Duration, error) {
		if !m.o.Apart || t.process == nil {
			return 0, nil
		}
		return t.process.cpu()
	}
	cpu0, err := m.cpu()
	if err != nil {
		return err
	}
	own0, err := own()
	if err != nil {
		return err
	}
	start := time.Now()
	deadline := start.Add(d)
	for range m.o.Concurrency {
		wg.Go(func() {
			for time.Now().Before(deadline) && ctx.Err() == nil {
				if err := exchange(ctx); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				finished.Add(1)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	into.Exchanges += finished.Load()
	into.elapsed += time.Since(start)
	cpu1, err := m.cpu()
	if err != nil {
		return err
	}
	own1, err := own()
	if err != nil {
		return err
	}
	into.cpu += cpu1 - cpu0
	into.proxyCPU += own1 - own0
	if into.Exchanges == 0 {
		return fmt.Errorf("no exchange finished in %v", d)
	}
	return nil
}

// summarize gives a sample's percentiles (nearest rank) and mean.
func summarize(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	var sum time.Duration
	for _, x := range s {
		sum += x
	}
	return Latency{N: len(s), P50: nearestRank(s, 0.50), P99: nearestRank(s, 0.99), Mean: sum / time.Duration(len(s))}
}
