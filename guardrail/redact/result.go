package redact

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_result.redact",
		New:     func() any { return new(ResultRedact) },
		Summary: "replaces personal data and secrets in a tool's result with typed placeholders, or withholds the result",
	})
}

// ResultRedact replaces personal data and secrets in a tool's result before the model reads it (a key in
// a file the agent opened, a customer's card number in a query's rows), or withholds the result.
type ResultRedact struct {
	// Types lists what to redact; empty means every type (see the stream redact guardrail).
	Types []string `yaml:"types" json:"types"`
	// Placeholder is what replaces a match; {type} stands for the type in capitals. Default "[{type}]".
	Placeholder string `yaml:"placeholder" json:"placeholder"`
	// Action is redact (default: the model reads the result with each match replaced) or reject (the
	// model reads that the result was withheld, and why).
	Action string `yaml:"action" json:"action"`

	r      *Redact
	reject bool
}

var (
	_ warden.ToolResultGuardrail = (*ResultRedact)(nil)
	_ warden.Provisioner         = (*ResultRedact)(nil)
)

// Provision selects the detectors.
func (g *ResultRedact) Provision(ctx context.Context) error {
	switch g.Action {
	case "", "redact":
	case "reject":
		g.reject = true
	default:
		return fmt.Errorf("action: %q is not redact or reject", g.Action)
	}
	g.r = &Redact{Types: g.Types, Placeholder: g.Placeholder}
	return g.r.Provision(ctx)
}

// CheckToolResult redacts or withholds a result holding matches; the reason names the types, never the
// matched text.
func (g *ResultRedact) CheckToolResult(_ context.Context, c warden.ToolResultCheck) (warden.Decision, error) {
	text, found, _ := g.r.pass(c.Result.Content, true)
	if len(found) == 0 {
		return warden.Allow(), nil
	}
	if g.reject {
		return warden.Reject("redact.withheld", "the result holds "+strings.Join(found, ", ")), nil
	}
	r := c.Result
	r.Content = text
	return warden.Modify(r, warden.Reason{Code: "redact.redacted", Message: "redacted " + strings.Join(found, ", ")}), nil
}
