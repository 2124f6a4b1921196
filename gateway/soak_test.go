package gateway_test

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// faultyStreams is an upstream whose Chat streams fail at random in every way a provider's can: cut off
// mid-stream, ended cleanly before the finish, paused, carrying data that is not JSON or an event that
// reads two ways, or answered whole.
type faultyStreams struct {
	stream []byte
	served atomic.Int64
}

func (u *faultyStreams) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	u.served.Add(1)
	s := u.stream
	w.Header().Set("Content-Type", "text/event-stream")
	flush := func() { http.NewResponseController(w).Flush() }
	switch rand.IntN(7) {
	case 0: // whole and healthy
		w.Write(s)
	case 1: // the connection drops mid-stream
		w.Write(s[:rand.IntN(len(s))])
		flush()
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
	case 2: // a clean end before the finish
		w.Write(s[:strings.Index(string(s), `"finish_reason":"tool_calls"`)-100])
	case 3: // paused between chunks
		for _, ev := range strings.SplitAfter(string(s), "\n\n") {
			io.WriteString(w, ev)
			flush()
			select {
			case <-time.After(time.Duration(rand.IntN(3)) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	case 4: // data that is not JSON
		io.WriteString(w, "data: not json\n\n")
		w.Write(s)
	case 5: // an event that reads two ways
		w.Write([]byte(strings.Replace(string(s), `data: {"id"`, `data: {"Choices":[],"id"`, 1)))
	case 6: // an upstream error
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit_error"}}`)
	}
}

// TestSoakWithFaultyStreams runs 500 clients' streams at once through the gateway against an upstream
// that fails at random (and clients that hang up at random), then checks that every exchange ended and
// that goroutines and heap came back to where they were. WARDEN_SOAK sets how long (default 10s; the
// figures in docs/gateway.md are for 1m); WARDEN_SOAK_HEAP names a file for a heap profile taken after.
func TestSoakWithFaultyStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak; -short leaves it out")
	}
	duration := 10 * time.Second
	if v := os.Getenv("WARDEN_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("WARDEN_SOAK=%q: %v", v, err)
		}
		duration = d
	}
	up := &faultyStreams{stream: fixture(t, "openai", "stream_tool_call.sse")}
	upSrv := httptest.NewServer(up)
	defer upSrv.Close()
	h := newHarness(t, "", upstreamsAt(upSrv.URL))

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 500, MaxConnsPerHost: 0}}
	// settle closes idle connections and collects garbage until at most want goroutines run (for up to 5
	// s), and returns the goroutines and the live heap then.
	settle := func(want int) (goroutines int, heap uint64) {
		h.recs.mu.Lock()
		h.recs.list = nil // the harness keeps every record for other tests to read; this one reads none
		h.recs.mu.Unlock()
		client.CloseIdleConnections()
		upSrv.CloseClientConnections()
		var m runtime.MemStats
		for range 50 {
			runtime.GC()
			if goroutines = runtime.NumGoroutine(); goroutines <= want {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		runtime.GC()
		runtime.GC() // twice more: sync.Pool keeps what it holds through one collection
		runtime.ReadMemStats(&m)
		return goroutines, m.HeapAlloc
	}
	// The baseline is taken after a few exchanges, so that what the first ones set up for good (pools,
	// the transports' first connections) is in it.
	for range 5 {
		soakOne(t, client, h.url, false)
	}
	time.Sleep(100 * time.Millisecond) // the warm-up's connections wind down
	baseG, baseHeap := settle(runtime.NumGoroutine())

	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	var wg sync.WaitGroup
	var done, broken, hungUp atomic.Int64
	for range 500 {
		wg.Go(func() {
			for ctx.Err() == nil {
				switch soakOne(t, client, h.url, rand.IntN(10) == 0) {
				case "ok":
					done.Add(1)
				case "broken":
					broken.Add(1)
				case "hung up":
					hungUp.Add(1)
				}
			}
		})
	}
	wg.Wait()
	g, heap := settle(baseG + 10)
	if p := os.Getenv("WARDEN_SOAK_HEAP"); p != "" {
		f, _ := os.Create(p)
		pprof.WriteHeapProfile(f)
		f.Close()
	}
	t.Logf("%s: %d exchanges (%d whole, %d ended by Warden's error event or the provider's error, %d hung up by the client); goroutines %d → %d, live heap %.1f → %.1f MiB",
		duration, up.served.Load(), done.Load(), broken.Load(), hungUp.Load(), baseG, g, float64(baseHeap)/(1<<20), float64(heap)/(1<<20))
	if done.Load() == 0 || broken.Load() == 0 {
		t.Errorf("the soak did not exercise both healthy and faulty streams")
	}
	if g > baseG+10 {
		t.Errorf("goroutines: %d after the soak, %d before", g, baseG)
	}
	if heap > baseHeap+16<<20 {
		t.Errorf("live heap: %.1f MiB after the soak, %.1f MiB before", float64(heap)/(1<<20), float64(baseHeap)/(1<<20))
	}
}

// soakOne sends one streamed request and reads the answer: "ok" for a stream that finished, "broken" for
// one that ended with an error event or an error status, "hung up" when the client hung up on purpose.
// A stream that ends with neither its finish nor an error event fails the test: it is what a client cannot
// tell from a stream cut short.
func soakOne(t *testing.T, client *http.Client, base string, hangUp bool) string {
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/chat/completions",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Errorf("request: %v", err)
		return ""
	}
	defer resp.Body.Close()
	if hangUp {
		io.CopyN(io.Discard, resp.Body, 100)
		return "hung up"
	}
	b, err := io.ReadAll(resp.Body)
	out := string(b)
	switch {
	case resp.StatusCode != http.StatusOK:
		return "broken"
	case err != nil:
		t.Errorf("reading the stream: %v", err)
		return ""
	case strings.Contains(out, `"error"`):
		// A call is released only with its finish; a connection that drops after it still ends in an error.
		if strings.Contains(out, `"name":"bash"`) && !strings.Contains(out, `"finish_reason":"tool_calls"`) {
			t.Errorf("a stream that ended in an error before its finish released its held call:\n%s", out)
		}
		return "broken"
	case strings.Contains(out, `"finish_reason":"tool_calls"`) && strings.HasSuffix(out, "data: [DONE]\n\n"):
		return "ok"
	}
	t.Errorf("a stream ended with neither its finish nor an error event:\n%s", out)
	return ""
}
