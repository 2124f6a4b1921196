// Package scope is the scope tool-call guardrail: it maps each tool call to an action category (file
// destroy, file write, data write, message send, financial, permission change, package install,
// infrastructure change, code execution, VCS write, device control — or read) with the same table as the
// scope_escalation trace detector (detect.Actions), and rejects a call whose category the task does not
// allow. What scope_escalation finds in a recorded run, this blocks before the call runs.
//
// The allowed categories come from the config's allow list when it has one; otherwise from the task in
// words — the run's declared scope (RunInfo.Scope), or else the config's task — whose verbs name them
// ("summarize the README" allows reading only; "fix the failing test" allows writing files and running
// code). Reading is always allowed. With neither, the guardrail does not apply and the engine records it
// as skipped. It never logs or quotes the call's arguments.
package scope

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/detect"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.scope",
		New:     func() any { return new(Scope) },
		Summary: "rejects tool calls whose action category (delete, send, pay, deploy, …) the task's scope does not allow",
	})
}

// Reason codes.
const (
	// CodeOutOfScope: the call's action lies outside the allowed categories.
	CodeOutOfScope = "warden.out_of_scope"
	// CodeUnknownAction: no rule classifies the call and unknown: reject is set.
	CodeUnknownAction = "warden.unknown_action"
)

// Scope is the guardrail's config and, once provisioned, the guardrail. It is safe for concurrent use.
type Scope struct {
	// Allow lists the action categories calls may take besides reading, for every run; it wins over the
	// task. Absent: the task's verbs decide. An empty list allows reading only.
	Allow *[]string `yaml:"allow" json:"allow"`
	// Task is the task in words used when a run declares no scope of its own.
	Task string `yaml:"task" json:"task"`
	// Unknown is what happens to a call no rule classifies: allow (default) or reject.
	Unknown string `yaml:"unknown" json:"unknown"`
	// Action is the verdict on an out-of-scope call: reject (default; the model is told and can adapt) or
	// halt (a tripwire that ends the run).
	Action string `yaml:"action" json:"action"`

	table   *detect.ActionTable
	allowed map[string]bool // from Allow, when set
	fixed   map[string]bool // from Task, when set
}

var (
	_ warden.ToolCallGuardrail = (*Scope)(nil)
	_ warden.Provisioner       = (*Scope)(nil)
	_ warden.Validator         = (*Scope)(nil)
)

// Provision builds the allowed sets once.
func (s *Scope) Provision(context.Context) error {
	s.table = detect.Actions()
	if s.Allow != nil {
		s.allowed = map[string]bool{detect.Read: true}
		for _, c := range *s.Allow {
			s.allowed[c] = true
		}
	}
	if s.Task != "" {
		s.fixed = s.table.Allowed(s.Task)
	}
	return nil
}

// Validate checks the categories and the choices.
func (s *Scope) Validate() error {
	known := s.table.Categories()
	if s.Allow != nil {
		for _, c := range *s.Allow {
			if !slices.Contains(known, c) {
				return fmt.Errorf("allow: unknown action category %q (known: %s)", c, strings.Join(known, ", "))
			}
		}
	}
	switch s.Unknown {
	case "", "allow", "reject":
	default:
		return fmt.Errorf("unknown: %q is not allow or reject", s.Unknown)
	}
	switch s.Action {
	case "", "reject", "halt":
	default:
		return fmt.Errorf("action: %q is not reject or halt", s.Action)
	}
	return nil
}

// CheckToolCall classifies the call and rejects it when its category lies outside the scope.
func (s *Scope) CheckToolCall(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	allowed, from := s.allowed, "the configured categories"
	if allowed == nil {
		switch {
		case c.Run.Scope != "":
			allowed, from = s.table.Allowed(c.Run.Scope), "the run's task"
		case s.fixed != nil:
			allowed, from = s.fixed, "the configured task"
		default:
			return warden.Decision{}, warden.NotApplicable("no scope: the run declares none and the config sets neither allow nor task")
		}
	}
	cats := s.table.Classify(c.Call.Name, c.Call.Arguments)
	if len(cats) == 0 {
		if s.Unknown == "reject" {
			return s.deny(CodeUnknownAction, fmt.Sprintf("tool '%s' takes an action no rule classifies, and unknown actions are not allowed", c.Call.Name)), nil
		}
		return warden.Allow(), nil
	}
	var outside []string
	for _, cat := range cats {
		if !allowed[cat] {
			outside = append(outside, strings.ReplaceAll(cat, "_", " "))
		}
	}
	if len(outside) == 0 {
		return warden.Allow(), nil
	}
	return s.deny(CodeOutOfScope, fmt.Sprintf("tool '%s' takes a %s action, outside the scope set by %s (allowed: %s)",
		c.Call.Name, strings.Join(outside, " and "), from, describe(allowed))), nil
}

func (s *Scope) deny(code, msg string) warden.Decision {
	if s.Action == "halt" {
		return warden.Halt(code, msg)
	}
	return warden.Reject(code, msg)
}

// describe lists the allowed categories in words, read first.
func describe(allowed map[string]bool) string {
	var out []string
	for c, ok := range allowed {
		if ok && c != detect.Read {
			out = append(out, strings.ReplaceAll(c, "_", " "))
		}
	}
	slices.Sort(out)
	return strings.Join(append([]string{"read"}, out...), ", ")
}
