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
