package audit_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
)

type allowAll struct{}

func (allowAll) CheckToolCall(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}

// BenchmarkToolCallWithAudit is the cost of one tool call through 8 no-op guardrails with every
// evaluation written as a JSON line (to io.Discard, so the figure is Warden's work, not the disk's).
func BenchmarkToolCallWithAudit(b *testing.B) {
	entries := make([]warden.Entry, 8)
	for i := range entries {
		entries[i] = warden.Entry{Name: fmt.Sprintf("g%d", i), Guardrail: allowAll{}}
	}
	e, err := warden.NewEngine(warden.Spec{ToolCall: entries, Recorder: audit.NewRecorder(audit.NewJSONL(io.Discard))})
	if err != nil {
		b.Fatal(err)
	}
	c := warden.ToolCallCheck{Call: warden.NewToolCall("call_1", "bash", []byte(`{"command":"ls -la"}`)), Run: warden.RunInfo{RunID: "r", AgentID: "a"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.CheckToolCall(context.Background(), c); err != nil {
			b.Fatal(err)
		}
	}
}
