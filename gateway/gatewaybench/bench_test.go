package gatewaybench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// small is a run short enough for a test: it checks that every part measures, not how fast.
func small() Options {
	return Options{Requests: 40, StreamRequests: 8, Chunks: 8, ChunkInterval: 50 * time.Microsecond,
		Concurrency: 4, Duration: 100 * time.Millisecond, Rounds: 2}
}

func TestRunMeasuresEveryTarget(t *testing.T) {
	rep, err := Run(context.Background(), small())
	if err != nil {
		t.Fatal(err)
	}
	checkMeasured(t, rep)
	if rep.Pinned != nil {
		t.Errorf("an unpinned run reports pinning %+v", rep.Pinned)
	}
	if rep.DelayedAcks != acksDelayable {
		t.Errorf("report says delayed ACKs %v, want %v (where the system has the mode)", rep.DelayedAcks, acksDelayable)
	}
	// What a wake costs, on one CPU and across two where the process has two (Linux only).
	if cpus, err := allowedCPUs(); err == nil {
		wk := rep.Wakes
		if !slices.Equal(wk.CPUs, cpus) || wk.OneCPU <= 0 || (len(cpus) > 1) != (wk.AcrossCPUs > 0) {
			t.Errorf("wakes %+v on CPUs %v: want the CPUs, a round trip on one, and one across two if there are two", wk, cpus)
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	wants := []string{"garbage collector ran between the concurrency-1 exchanges (", " times), not inside them", "CPU is the whole process's per exchange"}
	if acksDelayable {
		wants = append(wants, "asked for delayed ACKs before each write")
	}
	for _, want := range wants {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}

// checkMeasured checks that a run of small() measured every target in every phase and reports it.
func checkMeasured(t *testing.T, rep *Report) {
	t.Helper()
	var names []string
	for _, tr := range rep.Targets {
		names = append(names, tr.Name)
		for _, l := range []struct {
			what string
			l    Latency
			n    int
		}{{"whole", tr.Whole, 40}, {"ttft", tr.TTFT, 40}, {"stream", tr.Stream, 8}, {"chunk", tr.Chunk, 64}} {
			if l.l.N != l.n || l.l.P50 <= 0 || l.l.P50 > l.l.P99 {
				t.Errorf("%s %s: %+v, want %d samples with 0 < p50 <= p99", tr.Name, l.what, l.l, l.n)
			}
		}
		// Inside a proxy: every exchange and every chunk timed; nothing for the upstream reached directly.
		inProxy := []struct {
			what string
			l    Latency
			n    int
		}{{"whole in proxy", tr.WholeInProxy, 40}, {"ttft in proxy", tr.TTFTInProxy, 40}, {"chunk in proxy", tr.ChunkInProxy, 64}}
		for _, l := range inProxy {
			switch {
			case tr.Name == Direct && l.l.N != 0:
				t.Errorf("direct %s: %+v, want no samples", l.what, l.l)
			case tr.Name != Direct && (l.l.N != l.n || l.l.P50 <= 0 || l.l.P50 > l.l.P99):
				t.Errorf("%s %s: %+v, want %d samples with 0 < p50 <= p99", tr.Name, l.what, l.l, l.n)
			}
		}
		// The heap an exchange allocates: the client's and the upstream's at least, more through a proxy.
		if direct := rep.target(Direct); tr.WholeHeap == 0 || tr.StreamHeap == 0 ||
			(tr.Name != Direct && (tr.WholeHeap <= direct.WholeHeap || tr.StreamHeap <= direct.StreamHeap)) {
			t.Errorf("%s: heap %d a whole exchange, %d a stream (direct %d, %d); want some, and more through a proxy",
				tr.Name, tr.WholeHeap, tr.StreamHeap, direct.WholeHeap, direct.StreamHeap)
		}
		if tr.WholeRate.Exchanges == 0 || tr.StreamRate.Exchanges == 0 || tr.WholeRate.PerSecond <= 0 {
			t.Errorf("%s: throughput %+v %+v, want exchanges counted", tr.Name, tr.WholeRate, tr.StreamRate)
		}
	}
	if got := strings.Join(names, " "); got != "direct bare-proxy warden-off warden" {
		t.Errorf("targets %q", got)
	}
	// The guarded target ran the embedded defaults (safety, arguments and commands), the other Warden none.
	if g := rep.target(WardenGuard); g.Evaluated != "3/3" || g.StreamEvaluated != "3/3" || g.Decision != "allow" {
		t.Errorf("guarded target evaluated %q (decision %q), stream %q; want 3/3 allow", g.Evaluated, g.Decision, g.StreamEvaluated)
	}
	if off := rep.target(WardenOff); off.Evaluated != "0/0" {
		t.Errorf("warden-off evaluated %q, want 0/0", off.Evaluated)
	}
	// Six checks, and a seventh for resident memory where each proxy's process could be measured alone.
	want := 6
	if rep.target(BareProxy).Memory.Resident > 0 {
		want++
	}
	if len(rep.Checks) != want {
		t.Errorf("%d checks, want %d", len(rep.Checks), want)
	}
	for _, c := range rep.Checks {
		if c.AtMost && c.Low > c.High {
			t.Errorf("check %q: interval [%v, %v] is upside down", c.Name, c.Low, c.High)
		}
	}
	if rep.Stalls.Over20us < rep.Stalls.Over100us || rep.Stalls.Over100us < 0 {
		t.Errorf("stalls %+v: more over 100µs than over 20µs", rep.Stalls)
	}
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bare-proxy", "TTFT p99", "streams/s", "added delay per chunk, median", "3/3 guardrails",
		"inside each proxy", "added delay per chunk in the proxy, median", "took the CPU from a busy thread", "95 % bootstrap interval",
		"garbage collector ran between the concurrency-1 exchanges", "heap"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Targets []struct {
			Name  string `json:"name"`
			Whole struct {
				N   int     `json:"n"`
				P99 float64 `json:"p99_us"`
			} `json:"whole"`
		} `json:"targets"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Targets) != 4 || back.Targets[3].Whole.N != 40 || back.Targets[3].Whole.P99 <= 0 {
		t.Errorf("JSON report: %v %+v", err, back)
	}
}

func TestRunFailsRatherThanMeasureWhatWentWrong(t *testing.T) {
	dir := t.TempDir()
	write := func(name, yaml string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		desc, config, want string
	}{
		{"a config that denies the bench's tool call", write("deny.yaml",
			"version: 1\ngateway:\n  on_deny: error\nguardrails:\n  tool_call:\n    - use: allowlist\n      config:\n        allowed_tools: [read_file]\n"), "warden answered 403"},
		{"a config that does not load", write("bad.yaml", "version: 1\nguardrails:\n  input:\n    - use: nosuch\n"), "nosuch"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			o := small()
			o.Config = tc.config
			_, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
}

func TestOptionsRejectWhatCannotRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc string
		o    Options
		want string
	}{
		{"a negative request count", Options{Requests: -1}, "requests cannot be negative"},
		{"a negative chunk count", Options{Chunks: -1}, "chunks cannot be negative"},
		{"a negative duration", Options{Duration: -time.Second}, "duration cannot be negative"},
		{"a negative chunk interval", Options{ChunkInterval: -1}, "chunk interval cannot be negative"},
		{"an unknown wire format, naming the known ones", Options{Wire: "bedrock"}, "anthropic, gemini, openai-chat, openai-responses"},
		{"pinning without the command that serves the proxies", Options{Pin: true}, "needs the command that serves them"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if _, err := Run(context.Background(), tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// Every wire format goes through every target: the upstream answers in it, Warden guards it (the
// default guardrails evaluated on whole answers and streams), and the client finds the tool call and
// every text chunk.
func TestRunSpeaksEveryWire(t *testing.T) {
	for _, name := range Wires() {
		t.Run(name, func(t *testing.T) {
			o := Options{Wire: name, Requests: 10, StreamRequests: 2, Chunks: 4, ChunkInterval: 20 * time.Microsecond,
				Concurrency: 2, Duration: 40 * time.Millisecond, ThroughputRounds: 1,
				KernelAcks: name == WireGemini} // one wire runs with the kernel's ACK modes
			rep, err := Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Wire != name {
				t.Errorf("report says wire %q", rep.Wire)
			}
			if rep.DelayedAcks != (acksDelayable && !o.KernelAcks) {
				t.Errorf("KernelAcks %v: report says delayed ACKs %v", o.KernelAcks, rep.DelayedAcks)
			}
			for _, tr := range rep.Targets {
				if tr.Whole.N != 10 || tr.TTFT.N != 10 || tr.Chunk.N != 8 {
					t.Errorf("%s: %d whole, %d first tokens, %d chunks; want 10, 10, 8", tr.Name, tr.Whole.N, tr.TTFT.N, tr.Chunk.N)
				}
			}
			if g := rep.target(WardenGuard); g.Evaluated != "3/3" || g.StreamEvaluated != "3/3" || g.StreamDecision != "allow" {
				t.Errorf("guarded target evaluated %q, stream %q (decision %q); want 3/3 allow", g.Evaluated, g.StreamEvaluated, g.StreamDecision)
			}
		})
	}
}

func TestChunkIndexes(t *testing.T) {
	for _, tc := range []struct {
		desc, line string
		want       []int
	}{
		{"one mark", `data: {"delta":{"content":"tok17 "}}`, []int{17}},
		{"merged deltas", `data: {"delta":{"content":"tok1 tok2 tok3 "}}`, []int{1, 2, 3}},
		{"no mark", `data: {"delta":{"content":"hello"}}`, nil},
		{"a mark without digits", `data: {"delta":{"content":"token"}}`, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := chunkIndexes([]byte(tc.line), nil)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestWakesCostly(t *testing.T) {
	t.Parallel()
	us := time.Microsecond
	for _, tc := range []struct {
		desc string
		w    Wakes
		want bool
	}{
		{"a VM whose vCPUs share cores: 9µs on one, 320µs across", Wakes{OneCPU: 9 * us, AcrossCPUs: 320 * us}, true},
		{"dedicated cores: a few microseconds either way", Wakes{OneCPU: 8 * us, AcrossCPUs: 12 * us}, false},
		{"several times dearer across, but by less than 50µs", Wakes{OneCPU: 5 * us, AcrossCPUs: 40 * us}, false},
		{"one CPU: nothing across to measure", Wakes{OneCPU: 9 * us}, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := tc.w.costly(); got != tc.want {
				t.Errorf("costly() = %v, want %v", got, tc.want)
			}
		})
	}
}
