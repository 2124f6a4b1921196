package config_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/config"
)

const askConfig = `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules:
          - {id: push-main, programs: [git], all_args: [[push], [main]], action: ask, code: acme.push_main}
approvals:
  store: %s
  data_dir: %s
audit: {sink: none}
`

func buildAsk(t *testing.T, store, dir string) *config.Loaded {
	t.Helper()
	p, err := config.Parse("t.yaml", fmt.Appendf(nil, askConfig, store, dir))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func push(t *testing.T, l *config.Loaded) warden.Outcome[warden.ToolCall] {
	t.Helper()
	out, err := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: warden.RunInfo{UserID: "u1"},
		Call: warden.NewToolCall("c1", "bash", []byte(`{"command":"git push origin main"}`))})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestApprovalsSection: the section wires a store, a key and the engine's approvals; the SQLite store and the
// key live in data_dir and outlast the process.
func TestApprovalsSection(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state")
	l := buildAsk(t, "sqlite", dir)
	first := push(t, l)
	if first.Decision.Action != warden.ActionAsk || first.Approval == nil {
		t.Fatalf("an ask rule with approvals configured: %s, want a pending ask", first.Decision.Action)
	}
	if len(l.ApprovalKey) < 32 {
		t.Errorf("key of %d bytes", len(l.ApprovalKey))
	}
	for _, name := range []string{"approvals.db", "approvals.key"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v: others may read it", name, fi.Mode().Perm())
		}
	}
	if _, err := l.Approvals.Decide(context.Background(), first.Approval.ID, approvals.Verdict{Approve: true, Approver: "alice"}); err != nil {
		t.Fatal(err)
	}
	key := l.ApprovalKey
	l.Close()

	again := buildAsk(t, "sqlite", dir) // a restart
	if string(again.ApprovalKey) != string(key) {
		t.Error("the generated key changed across a restart")
	}
	if out := push(t, again); !out.Allowed() {
		t.Errorf("after a restart the approved call: %s, want it to pass once", out.Decision.Action)
	}
	if out := push(t, again); out.Decision.Action != warden.ActionAsk {
		t.Errorf("after a restart the approved call again: %s, want a new ask", out.Decision.Action)
	}
}

func TestWithoutApprovalsAnAskIsRejected(t *testing.T) {
	t.Parallel()
	p, err := config.Parse("t.yaml", []byte("version: 1\nguardrails:\n  tool_call:\n    - use: commands\n      config:\n        rules: [{id: r, programs: [git], action: ask, code: c}]\naudit: {sink: none}\n"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out := push(t, l)
	if out.Decision.Action != warden.ActionReject || out.Decision.FirstReason().Code != warden.CodeApprovalUnavailable {
		t.Errorf("ask without approvals: %s %s, want reject %s", out.Decision.Action, out.Decision.FirstReason().Code, warden.CodeApprovalUnavailable)
	}
}

func TestPolicyVersionFollowsTheGuardrails(t *testing.T) {
	t.Parallel()
	version := func(doc string) string {
		p, err := config.Parse("t.yaml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return p.PolicyVersion()
	}
	base := version(fmt.Sprintf(askConfig, "memory", "/x"))
	tests := []struct {
		desc string
		doc  string
		same bool
	}{
		{"another store and data dir keep the version", fmt.Sprintf(askConfig, "sqlite", "/y"), true},
		{"a changed rule changes it", strings.Replace(fmt.Sprintf(askConfig, "memory", "/x"), "[main]", "[main, master]", 1), false},
		{"a changed code changes it", strings.Replace(fmt.Sprintf(askConfig, "memory", "/x"), "acme.push_main", "acme.push", 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := version(tt.doc); (got == base) != tt.same {
				t.Errorf("version %q, base %q: same = %v, want %v", got, base, got == base, tt.same)
			}
		})
	}
}
