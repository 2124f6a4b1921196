package pipeline_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
)

// BenchmarkRequest is the request side of the common path with the default config's stages (no input or
// tool-result guardrails) and a memory ledger: end-user lookup, ledger check, decode, nothing rewritten.
func BenchmarkRequest(b *testing.B) {
	p := newPipeline(b, nil, nil)
	f := format(b, "openai-chat")
	body := []byte(`{"model":"gpt-5.1","safety_identifier":"u-1","messages":[{"role":"developer","content":"Be brief."},{"role":"user","content":"What is in /etc?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_dir","arguments":"{\"path\":\"/etc\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"passwd hosts"}],"tools":[{"type":"function","function":{"name":"list_dir","parameters":{"type":"object"}}}]}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Request(context.Background(), f, body, warden.RunInfo{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResponse is the response side of the common path: a healthy chat completion with one tool call
// through safety and the command policy.
func BenchmarkResponse(b *testing.B) {
	p := newPipeline(b, nil, nil)
	f := format(b, "openai-chat")
	body := read(b, "../wire/openai/testdata/healthy_tool_calls.json")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Response(context.Background(), f, 200, body, warden.RunInfo{UserID: "u-1"}); err != nil {
			b.Fatal(err)
		}
	}
}
