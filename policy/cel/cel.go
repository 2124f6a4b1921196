// Package cel is the CEL tool-call guardrail: rules written in the Common Expression Language over the
// tool call (tool.name, tool.id), its arguments (args) and who makes it (context.agent_id, context.user_id,
// context.thread_id, context.run_id, context.is_subagent, context.scope, context.attributes).
//
// Every expression is parsed and type-checked when the config loads (an error names the rule and the
// position in the expression) and must be boolean. Evaluation is bounded by a cost limit and honours
// cancellation. A rule that fails at run time (a missing argument key, say) is an error of the guardrail,
// which denies unless it is fail-open: guard optional keys with has(args.key).
package cel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/interpreter"
	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.cel",
		New:     func() any { return new(Rules) },
		Summary: "rules in CEL over the tool call, its arguments and its context",
	})
}

// Rules is the CEL guardrail's config and, once provisioned, the guardrail.
type Rules struct {
	// Rules are checked in order; the first whose when is true decides.
	Rules []Rule `yaml:"rules" json:"rules"`
	// Default is what happens when no rule matches: allow (default) or reject.
	Default string `yaml:"default" json:"default"`
	// DefaultCode and DefaultMessage are the reason of a default reject.
	DefaultCode    string `yaml:"default_code" json:"default_code"`
	DefaultMessage string `yaml:"default_message" json:"default_message"`
	// CostLimit bounds one rule's evaluation cost (CEL's cost units). Default 100000.
	CostLimit uint64 `yaml:"cost_limit" json:"cost_limit"`

	programs []cel.Program
	deflt    warden.Decision
}

// Rule is one CEL rule.
type Rule struct {
	// Name identifies the rule in decisions (policy id "cel/<name>") and errors. Required.
	Name string `yaml:"name" json:"name"`
	// When is a boolean CEL expression, e.g. tool.name == "bash" && args.command.contains("curl").
	When string `yaml:"when" json:"when"`
	// Action is reject (default), halt, allow (stops checking the later rules) or ask (the call waits for a
	// person's approval; the later rules are still checked, and a reject or halt among them wins).
	Action string `yaml:"action" json:"action"`
	// Code and Message are the decision's reason (Code required unless action is allow).
	Code    string `yaml:"code" json:"code"`
	Message string `yaml:"message" json:"message"`

	action warden.Action
}

var (
	_ warden.ToolCallGuardrail = (*Rules)(nil)
	_ warden.Provisioner       = (*Rules)(nil)
)

// newEnv declares the variables rules may use.
func newEnv() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("tool", cel.MapType(cel.StringType, cel.StringType)),
		cel.Variable("args", cel.DynType),
		cel.Variable("context", cel.MapType(cel.StringType, cel.DynType)),
	)
}

