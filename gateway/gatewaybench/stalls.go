package gatewaybench

import (
	"encoding/json"
	"time"
)

// Stalls is how often a thread that never blocks lost the CPU for a while, measured by reading the clock
// in a loop before the run: interrupts, the hypervisor taking the vCPU, other processes. A span of w
// microseconds is hit by one with a chance of about PerSecond·w/10⁶, so on a machine that stalls a few
// hundred times a second the p99 of a 30–50µs trip measures the stalls, not the proxy; a machine whose
// proxy has cores of its own shows few.
type Stalls struct {
	// Over20us and Over100us count the gaps longer than 20µs and 100µs a second; Worst is the longest.
	Over20us, Over100us float64
	Worst               time.Duration
}

// MarshalJSON writes the worst gap in microseconds.
func (s Stalls) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Over20  float64 `json:"over_20us_per_second"`
		Over100 float64 `json:"over_100us_per_second"`
		Worst   float64 `json:"worst_us"`
	}{s.Over20us, s.Over100us, micros(s.Worst)})
}

// measureStalls reads the clock in a loop for d and counts the gaps between two reads.
func measureStalls(d time.Duration) Stalls {
	start := time.Now()
	last := start
	var over20, over100 int
	var worst time.Duration
	for last.Sub(start) < d {
		now := time.Now()
		gap := now.Sub(last)
		last = now
		if gap > 20*time.Microsecond {
			over20++
			if gap > 100*time.Microsecond {
				over100++
			}
			worst = max(worst, gap)
		}
	}
	secs := last.Sub(start).Seconds()
	return Stalls{Over20us: float64(over20) / secs, Over100us: float64(over100) / secs, Worst: worst}
}
