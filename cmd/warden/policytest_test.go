package main

import (
	"testing"
)

func TestPolicyTest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) string { return writeFile(t, dir, name, body) }
	write("deny-bash.yaml", "version: 1\nguardrails:\n  tool_call:\n    - use: allowlist\n      config: {denied_tools: [bash]}\n")
	withConfig := write("with_config_test.yaml", "config: deny-bash.yaml\ncases:\n  - name: bash is denied\n    tool: bash\n    arguments: {command: ls}\n    want: {allow: false, code: oap.tool_not_allowed, guardrail: allowlist}\n")
	failing := write("failing_test.yaml", "cases:\n  - name: ok\n    tool: bash\n    arguments: {command: ls}\n    want: {allow: true}\n  - name: wrong on purpose\n    tool: bash\n    arguments: {command: ls}\n    want: {allow: false, code: x.y}\n")
	unknownKey := write("unknown_test.yaml", "cases:\n  - name: x\n    tool: bash\n    wnat: {allow: true}\n")
	noWant := write("nowant_test.yaml", "cases:\n  - name: x\n    tool: bash\n")
	empty := write("empty_test.yaml", "cases: []\n")
	runCLICases(t, []cliCase{
		{desc: "the example tests of the default policy pass", args: []string{"policy", "test", "../../examples/policy_test.yaml"}, wantOut: []string{"6 passed, 0 failed"}},
		{desc: "a config is found relative to the test file", args: []string{"policy", "test", withConfig}, wantOut: []string{"1 passed, 0 failed"}},
		{desc: "a failing case prints what was wanted and what came, exit 1", args: []string{"policy", "test", failing}, wantCode: 1,
			wantOut: []string{"FAIL " + failing + ":6: wrong on purpose", `allow     want "false", got "true"`, `code      want "x.y", got ""`, "1 passed, 1 failed"}},
		{desc: "several files add up", args: []string{"policy", "test", withConfig, failing}, wantCode: 1, wantOut: []string{"2 passed, 1 failed"}},
		{desc: "an unknown key names the line", args: []string{"policy", "test", unknownKey}, wantCode: 1, wantErr: []string{"line 4: field wnat not found"}},
		{desc: "a case without want is an error", args: []string{"policy", "test", noWant}, wantCode: 1, wantErr: []string{"nowant_test.yaml:2: a case needs tool and want.allow"}},
		{desc: "a file without cases is an error", args: []string{"policy", "test", empty}, wantCode: 1, wantErr: []string{"no cases"}},
		{desc: "no file is a usage error", args: []string{"policy", "test"}, wantCode: 2, wantErr: []string{"requires at least 1 arg"}},
	})
}
