package gatewaybench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"
)

// With Options.Pin the proxies run in a process of their own, and with Options.Apart each proxy runs in
// one of its own; either is started from Options.ProxyCommand, and the bench talks to it over the
// process's standard input and output: one JSON value a line each way,
// a setup and its answer, then one call and its answer at a time. The calls are the bench's hands inside
// the proxies' process: arm a probe before an exchange and take its notes after, run that process's
// collector between exchanges, read its CPU time and its CPUs' stalls. None of them runs inside a timed
// exchange. The protocol is the bench's own and may change with it.

// proxiesSetup is what the proxies' process needs to build the proxies.
type proxiesSetup struct {
	Upstream   string `json:"upstream"`
	Config     string `json:"config"`
	Wire       string `json:"wire"`
	KeepAudit  bool   `json:"keep_audit"`
	KernelAcks bool   `json:"kernel_acks"`
	// Only, when set, names the one proxy the process serves (Options.Apart).
	Only string `json:"only,omitempty"`
}

// proxiesReady answers the setup: the proxies' base URLs in the order they are reported.
type proxiesReady struct {
	Error      string         `json:"error,omitempty"`
	Targets    []proxiesEntry `json:"targets"`
	GOMAXPROCS int            `json:"gomaxprocs"`
	CPUs       []int          `json:"cpus"` // the CPUs the process may run on, as it sees them
}

type proxiesEntry struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Warden bool   `json:"warden"`
}

// proxiesCall is one call; Op says which, and the other fields are its arguments.
type proxiesCall struct {
	Op     string        `json:"op"` // arm, disarm, notes, cpu, memory, stalls, collect, collected
	Target string        `json:"target,omitempty"`
	Chunks int           `json:"chunks,omitempty"`
	Timed  bool          `json:"timed,omitempty"`
	For    time.Duration `json:"for,omitempty"`
}

// proxiesAnswer answers a call.
type proxiesAnswer struct {
	Error       string        `json:"error,omitempty"`
	Notes       *probeNotes   `json:"notes,omitempty"`
	CPU         time.Duration `json:"cpu,omitempty"`
	Over20us    float64       `json:"over_20us,omitempty"`
	Over100us   float64       `json:"over_100us,omitempty"`
	Worst       time.Duration `json:"worst,omitempty"`
	Collections int           `json:"collections,omitempty"`
	Memory      Memory        `json:"memory,omitzero"`
}

// notesTimeout bounds the wait for a probed exchange's handler to return; the bench asks only once its
// side of the exchange ended, so the handler is returning.
const notesTimeout = 30 * time.Second

// ServeProxies is the proxies' process of a pinned bench (Options.Pin): it reads the setup from in, serves
// the bare proxy and both Warden targets on loopback, writes their addresses to out, and answers the
// bench's calls until in ends. An error in the setup goes to the bench, which reports it; the error
// ServeProxies returns is one it could not send. It is what `warden bench --serve-proxies` runs; nothing
// else should.
func ServeProxies(ctx context.Context, in io.Reader, out io.Writer) error {
	dec, enc := json.NewDecoder(in), json.NewEncoder(out)
	var setup proxiesSetup
	if err := dec.Decode(&setup); err != nil {
		return fmt.Errorf("reading the bench's setup: %w", err)
	}
	var closers []func()
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}()
	s, ready, err := newProxiesServer(ctx, setup, &closers)
	if err != nil {
		if encErr := enc.Encode(proxiesReady{Error: err.Error()}); encErr != nil {
			return errors.Join(err, encErr)
		}
		return nil // the bench reports it
	}
	if err := enc.Encode(ready); err != nil {
		return err
	}
	for {
		var c proxiesCall
		if err := dec.Decode(&c); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading the bench's call: %w", err)
		}
		a, err := s.answer(ctx, c)
		if err != nil {
			a.Error = err.Error()
		}
		if err := enc.Encode(a); err != nil {
			return err
		}
	}
}

// proxiesServer is the proxies' process's side of the calls. It answers one call at a time.
type proxiesServer struct {
	probes map[string]*probe
	index  map[string]int // a target's place among the proxies, for the collector's draw
	armed  map[string]*probed
	gc     *collector // between collect and collected
	heap   heapCounter
	before uint64 // the heap allocated when the pending exchange was armed
}

