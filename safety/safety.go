// Package safety handles provider safety stops (seed 000): when a provider stops generation for safety and
// the response still carries tool calls, those calls may be truncated and must not run; the turn is
// interrupted output, not tool intent.
//
// The response guardrail (use: safety, stage response) runs the detectors in order (the first hit wins; a
// detector that panics is skipped) and, on a hit with tool calls or with blank content, clears every tool
// call (incomplete ones too), keeps the partial text and the provider's real finish reason, and appends the
// seed's explanation. A hit on a response with text and no tool calls changes nothing but is recorded. After a
// length stop, tool calls whose arguments were cut off are removed the same way, with their own code.
//
// It reads the turn model only; the wire codecs put each provider's signals into Response.Signals.
package safety

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.response.safety",
		New:     func() any { return new(Guardrail) },
		Summary: "treats a provider safety stop as interrupted output: its tool calls never run",
	})
}

// Reason codes.
const (
	// CodeSafetyStop: the provider stopped for safety; what was suppressed is in the message.
	CodeSafetyStop = "warden.safety_stop"
	// CodeTruncatedToolCall: a length stop cut a tool call's arguments off; the call was removed.
	CodeTruncatedToolCall = "warden.truncated_tool_call"
)

// Guardrail is the safety-stop guardrail's config and, once provisioned, the guardrail.
type Guardrail struct {
	// Enabled turns the guardrail on. Default true. (mode: off has the same effect and is recorded.)
	Enabled *bool `yaml:"enabled" json:"enabled"`
	// Detectors replaces the default detector list, in order; absent means the defaults. An empty list is an
	// error: write enabled: false to turn detection off.
	Detectors *[]DetectorConfig `yaml:"detectors" json:"detectors"`
	// APIErrors says what happens to an upstream error the detectors recognise as a safety error (see
	// ErrorResponse): pass (default) passes the error to the client unchanged, recorded; as_message answers an
	// assistant message with the explanation instead.
	APIErrors string `yaml:"api_errors" json:"api_errors"`

	detectors []NamedDetector
	byField   map[string][]int // see indexFields
	always    []int
}

// DetectorConfig names a registered detector and, optionally, the values it matches instead of its defaults.
type DetectorConfig struct {
	Use    string   `yaml:"use" json:"use"`
	Values []string `yaml:"values" json:"values"`
}

var (
	_ warden.ResponseGuardrail = (*Guardrail)(nil)
	_ warden.Provisioner       = (*Guardrail)(nil)
)

// Provision builds the detector list.
func (g *Guardrail) Provision(context.Context) error {
	switch g.APIErrors {
	case "", "pass", "as_message":
	default:
		return fmt.Errorf("api_errors: unknown %q (want pass or as_message)", g.APIErrors)
	}
	if g.Detectors == nil {
		g.detectors = DefaultDetectors()
		g.indexFields()
		return nil
	}
	if len(*g.Detectors) == 0 {
		return errors.New("detectors: an empty list would detect nothing; to turn safety-stop handling off write enabled: false")
	}
	for i, dc := range *g.Detectors {
		info, ok := lookupDetector(dc.Use)
		if !ok {
			return fmt.Errorf("detectors[%d]: unknown detector %q (registered: %s)", i, dc.Use, strings.Join(detectorNames(), ", "))
		}
		d, ok := info.New().(Detector)
		if !ok {
			return fmt.Errorf("detectors[%d]: %q is not a safety detector", i, dc.Use)
		}
		if fd, ok := d.(*FieldDetector); ok && dc.Values != nil {
			fd.Values = dc.Values
		}
		g.detectors = append(g.detectors, NamedDetector{Name: dc.Use, Detector: d})
	}
	g.indexFields()
	return nil
}

// indexFields maps each signal field to the positions of the detectors that read it (those that say so, see
// FieldReader), so that a response is checked only by the detectors whose fields it carries; detectors that
// do not say which fields they read are asked for every response, in their place in the order.
func (g *Guardrail) indexFields() {
	g.byField, g.always = map[string][]int{}, nil
	for i, nd := range g.detectors {
		fr, ok := nd.Detector.(FieldReader)
		if !ok {
			g.always = append(g.always, i)
			continue
		}
		for _, f := range fr.Fields() {
			if l := g.byField[f]; len(l) == 0 || l[len(l)-1] != i {
				g.byField[f] = append(g.byField[f], i)
			}
		}
	}
}

