package pipeline_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
)

// BenchmarkRequest is the request side of the common path with the default config's stages (no input or
// tool-result guardrails) and a memory ledger: end-user lookup and ledger check; no guardrail reads the
// request, so it is not decoded, and nothing is rewritten.
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

// BenchmarkRequestAgent is BenchmarkRequest with a coding agent's request in each format: a few turns and
// its toolbox (24 tools with schemas, about 13 KB). With the default config nothing decodes it; the
// request side is the end user's lookup, or the check that the body is JSON where the format names none.
func BenchmarkRequestAgent(b *testing.B) {
	const turn = "Find where the stream guard holds tool calls and explain why each one is held until the finish reason is known. "
	for _, tt := range []struct {
		format string
		body   string
	}{
		{"openai-chat", `{"model":"gpt-5.1","safety_identifier":"u-1","messages":[{"role":"developer","content":"Be brief."},{"role":"user","content":"` + turn + `"}],"tools":` +
			pipelinetest.AgentTools(24, func(name, desc, schema string) string {
				return `{"type":"function","function":{"name":"` + name + `","description":"` + desc + `","parameters":` + schema + `}}`
			}) + `}`},
		{"anthropic", `{"model":"claude-sonnet-4-5","max_tokens":1024,"metadata":{"user_id":"u-1"},"system":"Be brief.","messages":[{"role":"user","content":"` + turn + `"}],"tools":` +
			pipelinetest.AgentTools(24, func(name, desc, schema string) string {
				return `{"name":"` + name + `","description":"` + desc + `","input_schema":` + schema + `}`
			}) + `}`},
		{"gemini", `{"systemInstruction":{"parts":[{"text":"Be brief."}]},"contents":[{"role":"user","parts":[{"text":"` + turn + `"}]}],"tools":[{"functionDeclarations":` +
			pipelinetest.AgentTools(24, func(name, desc, schema string) string {
				return `{"name":"` + name + `","description":"` + desc + `","parameters":` + schema + `}`
			}) + `}]}`},
	} {
		b.Run(tt.format, func(b *testing.B) {
			p := newPipeline(b, nil, nil)
			f := format(b, tt.format)
			body := []byte(tt.body)
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Request(context.Background(), f, body, warden.RunInfo{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
