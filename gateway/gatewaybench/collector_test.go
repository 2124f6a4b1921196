package gatewaybench

import (
	"runtime"
	"runtime/debug"
	"testing"
)

var sink []byte

// The collector changes the process's GC percent, so these rows run one after another.
func TestCollector(t *testing.T) {
	for _, tc := range []struct {
		desc        string
		timed       bool
		every       uint64
		wantCycles  int
		wantPercent int // while the collector runs
	}{
		{"collects between exchanges once the heap allocated reaches its pace", false, 1 << 10, 1, -1},
		{"does not collect before its pace", false, 1 << 40, 0, -1},
		{"leaves the collector alone when timed", true, 1 << 10, 0, 100},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			defer debug.SetGCPercent(debug.SetGCPercent(100))
			c := startCollector(tc.timed)
			c.every = tc.every
			if got := debug.SetGCPercent(tc.wantPercent); got != tc.wantPercent {
				t.Errorf("GC percent %d while the collector runs, want %d", got, tc.wantPercent)
			}
			before := c.allocated()
			sink = make([]byte, 64<<10)
			if c.allocated()-before < 64<<10 {
				t.Errorf("allocated %d bytes, want at least the 64KiB just made", c.allocated()-before)
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			gcs := ms.NumGC
			c.between(0, 1)
			runtime.ReadMemStats(&ms)
			if c.cycles != tc.wantCycles || int(ms.NumGC-gcs) < tc.wantCycles {
				t.Errorf("%d collections counted, %d made; want %d", c.cycles, ms.NumGC-gcs, tc.wantCycles)
			}
			c.stop()
			if got := debug.SetGCPercent(100); got != 100 {
				t.Errorf("GC percent %d after stop, want the 100 it had", got)
			}
		})
	}
}

// The exchange after a collection falls on each target alike, whichever allocates most: the target after
// the heaviest allocator no longer takes them all.
func TestCollectorSharesTheColdExchanges(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	c := startCollector(false)
	defer c.stop()
	c.every = 256 << 10
	const targets = 4
	var after [targets]int // exchanges that came right after a collection, by target
	for range 1500 {
		for i := range targets {
			cycles := c.cycles
			c.between(i, targets)
			if c.cycles != cycles {
				after[i]++
			}
			size := 1 << 10
			if i == 1 {
				size = 64 << 10 // one target allocates far more than the others, as the bare proxy does
			}
			sink = make([]byte, size)
		}
	}
	total := after[0] + after[1] + after[2] + after[3]
	if total < 200 {
		t.Fatalf("%d collections, want a few hundred at this pace", total)
	}
	for i, n := range after {
		if share := float64(n) / float64(total); share < 0.18 || share > 0.32 {
			t.Errorf("target %d took %d of %d cold exchanges (%.0f %%), want about a quarter", i, n, total, 100*share)
		}
	}
}
