package anthropic_test

import (
	"testing"

	"github.com/agentwarden/warden/wire/anthropic"
)

// BenchmarkEndUser reads the end user of an agent's second turn (system prompt, a tool call and its
// result, a tool declared: escapes in strings, nested objects), as the gateway does for every request.
func BenchmarkEndUser(b *testing.B) {
	body := []byte(`{"model":"claude-sonnet-4-5","max_tokens":1024,` +
		`"system":"You are a coding agent. Use the bash tool to inspect and change the repository; keep answers short.",` +
		`"messages":[{"role":"user","content":"The tests in ./pkg/parse fail since yesterday. Find out why and fix it."},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"bash","input":{"command":"git log --oneline -5 -- pkg/parse"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a1b2c3d parse: accept trailing commas\n9f8e7d6 parse: faster number scanning"}]}],` +
		`"tools":[{"name":"bash","description":"Run a shell command.","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}],` +
		`"stream":true,"metadata":{"user_id":"u-1"}}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if id, err := anthropic.EndUser(body); err != nil || id != "u-1" {
			b.Fatal(id, err)
		}
	}
}
