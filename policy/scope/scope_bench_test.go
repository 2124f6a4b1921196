package scope_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/scope"
)

// The scope guardrail runs before every tool call, so it should cost about as much as the command
// policy's shell analysis it relies on.
func BenchmarkScope(b *testing.B) {
	for _, bc := range []struct {
		name, run, tool, args string
	}{
		{"shell_in_scope", "Fix the failing test and run the suite.", "bash", `{"command":"go test ./..."}`},
		{"shell_out_of_scope", "Summarize the README.", "bash", `{"command":"rm -rf build/ && git push --force"}`},
		{"named_tool", "Check my balance.", "transfer_funds", `{"to":"acct-1","amount":300}`},
		// A sending call's arguments are scanned for personal data and credentials (data_disclosure).
		{"send_2KB", "Email the team the release notes.", "send_email", `{"to":"team@example.com","body":"` + strings.Repeat("The release adds streaming guardrails. ", 52) + `"}`},
	} {
		s := &scope.Scope{}
		if err := s.Provision(context.Background()); err != nil {
			b.Fatal(err)
		}
		c := warden.ToolCallCheck{Run: warden.RunInfo{Scope: bc.run}, Call: warden.NewToolCall("c", bc.tool, []byte(bc.args))}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.CheckToolCall(context.Background(), c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
