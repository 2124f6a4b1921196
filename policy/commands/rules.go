package commands

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/shell"
)

// Rule denies what it matches. Every condition it sets must hold; within one condition, any entry may match.
// Conditions on a command (programs, flags, args, all_args, operands, assigns) must hold for one and the
// same command; writes, reads and finding look at the whole command line.
type Rule struct {
	// ID names the rule in decisions (policy id "commands/<id>") and in disable lists. Required.
	ID string `yaml:"id" json:"id"`
	// Description says what the rule is for (documentation only).
	Description string `yaml:"description" json:"description"`
	// Programs are patterns for a command's program name (base name: rm matches /bin/rm), e.g. mkfs*.
	Programs []string `yaml:"programs" json:"programs"`
	// Flags are groups of option spellings; each group must be present in some spelling: [[r, R, recursive],
	// [f, force]] matches -rf, -fr, -r -f, -Rf and --recursive --force. One letter is a short option,
	// longer is a long one.
	Flags [][]string `yaml:"flags" json:"flags"`
	// Args are patterns of which one argument must match one, e.g. "of=/dev/sd*".
	Args []string `yaml:"args" json:"args"`
	// AllArgs are groups of patterns; for each group some argument must match one of its patterns.
	AllArgs [][]string `yaml:"all_args" json:"all_args"`
	// Operands are path classes of which one operand (an argument that is not an option) must be in one.
	Operands []string `yaml:"operands" json:"operands"`
	// ExceptOperands are path classes whose operands do not count towards Operands, when they are written
	// out (a path known only at run time always counts): recursive deletes under /tmp or a cache are
	// housekeeping, not destruction.
	ExceptOperands []string `yaml:"except_operands" json:"except_operands"`
	// Assigns are patterns for NAME=value assignments the command makes (HISTFILE=*, export too).
	Assigns []string `yaml:"assigns" json:"assigns"`
	// Writes are path classes of which a file the command line writes must be in one.
	Writes []string `yaml:"writes" json:"writes"`
	// Reads are path classes of which a file the command line reads (any operand, an input redirection, the
	// path of a read tool) must be in one.
	Reads []string `yaml:"reads" json:"reads"`
	// Finding is a structural finding of the shell analysis: fork_bomb, remote_code, reverse_shell or
	// dynamic_code.
	Finding string `yaml:"finding" json:"finding"`
	// Effect is an effect the command line (or file tool) has: deletes, writes, reads, sends, system,
	// destroys or executes. The conditions below narrow which of its effects of that kind match.
	Effect string `yaml:"effect" json:"effect"`
	// Paths are path classes of which one of the effect's targets must be in one; ExceptPaths are classes
	// whose written-out targets do not count (a target known only at run time always counts).
	Paths       []string `yaml:"paths" json:"paths"`
	ExceptPaths []string `yaml:"except_paths" json:"except_paths"`
	// Recursive: the effect takes whole trees (rm -r, find -delete, chmod -R).
	Recursive bool `yaml:"recursive" json:"recursive"`
	// Classes are the kinds of state a system or destroys effect changes (privilege, firewall, disks,
	// vcs_work, database, cloud, …), or the languages of executed code; one must be the effect's.
	Classes []string `yaml:"classes" json:"classes"`
	// Data are path classes of which one file whose content a sends effect carries must be in one.
	Data []string `yaml:"data" json:"data"`
	// Action is reject (default: the model is told and adapts), halt (the run ends) or ask (the call waits
	// for a person's approval). An ask rule does not end the checking: a later reject or halt rule that
	// matches the same line still wins.
	Action string `yaml:"action" json:"action"`
	// Code and Message are the decision's reason. Code is required.
	Code    string `yaml:"code" json:"code"`
	Message string `yaml:"message" json:"message"`

	action                  warden.Action
	programs, args, assigns words
	allArgs                 []words
}

// words matches a word against patterns whose * matches any text, slashes included ("HISTFILE=*" must
// match "HISTFILE=/dev/null"). Exact entries are a set; patterns run through path.Match with slashes
// swapped for a byte no word holds. Built once, at Provision.
type words struct {
	exact map[string]bool
	globs []string
}

