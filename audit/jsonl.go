package audit

import (
	"context"
	"io"
	"sync"
)

// JSONL is a Sink that writes one JSON object per line. The events of one Write are one run of lines, so
// the lines of concurrent stages never interleave, and Write returns once they were written to the writer:
// an exchange's events reach the file before its answer completes, and a kill loses none that a Write
// returned.
//
// Concurrent Writes are committed as a group: while one writer's batch is being written, the others append
// theirs to the next batch, and the first of them writes it in one call when the writer is free, then wakes
// those whose lines it carried. Under load that is one write call for many exchanges instead of one each;
// alone, a Write is one write call, as before. It is safe for concurrent use.
type JSONL struct {
	w io.Writer

	mu      sync.Mutex
	cond    sync.Cond
	pending []byte // lines appended since the batch being written was taken
	spare   []byte // a buffer to take the next batch into
	writing bool   // a writer holds a batch and is writing it
	// batch numbers: a Write's lines go out with batch next; written is the last batch written, err its error.
	next, written uint64
	errs          map[uint64]error
}

var _ Sink = (*JSONL)(nil)

// NewJSONL returns a sink writing to w. It does not close w.
func NewJSONL(w io.Writer) *JSONL {
	s := &JSONL{w: w, next: 1}
	s.cond.L = &s.mu
	return s
}

// Write appends the events as JSON lines and returns once they were written. The context is not consulted:
// a record is written even when the request it belongs to was cancelled.
func (s *JSONL) Write(_ context.Context, events []Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	mark := len(s.pending)
	for i := range events {
		var err error
		if s.pending, err = appendEvent(s.pending, &events[i]); err != nil {
			s.pending = s.pending[:mark] // none of this Write's lines, as before: all or nothing
			return err
		}
		s.pending = append(s.pending, '\n')
	}
	mine := s.next
	for s.writing && s.written < mine {
		s.cond.Wait() // the writer is busy: this batch goes out when it is free
	}
	if s.written >= mine {
		return s.errOf(mine)
	}
	// This Write takes the batch its lines are in, with every line appended since, and writes it.
	batch := s.pending
	s.pending, s.spare = s.spare[:0], nil
	s.writing = true
	s.next++
	s.mu.Unlock()
	_, err := s.w.Write(batch)
	s.mu.Lock()
	s.spare = batch[:0]
	s.writing = false
	s.written = mine
	if err != nil {
		if s.errs == nil {
			s.errs = map[uint64]error{}
		}
		for n := range s.errs {
			if n+1024 < mine {
				delete(s.errs, n) // long done: its waiters have read it
			}
		}
		s.errs[mine] = err
	}
	s.cond.Broadcast()
	return err
}

// errOf is the error of the write that carried batch n, for the Writes whose lines it carried. Called with
// mu held.
func (s *JSONL) errOf(n uint64) error { return s.errs[n] }

// Close flushes nothing (every Write is written before it returns) and is there so callers can treat every
// sink alike.
func (s *JSONL) Close() error { return nil }
