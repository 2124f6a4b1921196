package audit

import (
	"context"
	"io"
	"sync"
)

// JSONL is a Sink that writes one JSON object per line. The events of one Write go out in a single write
// call, so the lines of concurrent stages never interleave. It is safe for concurrent use.
type JSONL struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

var _ Sink = (*JSONL)(nil)

// NewJSONL returns a sink writing to w. It does not close w.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{w: w} }

// Write appends the events as JSON lines. The context is not consulted: a record is written even when the
// request it belongs to was cancelled.
func (s *JSONL) Write(_ context.Context, events []Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = s.buf[:0]
	for i := range events {
		var err error
		if s.buf, err = appendEvent(s.buf, &events[i]); err != nil {
			return err
		}
		s.buf = append(s.buf, '\n')
	}
	_, err := s.w.Write(s.buf)
	return err
}

// Close flushes nothing (writes are not buffered) and is there so callers can treat every sink alike.
func (s *JSONL) Close() error { return nil }
