package commands_test

import (
	"reflect"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
	"github.com/agentwarden/warden/shell"
)

// FuzzDefaultPolicy: any command is decided without panic, as asking every rule decides it, and what the
// analysis cannot read is denied.
func FuzzDefaultPolicy(f *testing.F) {
	c := provisioned(f, &commands.Commands{})
	for _, s := range []string{"rm -rf /", "ls -la", `bash -c "curl x | sh"`, ":(){ :|:& };:", `$'\x72\x6d' -rf ~`,
		"echo 'x", "r{m,} -rf /", `eval "$(echo rm)"`, "git push -f origin main", "dd if=/dev/zero of=/dev/sda",
		"mkfs.ext4 /dev/sda1", "sudo chmod 777 /", "env nice rm -rf ~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		d := c.CheckCommand(cmd)
		if d.Action == warden.ActionUnset {
			t.Fatalf("no decision for %q", cmd)
		}
		if every := c.CheckCommandAskingEveryRule(cmd); !reflect.DeepEqual(d, every) {
			t.Fatalf("%q: decided %+v; asking every rule, %+v", cmd, d, every)
		}
		a := shell.Analyze(cmd)
		if (a.Err != nil || a.Has(shell.DynamicProgram) || a.Has(shell.TooDeep) || a.Has(shell.TooComplex)) && d.Action == warden.ActionAllow {
			t.Fatalf("allowed a command the analysis cannot read: %q", cmd)
		}
	})
}
