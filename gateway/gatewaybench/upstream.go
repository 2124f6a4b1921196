package gatewaybench

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// chunkMark prefixes each streamed text delta with its index ("tok17 "), which the client reads back to
// match a chunk's arrival with its departure.
const chunkMark = "tok"

// upstream is the fake provider of one wire format: whole requests get its whole answer, streams get
// chunks text deltas and then the tool call and the finish, each group flushed, paced as the phase sets.
// When tracing is on it notes when each text chunk left, which the concurrency-1 stream phase reads back.
type upstream struct {
	wire   *wire
	chunks int
	epoch  time.Time

	mu      sync.Mutex
	pacing  pacing
	tracing bool
	sent    []time.Duration // since epoch, by chunk index
}

// pacing is how the upstream spaces a stream's events. The tool call and the finish are paced as the text
// is: sent at once after the last text delta, they made that delta's trip measure the proxy's work at the
// stream's end (authorizing the call) on a machine whose CPUs the client shares, not the delta's relay.
type pacing struct {
	// interval is the pause before each event but the first.
	interval time.Duration
	// firstAlone pauses only between the first event and the second: the first goes out on its own, as a
	// model's first token does, and the stream takes little longer than the interval.
	firstAlone bool
}

// pauseBefore sleeps as long as the pacing says before event i.
func (p pacing) pauseBefore(i int) {
	if p.interval > 0 && i > 0 && (!p.firstAlone || i == 1) {
		time.Sleep(p.interval)
	}
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !json.Valid(body) { // as a provider reads the request before it answers
		http.Error(w, "the request is not JSON", http.StatusBadRequest)
		return
	}
	if !u.wire.streamed(r, body) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, u.wire.whole)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	flush := func() {
		if flusher != nil {
			flusher.Flush()
		}
	}
	u.mu.Lock()
	tracing, pace := u.tracing, u.pacing
	u.mu.Unlock()
	io.WriteString(w, u.wire.head)
	for i := range u.chunks {
		pace.pauseBefore(i)
		if tracing {
			u.mu.Lock()
			u.sent[i] = time.Since(u.epoch)
			u.mu.Unlock()
		}
		io.WriteString(w, u.wire.text(i))
		flush()
	}
	pace.pauseBefore(u.chunks)
	io.WriteString(w, u.wire.toolCall(u.chunks))
	flush()
	pace.pauseBefore(u.chunks + 1)
	io.WriteString(w, u.wire.finish(u.chunks))
	flush()
}

func (u *upstream) setPacing(p pacing) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.pacing = p
}

// trace turns the departure notes on (the next stream's chunks are noted afresh) or off (the notes stay
// for departures).
func (u *upstream) trace(on bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.tracing = on
	if u.sent == nil {
		u.sent = make([]time.Duration, u.chunks)
	}
	if on {
		clear(u.sent)
	}
}

// departures copies the noted departure times of the last traced stream.
func (u *upstream) departures() []time.Duration {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]time.Duration(nil), u.sent...)
}

// chunkIndexes appends the indexes of the text chunks an SSE data line carries (a gateway may merge
// deltas, so a line can carry more than one mark).
func chunkIndexes(line []byte, into []int) []int {
	s := string(line)
	for {
		i := strings.Index(s, chunkMark)
		if i < 0 {
			return into
		}
		s = s[i+len(chunkMark):]
		n, digits := 0, 0
		for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
			n = n*10 + int(s[digits]-'0')
			digits++
		}
		if digits > 0 {
			into = append(into, n)
		}
		s = s[digits:]
	}
}
