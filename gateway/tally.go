package gateway

import (
	"context"
	"strconv"
	"sync"

	"github.com/agentwarden/warden"
)

// tally counts one exchange's evaluations as the engine records them: how many guardrails evaluated out of
// how many were configured for the stages the exchange went through, and the strongest effect any had.
// It is what X-Warden-Evaluated and X-Warden-Decision report, so that a guardrail that did not run is
// visible to the client and to tests.
type tally struct {
	mu        sync.Mutex
	evaluated int
	total     int
	// request is the strongest effect on the request side (input and tool_result guardrails); answer the
	// strongest on the answer the client gets (response, tool_call, output, stream), which a follow-up's
	// answer starts again, since it replaces the answer whose call was denied.
	request, answer warden.Action
	// delivered: the client got an answer (the provider's, or one Warden rewrote), not a refusal.
	delivered bool
}

type tallyKey struct{}

// withTally returns a context whose engine records are counted into t.
func withTally(ctx context.Context, t *tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

// Tally wraps the engine's recorder: records made under a gateway exchange are counted for its headers,
// and every record still goes on to next (the audit sink). Pass it as config.Options.WrapRecorder.
func Tally(next warden.Recorder) warden.Recorder {
	return warden.RecorderFunc(func(ctx context.Context, rec *warden.Record) {
		if t, ok := ctx.Value(tallyKey{}).(*tally); ok {
			t.add(rec.Evaluations)
		}
		if next != nil {
			next.Record(ctx, rec)
		}
	})
}

func (t *tally) add(evs []warden.Evaluation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, ev := range evs {
		t.total++
		if ev.Status == warden.StatusEvaluated {
			t.evaluated++
		}
		side := &t.answer
		if ev.Stage == warden.StageInput || ev.Stage == warden.StageToolResult {
			side = &t.request
		}
		if ev.Effect > *side {
			*side = ev.Effect
		}
	}
}

// Header names of the tally.
const (
	HeaderEvaluated = "X-Warden-Evaluated"
	HeaderDecision  = "X-Warden-Decision"
	// HeaderReason is the reason code of an answer Warden made itself rather than pass the provider's: a
	// refusal (a guardrail's code, warden.request_too_large, warden.bad_request, …) or an upstream fault
	// (warden.upstream_error, warden.upstream_timeout, warden.bad_upstream,
	// warden.upstream_stream_broken). Absent on the provider's own answers.
	HeaderReason = "X-Warden-Reason"
	// DecisionPending is X-Warden-Decision in a stream's headers: the answer is decided as it streams, and
	// the trailer of the same name says what was.
	DecisionPending = "pending"
)

// newAnswer starts the count of a new answer: a follow-up's, which replaces the answer whose call was denied.
func (t *tally) newAnswer() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.answer = warden.ActionUnset
}

// deliver notes that the client gets an answer rather than a refusal.
func (t *tally) deliver() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.delivered = true
}

// values returns the two header values: "N/M" and what was decided about the answer the client got, the
// strongest effect on it (allow when nothing ran). A delivered answer with a denied call in it had the call
// removed, so it reads modify; reject and halt are answers Warden refused.
func (t *tally) values() (evaluated, decision string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := max(t.request, t.answer)
	if d == warden.ActionUnset {
		d = warden.ActionAllow
	}
	if t.delivered && (d == warden.ActionReject || d == warden.ActionRetry) {
		d = warden.ActionModify
	}
	return strconv.Itoa(t.evaluated) + "/" + strconv.Itoa(t.total), d.String()
}
