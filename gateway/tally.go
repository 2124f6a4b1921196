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
	strongest warden.Action
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
		if ev.Effect > t.strongest {
			t.strongest = ev.Effect
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
)

// values returns the two header values: "N/M" and the strongest effect (allow when nothing ran).
func (t *tally) values() (evaluated, decision string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.strongest
	if d == warden.ActionUnset {
		d = warden.ActionAllow
	}
	return strconv.Itoa(t.evaluated) + "/" + strconv.Itoa(t.total), d.String()
}
