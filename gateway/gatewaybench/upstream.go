package gatewaybench

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The request every target gets: an agent's second turn, with a system prompt, a tool definition, the
// model's earlier tool call and its result, so that Warden parses what a real agent sends.
const requestBody = `{"model":"gpt-4.1","messages":[` +
	`{"role":"system","content":"You are a coding agent. Use the bash tool to inspect and change the repository; keep answers short."},` +
	`{"role":"user","content":"The tests in ./pkg/parse fail since yesterday. Find out why and fix it."},` +
	`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"git log --oneline -5 -- pkg/parse\"}"}}]},` +
	`{"role":"tool","tool_call_id":"call_1","content":"a1b2c3d parse: accept trailing commas\n9f8e7d6 parse: faster number scanning\n1234abc parse: doc comments"}` +
	`],"tools":[{"type":"function","function":{"name":"bash","description":"Run a shell command in the repository and return its output.","parameters":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}}]`

func wholeRequest() string  { return requestBody + `}` }
func streamRequest() string { return requestBody + `,"stream":true}` }

// wholeResponse is a tool-call answer, so that safety termination and tool-call authorization both run.
const wholeResponse = `{"id":"chatcmpl-bench","object":"chat.completion","created":1760000000,"model":"gpt-4.1",` +
	`"choices":[{"index":0,"message":{"role":"assistant","content":"Let me run the failing test.","tool_calls":[` +
	`{"id":"call_2","type":"function","function":{"name":"bash","arguments":"{\"command\":\"go test ./pkg/parse/...\"}"}}]},` +
	`"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":180,"completion_tokens":24,"total_tokens":204}}`

// chunkMark prefixes each streamed text delta with its index ("tok17 "), which the client reads back to
// match a chunk's arrival with its departure.
const chunkMark = "tok"

// upstream is the fake provider: whole requests get wholeResponse, streams get chunks text deltas and
// then the tool call and the finish, one event each, flushed, paced as the phase sets. When tracing is on
// it notes when each text chunk left, which the concurrency-1 stream phase reads back.
type upstream struct {
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
	var req struct {
		Stream bool `json:"stream"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	io.Copy(io.Discard, r.Body)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, wholeResponse)
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
	for i := range u.chunks {
		pace.pauseBefore(i)
		if tracing {
			u.mu.Lock()
			u.sent[i] = time.Since(u.epoch)
			u.mu.Unlock()
		}
		fmt.Fprintf(w, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4.1","choices":[{"index":0,"delta":{"content":"%s%d "},"finish_reason":null}]}`+"\n\n", chunkMark, i)
		flush()
	}
	pace.pauseBefore(u.chunks)
	io.WriteString(w, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_2","type":"function","function":{"name":"bash","arguments":"{\"command\":\"go test ./pkg/parse/...\"}"}}]},"finish_reason":null}]}`+"\n\n")
	flush()
	pace.pauseBefore(u.chunks + 1)
	io.WriteString(w, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1760000000,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`+"\n\n"+"data: [DONE]\n\n")
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