func lookupDetector(name string) (warden.ModuleInfo, bool) {
	return warden.LookupModule(DetectorModuleID(name))
}

func detectorNames() []string { return warden.ModuleNames("safety.detector.") }

// CheckResponse applies the safety-stop handling to one response.
func (g *Guardrail) CheckResponse(_ context.Context, c warden.ResponseCheck) (warden.Decision, error) {
	if g.Enabled != nil && !*g.Enabled {
		return warden.Decision{}, warden.NotApplicable("safety-stop handling is disabled (enabled: false)")
	}
	r := &c.Response
	if r.Message.Role != "" && r.Message.Role != warden.RoleAssistant {
		return warden.Decision{}, warden.NotApplicable("not an assistant message")
	}
	if t, ok := g.detect(r); ok {
		d := Apply(*r, t)
		if r.FinishReason == warden.FinishError && g.APIErrors != "as_message" {
			// An API-layer safety error: recorded, and passed to the client as it came.
			d.Action, d.Replacement = warden.ActionAllow, nil
		}
		return d, nil
	}
	if r.FinishReason == warden.FinishLength {
		return suppressTruncated(*r), nil
	}
	return warden.Allow(), nil
}

// detect asks, in list order, the detectors that read a field the response carries and those that do not
// say which fields they read; the first hit wins. A detector that panics is skipped, as the seed requires.
func (g *Guardrail) detect(r *warden.Response) (Termination, bool) {
	next := 0 // detectors before next have been asked or cannot fire
	for {
		best := -1
		for _, i := range g.always {
			if i >= next {
				best = i
				break
			}
		}
		best = g.firstReading(r.Signal, next, best)
		for _, s := range r.Signals {
			best = g.firstReading(s, next, best)
		}
		if best < 0 {
			return Termination{}, false
		}
		if t, ok := g.ask(best, r); ok {
			return t, true
		}
		next = best + 1
	}
}

// firstReading returns the first position at or after next, and before best when best ≥ 0, of a detector
// that reads s's field; best if there is none.
func (g *Guardrail) firstReading(s warden.Signal, next, best int) int {
	if s.Value == "" {
		return best
	}
	for _, i := range g.byField[s.Field] {
		if i >= next && (best < 0 || i < best) {
			return i
		}
	}
	return best
}

// ask runs one detector, recovering from its panic.
func (g *Guardrail) ask(i int, r *warden.Response) (t Termination, ok bool) {
	defer func() {
		if recover() != nil {
			t, ok = Termination{}, false
		}
	}()
	nd := &g.detectors[i]
	switch d := nd.Detector.(type) {
	case *FieldDetector:
		t, ok = d.Detect(r) // a direct call: the response does not escape to the heap on the common path
	default:
		rc := *r // another detector gets a copy: through an interface, its pointer escapes
		t, ok = d.Detect(&rc)
	}
	if ok && t.Detector == "" {
		t.Detector = nd.Name
	}
	return t, ok
}

// Explanation texts, exactly as seed 000 gives them.
const (
	explainSuppressed = "The model provider stopped this response with a safety-related signal (%s='%s', detector='%s'). Any tool calls produced in this turn were suppressed because their arguments may be truncated and unsafe to execute. Please rephrase the request or ask for a narrower output."
	explainBlank      = "The model provider stopped this response with a safety-related signal (%s='%s', detector='%s') and returned no content. Please rephrase your request or start a new conversation."
	explainTruncated  = "The model reached its output length limit while writing tool calls; %d call(s) whose arguments were cut off were suppressed. Please ask for a smaller step."
)

