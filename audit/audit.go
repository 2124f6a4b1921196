// Package audit turns the engine's evaluation records into versioned audit events and writes them to a sink.
//
// An event says which guardrail ran on what kind of subject, at which stage, with what status, decision and
// duration, and who the run was for (run, thread and agent ids). It never carries the subject: no tool
// arguments, no message text, no tool output, no end-user id. Reason messages and error texts, which a
// guardrail may have written carelessly, are scrubbed of the subject's content before they are written.
//
// The event format is versioned by Event.V; fields may be added within a version, never removed or changed.
package audit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/agentwarden/warden"
)

// Version is the version of the event format this package writes.
const Version = 1

// Event is one guardrail's evaluation of one subject.
type Event struct {
	// V is the event format version.
	V    int       `json:"v"`
	Time time.Time `json:"time"`
	// Kind is "evaluation", or "approval" for a request filed or decided (Action ask, approve or deny).
	Kind  string `json:"kind"`
	Stage string `json:"stage"`
	// Guardrail is the configured name, Module the module ID it came from.
	Guardrail string `json:"guardrail"`
	Module    string `json:"module,omitempty"`
	Mode      string `json:"mode"`
	// Status is evaluated, skipped or errored.
	Status string `json:"status"`
	// Action is what the guardrail decided; Effect what the engine applied (they differ in monitor mode
	// and for fail-open errors).
	Action     string `json:"action,omitempty"`
	Effect     string `json:"effect"`
	WouldBlock bool   `json:"would_block,omitempty"`
	// Reasons are the decision's reasons, messages scrubbed and cut to 500 bytes.
	Reasons  []warden.Reason `json:"reasons,omitempty"`
	PolicyID string          `json:"policy_id,omitempty"`
	// Skip says why a skipped guardrail did not run.
	Skip string `json:"skip,omitempty"`
	// Error is the scrubbed error of an errored guardrail.
	Error      string  `json:"error,omitempty"`
	DurationUS float64 `json:"duration_us"`
	// Decision is the stage's effective action for this subject, the same on every event of the stage.
	Decision   string `json:"decision"`
	RunID      string `json:"run_id,omitempty"`
	ThreadID   string `json:"thread_id,omitempty"`
	AgentID    string `json:"agent_id,omitempty"`
	IsSubagent bool   `json:"is_subagent,omitempty"`
	ToolName   string `json:"tool_name,omitempty"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	// ApprovalID names the approval request of an approval event.
	ApprovalID string `json:"approval_id,omitempty"`
	// Approver is who decided, in an approval event.
	Approver string `json:"approver,omitempty"`
}

// Sink stores audit events. Write receives the events of one stage's evaluation of one subject, in
// definition order. A Sink must be safe for concurrent use.
type Sink interface {
	Write(ctx context.Context, events []Event) error
}

// maxMessage bounds a reason message or error text in an event.
const maxMessage = 500

// Recorder is a warden.Recorder that writes events to a Sink. A write that fails does not change any
// decision; it is counted and reported through OnError.
type Recorder struct {
	sink Sink
	// OnError is called with each failed write; by default it logs a warning through slog.Default().
	OnError func(error)
	failed  atomic.Uint64
}

var _ warden.Recorder = (*Recorder)(nil)

// NewRecorder returns a Recorder writing to sink.
func NewRecorder(sink Sink) *Recorder {
	return &Recorder{sink: sink, OnError: func(err error) {
		slog.Warn("audit write failed; decisions are unaffected", "error", err)
	}}
}

// Failed returns how many writes have failed.
func (r *Recorder) Failed() uint64 { return r.failed.Load() }

// Record converts rec into events and writes them, or, under a context of Batch, keeps them for the
// batch's one write.
func (r *Recorder) Record(ctx context.Context, rec *warden.Record) {
	if len(rec.Evaluations) == 0 {
		return
	}
	if b, ok := ctx.Value(batchKey{}).(*batch); ok && b.keep(r, Events(rec)) {
		return
	}
	r.write(ctx, Events(rec))
}

func (r *Recorder) write(ctx context.Context, events []Event) {
	if err := r.sink.Write(ctx, events); err != nil {
		r.failed.Add(1)
		if r.OnError != nil {
			r.OnError(err)
		}
	}
}

type batchKey struct{}

// batch holds the events of one exchange's records until it is flushed.
type batch struct {
	mu      sync.Mutex
	r       *Recorder
	events  []Event
	flushed bool
}

// keep adds events to the batch; false once it was flushed (they are written at once, as without one) or
// when another Recorder wrote into it (each writes its own).
func (b *batch) keep(r *Recorder, events []Event) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.flushed || b.r != nil && b.r != r {
		return false
	}
	b.r = r
	b.events = append(b.events, events...)
	return true
}

// Batch returns a context under which a Recorder keeps the events of the records it is given, and a flush
// that writes them in one write (one sink call, one write call for a JSONL sink): the gateway's exchange
// writes its stages' events together, before its answer is written. Records after the flush are written
// as they come. flush may be called more than once; only the first writes.
func Batch(ctx context.Context) (context.Context, func(context.Context)) {
	b := &batch{}
	return context.WithValue(ctx, batchKey{}, b), func(ctx context.Context) {
		b.mu.Lock()
		if b.flushed {
			b.mu.Unlock()
			return
		}
		b.flushed = true
		r, events := b.r, b.events
		b.events = nil
		b.mu.Unlock()
		if r != nil && len(events) > 0 {
			r.write(context.WithoutCancel(ctx), events)
		}
	}
}

// Events converts one record into its events, one per evaluation, with content scrubbed.
func Events(rec *warden.Record) []Event {
	out := make([]Event, len(rec.Evaluations))
	for i, ev := range rec.Evaluations {
		e := Event{
			V: Version, Time: rec.Time, Kind: "evaluation", Stage: rec.Stage.String(),
			Guardrail: ev.Guardrail, Module: ev.Module, Mode: ev.Mode.String(), Status: ev.Status.String(),
			Effect: ev.Effect.String(), WouldBlock: ev.WouldBlock(), PolicyID: ev.Decision.PolicyID,
			Skip: rec.Scrub(ev.Skip), DurationUS: float64(ev.Duration.Nanoseconds()) / 1e3,
			Decision: rec.Decision.Action.String(), RunID: rec.Run.RunID, ThreadID: rec.Run.ThreadID,
			AgentID: rec.Run.AgentID, IsSubagent: rec.Run.IsSubagent, ToolName: rec.ToolName, ToolCallID: rec.ToolCallID,
		}
		if ev.Decision.Action != warden.ActionUnset {
			e.Action = ev.Decision.Action.String()
		}
		for _, reason := range ev.Decision.Reasons {
			e.Reasons = append(e.Reasons, warden.Reason{Code: reason.Code, Message: truncate(rec.Scrub(reason.Message))})
		}
		if ev.Err != nil {
			e.Error = truncate(rec.Scrub(ev.Err.Error()))
		}
		out[i] = e
	}
	return out
}

func truncate(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
