package detect

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
)

// forbiddenPolicy returns the default command policy narrowed to the rules named (actions.yaml, key
// forbidden): those whose effect no task makes safe, so that a call one of them denies escalates even
// when the task asks for its category ("free up disk space" allows deleting, not `rm -rf ~`). It is built
// the first time a trace's tool call is checked: the program tables take tens of milliseconds to load.
func forbiddenPolicy(ids []string) func() *commands.Commands {
	return sync.OnceValue(func() *commands.Commands {
		rules, _, err := commands.DefaultRules()
		if err != nil {
			panic("detect: the default command policy: " + err.Error())
		}
		var kept []commands.Rule
		for _, r := range rules {
			if slices.Contains(ids, r.ID) {
				// Outside the working directory says nothing here: a trace does not say where its agent
				// worked, and an agent's work is often an absolute path. A path known only at run time is
				// the command policy's doubt before a call runs, not a finding about one that ran.
				r.Paths = slices.DeleteFunc(slices.Clone(r.Paths), func(c string) bool { return c == "outside_workdir" || c == "dynamic" })
				kept = append(kept, r)
			}
		}
		if len(kept) != len(ids) {
			panic("detect: corpus/actions.yaml: forbidden names a rule the default command policy does not have")
		}
		off := false
		// Programs known only at run time and lines that do not parse are the command policy's doubt, not a
		// finding of harm.
		c := &commands.Commands{Defaults: &off, Rules: kept, AllowDynamic: true, AllowUnparsable: true}
		if err := c.Provision(context.Background()); err != nil {
			panic("detect: the default command policy: " + err.Error())
		}
		return c
	})
}

// forbiddenRule returns the id of the forbidden rule that denies the call, or "".
func (a *ActionTable) forbiddenRule(name string, args json.RawMessage) string {
	d, err := a.forbidden().CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.ToolCall{Name: name, Arguments: args, Complete: true}})
	if err != nil || d.Action == warden.ActionAllow {
		return ""
	}
	id, _ := strings.CutPrefix(d.PolicyID, "commands/")
	return id
}
