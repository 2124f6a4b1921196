package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

// A failed write is the error of every Write whose lines it carried.
func TestAFailedGroupWriteFailsEveryWriteInIt(t *testing.T) {
	t.Parallel()
	w := &gatedWriter{release: make(chan struct{}), fail: errors.New("disk full")}
	close(w.release)
	s := NewJSONL(w)
	if err := s.Write(context.Background(), eventsOf("a", 1)); err == nil {
		t.Error("a failed write returned no error")
	}
}
