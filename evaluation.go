package warden

import (
	"fmt"
	"time"
)

// Mode says whether a guardrail's decisions take effect.
type Mode uint8

// Modes. The zero value is ModeEnforce, so a guardrail configured without a mode enforces.
const (
	// ModeEnforce applies the guardrail's decisions.
	ModeEnforce Mode = iota
	// ModeMonitor evaluates and records what the guardrail would have done, and allows.
	ModeMonitor
	// ModeOff does not evaluate; the engine records the guardrail as skipped.
	ModeOff
)

var modeNames = [...]string{ModeEnforce: "enforce", ModeMonitor: "monitor", ModeOff: "off"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// MarshalText encodes the mode by name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes a mode name.
func (m *Mode) UnmarshalText(b []byte) error {
	for i, n := range modeNames {
		if n == string(b) {
			*m = Mode(i)
			return nil
		}
	}
	return fmt.Errorf("unknown mode %q (want enforce, monitor or off)", b)
}

// Execution says how an input guardrail relates to the model call.
type Execution uint8

// Executions. The zero value is ExecutionBlocking: the safe default finishes the check before the model
// is called, so a tripped input never costs a model call.
const (
	// ExecutionBlocking runs the guardrail to completion, in definition order, before the model is called.
	// Blocking guardrails may modify the input; each sees the input as modified by the ones before it.
	ExecutionBlocking Execution = iota
	// ExecutionParallel runs the guardrail concurrently with the model call and with the other parallel
	// guardrails. Nothing the model produces (response, tool call, tool result, output) is released until
	// every parallel guardrail has finished, and a halt cancels the run. A parallel guardrail cannot modify.
	ExecutionParallel
)

var executionNames = [...]string{ExecutionBlocking: "blocking", ExecutionParallel: "parallel"}

func (x Execution) String() string {
	if int(x) < len(executionNames) {
		return executionNames[x]
	}
	return fmt.Sprintf("execution(%d)", uint8(x))
}

// UnmarshalText decodes an execution name.
func (x *Execution) UnmarshalText(b []byte) error {
	for i, n := range executionNames {
		if n == string(b) {
			*x = Execution(i)
			return nil
		}
	}
	return fmt.Errorf("unknown execution %q (want blocking or parallel)", b)
}

// MarshalText encodes the execution by name.
func (x Execution) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// Options are the per-guardrail settings every guardrail has, whatever its module. The zero value is the
// safe one: enforce, fail closed, blocking, no timeout, every tool.
type Options struct {
	Mode Mode
	// FailOpen lets the subject through when the guardrail errors, times out or panics. The error is still
	// recorded. The default, false, denies.
	FailOpen bool
	// Timeout bounds one evaluation; zero means none beyond the caller's context. When set, a guardrail that
	// ignores its context is abandoned at the deadline and the evaluation counts as errored.
	Timeout time.Duration
	// Execution applies to input guardrails only.
	Execution Execution
	// Tools limits tool_call and tool_result guardrails to tools whose names match one of these patterns
	// (path.Match syntax: *, ?, [...]). Empty means every tool. A call outside them is recorded as skipped.
	Tools []string
}

// Status says what happened to one configured guardrail for one subject.
type Status uint8

// Statuses. Every configured guardrail yields exactly one per subject.
const (
	StatusEvaluated Status = iota + 1
	StatusSkipped
	StatusErrored
)

var statusNames = [...]string{StatusEvaluated: "evaluated", StatusSkipped: "skipped", StatusErrored: "errored"}

func (s Status) String() string {
	if int(s) < len(statusNames) && statusNames[s] != "" {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// MarshalText encodes the status by name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Evaluation records one guardrail's part in one stage.
type Evaluation struct {
	Guardrail string
	Module    string
	Stage     Stage
	Mode      Mode
	Status    Status
	// Effect is the action the engine applied: Decision.Action when enforcing, allow when monitoring.
	Effect Action
	// Decision is what the guardrail decided. For an errored guardrail it is the engine's fail-closed deny,
	// or an allow carrying the error's reason code when the guardrail is fail-open or monitoring.
	Decision Decision
	// Skip says why a skipped guardrail did not run.
	Skip string
	// Err is the error, timeout or recovered panic of an errored guardrail. It may quote content, so it is
	// for the caller only; audit events carry a scrubbed form.
	Err      error
	Duration time.Duration
}

// WouldBlock reports whether a monitored guardrail would have blocked or changed the subject.
func (ev Evaluation) WouldBlock() bool {
	return ev.Mode == ModeMonitor && ev.Status == StatusEvaluated && ev.Decision.Action != ActionAllow
}
