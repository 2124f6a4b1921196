package commands

import "github.com/agentwarden/warden/shell"

// programIndex says which of the rules that name programs a command line leaves in play: most rules name
// programs (rm, chmod, git, …), and most command lines run none of them, so a decision looks up each of its
// programs once here instead of asking every such rule. Rules in play are still checked in order, so the
// first that matches decides as before. Built at Provision; read-only after.
type programIndex struct {
	exact   map[string][]int // program name → the rules that name it
	globbed []int            // the rules with a program pattern (mkfs.*), asked for each program
	named   []bool           // by rule: the rule names programs, so it matches only a command running one
}

func indexPrograms(rules []Rule) programIndex {
	x := programIndex{exact: map[string][]int{}, named: make([]bool, len(rules))}
	for i := range rules {
		r := &rules[i]
		if len(r.Programs) == 0 {
			continue
		}
		x.named[i] = true
		for p := range r.programs.exact {
			x.exact[p] = append(x.exact[p], i)
		}
		if len(r.programs.globs) > 0 {
			x.globbed = append(x.globbed, i)
		}
	}
	return x
}

// inPlay marks, in play (one entry a rule), the rules naming a program that a command of a runs. A rule
// not naming programs is left for its own conditions (see named).
func (x *programIndex) inPlay(rules []Rule, a *shell.Analysis, play []bool) {
	if a == nil {
		return
	}
	for i := range a.Commands {
		p := a.Commands[i].Program
		for _, r := range x.exact[p] {
			play[r] = true
		}
		for _, r := range x.globbed {
			if !play[r] && rules[r].programs.match(p) {
				play[r] = true
			}
		}
	}
}
