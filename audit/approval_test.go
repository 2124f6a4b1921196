package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/audit"
)

func TestApprovalEvents(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sink := audit.NewJSONL(&buf)
	events := audit.ApprovalEvents{Recorder: audit.NewRecorder(sink)}
	at := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	rec := approvals.Record{ID: "apr_1", Principal: "user:SENTINEL-USER", Tool: "git_push", Arguments: []byte(`{"branch":"SENTINEL-ARG"}`),
		Guardrail: "commands", Code: "acme.push_main", Reason: "pushes to main", Status: approvals.StatusPending, Created: at, Expires: at.Add(time.Hour)}
	events.Filed(context.Background(), rec)
	rec.Status, rec.Approver, rec.Note, rec.Decided = approvals.StatusDenied, "alice", "SENTINEL-NOTE", at.Add(time.Minute)
	events.Decided(context.Background(), rec)
	sink.Close()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d events, want 2:\n%s", len(lines), buf.String())
	}
	for _, s := range []string{"SENTINEL-ARG", "SENTINEL-USER", "SENTINEL-NOTE"} {
		if strings.Contains(buf.String(), s) {
			t.Errorf("an approval event carries %s", s)
		}
	}
	want := []struct{ action, decision, approver string }{{"ask", "pending", ""}, {"deny", "denied", "alice"}}
	for i, line := range lines {
		var ev audit.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Kind != "approval" || ev.ApprovalID != "apr_1" || ev.ToolName != "git_push" || ev.Action != want[i].action ||
			ev.Decision != want[i].decision || ev.Approver != want[i].approver || len(ev.Reasons) != 1 || ev.Reasons[0].Code != "acme.push_main" {
			t.Errorf("event %d: %s", i, line)
		}
	}
}
