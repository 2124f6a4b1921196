package warden

import (
	"errors"
	"fmt"
)

// TripwireError ends a run: a guardrail halted it (or errored while failing closed at a stage where deny
// means halt). Use errors.As to get it from any method of Engine or Run.
type TripwireError struct {
	Stage     Stage
	Guardrail string
	Decision  Decision
	// Results holds every evaluation known when the run halted, in the order the stages ran and, within a
	// stage, in definition order, including the one that halted.
	Results []Evaluation
	// cause is the guardrail's own error when it halted by failing closed.
	cause error
}

func (e *TripwireError) Error() string {
	r := e.Decision.FirstReason()
	return fmt.Sprintf("warden: %s guardrail %q halted the run (%s): %s", e.Stage, e.Guardrail, r.Code, r.Message)
}

// Unwrap returns the guardrail's error when the halt came from a failure (timeout, panic, error).
func (e *TripwireError) Unwrap() error { return e.cause }

// ErrNoAction is recorded when a guardrail returns a decision without an action.
var ErrNoAction = errors.New("guardrail returned a decision with no action")

// ErrTimeout is recorded when a guardrail does not answer within its timeout.
var ErrTimeout = errors.New("guardrail timed out")

// PanicError is recorded when a guardrail panics. The engine recovers it and confines it to that guardrail.
type PanicError struct {
	Value any
}

func (e *PanicError) Error() string { return fmt.Sprintf("guardrail panicked: %v", e.Value) }

// InvalidDecisionError is recorded when a guardrail returns an action its stage does not accept, or a
// modify decision whose replacement is not the stage's value type.
type InvalidDecisionError struct {
	Stage  Stage
	Action Action
	Why    string
}

func (e *InvalidDecisionError) Error() string {
	return fmt.Sprintf("%s at stage %s: %s", e.Action, e.Stage, e.Why)
}

// notApplicable is the error a guardrail returns to say it does not apply to a subject.
type notApplicable struct{ why string }

func (e *notApplicable) Error() string { return "not applicable: " + e.why }

// NotApplicable returns the error a guardrail returns, in place of a decision, when it does not apply to the
// subject (like filepath.SkipDir): the engine records the guardrail as skipped with why, and goes on. why is
// recorded in audit, so it must not quote the subject.
func NotApplicable(why string) error { return &notApplicable{why: why} }

// ToolCallErrorKind says what went wrong with a tool call the model made.
type ToolCallErrorKind uint8

// Tool-call error kinds, which the surfaces and SDK adapters map their own errors onto.
const (
	// ToolChoiceNone: the model called a tool when none was allowed.
	ToolChoiceNone ToolCallErrorKind = iota + 1
	// NoSuchTool: the model called a tool that was not offered.
	NoSuchTool
	// InvalidArguments: the arguments are not valid JSON.
	InvalidArguments
	// SchemaMismatch: the arguments do not match the tool's schema.
	SchemaMismatch
	// MalformedCall: the provider could not produce the call at all (a failed generation).
	MalformedCall
	// MalformedResponse: the response as a whole did not parse in the format asked for.
	MalformedResponse
)

// ToolCallError is a typed stream error about a model's tool call, so that error recovery matches on the
// kind rather than on a provider's wording.
type ToolCallError struct {
	Kind ToolCallErrorKind
	// Tool is the tool the model named, when known.
	Tool string
	// Detail is the provider's or validator's explanation (schema errors, say).
	Detail string
}

func (e *ToolCallError) Error() string {
	kinds := [...]string{ToolChoiceNone: "tool choice is none", NoSuchTool: "no such tool", InvalidArguments: "invalid JSON arguments",
		SchemaMismatch: "arguments do not match the schema", MalformedCall: "malformed tool call", MalformedResponse: "malformed response"}
	k := "tool call error"
	if int(e.Kind) < len(kinds) && kinds[e.Kind] != "" {
		k = kinds[e.Kind]
	}
	if e.Tool != "" {
		k += " (tool " + e.Tool + ")"
	}
	if e.Detail != "" {
		k += ": " + e.Detail
	}
	return k
}
