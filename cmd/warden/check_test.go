package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	allowlistOnly := filepath.Join(dir, "allow.yaml")
	if err := os.WriteFile(allowlistOnly, []byte("version: 1\nguardrails:\n  tool_call:\n    - use: allowlist\n      config: {allowed_tools: [read_file]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runCLICases(t, []cliCase{
		{desc: "an allowed call exits 0", args: []string{"check"}, stdin: `{"tool": "bash", "arguments": {"command": "go test ./..."}}`,
			wantOut: []string{`"allow":true`, `"message":""`}},
		{desc: "a denied call exits 3 with the exact deny text", args: []string{"check"}, stdin: `{"tool": "bash", "arguments": {"command": "rm -rf ~"}}`, wantCode: 3,
			wantOut: []string{`"allow":false`, `"action":"reject"`, `"guardrail":"commands"`, `"policy_id":"commands/destructive-delete"`,
				`"message":"Guardrail denied: tool 'bash' was blocked (warden.destructive_delete). Reason: recursive deletion outside the working directory. Choose an alternative approach."`}},
		{desc: "arguments as a JSON string are accepted", args: []string{"check"}, stdin: `{"tool": "bash", "arguments": "{\"command\": \"sudo ls\"}"}`, wantCode: 3,
			wantOut: []string{`"code":"warden.privilege_escalation"`}},
		{desc: "context is read", args: []string{"check"}, stdin: `{"tool": "read_file", "arguments": {"path": "a"}, "context": {"agent_id": "a1", "user_id": "u", "thread_id": "t", "is_subagent": true, "scope": "fix tests"}}`,
			wantOut: []string{`"allow":true`}},
		{desc: "a config replaces the default", args: []string{"check", "--config", allowlistOnly}, stdin: `{"tool": "bash", "arguments": {"command": "ls"}}`, wantCode: 3,
			wantOut: []string{`"code":"oap.tool_not_allowed"`, "tool 'bash' not in allowlist"}},
		{desc: "a malformed call is an error, exit 1", args: []string{"check"}, stdin: `{"tool": "bash", "argumnts": {}}`, wantCode: 1,
			wantErr: []string{"<stdin>: not a tool call", `unknown field "argumnts"`}},
		{desc: "a call without a tool is an error", args: []string{"check"}, stdin: `{"arguments": {}}`, wantCode: 1, wantErr: []string{`"tool" is missing`}},
		{desc: "jsonl writes one verdict per line in order and exits 0", args: []string{"check", "--jsonl"},
			stdin:   "{\"tool\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n\n{\"tool\": \"bash\", \"arguments\": {\"command\": \"sudo ls\"}}\n",
			wantOut: []string{"{\"allow\":true,\"action\":\"allow\",\"reasons\":[],\"message\":\"\"}\n{\"allow\":false"}},
		{desc: "jsonl names the line that could not be evaluated and exits 1", args: []string{"check", "--jsonl"},
			stdin: "{\"tool\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\nnot json\n", wantCode: 1,
			wantOut: []string{`"action":"error"`}, wantErr: []string{"<stdin>:2: not a tool call"}},
		{desc: "a file argument is read", args: []string{"check", "--jsonl", "../../examples/calls.jsonl"}, wantOut: []string{"warden.remote_code_execution", "warden.credential_access"}},
		{desc: "an unknown config file is an error", args: []string{"check", "--config", "nope.yaml"}, wantCode: 1, wantErr: []string{"nope.yaml"}},
	})
}

func TestCheckJSONLKeepsInputOrder(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for i := range 500 {
		cmd := "ls"
		if i%3 == 0 {
			cmd = "sudo ls"
		}
		fmt.Fprintf(&in, `{"tool": "bash", "arguments": {"command": %q}}`+"\n", cmd)
	}
	code, out, errOut := runCLI(in.String(), "check", "--jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 500 {
		t.Fatalf("%d verdicts, want 500", len(lines))
	}
	for i, l := range lines {
		var v checkOutput
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		if v.Allow == (i%3 == 0) {
			t.Fatalf("line %d: allow = %v, out of order", i+1, v.Allow)
		}
	}
}

