package gateway

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"
)

// flushLog is a client's writer that notes how many bytes had been written at each flush.
type flushLog struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	atFlush []int
	flushed chan struct{} // gets a value at each flush
}

func (l *flushLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *flushLog) flush() {
	l.mu.Lock()
	l.atFlush = append(l.atFlush, l.buf.Len())
	l.mu.Unlock()
	select {
	case l.flushed <- struct{}{}:
	default:
	}
}

func (l *flushLog) flushes() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.atFlush...)
}

// firstReadWaits is an upstream body whose first read returns once wait is closed (at once if nil).
type firstReadWaits struct {
	wait <-chan struct{}
	read bool
}

func (r *firstReadWaits) Read(p []byte) (int, error) {
	if r.read {
		return 0, io.EOF
	}
	r.read = true
	if r.wait != nil {
		select {
		case <-r.wait:
		case <-time.After(10 * time.Second): // a liveness bound: the head's timer never flushed
		}
	}
	return copy(p, "data: first\n\n"), nil
}

func TestStreamHeadHold(t *testing.T) {
	t.Parallel()
	const event = "data: first\n\n"
	for _, tc := range []struct {
		desc        string
		hold        time.Duration
		upstreamLag bool // the first read returns only once something was flushed
		endEarly    bool // the hold ends (the exchange's error path) before any read
		want        []int
	}{
		{desc: "a first event there within the hold goes out in the head's flush", hold: time.Hour, want: []int{len(event)}},
		{desc: "a first event later than the hold lets the head go out alone, then itself", hold: time.Millisecond, upstreamLag: true, want: []int{0, len(event)}},
		// The hold is long enough that ending it right after it starts wins over its timer on a loaded
		// machine (at 1 ms the timer sometimes fired first: a flaky test, not a fault).
		{desc: "a hold ended before any read leaves the head to the next flush, not the timer", hold: 50 * time.Millisecond, endEarly: true, want: []int{0, len(event)}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			client := &flushLog{flushed: make(chan struct{}, 1)}
			f := &flushBeforeRead{w: client, flush: client.flush, clock: time.Now()}
			f.holdHead(tc.hold)
			defer f.endHold()
			up := &firstReadWaits{}
			if tc.upstreamLag {
				up.wait = client.flushed
			}
			if tc.endEarly {
				f.endHold()
				time.Sleep(3 * tc.hold) // the timer's time passes: it must not flush what the hold no longer holds
				if got := client.flushes(); len(got) != 0 {
					t.Fatalf("flushes %v after the hold ended, want none until the next read", got)
				}
			}
			r := f.reader(up)
			p := make([]byte, 64)
			n, _ := r.Read(p)
			f.Write(p[:n])
			if _, err := r.Read(p); err != io.EOF { // flushes before it reads
				t.Fatalf("second read: %v, want EOF", err)
			}
			if got := client.flushes(); !equalInts(got, tc.want) {
				t.Errorf("bytes written at each flush %v, want %v", got, tc.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
