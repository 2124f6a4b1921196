package gateway_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMetrics(t *testing.T) {
	t.Parallel()
	h := newHarness(t, `version: 1
guardrails:
  response: [{use: safety}]
  tool_call: [{use: commands}]
ledger: {max_violations: 1, user_header: X-End-User}
audit: {sink: none}
`)
	user := map[string]string{"X-End-User": "u1"}
	destructive := strings.Replace(string(fixture(t, "openai", "healthy_tool_calls.json")), `go test ./...`, `rm -rf ~/`, 1)
	steps := []struct {
		reply      reply
		header     map[string]string
		wantStatus int
	}{
		{reply{body: fixture(t, "openai", "safety_stop_tool_calls.json")}, user, 200}, // a safety stop: the user is blocked after it
		{reply{body: fixture(t, "openai", "healthy_tool_calls.json")}, user, 403},     // refused by the ledger
		{reply{body: []byte(destructive)}, nil, 200},                                  // denied, retried twice, explained
		{reply{body: []byte(`{"choices":[`)}, nil, 502},                               // unreadable upstream
	}
	for i, s := range steps {
		h.up.answer(s.reply)
		if resp, body := h.post(t, "/v1/chat/completions", "application/json", chatBody, s.header); resp.StatusCode != s.wantStatus {
			t.Fatalf("step %d: status %d, want %d: %s", i, resp.StatusCode, s.wantStatus, body)
		}
	}
	resp, err := http.Get(h.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	got := string(b)
	for _, want := range []string{
		`warden_gateway_requests_total{format="openai-chat",status="200",upstream="openai"} 2`,
		`warden_gateway_requests_total{format="openai-chat",status="403",upstream="openai"} 1`,
		`warden_gateway_requests_total{format="openai-chat",status="502",upstream="openai"} 1`,
		`warden_guardrail_evaluations_total{effect="modify",guardrail="safety",stage="response",status="evaluated"} 1`,
		`warden_guardrail_evaluations_total{effect="reject",guardrail="commands",stage="tool_call",status="evaluated"} 3`,
		`warden_guardrail_duration_seconds_count{guardrail="commands",stage="tool_call"} 3`,
		`warden_gateway_added_seconds_count{format="openai-chat",stream="false"} 4`,
		`warden_ledger_blocks_total 1`,
		`warden_upstream_errors_total{code="warden.bad_upstream",upstream="openai"} 1`,
		`warden_deny_retries_total{upstream="openai"} 2`,
		`go_goroutines `,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("/metrics:\n%s", grepWarden(got))
	}
}

func grepWarden(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "warden_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// A stream's added latency is the gateway's own time: a model that pauses in the middle of its stream
// (the upstream's wait between two reads) does not count, however long it pauses.
func TestStreamAddedLatencyLeavesOutTheUpstreamsPauses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "version: 1\naudit: {sink: none}\n")
	body := fixture(t, "openai", "stream_text.sse")
	const pause = 400 * time.Millisecond
	h.up.answer(reply{contentType: "text/event-stream", body: body, pauseAfter: bytes.Index(body, []byte("\n\n")) + 2, pause: pause})
	if resp, out := h.post(t, "/v1/chat/completions", "application/json", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, nil); resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, out)
	}
	resp, err := http.Get(h.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	const sum = `warden_gateway_added_seconds_sum{format="openai-chat",stream="true"} `
	i := strings.Index(string(b), sum)
	if i < 0 {
		t.Fatalf("/metrics lacks %s:\n%s", sum, grepWarden(string(b)))
	}
	line, _, _ := strings.Cut(string(b[i+len(sum):]), "\n")
	added, err := strconv.ParseFloat(line, 64)
	if err != nil {
		t.Fatal(err)
	}
	// The gateway's own time is a few milliseconds; with the pause counted it would be over 0.4 s.
	if added >= pause.Seconds()/2 {
		t.Errorf("added latency %.3fs counts the upstream's %s pause", added, pause)
	}
}
