// Package injection is the tool-result guardrail that withholds a tool's output when it carries a prompt
// injection: text that tells the model what to do (override its instructions, take on a role, send data
// somewhere), the indirect injection a web page, a file or an MCP server plants for the model to read. It
// runs the trace detector `injection` (package detect, docs/detectors.md) on the result alone, with the
// detector's calibrated threshold. It never quotes the result: its reason names the attack categories.
package injection

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/trace"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_result.injection",
		New:     func() any { return new(Injection) },
		Summary: "withholds a tool result that carries a prompt injection (the injection detector's attack categories)",
	})
}

// Injection withholds a tool result that carries a prompt injection.
type Injection struct {
	// Threshold is the detector's score at or above which a result is withheld, in (0, 1]. Default: the
	// injection detector's calibrated threshold (docs/detectors.md).
	Threshold float64 `yaml:"threshold" json:"threshold"`
	// Action is reject (default: the model reads the guardrail's message in place of the result and goes
	// on) or halt (the run ends).
	Action string `yaml:"action" json:"action"`

	detector detect.Detector
	halt     bool
}

var (
	_ warden.ToolResultGuardrail = (*Injection)(nil)
	_ warden.Provisioner         = (*Injection)(nil)
)

// Provision builds the detector and checks the settings.
func (g *Injection) Provision(ctx context.Context) error {
	var errs []error
	if g.Threshold == 0 {
		info, _ := detect.Describe("injection")
		g.Threshold = info.Threshold
	}
	if g.Threshold <= 0 || g.Threshold > 1 {
		errs = append(errs, fmt.Errorf("threshold: %g is not in (0, 1]", g.Threshold))
	}
	switch g.Action {
	case "", "reject":
	case "halt":
		g.halt = true
	default:
		errs = append(errs, fmt.Errorf("action: %q is not reject or halt", g.Action))
	}
	d, err := detect.New(ctx, "injection")
	if err != nil {
		errs = append(errs, err)
	}
	g.detector = d
	return errors.Join(errs...)
}

// CheckToolResult runs the detector on the result's content.
func (g *Injection) CheckToolResult(_ context.Context, c warden.ToolResultCheck) (warden.Decision, error) {
	if strings.TrimSpace(c.Result.Content) == "" {
		return warden.Allow(), nil
	}
	t := &trace.Trace{EventsRecorded: true, Events: []trace.Event{{Type: trace.ToolResult, Name: c.Result.Name, Content: c.Result.Content}}}
	r := g.detector.Detect(t)
	if !r.Detected || r.Score < g.Threshold {
		return warden.Allow(), nil
	}
	var rules []string
	for _, e := range r.Evidence {
		if e.Rule != "" && !slices.Contains(rules, e.Rule) {
			rules = append(rules, e.Rule)
		}
	}
	msg := "the result carries instructions to the model"
	if len(rules) > 0 {
		msg += " (" + strings.Join(rules, ", ") + ")"
	}
	if g.halt {
		return warden.Halt("injection.detected", msg), nil
	}
	return warden.Reject("injection.detected", msg), nil
}
