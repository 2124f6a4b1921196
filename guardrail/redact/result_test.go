package redact

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
)

// A tool's result reaches the model with its secrets and personal data replaced, or not at all.
func TestResultRedact(t *testing.T) {
	t.Parallel()
	key := "AKIA" + "IOSFODNN7EXAMPLE"
	for _, tc := range []struct {
		desc    string
		g       *ResultRedact
		content string
		action  warden.Action
		want    string // in the result the model reads (modify) or in the reason (reject)
		gone    string // what must not remain
	}{
		{"a key in a file is replaced", &ResultRedact{}, "aws_access_key_id = " + key + "\nregion = eu", warden.ActionModify, "aws_access_key_id = [AWS_KEY]\nregion = eu", key},
		{"an email in a query's rows is replaced", &ResultRedact{}, "id | email\n1 | ann@example.com", warden.ActionModify, "1 | [EMAIL]", "ann@example.com"},
		{"only the types asked for", &ResultRedact{Types: []string{"email"}}, "ann@example.com " + key, warden.ActionModify, "[EMAIL] " + key, "ann@"},
		{"a placeholder of one's own", &ResultRedact{Placeholder: "<{type} removed>"}, "mail ann@example.com", warden.ActionModify, "mail <EMAIL removed>", "ann@"},
		{"reject withholds the result", &ResultRedact{Action: "reject"}, "token " + key, warden.ActionReject, "aws_key", ""},
		{"a clean result passes", &ResultRedact{}, "ok  \tpkg/parse\t0.01s", warden.ActionAllow, "", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			g := tc.g
			if err := g.Provision(context.Background()); err != nil {
				t.Fatal(err)
			}
			d, err := g.CheckToolResult(context.Background(), warden.ToolResultCheck{Result: warden.ToolResult{Name: "read_file", Content: tc.content}})
			if err != nil || d.Action != tc.action {
				t.Fatalf("%v %v, want %v", d.Action, err, tc.action)
			}
			switch tc.action {
			case warden.ActionModify:
				got := d.Replacement.(warden.ToolResult).Content
				if !strings.Contains(got, tc.want) || strings.Contains(got, tc.gone) {
					t.Errorf("result %q, want %q without %q", got, tc.want, tc.gone)
				}
			case warden.ActionReject:
				if !strings.Contains(d.FirstReason().Message, tc.want) || strings.Contains(d.FirstReason().Message, key) {
					t.Errorf("reason %q", d.FirstReason().Message)
				}
			}
		})
	}
	for _, bad := range []*ResultRedact{{Action: "log"}, {Types: []string{"passport"}}} {
		if err := bad.Provision(context.Background()); err == nil {
			t.Errorf("action %q, types %v provisioned", bad.Action, bad.Types)
		}
	}
}
