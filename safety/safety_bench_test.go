package safety_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/safety"
)

// The check on a healthy response with a tool call: the common path (issue #4 target: ≤ 200 ns/op).
func BenchmarkHealthyResponse(b *testing.B) {
	g := &safety.Guardrail{}
	if err := g.Provision(context.Background()); err != nil {
		b.Fatal(err)
	}
	c := warden.ResponseCheck{Response: warden.Response{
		Message:      warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("c", "bash", []byte(`{"command":"ls"}`))}},
		FinishReason: warden.FinishToolCalls, Signal: warden.Signal{Field: "finish_reason", Value: "tool_calls"},
	}}
	b.ReportAllocs()
	for b.Loop() {
		if d, _ := g.CheckResponse(context.Background(), c); d.Action != warden.ActionAllow {
			b.Fatal(d.Action)
		}
	}
}
