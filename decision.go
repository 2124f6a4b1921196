package warden

import (
	"fmt"
	"strings"
)

// Action is what a guardrail decides. The zero value is ActionUnset, which the engine treats as an error
// (and so denies): a guardrail that forgets to decide never allows by accident.
type Action uint8

// Actions, from least to most severe.
const (
	ActionUnset Action = iota
	// ActionAllow lets the subject through unchanged.
	ActionAllow
	// ActionModify lets a replacement through; Decision.Replacement holds it.
	ActionModify
	// ActionRetry sends feedback to the model and asks for a new answer (stream self-correction).
	ActionRetry
	// ActionAsk holds a tool call until a person approves it: the call does not run now. With approvals
	// configured (Spec.Approvals) the engine resolves it: a call a person approved passes once, one a
	// person denied is rejected, any other is filed as a pending approval request (Outcome.Approval).
	ActionAsk
	// ActionReject withholds the subject and tells the model why, so it can adapt; the run goes on.
	ActionReject
	// ActionHalt is a tripwire: the run ends with a *TripwireError.
	ActionHalt
)

var actionNames = [...]string{ActionUnset: "unset", ActionAllow: "allow", ActionModify: "modify", ActionRetry: "retry", ActionAsk: "ask", ActionReject: "reject", ActionHalt: "halt"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// MarshalText encodes the action by name.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText decodes an action name.
func (a *Action) UnmarshalText(b []byte) error {
	for i, n := range actionNames {
		if n == string(b) && i != int(ActionUnset) {
			*a = Action(i)
			return nil
		}
	}
	return fmt.Errorf("unknown action %q (want allow, modify, retry, ask, reject or halt)", b)
}

// Blocks reports whether the action stops the subject from going through as it was (ask, reject or halt).
func (a Action) Blocks() bool { return a == ActionAsk || a == ActionReject || a == ActionHalt }

// Reason explains a decision. Code is a namespaced label (oap.* where the Open Agent Passport defines one,
// warden.* for Warden's own); Message is for the model or the operator.
//
// Messages are recorded in audit events, so a guardrail must not quote the content it filtered in them.
type Reason struct {
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
}

// Decision is the one verdict type of every stage.
type Decision struct {
	Action  Action
	Reasons []Reason
	// Replacement is the modified subject of a modify decision: the stage's own value type
	// ([]Message at input, Response at response, ToolCall at tool_call, ToolResult at tool_result,
	// Message at output, Part at stream). Any other type is an error.
	Replacement any
	// Guardrail is the configured name of the guardrail that decided; the engine fills it in.
	Guardrail string
	// PolicyID identifies the policy (and version) that decided, where the guardrail has one.
	PolicyID string
	// Metadata carries provider-specific detail (OAP decision id, passport digest, …). It is returned to
	// callers but never written to audit events, because a provider may put content in it.
	Metadata map[string]string
}

// Allow returns an allow decision.
func Allow() Decision { return Decision{Action: ActionAllow} }

// Modify returns a decision that lets replacement through instead of the subject.
func Modify(replacement any, reasons ...Reason) Decision {
	return Decision{Action: ActionModify, Replacement: replacement, Reasons: reasons}
}

// Reject returns a decision that withholds the subject and tells the model why.
func Reject(code, message string) Decision {
	return Decision{Action: ActionReject, Reasons: []Reason{{Code: code, Message: message}}}
}

// Halt returns a tripwire decision: the run ends.
func Halt(code, message string) Decision {
	return Decision{Action: ActionHalt, Reasons: []Reason{{Code: code, Message: message}}}
}

// Ask returns a decision that holds a tool call until a person approves it; the message says why it needs
// approval, for the person deciding and for the model.
func Ask(code, message string) Decision {
	return Decision{Action: ActionAsk, Reasons: []Reason{{Code: code, Message: message}}}
}

// Retry returns a decision that asks the model to try again; feedback, the first reason's message, is
// what the model is told.
func Retry(code, feedback string) Decision {
	return Decision{Action: ActionRetry, Reasons: []Reason{{Code: code, Message: feedback}}}
}

// Feedback returns what a retry tells the model: the first reason's message.
func (d Decision) Feedback() string {
	if len(d.Reasons) == 0 {
		return ""
	}
	return d.Reasons[0].Message
}

// FirstReason returns the first reason, with the fallbacks of seed 001 when there is none:
// code "oap.denied" and message "blocked by guardrail policy".
func (d Decision) FirstReason() Reason {
	if len(d.Reasons) == 0 {
		return Reason{Code: CodeDenied, Message: "blocked by guardrail policy"}
	}
	return d.Reasons[0]
}

// Reason codes Warden itself uses. Codes a guardrail returns are its own.
const (
	// CodeDenied is the fallback code of a deny without reasons (seed 001).
	CodeDenied = "oap.denied"
	// CodeEvaluatorError is recorded when a tool-call guardrail errors (seed 001's provider error).
	CodeEvaluatorError = "oap.evaluator_error"
	// CodeGuardrailError is recorded when a guardrail at any other stage errors, times out or panics.
	CodeGuardrailError = "warden.guardrail_error"
	// CodeIncompleteToolCall denies a call whose arguments were cut off or do not parse.
	CodeIncompleteToolCall = "warden.incomplete_tool_call"
)

// DenyMessage returns the exact text the model sees when a tool call is rejected (seed 001):
//
//	Guardrail denied: tool '{name}' was blocked ({code}). Reason: {message}. Choose an alternative approach.
//
// Only the first reason is shown; without reasons the code is "oap.denied" and the message
// "blocked by guardrail policy". An empty reason message yields "Reason: ." as in the seed.
func DenyMessage(toolName string, d Decision) string {
	r := d.FirstReason()
	var b strings.Builder
	b.Grow(96 + len(toolName) + len(r.Code) + len(r.Message))
	b.WriteString("Guardrail denied: tool '")
	b.WriteString(toolName)
	b.WriteString("' was blocked (")
	b.WriteString(r.Code)
	b.WriteString("). Reason: ")
	b.WriteString(r.Message)
	b.WriteString(". Choose an alternative approach.")
	return b.String()
}
