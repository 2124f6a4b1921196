package openai_test

import (
	"testing"

	"github.com/agentwarden/warden/wire/openai"
)

// BenchmarkEndUser reads the end user of an agent's second turn (system prompt, a tool call and its
// result, a tool declared: escapes in strings, nested objects), as the gateway does for every request.
func BenchmarkEndUser(b *testing.B) {
	body := []byte(`{"model":"gpt-4.1","messages":[` +
		`{"role":"system","content":"You are a coding agent. Use the bash tool to inspect and change the repository; keep answers short."},` +
		`{"role":"user","content":"The tests in ./pkg/parse fail since yesterday. Find out why and fix it."},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"git log --oneline -5 -- pkg/parse\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call_1","content":"a1b2c3d parse: accept trailing commas\n9f8e7d6 parse: faster number scanning"}` +
		`],"tools":[{"type":"function","function":{"name":"bash","description":"Run a shell command.","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}],` +
		`"stream":true,"user":"u-1"}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if id, _, err := openai.EndUser(body); err != nil || id != "u-1" {
			b.Fatal(id, err)
		}
	}
}