// Apply rewrites a response after a safety stop t: with tool calls or blank content, the calls are cleared,
// the text kept, the explanation appended; otherwise the response passes unchanged. Either way the decision
// names the stop, so it is recorded.
func Apply(r warden.Response, t Termination) warden.Decision {
	calls := r.Message.ToolCalls
	blank := strings.TrimSpace(r.Message.Text()) == ""
	names, ids := callNames(calls)
	msg := fmt.Sprintf("the provider stopped for safety (%s='%s', detector='%s'); suppressed %d tool call(s)%s", t.Field, t.Value, t.Detector, len(calls), list(names, ids))
	reason := warden.Reason{Code: CodeSafetyStop, Message: msg}
	meta := map[string]string{"detector": t.Detector, "reason_field": t.Field, "reason_value": t.Value,
		"suppressed_tool_call_count": fmt.Sprint(len(calls)), "suppressed_tool_call_names": strings.Join(names, ","),
		"suppressed_tool_call_ids": strings.Join(ids, ","), "stop_reason": "safety_capped"}
	if len(calls) == 0 && !blank {
		return warden.Decision{Action: warden.ActionAllow, Reasons: []warden.Reason{reason}, Metadata: meta}
	}
	text := fmt.Sprintf(explainBlank, t.Field, t.Value, t.Detector)
	if len(calls) > 0 {
		text = fmt.Sprintf(explainSuppressed, t.Field, t.Value, t.Detector)
	}
	out := r
	out.Message.ToolCalls = nil
	out.Message.Content = appendExplanation(r.Message.Content, text)
	return warden.Decision{Action: warden.ActionModify, Replacement: out, Reasons: []warden.Reason{reason}, Metadata: meta}
}

// suppressTruncated removes, after a length stop, the tool calls whose arguments were cut off.
func suppressTruncated(r warden.Response) warden.Decision {
	var keep, cut []warden.ToolCall
	for _, c := range r.Message.ToolCalls {
		if c.Complete {
			keep = append(keep, c)
		} else {
			cut = append(cut, c)
		}
	}
	if len(cut) == 0 {
		return warden.Allow()
	}
	names, ids := callNames(cut)
	out := r
	out.Message.ToolCalls = keep
	out.Message.Content = appendExplanation(r.Message.Content, fmt.Sprintf(explainTruncated, len(cut)))
	reason := warden.Reason{Code: CodeTruncatedToolCall, Message: fmt.Sprintf("a length stop cut off %d tool call(s)%s", len(cut), list(names, ids))}
	return warden.Decision{Action: warden.ActionModify, Replacement: out, Reasons: []warden.Reason{reason},
		Metadata: map[string]string{"suppressed_tool_call_count": fmt.Sprint(len(cut)), "suppressed_tool_call_names": strings.Join(names, ","), "suppressed_tool_call_ids": strings.Join(ids, ",")}}
}

// appendExplanation adds the explanation after the content: as the whole content when there is none, else
// as a new text part after a blank line. Existing parts (reasoning too) are kept.
func appendExplanation(content []warden.ContentPart, text string) []warden.ContentPart {
	if len(content) == 0 || len(content) == 1 && content[0].Kind == warden.ContentText && content[0].Text == "" {
		return []warden.ContentPart{{Kind: warden.ContentText, Text: text}}
	}
	out := make([]warden.ContentPart, len(content), len(content)+1)
	copy(out, content)
	return append(out, warden.ContentPart{Kind: warden.ContentText, Text: "\n\n" + text})
}

// callNames lists the calls' names ("unknown" when empty) and their non-empty ids, never their arguments.
func callNames(calls []warden.ToolCall) (names, ids []string) {
	for _, c := range calls {
		n := c.Name
		if n == "" {
			n = "unknown"
		}
		names = append(names, n)
		if c.ID != "" {
			ids = append(ids, c.ID)
		}
	}
	return names, ids
}

func list(names, ids []string) string {
	if len(names) == 0 {
		return ""
	}
	s := ": " + strings.Join(names, ", ")
	if len(ids) > 0 {
		s += " (ids " + strings.Join(ids, ", ") + ")"
	}
	return s
}

// Stopped reports whether a response stage's evaluations include a provider safety stop this package found:
// what the end-user ledger counts. A monitored safety guardrail counts too; the provider stopped either way.
func Stopped(evs []warden.Evaluation) bool {
	for _, ev := range evs {
		if ev.Status != warden.StatusEvaluated {
			continue
		}
		for _, r := range ev.Decision.Reasons {
			if r.Code == CodeSafetyStop {
				return true
			}
		}
	}
	return false
}
