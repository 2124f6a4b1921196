package gatewaybench

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// collector keeps the garbage collector out of the timed concurrency-1 exchanges and counts the heap each
// exchange allocates.
//
// The client, the upstream and every proxy share this process's heap, so a collection that any of them
// makes due lands on whichever exchange is in flight. With the small heap the bench keeps (about 1MB live,
// so a cycle every ~3MB allocated: every 25 rounds or so), a cycle's stop-the-world and marking, 0.2–0.6ms
// and 1.5–2ms on a 2-vCPU VM, reached a few percent of every target's exchanges: the p99s of whole
// requests and first tokens measured the collector, and by the same amount whichever target was timed
// (the upstream reached directly too). Collecting between exchanges instead, about as often as the
// runtime would, takes that out without sparing any target its garbage: what each allocates is reported
// beside its latency, and the throughput phase runs with the collector as it comes, so its cost stays in
// the CPU a target spends an exchange.
type collector struct {
	timed   bool   // leave the collector alone: it runs when due, inside the timed exchanges too
	every   uint64 // heap allocated between two collections
	since   uint64 // the allocation count at the last collection
	percent int    // the GC percent before the bench turned it off
	sample  []metrics.Sample
	cycles  int // collections made between exchanges
}

// collectEvery is the runtime's own pace for a heap of the bench's size (its minimum heap goal, 4MB, less
// the ~1MB live).
const collectEvery = 3 << 20

// startCollector turns the automatic collector off, unless timed, until stop.
func startCollector(timed bool) *collector {
	c := &collector{timed: timed, every: collectEvery, sample: []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}}
	if !timed {
		c.percent = debug.SetGCPercent(-1)
	}
	c.since = c.allocated()
	return c
}

// allocated is the heap the process has allocated so far.
func (c *collector) allocated() uint64 {
	metrics.Read(c.sample)
	return c.sample[0].Value.Uint64()
}

// between is called between two exchanges: it collects when the heap allocated since the last collection
// has reached the runtime's pace, and returns the heap allocated so far, for the next exchange's share.
// runtime.GC returns with the cycle's sweeping done, so none of it is left for the next exchange.
func (c *collector) between() uint64 {
	now := c.allocated()
	if c.timed || now-c.since < c.every {
		return now
	}
	runtime.GC()
	c.cycles++
	c.since = c.allocated()
	return c.since
}

// stop gives the collector back the GC percent it had.
func (c *collector) stop() {
	if !c.timed {
		debug.SetGCPercent(c.percent)
	}
}
