package gatewaybench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// probeUpstream streams n chunks marked tok0…, one line each and flushed, after waiting wait.
func probeUpstream(t *testing.T, n int, wait time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(wait)
		for i := range n {
			fmt.Fprintf(w, "data: tok%d \n", i)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// lineProxy is a proxy in a few lines: it relays the upstream's lines, flushing after each unless told
// not to, and leaves out the line of chunk drop (-1: none). It works for pause (sleeps) after the
// upstream call returns, before its first read.
func lineProxy(upstream string, transport http.RoundTripper, flush bool, drop int, pause time.Duration) http.Handler {
	client := &http.Client{Transport: transport}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, upstream, nil)
		resp, err := client.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		time.Sleep(pause)
		br := bufio.NewReader(resp.Body)
		for i := 0; ; i++ {
			line, err := br.ReadString('\n')
			if line != "" && i != drop {
				io.WriteString(w, line)
				if flush {
					http.NewResponseController(w).Flush()
				}
			}
			if err != nil {
				return
			}
		}
	})
}

func TestProbe(t *testing.T) {
	t.Parallel()
	const chunks = 3
	for _, tc := range []struct {
		desc     string
		arm      bool
		flush    bool
		drop     int
		wait     time.Duration // the upstream's, before it answers
		pause    time.Duration // the proxy's, between the upstream's answer and its first read
		exchange int           // which exchange to look at: 0 the first after arming, 1 the next
		check    func(t *testing.T, x *probed, taken bool)
	}{
		{desc: "an unarmed probe passes the exchange through untimed", drop: -1, flush: true,
			check: func(t *testing.T, x *probed, taken bool) {
				if taken {
					t.Error("an exchange was timed with no probe armed")
				}
			}},
		{desc: "an armed probe times only the next exchange", arm: true, flush: true, drop: -1, exchange: 1,
			check: func(t *testing.T, x *probed, taken bool) {
				if taken {
					t.Error("the second exchange after arming was timed too")
				}
			}},
		{desc: "each chunk is timed from its read off the upstream to its flush", arm: true, flush: true, drop: -1,
			check: func(t *testing.T, x *probed, taken bool) {
				stays, ok := x.stays(nil)
				if !ok || len(stays) != chunks {
					t.Fatalf("stays %v (all seen: %v), want %d", stays, ok, chunks)
				}
				for i, d := range stays {
					if d < 0 || x.read[i].Before(x.arrived) || x.flushed[i].After(x.returned) {
						t.Errorf("chunk %d: stay %v, read %v, flushed %v, exchange %v to %v", i, d, x.read[i], x.flushed[i], x.arrived, x.returned)
					}
				}
			}},
		{desc: "a chunk the proxy never flushes is timed to the handler's return", arm: true, drop: -1,
			check: func(t *testing.T, x *probed, taken bool) {
				if _, ok := x.stays(nil); !ok || !x.flushed[chunks-1].Equal(x.returned) {
					t.Errorf("last chunk flushed %v, handler returned %v", x.flushed[chunks-1], x.returned)
				}
			}},
		{desc: "a chunk the proxy drops is reported as not seen", arm: true, flush: true, drop: 1,
			check: func(t *testing.T, x *probed, taken bool) {
				if _, ok := x.stays(nil); ok {
					t.Error("stays reported every chunk seen though the proxy dropped one")
				}
			}},
		{desc: "the upstream's time is left out of the proxy's own", arm: true, flush: true, drop: -1, wait: 20 * time.Millisecond,
			check: func(t *testing.T, x *probed, taken bool) {
				if x.upstream < 20*time.Millisecond || x.whole() >= 20*time.Millisecond || x.whole() <= 0 {
					t.Errorf("upstream %v, own %v: want the upstream's 20ms wait in the first only", x.upstream, x.whole())
				}
				if d, ok := x.firstToken(); !ok || d >= 20*time.Millisecond || d <= 0 {
					t.Errorf("own time to the first chunk %v (seen %v), want it without the upstream's wait", d, ok)
				}
			}},
		{desc: "what the proxy does between the upstream's answer and its first read is its own", arm: true, flush: true, drop: -1, pause: 20 * time.Millisecond,
			check: func(t *testing.T, x *probed, taken bool) {
				if x.whole() < 20*time.Millisecond || x.upstream >= 20*time.Millisecond {
					t.Errorf("upstream %v, own %v: want the proxy's 20ms pause in its own", x.upstream, x.whole())
				}
				if d, ok := x.firstToken(); !ok || d < 20*time.Millisecond {
					t.Errorf("own time to the first chunk %v (seen %v), want the proxy's 20ms pause in it", d, ok)
				}
			}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			up := probeUpstream(t, chunks, tc.wait)
			p := new(probe)
			taken := false
			inner := lineProxy(up.URL, probeTransport{http.DefaultTransport}, tc.flush, tc.drop, tc.pause)
			seen := make(chan bool, 2)
			proxy := httptest.NewServer(p.handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, ok := r.Context().Value(probeKey{}).(*probed)
				seen <- ok
				inner.ServeHTTP(w, r)
			})))
			defer proxy.Close()
			var x *probed
			if tc.arm {
				x = p.arm(chunks)
			}
			for i := range tc.exchange + 1 {
				resp, err := http.Get(proxy.URL)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if tc.drop < 0 && strings.Count(string(body), "tok") != chunks {
					t.Fatalf("proxy relayed %q", body)
				}
				taken = <-seen
				if i == 0 && x != nil {
					if err := x.wait(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
			}
			tc.check(t, x, taken)
		})
	}
}
