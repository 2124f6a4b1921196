package commands_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/childtest"
	"github.com/agentwarden/warden/policy/commands"
)

func TestLimitsDenyWhatCostsTooMuchToAnalyze(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return "echo $((" + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "))" }
	echo := func(n int) string { return "echo " + strings.Repeat("a", n-len("echo ")) }
	tests := []struct {
		desc   string
		limits commands.Limits
		cmd    string
		want   string // a reason code, or "" for allow
	}{
		{"a command at max_bytes is decided by the rules", commands.Limits{MaxBytes: 200}, echo(200), ""},
		{"a command one byte over max_bytes is too complex", commands.Limits{MaxBytes: 200}, echo(201), commands.CodeTooComplex},
		{"a destructive command over max_bytes is denied as too complex", commands.Limits{MaxBytes: 8}, "rm -rf ~/", commands.CodeTooComplex},
		{"a command over the default length is too complex", commands.Limits{}, echo(128<<10 + 1), commands.CodeTooComplex},
		{"nesting within max_depth is decided by the rules", commands.Limits{MaxDepth: 300}, deep(2), ""},
		{"nesting past max_depth is too complex", commands.Limits{MaxDepth: 300}, deep(400), commands.CodeTooComplex},
		{"nesting 150,000 deep is too complex under the defaults", commands.Limits{}, deep(150_000)[:128<<10], commands.CodeTooComplex},
		{"an analysis within max_steps is decided by the rules", commands.Limits{MaxSteps: 100}, "ls | wc -l", ""},
		{"an analysis past max_steps is too complex", commands.Limits{MaxSteps: 100}, strings.Repeat("ls $x | ", 40) + "wc", commands.CodeTooComplex},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			c := provisioned(t, &commands.Commands{Limits: tt.limits})
			d := c.CheckCommand(tt.cmd)
			switch {
			case tt.want == "" && d.Action != warden.ActionAllow:
				t.Errorf("decision %s %s, want allow", d.Action, d.FirstReason().Code)
			case tt.want != "" && (d.Action != warden.ActionReject || d.FirstReason().Code != tt.want):
				t.Errorf("decision %s %s, want reject %s", d.Action, d.FirstReason().Code, tt.want)
			}
		})
	}
}

// TestDeepToolCallsDoNotCrashTheProcess checks, in a child process, tool calls whose command or arguments
// nest far past every limit: a stack overflow would end the child with a fatal error, which fails this test.
func TestDeepToolCallsDoNotCrashTheProcess(t *testing.T) {
	calls := map[string]func() []byte{
		"a command nested 150,000 deep": func() []byte {
			cmd := strings.Repeat("$(", 150_000) + "ls" + strings.Repeat(")", 150_000)
			b, _ := json.Marshal(map[string]string{"command": cmd})
			return b
		},
		"arguments nested 150,000 deep": func() []byte {
			return []byte(`{"command":"ls","x":` + strings.Repeat("[", 150_000) + strings.Repeat("]", 150_000) + "}")
		},
		"a command string nested 150,000 deep in arithmetic": func() []byte {
			cmd := "echo $((" + strings.Repeat("- ", 150_000) + "1))"
			b, _ := json.Marshal(map[string]string{"command": cmd})
			return b
		},
	}
	if which := childtest.Case(); which != "" {
		c := provisioned(t, &commands.Commands{Limits: commands.Limits{MaxBytes: 1 << 30}})
		d, err := c.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.ToolCall{Name: "bash", Arguments: calls[which](), Complete: true}})
		os.Stdout.WriteString("action=" + string(d.Action) + " code=" + d.FirstReason().Code)
		if err != nil {
			os.Stdout.WriteString(" err=" + err.Error())
		}
		return
	}
	t.Parallel()
	for desc := range calls {
		t.Run(desc, func(t *testing.T) {
			t.Parallel()
			if out := childtest.Run(t, "TestDeepToolCallsDoNotCrashTheProcess", desc); strings.Contains(out, "action=allow") {
				t.Errorf("allowed: %.200s", out)
			}
		})
	}
}