func newProxiesServer(ctx context.Context, setup proxiesSetup, closers *[]func()) (*proxiesServer, proxiesReady, error) {
	base, err := url.Parse(setup.Upstream)
	if err != nil {
		return nil, proxiesReady{}, fmt.Errorf("upstream %q: %w", setup.Upstream, err)
	}
	o := Options{Config: setup.Config, Wire: setup.Wire, KeepAudit: setup.KeepAudit, KernelAcks: setup.KernelAcks}
	if err := o.Check(); err != nil {
		return nil, proxiesReady{}, err
	}
	targets, err := serveProxies(ctx, base, o, setup.Only, closers)
	if err != nil {
		return nil, proxiesReady{}, err
	}
	s := &proxiesServer{probes: map[string]*probe{}, index: map[string]int{}, armed: map[string]*probed{},
		heap: newHeapCounter()}
	ready := proxiesReady{GOMAXPROCS: runtime.GOMAXPROCS(0)}
	ready.CPUs, _ = allowedCPUs() // nil where they cannot be read; the bench then says so
	for i, t := range targets {
		s.probes[t.name], s.index[t.name] = t.probe.(*probe), i
		ready.Targets = append(ready.Targets, proxiesEntry{Name: t.name, URL: t.url, Warden: t.warden})
	}
	return s, ready, nil
}

func (s *proxiesServer) answer(ctx context.Context, c proxiesCall) (proxiesAnswer, error) {
	p := s.probes[c.Target]
	switch c.Op {
	case "arm", "disarm", "notes":
		if p == nil {
			return proxiesAnswer{}, fmt.Errorf("no proxy %q here", c.Target)
		}
	}
	switch c.Op {
	case "arm":
		if s.gc != nil {
			s.before = s.gc.between(s.index[c.Target], len(s.probes))
		} else {
			s.before = s.heap.allocated()
		}
		s.armed[c.Target] = p.arm(c.Chunks)
		return proxiesAnswer{}, nil
	case "disarm":
		p.disarm()
		delete(s.armed, c.Target)
		return proxiesAnswer{}, nil
	case "notes":
		x := s.armed[c.Target]
		if x == nil {
			return proxiesAnswer{}, fmt.Errorf("%s's probe was not armed", c.Target)
		}
		delete(s.armed, c.Target)
		ctx, cancel := context.WithTimeout(ctx, notesTimeout)
		defer cancel()
		if err := x.wait(ctx); err != nil {
			return proxiesAnswer{}, fmt.Errorf("%s's probed exchange: %w", c.Target, err)
		}
		n := x.notes()
		n.Heap = s.heap.allocated() - s.before
		return proxiesAnswer{Notes: &n}, nil
	case "cpu":
		return proxiesAnswer{CPU: processCPU()}, nil
	case "memory":
		m, err := processMemory()
		return proxiesAnswer{Memory: m}, err
	case "stalls":
		st := measureStalls(c.For)
		return proxiesAnswer{Over20us: st.Over20us, Over100us: st.Over100us, Worst: st.Worst}, nil
	case "collect":
		if s.gc != nil {
			return proxiesAnswer{}, errors.New("the collector is already the bench's")
		}
		s.gc = startCollector(c.Timed)
		return proxiesAnswer{}, nil
	case "collected":
		if s.gc == nil {
			return proxiesAnswer{}, errors.New("the collector was not the bench's")
		}
		s.gc.stop()
		a := proxiesAnswer{Collections: s.gc.cycles}
		s.gc = nil
		return a, nil
	}
	return proxiesAnswer{}, fmt.Errorf("unknown call %q", c.Op)
}

// proxiesProcess is the bench's side: the proxies' process and the pipe to it. Its calls are safe for
// concurrent use; they take turns.
type proxiesProcess struct {
	cmd        *exec.Cmd
	in         io.WriteCloser
	enc        *json.Encoder
	dec        *json.Decoder
	gomaxprocs int

	mu sync.Mutex
}

