package commands_test

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
	"github.com/agentwarden/warden/shell"
)

type category struct {
	name  string
	codes []string
	lines []string
}

// categories reads a corpus of "## name | code, code" headers each followed by its command lines.
func categories(t *testing.T, name string) []category {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []category
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			head, codes, _ := strings.Cut(strings.TrimPrefix(line, "## "), "|")
			c := category{name: strings.TrimSpace(head)}
			for _, code := range strings.Split(codes, ",") {
				c.codes = append(c.codes, strings.TrimSpace(code))
			}
			out = append(out, c)
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			if len(out) == 0 {
				t.Fatalf("%s: a command before the first category: %s", name, line)
			}
			out[len(out)-1].lines = append(out[len(out)-1].lines, line)
		}
	}
	return out
}

// Every effect, by every route the corpus names, is denied with its category's reason.
func TestDefaultPolicyDeniesEveryEffectByEveryRoute(t *testing.T) {
	t.Parallel()
	c := provisioned(t, &commands.Commands{})
	cats := categories(t, "effects.txt")
	if len(cats) < 18 {
		t.Fatalf("%d categories, want at least 18", len(cats))
	}
	for _, cat := range cats {
		t.Run(cat.name, func(t *testing.T) {
			t.Parallel()
			if len(cat.lines) < 10 {
				t.Errorf("%d spellings, want at least 10", len(cat.lines))
			}
			for _, cmd := range cat.lines {
				d := c.CheckCommand(cmd)
				if d.Action == warden.ActionAllow || !slices.Contains(cat.codes, d.FirstReason().Code) {
					t.Errorf("%s (%s): %s", d.Action, d.FirstReason().Code, cmd)
				}
			}
		})
	}
}

// Every program the shell's table says runs a command, given a recursive delete of home, is denied: what
// a wrapper runs is checked, whichever wrapper it is.
func TestEveryCommandRunnerIsChecked(t *testing.T) {
	t.Parallel()
	c := provisioned(t, &commands.Commands{Disable: []string{"privilege-escalation"}})
	for _, cmd := range shell.Invocations("rm -rf ~") {
		// nc -e runs its command for the network peer: a reverse shell, a rule checked before deletes
		if d := c.CheckCommand(cmd); !slices.Contains([]string{"warden.destructive_delete", "warden.reverse_shell"}, d.FirstReason().Code) {
			t.Errorf("%s: %s %s, want warden.destructive_delete", cmd, d.Action, d.FirstReason().Code)
		}
	}
}
