package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/agentwarden/warden"
	"strings"
	"sync"
	"testing"
	"time"
)

// gatedWriter records every write; its first write waits until release is closed.
type gatedWriter struct {
	mu      sync.Mutex
	writes  [][]byte
	release chan struct{}
	first   sync.Once
	fail    error
}

func (w *gatedWriter) Write(p []byte) (int, error) {
	w.first.Do(func() { <-w.release })
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, append([]byte(nil), p...))
	return len(p), w.fail
}

func (w *gatedWriter) all() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Join(w.writes, nil)
}

func eventsOf(id string, n int) []Event {
	out := make([]Event, n)
	for i := range out {
		out[i] = sampleEvent()
		out[i].RunID = fmt.Sprintf("%s-%d", id, i)
	}
	return out
}

// Writes that arrive while the writer is busy go out together in one write call, each Write's lines whole
// and in order, and each Write returns only once its lines were written.
func TestConcurrentWritesAreCommittedAsAGroup(t *testing.T) {
	t.Parallel()
	w := &gatedWriter{release: make(chan struct{})}
	s := NewJSONL(w)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = s.Write(context.Background(), eventsOf("first", 2)) }()
	// wait until the first Write holds the writer
	for {
		s.mu.Lock()
		busy := s.writing
		s.mu.Unlock()
		if busy {
			break
		}
		time.Sleep(time.Millisecond)
	}
	const waiting = 20
	for g := range waiting {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("w%02d", g)
			if err := s.Write(context.Background(), eventsOf(id, 3)); err != nil {
				t.Error(err)
			}
			if !bytes.Contains(w.all(), []byte(`"run_id":"`+id+`-2"`)) {
				t.Errorf("Write %s returned before its lines were written", id)
			}
		}()
	}
	for { // every waiting Write has appended its lines
		s.mu.Lock()
		n := bytes.Count(s.pending, []byte("\n"))
		s.mu.Unlock()
		if n == 3*waiting {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(w.release)
	wg.Wait()
	if len(w.writes) != 2 {
		t.Errorf("%d write calls for %d Writes, want 2: the first, then the group", len(w.writes), waiting+1)
	}
	out := string(w.all())
	for g := range waiting {
		id := fmt.Sprintf("w%02d", g)
		i0, i1, i2 := strings.Index(out, id+"-0"), strings.Index(out, id+"-1"), strings.Index(out, id+"-2")
		if i0 < 0 || !(i0 < i1 && i1 < i2) || strings.Count(out[i0:i2], "\n") != 2 {
			t.Errorf("the lines of Write %s are not whole and in order", id)
		}
	}
}

// A failed write is the error of the Write whose lines it carried.
func TestAFailedWriteIsTheWritesError(t *testing.T) {
	t.Parallel()
	w := &gatedWriter{release: make(chan struct{}), fail: errors.New("disk full")}
	close(w.release)
	s := NewJSONL(w)
	if err := s.Write(context.Background(), eventsOf("a", 1)); err == nil {
		t.Error("a failed write returned no error")
	}
}

// countingSink counts its writes and keeps their events.
type countingSink struct {
	mu     sync.Mutex
	writes int
	events []Event
}

func (s *countingSink) Write(_ context.Context, events []Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	s.events = append(s.events, events...)
	return nil
}

// Under Batch, the records of one exchange are written in one write at the flush; records after the flush
// are written as they come, and a second flush writes nothing again.
func TestBatchWritesAnExchangesRecordsOnce(t *testing.T) {
	t.Parallel()
	sink := &countingSink{}
	r := NewRecorder(sink)
	rec := func(stage warden.Stage) *warden.Record {
		return &warden.Record{Stage: stage, Evaluations: []warden.Evaluation{{Guardrail: "g", Stage: stage, Status: warden.StatusEvaluated, Effect: warden.ActionAllow}}}
	}
	ctx, flush := Batch(context.Background())
	r.Record(ctx, rec(warden.StageResponse))
	r.Record(ctx, rec(warden.StageToolCall))
	if sink.writes != 0 {
		t.Fatalf("%d writes before the flush, want 0", sink.writes)
	}
	flush(ctx)
	if sink.writes != 1 || len(sink.events) != 2 {
		t.Fatalf("after the flush: %d writes of %d events, want 1 of 2", sink.writes, len(sink.events))
	}
	r.Record(ctx, rec(warden.StageOutput)) // after the flush: written at once
	flush(ctx)
	if sink.writes != 2 || len(sink.events) != 3 {
		t.Errorf("a record after the flush: %d writes of %d events, want 2 of 3", sink.writes, len(sink.events))
	}
	r.Record(context.Background(), rec(warden.StageInput)) // no batch: written at once
	if sink.writes != 3 {
		t.Errorf("a record without a batch: %d writes, want 3", sink.writes)
	}
}
