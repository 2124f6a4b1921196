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

// lingerOnCancel is a parallel input guardrail that notices a cancellation late: it returns a while after
// its context ends, so that its stage's record comes well after a sibling's halt is known.
type lingerOnCancel struct{}

func (lingerOnCancel) CheckInput(ctx context.Context, _ warden.InputCheck) (warden.Decision, error) {
	<-ctx.Done()
	time.Sleep(50 * time.Millisecond)
	return warden.Decision{}, ctx.Err()
}

func init() {
	warden.Register(warden.ModuleInfo{ID: "guardrail.input.linger_on_cancel", New: func() any { return new(lingerOnCancel) },
		Summary: "test: returns a while after its context ends"})
}

// TestParallelHaltCountsItsSiblings: a parallel input guardrail's halt is answered with a tally that counts
// the stage's other parallel guardrails too (here one the halt cancelled, which errored), not with the
// tally from before the stage was recorded.
func TestParallelHaltCountsItsSiblings(t *testing.T) {
	t.Parallel()
	key := t.Name()
	arrived := make(chan struct{})
	upstreamArrivals.Store(key, arrived)
	h := newHarness(t, "version: 1\naudit: {sink: none}\nguardrails:\n  input:\n"+
		"    - use: await_upstream\n      execution: parallel\n      config: {key: \""+key+"\", halt: true}\n"+
		"    - use: linger_on_cancel\n      execution: parallel\n")
	h.up.answer(reply{body: fixture(t, "openai", "healthy_text.json"), arrived: arrived, cancelled: make(chan struct{})})
	resp, body := h.post(t, "/v1/chat/completions", "application/json", chatBody, nil)
	if resp.StatusCode != 403 || !strings.Contains(body, "test.parallel_halt") {
		t.Fatalf("status %d, want 403 with the halt's code: %s", resp.StatusCode, body)
	}
	if got := resp.Header.Get(gateway.HeaderEvaluated); got != "1/2" {
		t.Errorf("%s = %q, want 1/2: the halting guardrail evaluated, its cancelled sibling errored", gateway.HeaderEvaluated, got)
	}
	if got := resp.Header.Get(gateway.HeaderDecision); got != warden.ActionHalt.String() {
		t.Errorf("%s = %q, want %s", gateway.HeaderDecision, got, warden.ActionHalt)
	}
}
