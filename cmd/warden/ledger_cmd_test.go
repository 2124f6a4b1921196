package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/internal/redistest"
	"github.com/agentwarden/warden/ledger"
)

func TestLedgerCommands(t *testing.T) {
	t.Parallel()
	addr, client := redistest.Start(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "warden.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\nledger:\n  backend: redis\n  max_violations: 2\n  window: 1h\n  block_for: 2h\n  redis: {addr: '"+addr+"', prefix: 'test:'}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	memory := filepath.Join(dir, "memory.yaml")
	if err := os.WriteFile(memory, []byte("version: 1\nledger: {backend: memory}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A gateway replica records two violations for user-7.
	l, err := ledger.NewRedis(ledger.Policy{MaxViolations: 2, Window: time.Hour, BlockFor: 2 * time.Hour}, client, "test:")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := l.Record(context.Background(), "user-7", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	steps := []cliCase{
		{desc: "status shows the violations and the block", args: []string{"ledger", "status", "-c", cfg, "user-7"}, wantOut: []string{"user-7: 2 violation(s) in the window", "blocked until"}},
		{desc: "another user is clean", args: []string{"ledger", "status", "-c", cfg, "user-8"}, wantOut: []string{"user-8: 0 violation(s)", "not blocked"}},
		{desc: "clear lifts the block", args: []string{"ledger", "clear", "-c", cfg, "user-7"}, wantOut: []string{"user-7: cleared"}},
		{desc: "after clear the user is clean", args: []string{"ledger", "status", "-c", cfg, "user-7"}, wantOut: []string{"0 violation(s)", "not blocked"}},
		{desc: "a memory ledger cannot be read from here", args: []string{"ledger", "status", "-c", memory, "user-7"}, wantCode: 1, wantErr: []string{"use backend: redis"}},
		{desc: "a config without a ledger is an error", args: []string{"ledger", "status", "user-7"}, wantCode: 1, wantErr: []string{"no ledger section"}},
		{desc: "the user is required", args: []string{"ledger", "clear", "-c", cfg}, wantCode: 2, wantErr: []string{"accepts 1 arg"}},
	}
	// The steps depend on each other, so they run in order.
	for _, st := range steps {
		code, out, errOut := runCLI(st.stdin, st.args...)
		if code != st.wantCode {
			t.Fatalf("%s: exit %d, want %d\n%s%s", st.desc, code, st.wantCode, out, errOut)
		}
		for _, w := range st.wantOut {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", st.desc, w, out)
			}
		}
		for _, w := range st.wantErr {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", st.desc, w, errOut)
			}
		}
	}
}

// TestGuardConsultsTheLedger: with a shared (Redis) ledger, guard records a safety stop against the end user
// as the gateway does, and after max_violations the user's next request is refused in the provider's shape.
func TestGuardConsultsTheLedger(t *testing.T) {
	t.Parallel()
	addr, _ := redistest.Start(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "warden.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\nguardrails:\n  response: [{use: safety}]\nledger:\n  backend: redis\n  max_violations: 2\n  user_header: X-End-User\n  inject_end_user: true\n  redis: {addr: '"+addr+"', prefix: 'guard:'}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const request = `{"model":"m","messages":[{"role":"user","content":"hi"}]}`
	stop := "../../wire/openai/testdata/safety_stop_tool_calls.json"
	// In order: each step depends on the ledger the steps before it wrote.
	code, out, errOut := runCLI(request, "guard", "-f", "openai-chat", "--request", "-c", cfg, "--user", "user-9")
	if code != 0 || strings.TrimSpace(out) != `{"model":"m","messages":[{"role":"user","content":"hi"}],"safety_identifier":"user-9"}` {
		t.Fatalf("a clean user's request: exit %d, stdout %s, stderr %s; want it sent with the user injected", code, out, errOut)
	}
	for range 2 {
		if code, _, errOut := runCLI("", "guard", "-f", "openai-chat", "-c", cfg, "--user", "user-9", stop); code != 0 {
			t.Fatalf("guard exit %d: %s", code, errOut)
		}
	}
	code, out, _ = runCLI(request, "guard", "-f", "openai-chat", "--request", "-c", cfg, "--user", "user-9")
	if code != exitDenied || !strings.Contains(out, `"code":"warden.end_user_blocked"`) {
		t.Errorf("after two safety stops: exit %d, stdout %s", code, out)
	}
	code, out, _ = runCLI(`{"safety_identifier":"user-10","messages":[]}`, "guard", "-f", "openai-chat", "--request", "-c", cfg, "--user", "user-9")
	if code != 0 || !strings.Contains(out, `"safety_identifier":"user-10"`) {
		t.Errorf("the body's own end user was not the one checked: exit %d, stdout %s", code, out)
	}
}
