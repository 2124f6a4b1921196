package allowlist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/policy/allowlist"
)

func list(s ...string) *[]string { return &s }

func TestAllowlist(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc        string
		allowed     *[]string
		denied      []string
		tool        string
		wantAllow   bool
		wantMessage string
	}{
		{desc: "no lists allow every tool", tool: "bash", wantAllow: true},
		{desc: "the denylist blocks a listed tool", denied: []string{"bash"}, tool: "bash", wantMessage: "tool 'bash' is denied"},
		{desc: "the denylist lets an unlisted tool through", denied: []string{"bash"}, tool: "read_file", wantAllow: true},
		{desc: "the allowlist blocks an unlisted tool", allowed: list("read_file"), tool: "bash", wantMessage: "tool 'bash' not in allowlist"},
		{desc: "the allowlist allows a listed tool", allowed: list("read_file", "bash"), tool: "bash", wantAllow: true},
		{desc: "a tool in both lists is denied", allowed: list("bash"), denied: []string{"bash"}, tool: "bash", wantMessage: "tool 'bash' is denied"},
		{desc: "an empty allowlist allows nothing", allowed: list(), tool: "read_file", wantMessage: "tool 'read_file' not in allowlist"},
		{desc: "an empty denylist denies nothing", denied: []string{}, tool: "bash", wantAllow: true},
		{desc: "an allowlist pattern admits matching tools", allowed: list("mcp__*"), tool: "mcp__github__create_issue", wantAllow: true},
		{desc: "an allowlist pattern does not admit others", allowed: list("mcp__*"), tool: "bash", wantMessage: "tool 'bash' not in allowlist"},
		{desc: "a denylist pattern blocks matching tools", denied: []string{"github_*"}, tool: "github_delete_repo", wantMessage: "tool 'github_delete_repo' is denied"},
		{desc: "names match exactly, not by prefix", denied: []string{"ls"}, tool: "lsblk", wantAllow: true},
		{desc: "an empty tool name passes when nothing restricts it", tool: "", wantAllow: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			a := &allowlist.Allowlist{AllowedTools: tt.allowed, DeniedTools: tt.denied}
			if err := a.Provision(context.Background()); err != nil {
				t.Fatal(err)
			}
			d, err := a.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", tt.tool, nil)})
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Action == warden.ActionAllow; got != tt.wantAllow {
				t.Fatalf("allow = %v, want %v (%+v)", got, tt.wantAllow, d)
			}
			if !tt.wantAllow && (d.FirstReason().Code != "oap.tool_not_allowed" || d.FirstReason().Message != tt.wantMessage) {
				t.Errorf("reason = %+v, want oap.tool_not_allowed: %s", d.FirstReason(), tt.wantMessage)
			}
			// The lists judge the name alone: a listing may leave out exactly the tools whose calls are denied.
			if a.DeniesTool(tt.tool) == tt.wantAllow {
				t.Errorf("DeniesTool(%q) = %v, but the call's allow is %v", tt.tool, a.DeniesTool(tt.tool), tt.wantAllow)
			}
		})
	}
}

func TestAllowlistThroughTheEngineGivesTheSeedText(t *testing.T) {
	t.Parallel()
	l, err := configtest.Load("tool_call", "allowlist", "{denied_tools: [bash]}")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, _ := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command":"ls"}`))})
	want := "Guardrail denied: tool 'bash' was blocked (oap.tool_not_allowed). Reason: tool 'bash' is denied. Choose an alternative approach."
	if out.Message != want {
		t.Errorf("message = %q\nwant      %q", out.Message, want)
	}
}

func TestAllowlistConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, config, want string
	}{
		{"an unknown key fails", "{allowed_tool: [bash]}", `unknown key "allowed_tool" (did you mean "allowed_tools"?)`},
		{"a bad pattern fails", "{denied_tools: ['[bash']}", `denied_tools: bad pattern "[bash"`},
		{"a list of the wrong type fails", "{denied_tools: bash}", "want a list"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("tool_call", "allowlist", tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestPatternsMatchAsPathMatchDoes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, pattern, tool string
		want                bool
	}{
		{"a prefix pattern matches the prefix", "mcp__*", "mcp__fs__read", true},
		{"a prefix pattern matches the bare prefix", "mcp__*", "mcp__", true},
		{"a prefix pattern does not cross a slash", "mcp__*", "mcp__a/b", false},
		{"a question mark matches one character", "tool_?", "tool_a", true},
		{"a class matches its members", "tool_[ab]", "tool_b", true},
		{"a class does not match others", "tool_[ab]", "tool_c", false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			a := &allowlist.Allowlist{AllowedTools: list(tt.pattern)}
			if err := a.Provision(context.Background()); err != nil {
				t.Fatal(err)
			}
			d, _ := a.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", tt.tool, nil)})
			if got := d.Action == warden.ActionAllow; got != tt.want {
				t.Errorf("allowed = %v, want %v", got, tt.want)
			}
		})
	}
}
