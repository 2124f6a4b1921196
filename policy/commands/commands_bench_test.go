package commands_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
)

// A three-stage pipeline through the whole default policy, the JSON decode of the arguments and the
// shell analysis included (issue #3's OAP target for the same work is 10 µs).
func BenchmarkDefaultPolicyPipeline(b *testing.B) {
	benchmarkDefaultPolicy(b, "grep -rn TODO src | sort | head -n 20")
}

// The same pipeline writing a file, which takes the bash parser, through the whole default policy.
func BenchmarkDefaultPolicyParsed(b *testing.B) {
	benchmarkDefaultPolicy(b, "grep -rn TODO src | sort | head -n 20 > todo.txt")
}

// The usual command line, one program with plain arguments, through the whole default policy.
func BenchmarkDefaultPolicyPlain(b *testing.B) {
	benchmarkDefaultPolicy(b, "go test ./pkg/parse/...")
}

func benchmarkDefaultPolicy(b *testing.B, cmd string) {
	c := provisioned(b, &commands.Commands{})
	args, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		b.Fatal(err)
	}
	call := warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", args)}
	b.ReportAllocs()
	for b.Loop() {
		if d, err := c.CheckToolCall(context.Background(), call); err != nil || d.Action != warden.ActionAllow {
			b.Fatal(d, err)
		}
	}
}
