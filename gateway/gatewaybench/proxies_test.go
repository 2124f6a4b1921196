package gatewaybench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// pinned is small() run with the proxies in a process of their own: this test binary, as TestMain serves.
func pinned(t *testing.T) Options {
	t.Setenv(serveProxiesEnv, "1")
	o := small()
	o.Pin, o.ProxyCommand = true, []string{os.Args[0]}
	return o
}

func TestRunPinned(t *testing.T) {
	cpus, err := allowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	procs := runtime.GOMAXPROCS(0)
	rep, err := Run(context.Background(), pinned(t))
	if len(cpus) < 2 {
		if err == nil || !strings.Contains(err.Error(), "two CPUs at least") {
			t.Fatalf("on CPUs %v: err = %v, want one asking for two CPUs", cpus, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	checkMeasured(t, rep)
	p := rep.Pinned
	if p == nil {
		t.Fatal("a pinned run does not say where its parts ran")
	}
	// The proxies take the upper half of the CPUs, the bench the rest; each process is sized to its own.
	if half := len(cpus) - len(cpus)/2; !slices.Equal(p.BenchCPUs, cpus[:half]) || !slices.Equal(p.ProxyCPUs, cpus[half:]) {
		t.Errorf("bench on %v, proxies on %v; want %v split after the first %d", p.BenchCPUs, p.ProxyCPUs, cpus, half)
	}
	if rep.GOMAXPROCS != len(p.BenchCPUs) || p.ProxyGOMAXPROCS != len(p.ProxyCPUs) {
		t.Errorf("GOMAXPROCS %d in the bench, %d in the proxies'; want %d and %d", rep.GOMAXPROCS, p.ProxyGOMAXPROCS, len(p.BenchCPUs), len(p.ProxyCPUs))
	}
	if p.ProxyStalls.Over20us < p.ProxyStalls.Over100us {
		t.Errorf("proxies' stalls %+v: more over 100µs than over 20µs", p.ProxyStalls)
	}
	// Both collectors were the bench's: the proxies' process allocates the proxies' heap and collects it.
	if rep.ProxyCollections == 0 || rep.Collections == 0 {
		t.Errorf("collections between exchanges: %d in the bench, %d in the proxies'; want some in each", rep.Collections, rep.ProxyCollections)
	}
	// The run gives the process back its CPUs and GOMAXPROCS.
	after, err := allowedCPUs()
	if err != nil || !slices.Equal(after, cpus) || runtime.GOMAXPROCS(0) != procs {
		t.Errorf("after the run: CPUs %v (%v), GOMAXPROCS %d; want %v and %d back", after, err, runtime.GOMAXPROCS(0), cpus, procs)
	}
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Pinned: the proxies ran in a process of their own on CPUs", "in the proxies'", "CPU is both processes' per exchange"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Pinned struct {
			ProxyCPUs []int `json:"proxy_cpus"`
		} `json:"pinned"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || !slices.Equal(back.Pinned.ProxyCPUs, p.ProxyCPUs) {
		t.Errorf("JSON report's pinning: %v %+v", err, back)
	}
}

// Apart, each proxy is a process of its own: every target is measured, and the report has each one's
// resident memory and judges Warden's against the bare proxy's, and its throughput against all of it.
func TestRunApart(t *testing.T) {
	t.Setenv(serveProxiesEnv, "1")
	o := small()
	o.Apart, o.ProxyCommand = true, []string{os.Args[0]}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	checkMeasured(t, rep)
	if rep.Pinned != nil || !rep.Apart {
		t.Errorf("pinned %+v, apart %v; want no pinning, apart", rep.Pinned, rep.Apart)
	}
	if rep.ProxyCollections == 0 {
		t.Error("no collections in the proxies' processes between exchanges; the bench should have had their collectors")
	}
	var memoryCheck *Check
	for i, c := range rep.Checks {
		switch {
		case strings.Contains(c.Name, "throughput") && c.Limit != LimitThroughputApartPc:
			t.Errorf("check %q judged against %g %%; apart, the limit is %g %%", c.Name, c.Limit, LimitThroughputApartPc)
		case strings.Contains(c.Name, "resident memory"):
			memoryCheck = &rep.Checks[i]
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		return // resident memory is read on Linux only
	}
	for _, tr := range rep.Targets {
		if (tr.Name == Direct) != (tr.Memory.Resident == 0) {
			t.Errorf("%s: resident memory %d; want it for each proxy and none for the upstream reached directly", tr.Name, tr.Memory.Resident)
		}
		if tr.Memory.Peak < tr.Memory.Resident {
			t.Errorf("%s: peak %d below resident %d", tr.Name, tr.Memory.Peak, tr.Memory.Resident)
		}
	}
	if memoryCheck == nil || memoryCheck.Limit != LimitResidentPc || !memoryCheck.AtMost || memoryCheck.Measured <= 0 {
		t.Errorf("memory check %+v; want one at most %g %%", memoryCheck, LimitResidentPc)
	}
	for _, want := range []string{"Apart: each proxy ran in a process of its own, on every CPU", "Resident memory of each proxy's process", "in the proxies'"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}

func TestRunPinnedFailsClearly(t *testing.T) {
	cpus, err := allowedCPUs()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc  string
		alter func(*Options)
		want  string
	}{
		{"a config the proxies' process cannot load, named", func(o *Options) { o.Config = "testdata/no-such-config.yaml" }, "no-such-config.yaml"},
		{"a proxies' command that does not start", func(o *Options) { o.ProxyCommand = []string{"/nonexistent/warden"} }, "starting the proxies' process (/nonexistent/warden)"},
		{"a proxies' command that is not the proxies' process", func(o *Options) { o.ProxyCommand = []string{"true"} }, "the proxies' process: it ended"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			o := pinned(t)
			tc.alter(&o)
			want := tc.want
			if len(cpus) < 2 { // pinning refuses before anything starts
				want = "two CPUs at least"
			}
			if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v, want one saying %q", err, want)
			}
		})
	}
}

// The proxies' process answers a call it cannot carry out with an error and goes on answering.
func TestServeProxiesAnswersBadCalls(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeProxies(context.Background(), inR, outW); outW.Close() }()
	enc, dec := json.NewEncoder(inW), json.NewDecoder(outR)
	up := &upstream{wire: wires[WireChat], chunks: 4}
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	upURL, err := serveLoopback(up, &closers)
	if err != nil {
		t.Fatal(err)
	}
	var ready proxiesReady
	if err := enc.Encode(proxiesSetup{Upstream: upURL}); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&ready); err != nil || ready.Error != "" || len(ready.Targets) != 3 {
		t.Fatalf("setup: %v %+v", err, ready)
	}
	for _, tc := range []struct {
		desc string
		call proxiesCall
		want string
	}{
		{"an unknown call", proxiesCall{Op: "reboot"}, `unknown call "reboot"`},
		{"a proxy it does not serve", proxiesCall{Op: "arm", Target: "nginx"}, `no proxy "nginx" here`},
		{"notes of a probe not armed", proxiesCall{Op: "notes", Target: BareProxy}, "bare-proxy's probe was not armed"},
		{"the collector given back before it was taken", proxiesCall{Op: "collected"}, "the collector was not the bench's"},
		{"the CPU time, still answered after the errors", proxiesCall{Op: "cpu"}, ""},
	} {
		var a proxiesAnswer
		if err := enc.Encode(tc.call); err != nil {
			t.Fatal(err)
		}
		if err := dec.Decode(&a); err != nil {
			t.Fatalf("%s: %v", tc.desc, err)
		}
		if tc.want == "" && (a.Error != "" || a.CPU <= 0) || tc.want != "" && !strings.Contains(a.Error, tc.want) {
			t.Errorf("%s: answer %+v, want error %q", tc.desc, a, tc.want)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("the process ended with %v once its input ended, want nil", err)
	}
}