// --compare reviews a policy change against recorded calls: only the calls whose verdict changes are
// printed, and any change exits 3.
func TestCheckCompare(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string { return writeFile(t, dir, name, body) }
	old := write("old.yaml", "version: 1\nguardrails:\n  tool_call:\n    - use: commands\n")
	looser := write("looser.yaml", "version: 1\nguardrails:\n  tool_call:\n    - use: commands\n      config: {disable: [privilege-escalation]}\n")
	stricter := write("stricter.yaml", "version: 1\nguardrails:\n  tool_call:\n    - use: commands\n      config: {allowed_commands: [ls, git]}\n")
	calls := "{\"tool\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n" +
		"{\"tool\": \"bash\", \"arguments\": {\"command\": \"sudo ls\"}}\n" +
		"{\"tool\": \"bash\", \"arguments\": {\"command\": \"go test ./...\"}}\n"
	runCLICases(t, []cliCase{
		{desc: "the same policy changes nothing and exits 0", args: []string{"check", "--jsonl", "--config", old, "--compare", old}, stdin: calls,
			wantErr: []string{"0 of 3 calls change verdict"}, denyOut: []string{`"line"`}},
		{desc: "a loosened rule shows the call it now allows and exits 3", args: []string{"check", "--jsonl", "--config", looser, "--compare", old}, stdin: calls, wantCode: 3,
			wantOut: []string{`"line":2`, `"tool":"bash"`, `"before":{"allow":false`, `"after":{"allow":true`}, wantErr: []string{"1 of 3 calls change verdict"},
			denyOut: []string{`"line":1`, `"line":3`}},
		{desc: "a stricter policy shows the calls it now denies", args: []string{"check", "--jsonl", "--config", stricter, "--compare", old}, stdin: calls, wantCode: 3,
			wantOut: []string{`"line":3`, `"code":"oap.command_not_allowed"`}, wantErr: []string{"of 3 calls change verdict"}, denyOut: []string{`"line":1,`}},
		{desc: "a call that cannot be read is named", args: []string{"check", "--jsonl", "--config", old, "--compare", old}, stdin: calls + "not json\n", wantCode: 1,
			wantErr: []string{"<stdin>:4: not a tool call"}},
		{desc: "--compare needs --jsonl", args: []string{"check", "--config", old, "--compare", old}, stdin: calls, wantCode: 2,
			wantErr: []string{"--compare reviews recorded calls: give them with --jsonl"}},
	})
}

// TestOfflineToolsShowAnAskWithoutFilingIt: check, policy test and config validate show that a call would wait for a person,
// and never file a request in the config's store, whatever the store.
func TestOfflineToolsShowAnAskWithoutFilingIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	cfg := filepath.Join(dir, "ask.yaml")
	doc := "version: 1\nguardrails:\n  tool_call:\n    - use: commands\n      config:\n        rules: [{id: deploys, programs: [deploy], action: ask, code: acme.deploy}]\napprovals:\n  data_dir: " + state + "\naudit: {sink: none}\n"
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := filepath.Join(dir, "policy_test.yaml")
	if err := os.WriteFile(tests, []byte("config: ask.yaml\ncases:\n  - name: a deploy waits for a person\n    tool: bash\n    arguments: {command: deploy --prod}\n    want: {allow: false, action: ask, code: acme.deploy}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // after the cases, which run in parallel
		if _, err := os.Stat(filepath.Join(state, "approvals.db")); !os.IsNotExist(err) {
			t.Errorf("an offline tool opened the approvals store: %v", err)
		}
	})
	runCLICases(t, []cliCase{
		{desc: "check shows the ask", args: []string{"check", "--config", cfg}, stdin: `{"tool": "bash", "arguments": {"command": "deploy --prod"}}`, wantCode: 3,
			wantOut: []string{`"action":"ask"`, `"code":"acme.deploy"`, "waits for approval under id dry-run"}},
		{desc: "policy test expects the ask", args: []string{"policy", "test", tests}, wantOut: []string{"1 passed"}},
		{desc: "config validate accepts it", args: []string{"config", "validate", cfg}, wantOut: []string{"valid"}},
	})
}
