package gateway_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/gateway"
)

// awaitUpstream is a parallel input guardrail that decides only once the upstream has the request: it
// proves the overlap, since a gateway that waited for it before forwarding would never forward. It
// allows, or halts when configured to; if the request never arrives it halts as test.not_overlapped.
type awaitUpstream struct {
	Key  string `yaml:"key"`
	Halt bool   `yaml:"halt"`
}

// upstreamArrivals holds, by key, the channel a test's upstream closes when the request arrives.
var upstreamArrivals sync.Map

func (a *awaitUpstream) CheckInput(ctx context.Context, _ warden.InputCheck) (warden.Decision, error) {
	ch, _ := upstreamArrivals.Load(a.Key)
	select {
	case <-ch.(chan struct{}):
	case <-time.After(10 * time.Second):
		return warden.Halt("test.not_overlapped", "the request did not go upstream while this guardrail ran"), nil
	case <-ctx.Done():
		return warden.Decision{}, ctx.Err()
	}
	if a.Halt {
		return warden.Halt("test.parallel_halt", "the input is not allowed"), nil
	}
	return warden.Allow(), nil
}

func init() {
	warden.Register(warden.ModuleInfo{ID: "guardrail.input.await_upstream", New: func() any { return new(awaitUpstream) },
		Summary: "test: decides once the upstream has the request"})
}

// TestParallelInputOverlapsTheUpstreamCall: a parallel input guardrail runs while the request is
// upstream, and nothing of the answer leaves until it passes; its halt answers 403 in the provider's
// shape, with none of the answer, and cancels the upstream call.
func TestParallelInputOverlapsTheUpstreamCall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc       string
		halt       bool
		path, body string
		reply      func(t *testing.T) reply
		slow       bool // the upstream holds its answer until cancelled
		wantStatus int
		want       []string
		deny       []string // never in the client's answer
	}{
		{desc: "a pass releases the whole answer", path: "/v1/chat/completions", body: chatBody,
			reply:      func(t *testing.T) reply { return reply{body: fixture(t, "openai", "healthy_text.json")} },
			wantStatus: 200, want: []string{`"finish_reason":"stop"`}},
		{desc: "a pass releases the stream", path: "/v1/messages", body: `{"model":"m","max_tokens":9,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			reply: func(t *testing.T) reply {
				return reply{contentType: "text/event-stream", body: fixture(t, "anthropic", "stream_text.sse")}
			},
			wantStatus: 200, want: []string{"message_stop"}},
		{desc: "a halt after the request went upstream is a 403 without the answer", halt: true, path: "/v1/chat/completions", body: chatBody,
			reply:      func(t *testing.T) reply { return reply{body: fixture(t, "openai", "healthy_text.json")} },
			wantStatus: 403, want: []string{`"code":"test.parallel_halt"`}, deny: []string{"chatcmpl"}},
		{desc: "a halt before a stream is released is a 403 without any of it", halt: true, path: "/v1/messages",
			body: `{"model":"m","max_tokens":9,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
			reply: func(t *testing.T) reply {
				return reply{contentType: "text/event-stream", body: fixture(t, "anthropic", "stream_text.sse")}
			},
			wantStatus: 403, want: []string{`"type":"error"`, "test.parallel_halt"}, deny: []string{"message_start", "text_delta"}},
		{desc: "a halt cancels an upstream call still waiting for its answer", halt: true, slow: true, path: "/v1/chat/completions", body: chatBody,
			reply: func(t *testing.T) reply {
				return reply{body: fixture(t, "openai", "healthy_text.json"), delay: time.Minute}
			},
			wantStatus: 403, want: []string{"test.parallel_halt"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			key := t.Name()
			arrived := make(chan struct{})
			upstreamArrivals.Store(key, arrived)
			h := newHarness(t, "version: 1\naudit: {sink: none}\nguardrails:\n  input:\n    - use: await_upstream\n      execution: parallel\n      config: {key: \""+key+"\", halt: "+map[bool]string{true: "true", false: "false"}[tc.halt]+"}\n")
			r := tc.reply(t)
			r.arrived, r.cancelled = arrived, make(chan struct{})
			h.up.answer(r)
			resp, body := h.post(t, tc.path, "application/json", tc.body, nil)
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.wantStatus, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("answer lacks %q: %s", w, body)
				}
			}
			for _, d := range tc.deny {
				if strings.Contains(body, d) {
					t.Errorf("answer holds %q, which the halted guardrail had not passed: %s", d, body)
				}
			}
			got := resp.Header.Get(gateway.HeaderEvaluated)
			if tr := resp.Trailer.Get(gateway.HeaderEvaluated); tr != "" {
				got = tr // a stream's final count
			}
			if got != "1/1" {
				t.Errorf("%s = %q, want 1/1: the parallel guardrail's evaluation is counted", gateway.HeaderEvaluated, got)
			}
			if tc.slow {
				select {
				case <-r.cancelled:
				case <-time.After(10 * time.Second):
					t.Error("the upstream call was not cancelled by the halt")
				}
			}
		})
	}
}
