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

// Wakes is what it costs here to wake a thread that waits for its peer, as a proxy's thread waits for
// the upstream's bytes and the client's for the proxy's: the median round trip over a pipe between two
// threads on one CPU, and between two CPUs. On most machines the two are within a few microseconds; on
// a VM whose host runs its vCPUs on shared cores, a wake across vCPUs can cost hundreds (this project's
// 2-vCPU VM: 9µs on one, 320µs across), and every exchange that crosses CPUs carries it.
type Wakes struct {
	// CPUs are the CPUs the bench may run on, before any pinning (Linux only).
	CPUs []int
	// OneCPU and AcrossCPUs are the median round trips; zero where not measured (one CPU; not Linux).
	OneCPU, AcrossCPUs time.Duration
}

// wakeRoundTrips is how many round trips each figure is the median of.
const wakeRoundTrips = 500

// MarshalJSON writes microseconds.
func (w Wakes) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		CPUs   []int   `json:"cpus"`
		One    float64 `json:"one_cpu_round_trip_us"`
		Across float64 `json:"across_cpus_round_trip_us"`
	}{w.CPUs, micros(w.OneCPU), micros(w.AcrossCPUs)})
}

// costly says a wake across CPUs costs enough here to be what the p99s of a run on several CPUs measure.
func (w Wakes) costly() bool {
	return w.AcrossCPUs > 4*w.OneCPU && w.AcrossCPUs-w.OneCPU > 50*time.Microsecond
}

// measureWakesOn times the wakes on cpus: on the first, and between the first and the last.
func measureWakesOn(cpus []int) (Wakes, error) {
	w := Wakes{CPUs: cpus}
	if len(cpus) == 0 {
		return w, nil
	}
	var err error
	if w.OneCPU, err = measureWakes(cpus[0], cpus[0], wakeRoundTrips); err != nil || len(cpus) < 2 {
		return w, err
	}
	w.AcrossCPUs, err = measureWakes(cpus[0], cpus[len(cpus)-1], wakeRoundTrips)
	return w, err
}
