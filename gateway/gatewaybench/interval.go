package gatewaybench

import (
	"math/rand/v2"
	"slices"
	"time"
)

// units is a latency sample grouped into the independent units it was measured in: one exchange for a
// whole request or a first token, one stream for its chunks, whose trips share the stream's fate.
type units struct {
	values []time.Duration
	// ends[k] is where unit k's values end; nil when every value is a unit of its own.
	ends []int
}

func (u units) count() int {
	if u.ends == nil {
		return len(u.values)
	}
	return len(u.ends)
}

// unit returns unit k's values.
func (u units) unit(k int) []time.Duration {
	if u.ends == nil {
		return u.values[k : k+1]
	}
	start := 0
	if k > 0 {
		start = u.ends[k-1]
	}
	return u.values[start:u.ends[k]]
}

// intervalResamples is how many bootstrap resamples an interval rests on.
const intervalResamples = 1000

// p99DiffInterval is the 95 % bootstrap interval of the difference between two samples' p99s (g's less
// b's): each resample draws as many units as each sample has, with replacement, and the interval is the
// 2.5th and 97.5th percentiles of the resampled differences. A run on a noisy machine shows by it how
// far its p99 could have landed: a limit inside the interval is one the run cannot judge. The generator
// is seeded, so the same samples give the same interval.
func p99DiffInterval(g, b units) (low, high time.Duration) { return quantileDiffInterval(g, b, 0.99) }

// quantileDiffInterval is p99DiffInterval for the q-th quantile (0.5: the median).
func quantileDiffInterval(g, b units, q float64) (low, high time.Duration) {
	if g.count() == 0 || b.count() == 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var scratch []time.Duration
	p99 := func(u units) time.Duration {
		scratch = scratch[:0]
		for range u.count() {
			scratch = append(scratch, u.unit(rng.IntN(u.count()))...)
		}
		slices.Sort(scratch)
		return nearestRank(scratch, q)
	}
	diffs := make([]time.Duration, intervalResamples)
	for i := range diffs {
		diffs[i] = p99(g) - p99(b)
	}
	slices.Sort(diffs)
	return nearestRank(diffs, 0.025), nearestRank(diffs, 0.975)
}

// nearestRank is the p-th percentile of the sorted s by nearest rank.
func nearestRank(s []time.Duration, p float64) time.Duration {
	i := int(p*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}