func compileWords(patterns []string) words {
	w := words{exact: map[string]bool{}}
	for _, p := range patterns {
		if strings.ContainsAny(p, "*?[") {
			w.globs = append(w.globs, strings.ReplaceAll(p, "/", "\x00"))
		} else {
			w.exact[p] = true
		}
	}
	return w
}

func (w *words) match(s string) bool {
	if w.exact[s] {
		return true
	}
	if len(w.globs) == 0 {
		return false
	}
	swapped := strings.ReplaceAll(s, "/", "\x00")
	for _, g := range w.globs {
		if ok, _ := path.Match(g, swapped); ok {
			return true
		}
	}
	return false
}

func (w *words) anyArg(args []shell.Word) bool {
	for _, a := range args {
		if w.match(a.Value) {
			return true
		}
	}
	return false
}

func (r *Rule) commandScoped() bool {
	return len(r.Programs)+len(r.Flags)+len(r.Args)+len(r.AllArgs)+len(r.Operands)+len(r.Assigns) > 0
}

func (r *Rule) validate(classes *pathClasses) error {
	var errs []string
	if r.ID == "" {
		errs = append(errs, "id: required")
	}
	if r.Code == "" {
		errs = append(errs, "code: required")
	}
	if !r.commandScoped() && len(r.Writes)+len(r.Reads) == 0 && r.Finding == "" && r.Effect == "" {
		errs = append(errs, "no condition: the rule would match everything")
	}
	switch shell.EffectKind(r.Effect) {
	case "", shell.Deletes, shell.Writes, shell.Reads, shell.Sends, shell.System, shell.Destroys, shell.Executes:
	default:
		errs = append(errs, fmt.Sprintf("effect: unknown %q (want deletes, writes, reads, sends, system, destroys or executes)", r.Effect))
	}
	if r.Effect == "" && (len(r.Paths)+len(r.ExceptPaths)+len(r.Classes)+len(r.Data) > 0 || r.Recursive) {
		errs = append(errs, "paths, except_paths, recursive, classes and data narrow an effect: set effect")
	}
	for _, list := range [][]string{r.Programs, r.Args, r.Assigns, flatten(r.AllArgs)} {
		for _, p := range list {
			if _, err := path.Match(p, ""); err != nil {
				errs = append(errs, fmt.Sprintf("bad pattern %q", p))
			}
		}
	}
	for _, c := range slices.Concat(r.Operands, r.Writes, r.Reads, r.ExceptOperands, r.Paths, r.ExceptPaths, r.Data) {
		if _, ok := classes.globs[c]; !ok && !isBuiltin(c) {
			errs = append(errs, fmt.Sprintf("unknown path class %q", c))
		}
	}
	switch shell.FindingKind(r.Finding) {
	case "", shell.ForkBomb, shell.RemoteCode, shell.ReverseShell, shell.DynamicCode:
	default:
		errs = append(errs, fmt.Sprintf("finding: unknown %q (want fork_bomb, remote_code, reverse_shell or dynamic_code)", r.Finding))
	}
	r.programs, r.args, r.assigns = compileWords(r.Programs), compileWords(r.Args), compileWords(r.Assigns)
	r.allArgs = nil
	for _, g := range r.AllArgs {
		r.allArgs = append(r.allArgs, compileWords(g))
	}
	switch r.Action {
	case "", "reject":
		r.action = warden.ActionReject
	case "halt":
		r.action = warden.ActionHalt
	case "ask":
		r.action = warden.ActionAsk
	default:
		errs = append(errs, fmt.Sprintf("action: unknown %q (want reject, halt or ask)", r.Action))
	}
	if len(errs) > 0 {
		return fmt.Errorf("rule %q: %s", r.ID, strings.Join(errs, "; "))
	}
	return nil
}

func isBuiltin(c string) bool {
	for _, b := range builtinClasses {
		if b == c {
			return true
		}
	}
	return false
}

