package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
)

const cliAdminToken = "cli-test-token-0123456789"

// TestApprovalsCommands drives warden approvals against a real admin listener, as an approver at a
// terminal would: list, approve, deny, and what goes wrong.
func TestApprovalsCommands(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	doc := `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules: [{id: deploys, programs: [deploy], action: ask, code: acme.deploy, message: deploys to production}]
approvals:
  store: memory
  admin:
    listen: 127.0.0.1:0
    tokens: {alice: ` + cliAdminToken + `}
audit: {sink: none}
`
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := config.Load(context.Background(), cfg, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := startAdmin(ctx, l, "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	admin := "http://" + addr.String()
	ask := func(args string) *warden.Approval {
		out, err := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: warden.RunInfo{UserID: "u1"},
			Call: warden.NewToolCall("c", "bash", []byte(`{"command":"deploy `+args+`"}`))})
		if err != nil || out.Approval == nil {
			t.Fatalf("the deploy was not asked about: %s (%v)", out.Decision.Action, err)
		}
		return out.Approval
	}
	first, second := ask("--env prod"), ask("--env staging")
	auth := []string{"--admin", admin, "--token", cliAdminToken}
	steps := []cliCase{
		{desc: "list shows what waits, without arguments", args: append([]string{"approvals", "list"}, auth...), wantOut: []string{first.ID, second.ID, "acme.deploy", "user:u1", admin + "/approvals/" + first.ID}},
		{desc: "approve names the token's approver", args: append([]string{"approvals", "approve", first.ID, "--note", "release day"}, auth...), wantOut: []string{first.ID + ": approved by alice"}},
		{desc: "deny takes a note", args: append([]string{"approvals", "deny", second.ID, "--note", "not on Friday"}, auth...), wantOut: []string{second.ID + ": denied by alice"}},
		{desc: "a decided request cannot be decided again", args: append([]string{"approvals", "approve", second.ID}, auth...), wantCode: 1, wantErr: []string{"409", "already decided"}},
		{desc: "an unknown request is not found", args: append([]string{"approvals", "approve", "apr_nope"}, auth...), wantCode: 1, wantErr: []string{"404"}},
		{desc: "list is empty once all is decided", args: append([]string{"approvals", "list"}, auth...), wantOut: []string{"nothing waits for a decision"}},
		{desc: "list --all shows the decisions", args: append([]string{"approvals", "list", "--all"}, auth...), wantOut: []string{"approved", "denied"}},
		{desc: "a wrong token is refused", args: []string{"approvals", "list", "--admin", admin, "--token", "wrong-token-0123456789"}, wantCode: 1, wantErr: []string{"the token was refused"}},
		{desc: "no token is a usage error", args: []string{"approvals", "list", "--admin", admin}, wantCode: 2, wantErr: []string{"no token"}},
		{desc: "a bad admin URL is a usage error", args: []string{"approvals", "list", "--admin", "ftp://x", "--token", cliAdminToken}, wantCode: 2, wantErr: []string{"not an http"}},
	}
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
		if strings.Contains(out+errOut, "--env prod") {
			t.Errorf("%s: the CLI printed a call's arguments", st.desc)
		}
	}
	// The approval reached the engine: the approved deploy passes once, the denied one is rejected.
	for _, tc := range []struct {
		args string
		want warden.Action
	}{{"--env prod", warden.ActionAllow}, {"--env staging", warden.ActionReject}} {
		out, err := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: warden.RunInfo{UserID: "u1"},
			Call: warden.NewToolCall("c", "bash", []byte(`{"command":"deploy `+tc.args+`"}`))})
		if err != nil || out.Decision.Action != tc.want {
			t.Errorf("deploy %s after the CLI decided: %s (%v), want %s", tc.args, out.Decision.Action, err, tc.want)
		}
	}
}

func TestAdminNeedsAnApprovalsSection(t *testing.T) {
	t.Parallel()
	l, err := config.Load(context.Background(), "", config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := startAdmin(context.Background(), l, "127.0.0.1:0", slog.Default()); err == nil || !strings.Contains(err.Error(), "no approvals section") {
		t.Errorf("--admin without approvals: %v", err)
	}
}

// TestWebhookLinksTheListenersAddress: the webhook links a request's page at the address the admin
// listener got, not at the configured ":0" it was asked for.
func TestWebhookLinksTheListenersAddress(t *testing.T) {
	t.Parallel()
	posted := make(chan []byte, 1)
	hook := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posted <- b
	}))
	defer hook.Close()
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	doc := `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules: [{id: deploys, programs: [deploy], action: ask, code: acme.deploy}]
approvals:
  store: memory
  webhook: {url: "` + hook.URL + `"}
  admin:
    listen: 127.0.0.1:0
    tokens: {alice: ` + cliAdminToken + `}
audit: {sink: none}
`
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := config.Load(context.Background(), cfg, config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := startAdmin(ctx, l, "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command":"deploy"}`))})
	if err != nil || out.Approval == nil {
		t.Fatalf("no ask: %s (%v)", out.Decision.Action, err)
	}
	var body struct{ URL string }
	select {
	case b := <-posted:
		json.Unmarshal(b, &body)
	case <-time.After(10 * time.Second):
		t.Fatal("the webhook was not called")
	}
	if want := "http://" + addr.String() + "/approvals/" + out.Approval.ID; body.URL != want {
		t.Errorf("the webhook linked %q, want %q", body.URL, want)
	}
}
