package warden

import (
	"context"
	"fmt"
	"time"
)

// Stage is a point in the turn where guardrails run.
type Stage uint8

// The stages, in the order a turn passes them.
const (
	StageInput Stage = iota + 1
	StageResponse
	StageToolCall
	StageToolResult
	StageOutput
	StageStream
)

// Stages lists every stage in turn order.
var Stages = []Stage{StageInput, StageResponse, StageToolCall, StageToolResult, StageOutput, StageStream}

var stageNames = [...]string{StageInput: "input", StageResponse: "response", StageToolCall: "tool_call", StageToolResult: "tool_result", StageOutput: "output", StageStream: "stream"}

func (s Stage) String() string {
	if int(s) < len(stageNames) && stageNames[s] != "" {
		return stageNames[s]
	}
	return fmt.Sprintf("stage(%d)", uint8(s))
}

// MarshalText encodes the stage by name.
func (s Stage) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseStage returns the stage with the given config name.
func ParseStage(name string) (Stage, error) {
	for _, s := range Stages {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown stage %q (want input, response, tool_call, tool_result, output or stream)", name)
}

// accepts reports whether a stage accepts an action from a guardrail.
func (s Stage) accepts(a Action) bool {
	switch a {
	case ActionAllow, ActionModify, ActionHalt:
		return true
	case ActionReject:
		return s == StageToolCall || s == StageToolResult
	case ActionAsk:
		return s == StageToolCall
	case ActionRetry:
		return s == StageResponse || s == StageStream
	}
	return false
}

// RunInfo says who and what a run is for: what a policy needs beyond the subject itself.
type RunInfo struct {
	// AgentID identifies the agent; with OAP it is the passport's agent id.
	AgentID string
	// Passport references the agent's passport (a file path or a hosted id), where one is used.
	Passport string
	ThreadID string
	RunID    string
	// UserID is the end user the agent acts for. It is not written to audit events.
	UserID string
	// Credential identifies the credential the caller presented (the gateway puts a digest of the API key
	// here, never the key), so that a run without a named user still belongs to someone.
	Credential string
	// IsSubagent is true when a subagent, not the lead agent, makes the call.
	IsSubagent bool
	// Scope is the task the agent was given, as declared by the caller.
	Scope string
	// Attributes carries further attribution (roles, tenant, …) for policies that use it.
	Attributes map[string]string
}

// Principal names who a run acts for, for what binds to a person: approvals, budgets, rate limits. It is
// the end user when one is named, else the credential, else the agent, each with its kind as a prefix
// ("user:", "key:", "agent:") so that a user and a key of the same name stay apart; empty when the run
// names none of them. An end user named beside a credential is that credential's user ("key:K/user:U"):
// the user id is the caller's word, so another key naming the same user is another principal.
func (r RunInfo) Principal() string {
	switch {
	case r.UserID != "" && r.Credential != "":
		return "key:" + r.Credential + "/user:" + r.UserID
	case r.UserID != "":
		return "user:" + r.UserID
	case r.Credential != "":
		return "key:" + r.Credential
	case r.AgentID != "":
		return "agent:" + r.AgentID
	}
	return ""
}

// InputCheck is the subject of the input stage: the new input of a run.
type InputCheck struct {
	Run      RunInfo
	Messages []Message
}

// ResponseCheck is the subject of the response stage: one model response, before its tool calls run.
type ResponseCheck struct {
	Run      RunInfo
	Response Response
}

// ToolCallCheck is the subject of the tool-call stage: one call, before it runs.
type ToolCallCheck struct {
	Run  RunInfo
	Call ToolCall
	// Time is when the call is evaluated; the engine sets it when zero.
	Time time.Time
}

// ToolResultCheck is the subject of the tool-result stage: what a tool returned, before the model sees it.
type ToolResultCheck struct {
	Run    RunInfo
	Call   ToolCall
	Result ToolResult
}

// OutputCheck is the subject of the output stage: the run's final output.
type OutputCheck struct {
	Run    RunInfo
	Output Message
}

// PartCheck is the subject of the stream stage: one part and the text around it. The stream runner fills it.
type PartCheck struct {
	Run  RunInfo
	Part Part
	// Released is the text already sent to the client in this response.
	Released string
	// Pending is the text held back and not yet released, which ends with this part's text.
	Pending string
	// Tools names the tools offered to the model in this request.
	Tools []string
	// Skills are the skills the agent offers (instructions the model reads, not tools it calls).
	Skills []Skill
}

// Skill is a set of instructions an agent offers the model: it is read, not called.
type Skill struct {
	Name        string
	Description string
	// Path is where the model's file tools find the skill's instructions (its SKILL.md).
	Path string
}

// InputGuardrail checks a run's input before (blocking) or while (parallel) the model is called.
type InputGuardrail interface {
	CheckInput(ctx context.Context, c InputCheck) (Decision, error)
}

// ResponseGuardrail checks a whole model response, for example for a provider safety stop.
type ResponseGuardrail interface {
	CheckResponse(ctx context.Context, c ResponseCheck) (Decision, error)
}

// ToolCallGuardrail authorizes one tool call before it runs.
type ToolCallGuardrail interface {
	CheckToolCall(ctx context.Context, c ToolCallCheck) (Decision, error)
}

// ToolDenier is an optional ability of a tool-call guardrail: from a tool's name alone, it says that the
// guardrail denies every call of that tool, whatever the arguments. Surfaces that list tools to a model
// (the MCP proxy's tools/list) hide such tools; their calls stay denied by CheckToolCall whatever a client
// knows of them. A guardrail without it is never taken to deny a tool outright.
type ToolDenier interface {
	DeniesTool(name string) bool
}

// ToolResultGuardrail checks a tool's result before the model sees it.
type ToolResultGuardrail interface {
	CheckToolResult(ctx context.Context, c ToolResultCheck) (Decision, error)
}

// OutputGuardrail checks a run's final output.
type OutputGuardrail interface {
	CheckOutput(ctx context.Context, c OutputCheck) (Decision, error)
}

// StreamGuardrail checks one part of a model's output stream. For a text part, Part.Text is the newest delta
// and PartCheck.Pending is all the text not yet released, ending with it; a guardrail that changes text
// returns Modify(Part{Kind: PartText, Text: <the new pending text>}), and the guardrails after it see that
// text as both Part.Text and Pending. Retry asks the stream runner for a self-correction with the reason's
// message as feedback; Halt stops the stream.
type StreamGuardrail interface {
	CheckPart(ctx context.Context, c PartCheck) (Decision, error)
}

// StreamHoldback is optional for stream guardrails: how many bytes at the end of the pending text the
// guardrail must see more of before they may be released — the start of a pattern the next delta may
// complete (a fixed look-behind), everything after the last sentence end, or all of it (a judge of the
// whole response). Text is released only when every enforcing guardrail has let it go. A guardrail without
// it, or in monitor mode, never delays text: it still sees each delta before it is released.
type StreamHoldback interface {
	Holdback(pending string) int
}

// TextGate is how a surface that keeps a provider stream's own encoding runs the stream guardrails on the
// stream's text (stream.Gate is one): it hands over each text delta as it arrives and writes, in place of
// that delta, the text Text returns — none while a guardrail holds it back, more than the delta when held
// text is let go, a rewrite when a guardrail changed it. Finish marks the end of a run of text (a content
// block's end, the response's finish): the guardrails see all that is pending, and it returns the rest to
// write. An error ends the stream: a *TripwireError for a halt, another error (stream.RetryError) for a
// guardrail that asks the model to try again. A TextGate serves one response and is not safe for
// concurrent use.
type TextGate interface {
	Text(delta string) (string, error)
	Finish(end Part) (string, error)
}

// InputGuardrailFunc adapts a function to InputGuardrail.
type InputGuardrailFunc func(ctx context.Context, c InputCheck) (Decision, error)

// CheckInput calls f.
func (f InputGuardrailFunc) CheckInput(ctx context.Context, c InputCheck) (Decision, error) {
	return f(ctx, c)
}

// ResponseGuardrailFunc adapts a function to ResponseGuardrail.
type ResponseGuardrailFunc func(ctx context.Context, c ResponseCheck) (Decision, error)

// CheckResponse calls f.
func (f ResponseGuardrailFunc) CheckResponse(ctx context.Context, c ResponseCheck) (Decision, error) {
	return f(ctx, c)
}

// ToolCallGuardrailFunc adapts a function to ToolCallGuardrail.
type ToolCallGuardrailFunc func(ctx context.Context, c ToolCallCheck) (Decision, error)

// CheckToolCall calls f.
func (f ToolCallGuardrailFunc) CheckToolCall(ctx context.Context, c ToolCallCheck) (Decision, error) {
	return f(ctx, c)
}

// ToolResultGuardrailFunc adapts a function to ToolResultGuardrail.
type ToolResultGuardrailFunc func(ctx context.Context, c ToolResultCheck) (Decision, error)

// CheckToolResult calls f.
func (f ToolResultGuardrailFunc) CheckToolResult(ctx context.Context, c ToolResultCheck) (Decision, error) {
	return f(ctx, c)
}

// OutputGuardrailFunc adapts a function to OutputGuardrail.
type OutputGuardrailFunc func(ctx context.Context, c OutputCheck) (Decision, error)

// CheckOutput calls f.
func (f OutputGuardrailFunc) CheckOutput(ctx context.Context, c OutputCheck) (Decision, error) {
	return f(ctx, c)
}

// StreamGuardrailFunc adapts a function to StreamGuardrail.
type StreamGuardrailFunc func(ctx context.Context, c PartCheck) (Decision, error)

// CheckPart calls f.
func (f StreamGuardrailFunc) CheckPart(ctx context.Context, c PartCheck) (Decision, error) {
	return f(ctx, c)
}

var (
	_ InputGuardrail      = InputGuardrailFunc(nil)
	_ ResponseGuardrail   = ResponseGuardrailFunc(nil)
	_ ToolCallGuardrail   = ToolCallGuardrailFunc(nil)
	_ ToolResultGuardrail = ToolResultGuardrailFunc(nil)
	_ OutputGuardrail     = OutputGuardrailFunc(nil)
	_ StreamGuardrail     = StreamGuardrailFunc(nil)
)
