package commands_test

import (
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
)

// TestAskRules: an ask rule holds the command line for a person however the line reaches the program, and
// never outranks a rule that denies the same line.
func TestAskRules(t *testing.T) {
	t.Parallel()
	pushMain := commands.Rule{ID: "push-main", Programs: []string{"git"}, AllArgs: [][]string{{"push"}, {"main", "*:main", "refs/heads/main"}},
		Action: "ask", Code: "acme.push_main", Message: "pushes to main"}
	tests := []struct {
		desc       string
		cmd        string
		wantAction warden.Action
		wantCode   string
	}{
		{"the plain line asks", "git push origin main", warden.ActionAsk, "acme.push_main"},
		{"a refspec naming main asks", "git push origin HEAD:main", warden.ActionAsk, "acme.push_main"},
		{"a line that pushes elsewhere passes", "git push origin feature/x", warden.ActionAllow, ""},
		{"the push later in a compound line asks", "git status && git push origin main", warden.ActionAsk, "acme.push_main"},
		{"the push inside bash -c asks", `bash -c "git push origin main"`, warden.ActionAsk, "acme.push_main"},
		{"the push behind a wrapper asks", "env GIT_TRACE=1 nohup git push origin main", warden.ActionAsk, "acme.push_main"},
		{"the push through an absolute path asks", "/usr/bin/git push origin main", warden.ActionAsk, "acme.push_main"},
		{"a default deny in the same line wins over the ask", "git push origin main; rm -rf /", warden.ActionReject, "warden.destructive_delete"},
		{"a default deny before the push wins too", "rm -rf / && git push origin main", warden.ActionReject, "warden.destructive_delete"},
		{"a later own reject rule wins over the ask", "git push --force origin main", warden.ActionReject, "acme.force"},
	}
	c := provisioned(t, &commands.Commands{Rules: []commands.Rule{pushMain,
		{ID: "no-force", Programs: []string{"git"}, AllArgs: [][]string{{"push"}}, Flags: [][]string{{"f", "force"}}, Code: "acme.force"}}})
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			d := c.CheckCommand(tt.cmd)
			code := ""
			if len(d.Reasons) > 0 {
				code = d.Reasons[0].Code
			}
			if d.Action != tt.wantAction || code != tt.wantCode {
				t.Errorf("%s: %s (%s), want %s (%s)", tt.cmd, d.Action, code, tt.wantAction, tt.wantCode)
			}
			if d.Action == warden.ActionAsk && (d.PolicyID != "commands/push-main" || d.FirstReason().Message != "pushes to main") {
				t.Errorf("ask decision %+v, want the rule's policy id and message", d)
			}
		})
	}
}

func TestAskActionIsAccepted(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"ask", "reject", "halt", ""} {
		c := commands.Commands{Rules: []commands.Rule{{ID: "r", Programs: []string{"x"}, Code: "c", Action: action}}}
		if err := c.Provision(t.Context()); err != nil {
			t.Errorf("action %q: %v", action, err)
		}
	}
	c := commands.Commands{Rules: []commands.Rule{{ID: "r", Programs: []string{"x"}, Code: "c", Action: "approve"}}}
	if err := c.Provision(t.Context()); err == nil {
		t.Error(`action "approve" was accepted`)
	}
}
