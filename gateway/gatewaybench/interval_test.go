package gatewaybench

import (
	"testing"
	"time"
)

// spread is n values from 1µs up, one apart, each a unit of its own.
func spread(n int, shift time.Duration) units {
	u := units{}
	for i := range n {
		u.values = append(u.values, time.Duration(i+1)*time.Microsecond+shift)
	}
	return u
}

// streams is n units of per values each; the first unit's values are slow, the others fast.
func streams(n, per int, byUnit bool) units {
	u := units{}
	for k := range n {
		for range per {
			v := 10 * time.Microsecond
			if k == 0 {
				v = time.Millisecond
			}
			u.values = append(u.values, v)
		}
		if byUnit {
			u.ends = append(u.ends, len(u.values))
		}
	}
	return u
}

func TestP99DiffInterval(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc  string
		check func(t *testing.T)
	}{
		{"the same sample twice gives an interval around zero", func(t *testing.T) {
			lo, hi := p99DiffInterval(spread(1000, 0), spread(1000, 0))
			if lo > 0 || hi < 0 {
				t.Errorf("interval [%v, %v] leaves out zero", lo, hi)
			}
		}},
		{"a sample shifted by 500µs gives an interval around 500µs, clear of zero", func(t *testing.T) {
			lo, hi := p99DiffInterval(spread(1000, 500*time.Microsecond), spread(1000, 0))
			if lo <= 0 || lo > 500*time.Microsecond || hi < 500*time.Microsecond {
				t.Errorf("interval [%v, %v], want one holding 500µs above zero", lo, hi)
			}
		}},
		{"a stream's chunks are drawn together, which widens the interval", func(t *testing.T) {
			// One stream in 200 is slow throughout: its chunks are 0.5 % of the values. Drawn chunk by
			// chunk, a resample almost never holds over 1 % slow ones; drawn stream by stream, three
			// copies of the slow stream (one resample in twelve) put the p99 at its speed.
			lo, hi := p99DiffInterval(streams(200, 64, true), streams(200, 64, true))
			flatLo, flatHi := p99DiffInterval(streams(200, 64, false), streams(200, 64, false))
			if hi-lo <= flatHi-flatLo {
				t.Errorf("by stream [%v, %v] is no wider than chunk by chunk [%v, %v]", lo, hi, flatLo, flatHi)
			}
		}},
		{"the same samples give the same interval", func(t *testing.T) {
			lo1, hi1 := p99DiffInterval(spread(500, 3*time.Microsecond), spread(500, 0))
			lo2, hi2 := p99DiffInterval(spread(500, 3*time.Microsecond), spread(500, 0))
			if lo1 != lo2 || hi1 != hi2 {
				t.Errorf("[%v, %v] then [%v, %v]", lo1, hi1, lo2, hi2)
			}
		}},
		{"an empty sample gives no interval", func(t *testing.T) {
			if lo, hi := p99DiffInterval(units{}, spread(10, 0)); lo != 0 || hi != 0 {
				t.Errorf("interval [%v, %v], want none", lo, hi)
			}
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}
