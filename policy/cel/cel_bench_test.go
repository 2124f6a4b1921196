package cel_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	wcel "github.com/agentwarden/warden/policy/cel"
)

// One CEL rule on a bash call (issue #3 target: ≤ 2 µs/op), with and without reading the arguments.
func BenchmarkOneRule(b *testing.B) {
	for _, tc := range []struct{ name, when string }{
		{"tool-and-context", `tool.name == "bash" && context.is_subagent`},
		{"arguments", `tool.name == "bash" && args.command.contains("curl")`},
	} {
		r := provisioned(b, &wcel.Rules{Rules: []wcel.Rule{{Name: "r", When: tc.when, Code: "x"}}})
		c := call("bash", `{"command":"ls -la","description":"list"}`, warden.RunInfo{AgentID: "a"})
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if d, err := r.CheckToolCall(context.Background(), c); err != nil || d.Action != warden.ActionAllow {
					b.Fatal(d, err)
				}
			}
		})
	}
}
