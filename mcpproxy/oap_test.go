package mcpproxy_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/mcpproxy"
)

// An Open Agent Passport governs MCP tools through the proxy as through the gateway: the proxy names a
// tool mcp__<server>__<tool>, which OAP maps to its mcp.tool.execute capability, and the passport's
// allowed servers decide.
func TestOAPJudgesMCPTools(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	passport, _ := json.Marshal(map[string]any{
		"passport_id": "550e8400-e29b-41d4-a716-446655440000", "agent_id": "ap_dev", "kind": "template",
		"spec_version": "oap/1.0", "owner_id": "org_acme", "owner_type": "org", "status": "active", "assurance_level": "L0",
		"capabilities": []map[string]any{{"id": "mcp.tool.execute"}},
		"limits":       map[string]any{"mcp.tool.execute": map[string]any{"allowed_servers": []string{"github"}}},
		"regions":      []string{"US"}, "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z", "version": "1.0.0",
	})
	path := filepath.Join(dir, "passport.json")
	if err := os.WriteFile(path, passport, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := config.Parse("oap.yaml", []byte("version: 1\nguardrails:\n  tool_call:\n    - use: oap\n      config:\n        passport: "+path+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{Recorder: &recorded{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	for _, tc := range []struct {
		server string
		denied bool
	}{{"github", false}, {"files", true}} {
		t.Run(tc.server, func(t *testing.T) {
			t.Parallel()
			px, err := mcpproxy.New(mcpproxy.Config{Server: tc.server, Engine: l.Engine})
			if err != nil {
				t.Fatal(err)
			}
			client, server, _ := session(t, px)
			client.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_issue","arguments":{"title":"x"}}}`)
			if tc.denied {
				text, isError := resultText(client.next())
				if !isError || !strings.Contains(text, "mcp__files__create_issue") || !strings.Contains(text, "oap.") {
					t.Errorf("%q (isError %v), want the passport's denial", text, isError)
				}
				return
			}
			if m := server.next(); m["method"] != "tools/call" {
				t.Errorf("the server got %v, want the call", m)
			}
		})
	}
}
