package oap_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
)

// OAP on a three-stage pipeline, the shell parse included (issue #3 target: ≤ 10 µs/op).
func BenchmarkCommandPipeline(b *testing.B) {
	o, _, _ := evaluator(b, passport("active", allCaps, map[string]any{"system.command.execute": map[string]any{
		"allowed_commands": []string{"grep", "sort", "head", "git", "go"}, "blocked_patterns": []string{"rm -rf", "sudo", "chmod 777"}}}), nil)
	c := warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command": "grep -rn TODO src | sort | head -n 20"}`))}
	b.ReportAllocs()
	for b.Loop() {
		if d, err := o.CheckToolCall(context.Background(), c); err != nil || d.Action != warden.ActionAllow {
			b.Fatal(d, err)
		}
	}
}