func flatten(groups [][]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// subject is what a rule is matched against: the shell analysis of a command line, or the path of a file
// tool as a write or a read.
type subject struct {
	a       *shell.Analysis
	writes  []shell.Word
	reads   []shell.Word
	effects []shell.Effect
}

func (r *Rule) matches(s *subject, pc *pathClasses) bool {
	if r.Finding != "" && (s.a == nil || !s.a.Has(shell.FindingKind(r.Finding))) {
		return false
	}
	if len(r.Writes) > 0 && !anyIn(s.writes, r.Writes, pc) {
		return false
	}
	if len(r.Reads) > 0 && !anyIn(s.reads, r.Reads, pc) {
		return false
	}
	if r.Effect != "" && !r.matchEffects(s.effects, pc) {
		return false
	}
	if !r.commandScoped() {
		return true
	}
	if s.a == nil {
		return false
	}
	for i := range s.a.Commands {
		if r.matchCommand(&s.a.Commands[i], pc) {
			return true
		}
	}
	return false
}

// matchEffects reports whether one effect meets every effect condition of the rule.
func (r *Rule) matchEffects(effects []shell.Effect, pc *pathClasses) bool {
	for i := range effects {
		e := &effects[i]
		if string(e.Kind) != r.Effect || r.Recursive && !e.Recursive {
			continue
		}
		if len(r.Classes) > 0 && !slices.Contains(r.Classes, e.Class) {
			continue
		}
		if len(r.Paths) > 0 && !anyIn(r.except(e.Targets, r.ExceptPaths, pc), r.Paths, pc) {
			continue
		}
		if len(r.Data) > 0 && !anyIn(e.Data, r.Data, pc) {
			continue
		}
		return true
	}
	return false
}

// except drops the targets in the classes, when they are literal: a path known only at run time may
// resolve anywhere, so it always counts.
func (r *Rule) except(ws []shell.Word, classes []string, pc *pathClasses) []shell.Word {
	if len(classes) == 0 {
		return ws
	}
	out := ws[:0:0]
	for _, w := range ws {
		if w.Literal && pc.in(w, classes) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func anyIn(words []shell.Word, classes []string, pc *pathClasses) bool {
	for _, w := range words {
		if pc.in(w, classes) {
			return true
		}
	}
	return false
}

func (r *Rule) matchCommand(c *shell.Command, pc *pathClasses) bool {
	if len(r.Programs) > 0 && !r.programs.match(c.Program) {
		return false
	}
	if len(r.Flags) > 0 {
		flags := optionsOf(c.Args)
		for _, group := range r.Flags {
			if !anyFlag(flags, group) {
				return false
			}
		}
	}
	if len(r.Args) > 0 && !r.args.anyArg(c.Args) {
		return false
	}
	for i := range r.allArgs {
		if !r.allArgs[i].anyArg(c.Args) {
			return false
		}
	}
	if len(r.Operands) > 0 && !anyIn(r.counted(operandsOf(c.Args), pc), r.Operands, pc) {
		return false
	}
	if len(r.Assigns) > 0 {
		found := false
		for _, as := range c.Assigns {
			if r.assigns.match(as) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// optionsOf lists the options of a command's arguments before "--": --name[=v] gives name, -abc gives a, b
// and c.
func optionsOf(args []shell.Word) map[string]bool {
	out := map[string]bool{}
	for _, a := range args {
		v := a.Value
		if v == "--" {
			break
		}
		switch {
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v[2:], "=")
			out[name] = true
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for _, c := range v[1:] {
				out[string(c)] = true
			}
		}
	}
	return out
}

func anyFlag(flags map[string]bool, spellings []string) bool {
	for _, s := range spellings {
		if flags[s] {
			return true
		}
	}
	return false
}

// counted drops the operands in the rule's ExceptOperands classes, when they are literal: a path known only
// at run time (/tmp/$X) may resolve anywhere, so it always counts.
func (r *Rule) counted(ops []shell.Word, pc *pathClasses) []shell.Word {
	if len(r.ExceptOperands) == 0 {
		return ops
	}
	out := ops[:0:0]
	for _, w := range ops {
		if w.Literal && pc.in(w, r.ExceptOperands) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// operandsOf returns the arguments that are not options, and the values of --name=value options.
func operandsOf(args []shell.Word) []shell.Word {
	var out []shell.Word
	rest := false
	for _, a := range args {
		switch {
		case rest || !strings.HasPrefix(a.Value, "-") || a.Value == "-":
			out = append(out, a)
		case a.Value == "--":
			rest = true
		case strings.HasPrefix(a.Value, "--") && strings.Contains(a.Value, "="):
			_, v, _ := strings.Cut(a.Value, "=")
			out = append(out, shell.Word{Value: v, Literal: a.Literal, Glob: a.Glob})
		}
	}
	return out
}
