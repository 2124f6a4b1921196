package allowlist_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/allowlist"
)

// Target (issue #3): ≤ 100 ns/op and 0 allocations.
func BenchmarkAllowlist(b *testing.B) {
	a := &allowlist.Allowlist{AllowedTools: list("read_file", "write_file", "bash", "mcp__*"), DeniedTools: []string{"github_*", "rm"}}
	if err := a.Provision(context.Background()); err != nil {
		b.Fatal(err)
	}
	for _, tool := range []string{"bash", "mcp__github__create_issue"} {
		c := warden.ToolCallCheck{Call: warden.NewToolCall("c", tool, []byte(`{"command":"ls"}`))}
		b.Run(tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if d, _ := a.CheckToolCall(context.Background(), c); d.Action != warden.ActionAllow {
					b.Fatal("denied")
				}
			}
		})
	}
}
