package gateway_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	_ "github.com/agentwarden/warden/builtin"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/gateway"
	"github.com/agentwarden/warden/pipeline"
)

// reply is what the fake upstream answers next: a recorded provider body or stream.
type reply struct {
	status      int
	contentType string
	body        []byte
	// cutAfter, when positive, ends the connection after that many bytes of body: a reset mid-stream.
	cutAfter int
	// header holds headers the answer carries beside its content type.
	header map[string]string
	// delay holds the answer back (an upstream that does not answer in time).
	delay time.Duration
	// pauseAfter, when positive, sends that many bytes of body, then the rest after pause: a model
	// thinking in the middle of its stream.
	pauseAfter int
	pause      time.Duration
	// arrived, when set, is closed as the request arrives; cancelled, when the request's context ends
	// before the answer is written.
	arrived, cancelled chan struct{}
}

// upstream is a fake provider on loopback that replays recorded answers and remembers what it was sent.
type upstream struct {
	mu      sync.Mutex
	next    []reply // answered in turn; the last one again and again
	path    string
	query   string
	header  http.Header
	body    []byte
	bodies  [][]byte // every request body, in order
	served  [][]byte // every answer body written, in order
	calls   int
	srv     *httptest.Server
	baseURL *url.URL
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{}
	u.srv = httptest.NewServer(u)
	t.Cleanup(u.srv.Close)
	u.baseURL, _ = url.Parse(u.srv.URL)
	return u
}

// answer sets the replies to the next requests, in order; the last one answers every request after.
func (u *upstream) answer(rs ...reply) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for i := range rs {
		if rs[i].status == 0 {
			rs[i].status = http.StatusOK
		}
		if rs[i].contentType == "" {
			rs[i].contentType = "application/json"
		}
	}
	u.next = rs
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	u.mu.Lock()
	u.path, u.query, u.header, u.body = r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body
	u.bodies = append(u.bodies, body)
	u.calls++
	u.mu.Unlock()
	if status, answer, ok := u.refusal(r.URL.Path, body); !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(answer)
		return
	}
	u.mu.Lock()
	if len(u.next) == 0 {
		u.mu.Unlock()
		http.Error(w, "the fake upstream was given no answer for this request", http.StatusTeapot)
		return
	}
	next := u.next[0]
	if len(u.next) > 1 {
		u.next = u.next[1:]
	}
	u.served = append(u.served, next.body)
	u.mu.Unlock()
	if next.arrived != nil {
		close(next.arrived)
	}
	if next.delay > 0 {
		select {
		case <-time.After(next.delay):
		case <-r.Context().Done():
			if next.cancelled != nil {
				close(next.cancelled)
			}
			return
		}
	}
	w.Header().Set("Content-Type", next.contentType)
	w.Header().Set("X-Request-Id", "req-upstream")
	for k, v := range next.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(next.status)
	if next.pauseAfter > 0 {
		w.Write(next.body[:next.pauseAfter])
		http.NewResponseController(w).Flush()
		time.Sleep(next.pause)
		w.Write(next.body[next.pauseAfter:])
		return
	}
	if next.cutAfter > 0 {
		w.Write(next.body[:next.cutAfter])
		http.NewResponseController(w).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	w.Write(next.body)
}

// sent returns what the upstream last received.
func (u *upstream) sent() (path, query string, header http.Header, body []byte, calls int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.path, u.query, u.header, u.body, u.calls
}

// received returns every request body the upstream was sent, in order.
func (u *upstream) received() [][]byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([][]byte(nil), u.bodies...)
}

// fixture reads a recorded provider answer from a wire codec's testdata.
func fixture(t testing.TB, provider, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "wire", provider, "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// harness is Warden's gateway on loopback in front of a fake upstream for every built-in provider.
type harness struct {
	up      *upstream
	metrics *gateway.Metrics
	g       *gateway.Gateway
	url     string // Warden's base URL
	recs    *records
	loaded  *config.Loaded
}

// records keeps the engine's evaluation records, to check what ran.
type records struct {
	mu   sync.Mutex
	list []warden.Record
}

func (r *records) Record(_ context.Context, rec *warden.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, *rec)
}

type harnessOption func(*gateway.Config)

// upstreamsAt points every upstream at rawURL: a test's own upstream, for answers the fake one does not give.
func upstreamsAt(rawURL string) harnessOption {
	return func(c *gateway.Config) {
		for i := range c.Upstreams {
			c.Upstreams[i].URL, _ = url.Parse(rawURL)
		}
	}
}

// newHarness starts the gateway on configYAML (the embedded default when empty).
func newHarness(t *testing.T, configYAML string, opts ...harnessOption) *harness {
	t.Helper()
	h := &harness{up: newUpstream(t), recs: &records{}}
	file := ""
	if configYAML != "" {
		file = filepath.Join(t.TempDir(), "warden.yaml")
		if err := os.WriteFile(file, []byte(configYAML), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h.metrics = gateway.NewMetrics()
	l, err := config.Load(context.Background(), file, config.Options{Recorder: h.recs,
		WrapRecorder: func(next warden.Recorder) warden.Recorder { return gateway.Tally(h.metrics.Recorder(next)) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	h.loaded = l
	cfg := gateway.Config{Pipeline: pipeline.New(l, nil), Metrics: h.metrics}
	if lg := l.Parsed.File.Ledger; lg != nil {
		cfg.UserHeader = lg.UserHeader
	}
	if gc := l.Parsed.File.Gateway; gc != nil {
		cfg.StreamRetries = gateway.StreamRetriesOf(gc.StreamRetries)
	}
	for _, name := range []string{"openai", "anthropic", "gemini"} {
		cfg.Upstreams = append(cfg.Upstreams, gateway.Upstream{Name: name, URL: h.up.baseURL})
	}
	for _, o := range opts {
		o(&cfg)
	}
	g, err := gateway.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.g = g
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

// boundedHarness is a harness on the default config whose bodies may be 1 KiB and whose upstreams have
// 300 ms to answer, for the tests of what happens past those bounds.
func boundedHarness(t *testing.T) *harness {
	t.Helper()
	return newHarness(t, "", func(c *gateway.Config) {
		c.MaxBodyBytes = 1024
		for i := range c.Upstreams {
			c.Upstreams[i].Timeout = 300 * time.Millisecond
		}
	})
}

// post sends a raw request to Warden, for what no SDK sends.
func (h *harness) post(t *testing.T, path, contentType, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// answer is what a client acts on, in any format: the text, the tool calls ("name arguments") and how the
// turn finished (finish reason, stop reason or status).
type answer struct {
	text   string
	calls  []string
	finish string
}

// checkAnswer asserts that the text contains wantText, the tool calls are exactly wantCalls and the turn
// finished as wantFinish.
func checkAnswer(t *testing.T, got answer, wantText string, wantCalls []string, wantFinish string) {
	t.Helper()
	if !strings.Contains(got.text, wantText) {
		t.Errorf("text = %q, want it to contain %q", got.text, wantText)
	}
	if strings.Join(got.calls, "|") != strings.Join(wantCalls, "|") {
		t.Errorf("tool calls = %q, want %q", got.calls, wantCalls)
	}
	if got.finish != wantFinish {
		t.Errorf("finished as %q, want %q", got.finish, wantFinish)
	}
}
