package commands_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
)

// A command line that code builds at run time (a literal joined to, or formatted with, a value only the
// running program knows) may end in any word: deleting "rm -rf " + home is the deletion of whatever home
// is, in every language's way of joining and formatting; a harmless line completed the same way passes.
func TestCommandLinesCompletedAtRunTime(t *testing.T) {
	t.Parallel()
	c := &commands.Commands{}
	if err := c.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc, language, code string
		denied               bool
	}{
		{"python joins with +", "python", "import os; os.system('rm -rf ' + os.environ['HOME'])", true},
		{"python formats with %", "python", "import os; os.system('rm -rf %s' % os.path.expanduser('~'))", true},
		{"python formats with .format", "python", "import subprocess; subprocess.call('rm -rf {}'.format(d), shell=True)", true},
		{"a python f-string", "python", "import os; os.system(f'rm -rf {target}')", true},
		{"node joins with +", "javascript", "require('child_process').execSync('rm -rf ' + process.env.HOME)", true},
		{"ruby joins with +", "ruby", "system('rm -rf ' + ENV['HOME'])", true},
		{"perl joins with .", "perl", "system('rm -rf ' . $ENV{HOME})", true},
		{"php joins with .", "php", "shell_exec('rm -rf ' . getenv('HOME'));", true},
		{"an echo completed at run time passes", "python", "import os; os.system('echo ' + message)", false},
		{"a git log completed at run time passes", "python", "import subprocess; subprocess.run('git log -n ' + str(n), shell=True)", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"language": tc.language, "code": tc.code})
			d, err := c.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "execute_code", args)})
			if err != nil {
				t.Fatal(err)
			}
			if denied := d.Action == warden.ActionReject; denied != tc.denied {
				t.Errorf("%s: %v %v, want denied=%v", tc.code, d.Action, d.Reasons, tc.denied)
			}
		})
	}
}
