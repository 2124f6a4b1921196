package gateway

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// headHold bounds how long a stream's head waits for the first upstream read (see
// flushBeforeRead.holdHead): a model's first token takes hundreds of milliseconds, so an event that has not
// come by then is not coming with the head, and a client sees the response begin this much later at most.
const headHold = 5 * time.Millisecond

// flushBeforeRead writes a stream to the client and flushes it before each read from the upstream, not
// after each write: a read is where the gateway may wait, so nothing written sits in a buffer while it
// does, and the events of one upstream read go out in one flush (one syscall, not one per event).
// It is an http.Flusher, which the pipeline flushes before the checks at a stream's finish, the other
// place where the gateway may wait, and which the format's stream guard flushes as soon as it has handled
// the events of a read: the last one goes out then, not after the guard's loop has come round to the next
// read (a paced chunk's time through the proxy). The flush before a read then finds nothing to do, but for
// a guard that does not flush so (a format registered without it).
//
// It is used by the exchange's goroutine only, but for the head's timer (holdHead), which mu keeps from
// flushing while that goroutine writes.
type flushBeforeRead struct {
	w     io.Writer
	flush func()
	dirty bool
	// waited adds up the time spent in upstream reads, timed from clock: a monotonic reading since a
	// fixed time is one clock read, time.Now two. The exchange adds it to its own wait when the stream
	// ends: kept here, it is on a cache line each paced chunk touches anyway, not one more of the
	// exchange's.
	waited time.Duration
	clock  time.Time

	// holding says the head waits for the first upstream read (the exchange's goroutine's own view);
	// held is the timer's, under mu.
	holding bool
	head    *time.Timer
	mu      sync.Mutex
	held    bool
}

var _ http.Flusher = (*flushBeforeRead)(nil)

// holdHead keeps the response's head, written and not flushed, for the first upstream read: head and
// first event then go out in one write, as from a relaying proxy, which is a system call less for the
// gateway and a wake less for the client. If that read takes longer than d, the head goes out alone, so
// that a client with a timeout on the head sees the response begin however long the model takes to its
// first token. endHold must be called before the exchange's handler returns.
func (f *flushBeforeRead) holdHead(d time.Duration) {
	f.dirty, f.holding, f.held = true, true, true
	f.head = time.AfterFunc(d, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.held {
			f.held, f.dirty = false, false
			f.flush()
		}
	})
}

// endHold ends the head's hold: the timer will not flush it after this returns, and unless it did already,
// the head goes out with the next flush.
func (f *flushBeforeRead) endHold() {
	if !f.holding {
		return
	}
	f.holding = false
	f.head.Stop()
	f.mu.Lock() // a flush the timer began ends first
	f.held = false
	f.mu.Unlock()
}

func (f *flushBeforeRead) Write(p []byte) (int, error) {
	f.endHold()
	f.dirty = true
	return f.w.Write(p)
}

// Flush flushes what was written, if anything.
func (f *flushBeforeRead) Flush() {
	f.endHold()
	if f.dirty {
		f.dirty = false
		f.flush()
	}
}

// reader returns r flushing the client's stream before each read.
func (f *flushBeforeRead) reader(r io.Reader) io.Reader { return flushingReader{r, f} }

type flushingReader struct {
	r io.Reader
	f *flushBeforeRead
}

func (r flushingReader) Read(p []byte) (int, error) {
	if !r.f.holding {
		r.f.Flush()
	}
	start := time.Since(r.f.clock)
	n, err := r.r.Read(p)
	r.f.waited += time.Since(r.f.clock) - start
	r.f.endHold()
	return n, err
}

// flusherOf finds once how to flush w, which http.ResponseController.Flush finds again on every call
// (through the type switches of w's wrappers): a stream flushes after each chunk, and each of those
// lookups is cache lines a paced chunk finds cold.
func flusherOf(w http.ResponseWriter) func() {
	var rw any = w
	for {
		switch t := rw.(type) {
		case interface{ FlushError() error }:
			return func() { _ = t.FlushError() }
		case http.Flusher:
			return t.Flush
		case interface{ Unwrap() http.ResponseWriter }:
			rw = t.Unwrap()
		default:
			return func() {}
		}
	}
}
