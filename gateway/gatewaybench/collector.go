package gatewaybench

import (
	"math/rand/v2"
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
//
// The exchange right after a collection finds the caches cold and is among a target's slowest, so which
// target gets it matters to the p99s. Collecting before whichever exchange came next gave it to the target
// after the one whose exchange crossed the pace: with the targets in a fixed cyclic order, mostly the one
// after the bare proxy, which allocates most (its 32 KiB copy buffer), while the bare proxy itself
// followed the direct call, which allocates least, and got the fewest. Once a collection is due, the
// collector now draws the target that takes it, so that each gets an equal share.
type collector struct {
	heapCounter
	timed   bool       // leave the collector alone: it runs when due, inside the timed exchanges too
	every   uint64     // heap allocated between two collections
	since   uint64     // the allocation count at the last collection
	percent int        // the GC percent before the bench turned it off
	cycles  int        // collections made between exchanges
	due     int        // the target whose next exchange follows the due collection; -1 when none is due
	draw    *rand.Rand // which target takes a due collection, the same sequence every run
}

// collectEvery is the runtime's own pace for a heap of the bench's size (its minimum heap goal, 4MB, less
// the ~1MB live).
const collectEvery = 3 << 20

// startCollector turns the automatic collector off, unless timed, until stop.
func startCollector(timed bool) *collector {
	c := &collector{heapCounter: newHeapCounter(), timed: timed, every: collectEvery, due: -1, draw: rand.New(rand.NewPCG(3, 4))}
	if !timed {
		c.percent = debug.SetGCPercent(-1)
	}
	c.since = c.allocated()
	return c
}

// heapCounter reads how much heap the process has allocated.
type heapCounter struct{ sample []metrics.Sample }

func newHeapCounter() heapCounter {
	return heapCounter{sample: []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}}
}

// allocated is the heap the process has allocated so far.
func (c heapCounter) allocated() uint64 {
	metrics.Read(c.sample)
	return c.sample[0].Value.Uint64()
}

// between is called before an exchange of target (one of targets): once the heap allocated since the last
// collection has reached the runtime's pace, it draws the target that takes the collection, and collects
// before that target's next exchange. It returns the heap allocated so far, for the exchange's share.
// runtime.GC returns with the cycle's sweeping done, so none of it is left for the exchange.
func (c *collector) between(target, targets int) uint64 {
	now := c.allocated()
	if c.timed {
		return now
	}
	if c.due < 0 {
		if now-c.since < c.every {
			return now
		}
		c.due = c.draw.IntN(targets)
	}
	if target != c.due {
		return now
	}
	runtime.GC()
	c.cycles++
	c.due = -1
	c.since = c.allocated()
	return c.since
}

// stop gives the collector back the GC percent it had.
func (c *collector) stop() {
	if !c.timed {
		debug.SetGCPercent(c.percent)
	}
}
