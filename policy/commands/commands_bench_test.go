package commands_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
)

// A three-stage pipeline through the whole default policy, the JSON decode of the arguments and the
// shell parse included (issue #3's OAP target for the same work is 10 µs).
func BenchmarkDefaultPolicyPipeline(b *testing.B) {
	c := provisioned(b, &commands.Commands{})
	call := warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command": "grep -rn TODO src | sort | head -n 20"}`))}
	b.ReportAllocs()
	for b.Loop() {
		if d, err := c.CheckToolCall(context.Background(), call); err != nil || d.Action != warden.ActionAllow {
			b.Fatal(d, err)
		}
	}
}
