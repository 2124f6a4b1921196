package cel_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/internal/configtest"
	wcel "github.com/agentwarden/warden/policy/cel"
)

func provisioned(t testing.TB, r *wcel.Rules) *wcel.Rules {
	t.Helper()
	if err := r.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

func call(tool, args string, run warden.RunInfo) warden.ToolCallCheck {
	return warden.ToolCallCheck{Run: run, Call: warden.NewToolCall("call_9", tool, []byte(args))}
}

func TestRules(t *testing.T) {
	t.Parallel()
	sub := warden.RunInfo{AgentID: "researcher", IsSubagent: true, Scope: "read the docs", Attributes: map[string]string{"tenant": "acme"}}
	tests := []struct {
		desc       string
		rules      []wcel.Rule
		deflt      string
		check      warden.ToolCallCheck
		wantAction warden.Action
		wantCode   string
		wantPolicy string
		wantErr    string
	}{
		{desc: "a rule on the tool name rejects", rules: []wcel.Rule{{Name: "no-bash", When: `tool.name == "bash"`, Code: "acme.no_bash", Message: "no shell"}},
			check: call("bash", `{"command":"ls"}`, warden.RunInfo{}), wantAction: warden.ActionReject, wantCode: "acme.no_bash", wantPolicy: "cel/no-bash"},
		{desc: "a rule on an argument", rules: []wcel.Rule{{Name: "no-curl", When: `tool.name == "bash" && args.command.contains("curl")`, Code: "acme.net"}},
			check: call("bash", `{"command":"curl x"}`, warden.RunInfo{}), wantAction: warden.ActionReject, wantCode: "acme.net"},
		{desc: "a rule that does not hold allows", rules: []wcel.Rule{{Name: "no-curl", When: `args.command.contains("curl")`, Code: "acme.net"}},
			check: call("bash", `{"command":"ls"}`, warden.RunInfo{}), wantAction: warden.ActionAllow},
		{desc: "a rule on the context", rules: []wcel.Rule{{Name: "subagents-read-only", When: `context.is_subagent && tool.name != "read_file"`, Code: "acme.subagent"}},
			check: call("write_file", `{"path":"a"}`, sub), wantAction: warden.ActionReject, wantCode: "acme.subagent"},
		{desc: "a rule on an attribute", rules: []wcel.Rule{{Name: "tenant", When: `context.attributes["tenant"] == "acme" && context.scope.startsWith("read")`, Code: "acme.tenant"}},
			check: call("bash", `{}`, sub), wantAction: warden.ActionReject, wantCode: "acme.tenant"},
		{desc: "an allow rule stops the later rules", rules: []wcel.Rule{{Name: "trusted", When: `context.agent_id == "researcher"`, Action: "allow"}, {Name: "all", When: `true`, Code: "acme.all"}},
			check: call("bash", `{}`, sub), wantAction: warden.ActionAllow, wantPolicy: "cel/trusted"},
		{desc: "a halt rule ends the run", rules: []wcel.Rule{{Name: "stop", When: `args.command.matches("rm\\s+-rf")`, Action: "halt", Code: "acme.stop"}},
			check: call("bash", `{"command":"rm  -rf x"}`, warden.RunInfo{}), wantAction: warden.ActionHalt, wantCode: "acme.stop"},
		{desc: "the first rule that holds decides", rules: []wcel.Rule{{Name: "a", When: `true`, Code: "first"}, {Name: "b", When: `true`, Code: "second"}},
			check: call("bash", `{}`, warden.RunInfo{}), wantAction: warden.ActionReject, wantCode: "first"},
		{desc: "an ask rule asks", rules: []wcel.Rule{{Name: "deploy", When: `tool.name == "deploy"`, Action: "ask", Code: "acme.deploy"}},
			check: call("deploy", `{}`, warden.RunInfo{}), wantAction: warden.ActionAsk, wantCode: "acme.deploy", wantPolicy: "cel/deploy"},
		{desc: "a reject after an ask wins", rules: []wcel.Rule{{Name: "deploy", When: `tool.name == "deploy"`, Action: "ask", Code: "acme.deploy"}, {Name: "prod", When: `args.env == "prod"`, Code: "acme.prod"}},
			check: call("deploy", `{"env":"prod"}`, warden.RunInfo{}), wantAction: warden.ActionReject, wantCode: "acme.prod"},
		{desc: "a halt after an ask wins", rules: []wcel.Rule{{Name: "deploy", When: `tool.name == "deploy"`, Action: "ask", Code: "acme.deploy"}, {Name: "prod", When: `args.env == "prod"`, Action: "halt", Code: "acme.prod"}},
			check: call("deploy", `{"env":"prod"}`, warden.RunInfo{}), wantAction: warden.ActionHalt, wantCode: "acme.prod"},
		{desc: "an allow after an ask leaves the ask standing", rules: []wcel.Rule{{Name: "deploy", When: `tool.name == "deploy"`, Action: "ask", Code: "acme.deploy"}, {Name: "all", When: `true`, Action: "allow"}},
			check: call("deploy", `{}`, warden.RunInfo{}), wantAction: warden.ActionAsk, wantCode: "acme.deploy"},
		{desc: "an ask outranks a default reject", rules: []wcel.Rule{{Name: "deploy", When: `tool.name == "deploy"`, Action: "ask", Code: "acme.deploy"}}, deflt: "reject",
			check: call("deploy", `{}`, warden.RunInfo{}), wantAction: warden.ActionAsk, wantCode: "acme.deploy"},
		{desc: "an allow before an ask stops the ask", rules: []wcel.Rule{{Name: "trusted", When: `context.agent_id == "researcher"`, Action: "allow"}, {Name: "deploy", When: `true`, Action: "ask", Code: "acme.deploy"}},
			check: call("deploy", `{}`, sub), wantAction: warden.ActionAllow},
		{desc: "default reject applies when no rule holds", rules: []wcel.Rule{{Name: "ok", When: `tool.name == "read_file"`, Action: "allow"}}, deflt: "reject",
			check: call("bash", `{}`, warden.RunInfo{}), wantAction: warden.ActionReject, wantCode: "warden.cel_default"},
		{desc: "a missing argument key is an error, so the guardrail fails closed", rules: []wcel.Rule{{Name: "r", When: `args.path.startsWith("/etc")`, Code: "x"}},
			check: call("bash", `{"command":"ls"}`, warden.RunInfo{}), wantErr: `rule "r": no such key: path`},
		{desc: "has() guards an optional key", rules: []wcel.Rule{{Name: "r", When: `has(args.path) && args.path.startsWith("/etc")`, Code: "x"}},
			check: call("bash", `{"command":"ls"}`, warden.RunInfo{}), wantAction: warden.ActionAllow},
		{desc: "arguments that are not JSON are an error", rules: []wcel.Rule{{Name: "r", When: `has(args.x)`, Code: "x"}},
			check: warden.ToolCallCheck{Call: warden.ToolCall{Name: "bash", Arguments: []byte("{oops"), Complete: true}}, wantErr: "arguments are not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r := provisioned(t, &wcel.Rules{Rules: tt.rules, Default: tt.deflt})
			d, err := r.CheckToolCall(context.Background(), tt.check)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || d.Action != tt.wantAction {
				t.Fatalf("decision %s (%v), want %s", d.Action, err, tt.wantAction)
			}
			if tt.wantCode != "" && d.FirstReason().Code != tt.wantCode {
				t.Errorf("code = %s, want %s", d.FirstReason().Code, tt.wantCode)
			}
			if tt.wantPolicy != "" && d.PolicyID != tt.wantPolicy {
				t.Errorf("policy = %s, want %s", d.PolicyID, tt.wantPolicy)
			}
		})
	}
}

func TestCostLimitBoundsEvaluation(t *testing.T) {
	t.Parallel()
	r := provisioned(t, &wcel.Rules{CostLimit: 10, Rules: []wcel.Rule{{Name: "heavy", When: `[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, x * y > 0))`, Code: "x"}}})
	_, err := r.CheckToolCall(context.Background(), call("bash", `{}`, warden.RunInfo{}))
	if err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("err = %v, want the cost limit", err)
	}
}

func TestConfigErrorsNameTheRuleAndPosition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, config, want string
	}{
		{"a syntax error gives the position in the expression", `{rules: [{name: r, code: c, when: 'tool.name == '}]}`, "rules[0] (r).when: ERROR: when:1:14: Syntax error"},
		{"an unknown variable is a type error", `{rules: [{name: r, code: c, when: 'tol.name == "x"'}]}`, "undeclared reference to 'tol'"},
		{"a non-boolean expression is an error", `{rules: [{name: r, code: c, when: 'tool.name'}]}`, "rules[0] (r).when: must be true or false, is string"},
		{"a rule without a name", `{rules: [{code: c, when: 'true'}]}`, "rules[0]: name: required"},
		{"a deny rule without a code", `{rules: [{name: r, when: 'true'}]}`, "rules[0] (r): code: required"},
		{"an unknown action", `{rules: [{name: r, code: c, when: 'true', action: block}]}`, `action: unknown "block"`},
		{"an unknown key", `{rules: [{name: r, code: c, whenn: 'true'}]}`, `unknown key "whenn"`},
		{"an unknown default", `{default: deny}`, `default: unknown "deny"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("tool_call", "cel", tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant %q", err, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), "guardrail.tool_call.cel") {
				t.Errorf("err does not name the module: %v", err)
			}
		})
	}
}

func TestThroughTheEngine(t *testing.T) {
	t.Parallel()
	p, err := config.Parse("p.yaml", []byte(`version: 1
audit: {sink: none}
guardrails:
  tool_call:
    - use: cel
      config:
        rules:
          - name: no-network-for-subagents
            when: 'context.is_subagent && tool.name in ["web_fetch", "web_search"]'
            code: acme.subagent_network
            message: subagents work offline
`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, _ := l.Engine.CheckToolCall(context.Background(), call("web_fetch", `{"url":"x"}`, warden.RunInfo{IsSubagent: true}))
	want := "Guardrail denied: tool 'web_fetch' was blocked (acme.subagent_network). Reason: subagents work offline. Choose an alternative approach."
	if out.Message != want {
		t.Errorf("message = %q\nwant      %q", out.Message, want)
	}
}