// startProxiesProcess starts o.ProxyCommand on cpus (on every CPU this process may use when cpus is nil),
// sets up the proxies in front of upstream (only the one named, when only is set) and gives them as
// targets.
func startProxiesProcess(ctx context.Context, o Options, upstream string, cpus []int, only string) (*proxiesProcess, []target, error) {
	cmd := exec.Command(o.ProxyCommand[0], o.ProxyCommand[1:]...)
	cmd.Stderr = os.Stderr // the process's own errors, should it fail
	cmd.WaitDelay = 5 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	start := cmd.Start
	if cpus != nil {
		start = func() error { return startPinned(cmd, cpus) }
	}
	if err := start(); err != nil {
		return nil, nil, fmt.Errorf("starting the proxies' process (%s): %w", o.ProxyCommand[0], err)
	}
	p := &proxiesProcess{cmd: cmd, in: in, enc: json.NewEncoder(in), dec: json.NewDecoder(out)}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	defer stop()
	var ready proxiesReady
	err = p.enc.Encode(proxiesSetup{Upstream: upstream, Config: o.Config, Wire: o.Wire, KeepAudit: o.KeepAudit, KernelAcks: o.KernelAcks, Only: only})
	if err == nil {
		err = p.dec.Decode(&ready)
	}
	if err == nil && ready.Error != "" {
		err = errors.New(ready.Error)
	}
	if err != nil {
		return p, nil, fmt.Errorf("the proxies' process: %w", p.ended(err))
	}
	p.gomaxprocs = ready.GOMAXPROCS
	if cpus != nil && !slices.Equal(ready.CPUs, cpus) {
		return p, nil, fmt.Errorf("the proxies' process runs on CPUs %v, not on %v as it was started", ready.CPUs, cpus)
	}
	var targets []target
	for _, e := range ready.Targets {
		targets = append(targets, target{name: e.Name, url: e.URL, warden: e.Warden, probe: remoteProbe{p, e.Name}, process: p})
	}
	return p, targets, nil
}

// call sends c and reads its answer.
func (p *proxiesProcess) call(c proxiesCall) (proxiesAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var a proxiesAnswer
	err := p.enc.Encode(c)
	if err == nil {
		err = p.dec.Decode(&a)
	}
	if err != nil {
		return a, fmt.Errorf("the proxies' process, %s: %w", c.Op, p.ended(err))
	}
	if a.Error != "" {
		return a, fmt.Errorf("the proxies' process, %s: %s", c.Op, a.Error)
	}
	return a, nil
}

// ended explains a broken pipe by the process's end, when it ended.
func (p *proxiesProcess) ended(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		if werr := p.cmd.Wait(); werr != nil {
			return fmt.Errorf("it ended: %w", werr)
		}
		return errors.New("it ended")
	}
	return err
}

func (p *proxiesProcess) cpu() (time.Duration, error) {
	a, err := p.call(proxiesCall{Op: "cpu"})
	return a.CPU, err
}

func (p *proxiesProcess) memory() (Memory, error) {
	a, err := p.call(proxiesCall{Op: "memory"})
	return a.Memory, err
}

func (p *proxiesProcess) stalls(d time.Duration) (Stalls, error) {
	a, err := p.call(proxiesCall{Op: "stalls", For: d})
	return Stalls{Over20us: a.Over20us, Over100us: a.Over100us, Worst: a.Worst}, err
}

// startCollector hands the proxies' process's collector to the bench, as startCollector does here.
func (p *proxiesProcess) startCollector(timed bool) error {
	_, err := p.call(proxiesCall{Op: "collect", Timed: timed})
	return err
}

// stopCollector gives it back and says how many collections it made between exchanges.
func (p *proxiesProcess) stopCollector() (int, error) {
	a, err := p.call(proxiesCall{Op: "collected"})
	return a.Collections, err
}

// close ends the process: its input ends, it closes its proxies and exits.
func (p *proxiesProcess) close() {
	p.in.Close()
	p.cmd.Wait()
}

// remoteProbe is the probe of a proxy in the proxies' process.
type remoteProbe struct {
	p    *proxiesProcess
	name string
}

func (r remoteProbe) open(chunks int) (armedProbe, error) {
	_, err := r.p.call(proxiesCall{Op: "arm", Target: r.name, Chunks: chunks})
	return r, err
}

func (r remoteProbe) notes(context.Context) (probeNotes, error) {
	a, err := r.p.call(proxiesCall{Op: "notes", Target: r.name})
	if err != nil {
		return probeNotes{}, err
	}
	if a.Notes == nil {
		return probeNotes{}, fmt.Errorf("the proxies' process sent no notes of %s's exchange", r.name)
	}
	return *a.Notes, nil
}

func (r remoteProbe) disarm() error {
	_, err := r.p.call(proxiesCall{Op: "disarm", Target: r.name})
	return err
}