// Provision compiles and type-checks every rule once, and evaluates each against an empty call to catch
// what the type checker cannot.
func (r *Rules) Provision(context.Context) error {
	env, err := newEnv()
	if err != nil {
		return err
	}
	if r.CostLimit == 0 {
		r.CostLimit = 100000
	}
	var errs []string
	seen := map[string]bool{}
	for i := range r.Rules {
		rule := &r.Rules[i]
		where := fmt.Sprintf("rules[%d]", i)
		if rule.Name != "" {
			where += " (" + rule.Name + ")"
		}
		switch {
		case rule.Name == "":
			errs = append(errs, where+": name: required")
		case seen[rule.Name]:
			errs = append(errs, where+": name used twice")
		}
		seen[rule.Name] = true
		switch rule.Action {
		case "", "reject":
			rule.action = warden.ActionReject
		case "halt":
			rule.action = warden.ActionHalt
		case "allow":
			rule.action = warden.ActionAllow
		case "ask":
			rule.action = warden.ActionAsk
		default:
			errs = append(errs, fmt.Sprintf("%s: action: unknown %q (want reject, halt, allow or ask)", where, rule.Action))
		}
		if rule.Code == "" && rule.action != warden.ActionAllow {
			errs = append(errs, where+": code: required")
		}
		if strings.TrimSpace(rule.When) == "" {
			errs = append(errs, where+".when: required")
			continue
		}
		ast, iss := env.Compile(rule.When)
		if iss.Err() != nil {
			errs = append(errs, where+".when: "+strings.ReplaceAll(iss.String(), "<input>", "when"))
			continue
		}
		if ast.OutputType() != types.BoolType {
			errs = append(errs, fmt.Sprintf("%s.when: must be true or false, is %s", where, ast.OutputType()))
			continue
		}
		prg, err := env.Program(ast, cel.CostLimit(r.CostLimit), cel.InterruptCheckFrequency(100))
		if err != nil {
			errs = append(errs, where+".when: "+err.Error())
			continue
		}
		r.programs = append(r.programs, prg)
	}
	switch r.Default {
	case "", "allow":
		r.deflt = warden.Decision{Action: warden.ActionAllow}
	case "reject":
		code, msg := r.DefaultCode, r.DefaultMessage
		if code == "" {
			code = "warden.cel_default"
		}
		if msg == "" {
			msg = "no rule allows this call"
		}
		r.deflt = warden.Decision{Action: warden.ActionReject, Reasons: []warden.Reason{{Code: code, Message: msg}}, PolicyID: "cel/default"}
	default:
		errs = append(errs, fmt.Sprintf("default: unknown %q (want allow or reject)", r.Default))
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// CheckToolCall evaluates the rules in order; the first that holds decides, except that an ask goes on to
// the later rules: a reject or halt among them wins; an allow, or no other match whatever the default,
// leaves the ask standing.
func (r *Rules) CheckToolCall(ctx context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	vars := &activation{c: &c}
	var asked *warden.Decision
	for i, prg := range r.programs {
		rule := &r.Rules[i]
		out, _, err := prg.ContextEval(ctx, vars)
		if vars.argsErr != nil {
			return warden.Decision{}, vars.argsErr
		}
		if err != nil {
			return warden.Decision{}, fmt.Errorf("rule %q: %v", rule.Name, err)
		}
		if out != types.True {
			continue
		}
		d := warden.Decision{Action: rule.action, PolicyID: "cel/" + rule.Name}
		if rule.action != warden.ActionAllow {
			msg := rule.Message
			if msg == "" {
				msg = "denied by rule " + rule.Name
				if rule.action == warden.ActionAsk {
					msg = "rule " + rule.Name + " asks for a person's approval"
				}
			}
			d.Reasons = []warden.Reason{{Code: rule.Code, Message: msg}}
		}
		switch {
		case rule.action == warden.ActionAsk:
			if asked == nil {
				asked = &d
			}
			continue
		case asked != nil && rule.action == warden.ActionAllow:
			return *asked, nil
		}
		return d, nil
	}
	if asked != nil { // a rule written for the call outranks the default for calls no rule names
		return *asked, nil
	}
	return r.deflt, nil
}

// activation gives rules their variables, each built only when an expression asks for it: most rules never
// read the arguments, and decoding them is the most expensive part of a call.
type activation struct {
	c       *warden.ToolCallCheck
	args    any
	argsErr error
	decoded bool
}

var _ interpreter.Activation = (*activation)(nil)

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "tool":
		return map[string]string{"name": a.c.Call.Name, "id": a.c.Call.ID}, true
	case "args":
		if !a.decoded {
			a.decoded = true
			a.args = map[string]any{}
			if len(a.c.Call.Arguments) > 0 {
				if err := json.Unmarshal(a.c.Call.Arguments, &a.args); err != nil {
					a.argsErr = errors.New("arguments are not JSON")
				}
			}
		}
		return a.args, true
	case "context":
		run := &a.c.Run
		attrs := make(map[string]any, len(run.Attributes))
		for k, v := range run.Attributes {
			attrs[k] = v
		}
		return map[string]any{
			"agent_id": run.AgentID, "passport": run.Passport, "user_id": run.UserID, "thread_id": run.ThreadID,
			"run_id": run.RunID, "is_subagent": run.IsSubagent, "scope": run.Scope, "attributes": attrs,
		}, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }
