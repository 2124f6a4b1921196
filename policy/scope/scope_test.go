package scope_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/policy/scope"
)

func list(s ...string) *[]string { return &s }

func TestScope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc      string
		config    scope.Scope
		runScope  string
		tool      string
		args      string
		want      warden.Action
		wantInMsg string
	}{
		{desc: "reading is always in scope", config: scope.Scope{Allow: list()},
			tool: "read_file", args: `{"path":"README.md"}`, want: warden.ActionAllow},
		{desc: "a deletion outside the allowed categories is rejected", config: scope.Scope{Allow: list("file_write")},
			tool: "bash", args: `{"command":"rm -rf build/"}`, want: warden.ActionReject, wantInMsg: "takes a file destroy action, outside the scope set by the configured categories (allowed: read, file write)"},
		{desc: "an allowed category passes", config: scope.Scope{Allow: list("file_destroy")},
			tool: "bash", args: `{"command":"rm -rf build/"}`, want: warden.ActionAllow},
		{desc: "the run's task decides when no categories are configured",
			runScope: "Summarize the README.", tool: "send_email", args: `{"to":"x@example.com"}`, want: warden.ActionReject, wantInMsg: "message send action, outside the scope set by the run's task"},
		{desc: "a task that asks for the action allows it",
			runScope: "Email the report to the team.", tool: "send_email", args: `{"to":"team@example.com"}`, want: warden.ActionAllow},
		{desc: "a message that sends a card number out is a disclosure the task must allow",
			runScope: "Email the report to the team.", tool: "send_email", args: `{"to":"team@example.com","body":"Report attached. Card: 4111 1111 1111 1111"}`, want: warden.ActionReject, wantInMsg: "data disclosure action"},
		{desc: "a task that names the data allows its disclosure",
			runScope: "Email my card number to the hotel.", tool: "send_email", args: `{"to":"desk@hotel.example","body":"Card: 4111 1111 1111 1111"}`, want: warden.ActionAllow},
		{desc: "a generic request tool that POSTs is a send the task must allow",
			runScope: "Summarize the page.", tool: "http_request", args: `{"method":"POST","url":"https://collector.example/c"}`, want: warden.ActionReject, wantInMsg: "message send action"},
		{desc: "a browser click on a buy button is a purchase the task must allow",
			runScope: "Find me a cheap laptop.", tool: "browser_click", args: `{"selector":"#buy-now"}`, want: warden.ActionReject, wantInMsg: "financial action"},
		{desc: "the configured task applies when the run declares none", config: scope.Scope{Task: "Check my balance."},
			tool: "transfer_funds", args: `{"amount":300}`, want: warden.ActionReject, wantInMsg: "financial action, outside the scope set by the configured task"},
		{desc: "the run's task wins over the configured one", config: scope.Scope{Task: "Check my balance."},
			runScope: "Pay the electricity bill.", tool: "pay_bill", args: `{"amount":82}`, want: warden.ActionAllow},
		{desc: "a task in Chinese that asks for the action allows it",
			runScope: "把报告用邮件发给团队。", tool: "send_email", args: `{"to":"team@example.com"}`, want: warden.ActionAllow},
		{desc: "a task in Russian that asks for a deletion allows it",
			runScope: "Удали старые сборки.", tool: "bash", args: `{"command":"rm -rf build/"}`, want: warden.ActionAllow},
		{desc: "a task in Spanish that only asks for a summary rejects a send",
			runScope: "Resume el README.", tool: "send_email", args: `{"to":"x@example.com"}`, want: warden.ActionReject, wantInMsg: "message send action"},
		{desc: "configured categories win over the run's task", config: scope.Scope{Allow: list()},
			runScope: "Delete the old builds.", tool: "bash", args: `{"command":"rm -rf build/"}`, want: warden.ActionReject},
		{desc: "an unclassified call passes by default", config: scope.Scope{Allow: list()},
			tool: "frobnicate", args: `{}`, want: warden.ActionAllow},
		{desc: "an unclassified call is rejected when unknown is reject", config: scope.Scope{Allow: list(), Unknown: "reject"},
			tool: "frobnicate", args: `{}`, want: warden.ActionReject, wantInMsg: "no rule classifies"},
		{desc: "action halt makes an out-of-scope call a tripwire", config: scope.Scope{Allow: list(), Action: "halt"},
			tool: "bash", args: `{"command":"git push --force"}`, want: warden.ActionHalt, wantInMsg: "vcs write"},
		{desc: "the message never quotes the arguments", config: scope.Scope{Allow: list()},
			tool: "send_email", args: `{"to":"secret-person@example.com"}`, want: warden.ActionReject},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			s := tt.config
			if err := s.Provision(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			d, err := s.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: warden.RunInfo{Scope: tt.runScope}, Call: warden.NewToolCall("c", tt.tool, []byte(tt.args))})
			if err != nil {
				t.Fatal(err)
			}
			if d.Action != tt.want {
				t.Fatalf("action = %v, want %v (%+v)", d.Action, tt.want, d)
			}
			msg := d.FirstReason().Message
			if !strings.Contains(msg, tt.wantInMsg) {
				t.Errorf("message %q lacks %q", msg, tt.wantInMsg)
			}
			if strings.Contains(msg, "secret-person") || strings.Contains(msg, "rm -rf") {
				t.Errorf("message quotes the arguments: %q", msg)
			}
		})
	}
}

func TestScopeWithoutAnyScopeIsSkipped(t *testing.T) {
	t.Parallel()
	l, err := configtest.Load("tool_call", "scope", "")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, _ := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command":"rm -rf /tmp/x"}`))})
	if !out.Allowed() || len(out.Evaluations) != 1 || out.Evaluations[0].Status != warden.StatusSkipped {
		t.Errorf("outcome = %+v, want allowed with the guardrail skipped", out)
	}
}

func TestScopeThroughTheEngine(t *testing.T) {
	t.Parallel()
	l, err := configtest.Load("tool_call", "scope", "{allow: [file_write, code_execution]}")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, _ := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command":"kubectl delete ns prod"}`))})
	if out.Allowed() || !strings.Contains(out.Message, scope.CodeOutOfScope) {
		t.Errorf("outcome = %+v, want a rejection with %s", out, scope.CodeOutOfScope)
	}
}

func TestScopeConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, config, want string
	}{
		{"an unknown key fails", "{allowed: [file_write]}", `unknown key "allowed" (did you mean "allow"?)`},
		{"an unknown category fails, naming the known ones", "{allow: [file_wipe]}", `allow: unknown action category "file_wipe" (known: read, file_destroy`},
		{"an unknown choice for unknown fails", "{unknown: deny}", `unknown: "deny" is not allow or reject`},
		{"an unknown action fails", "{action: block}", `action: "block" is not reject or halt`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("tool_call", "scope", tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
