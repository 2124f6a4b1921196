package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/stream"
)

// Stream copies a response stream through the format's stream guard: text passes through the stream
// guardrails (at once when there are none), tool calls are held until the whole response has been through
// the response stage and tool-call authorization. A halt ends the stream with the format's error event and
// comes back as a *Refusal whose body was written; so does a denied call under DenyError, and a stream
// guardrail's request for a correction, which a replayed stream cannot honour. A denied call under
// DenyRetry comes back as a *DeniedError with the stream's end unwritten, in a format whose streams can be
// joined (Format.JoinStreams), for the caller to follow up with StreamRound; in others it is explained.
func (p *Pipeline) Stream(ctx context.Context, f *Format, in io.Reader, out io.Writer, flush func(), info stream.Info) error {
	return p.StreamRound(ctx, f, new(Rounds), in, out, flush, info)
}

// Rounds is one client's stream across the provider streams joined into it: the stream whose call was
// denied, then each follow-up's (on_deny retry), and the stream a stream guardrail asked to correct, then
// each continuation's. The zero value is a client stream nothing was written to, which may not correct
// itself. Not safe for concurrent use.
type Rounds struct {
	// Corrections is how many more times a stream guardrail's retry may be answered by a continuation:
	// while it is above 0, and the format has Continue and a correcting guard, StreamRound writes the
	// feedback and returns a *CorrectionError (and counts it down); otherwise the retry ends the stream with
	// its error event.
	Corrections int
	guard       StreamGuard
	f           *Format
	// released is the text of the current assistant message the client has, across corrections: what the
	// stream guardrails see before a continuation's text, and what a continuation continues from.
	released  string
	corrected int // corrections made
}

// Joined returns the client stream the rounds were joined into (Format.JoinStreams'), or nil before the
// first round or in a format without one.
func (r *Rounds) Joined() StreamGuard { return r.guard }

// Corrector is a StreamGuard that can write a self-correction's feedback into the client's stream after a
// round a stream guardrail cut short, closing whatever text the round left open, so that a continuation's
// stream can follow.
type Corrector interface {
	Correct(out io.Writer, flush func(), text string) error
}

// CorrectionError is a stream guardrail's retry that StreamRound answered by writing the feedback: the
// caller sends Format.Continue of its request and Partial and guards the continuation's stream as the next
// round. If it cannot, it ends the stream with the format's error event.
type CorrectionError struct {
	// Partial is the assistant's message as the client has it, ending with the feedback: what the model
	// continues from.
	Partial string
	// Guardrail and Code name the guardrail that asked and its reason code.
	Guardrail, Code string
}

func (e *CorrectionError) Error() string {
	return fmt.Sprintf("stream guardrail %q asked for a correction (%s)", e.Guardrail, e.Code)
}

// StreamRound is Stream on one round of the client's stream rounds: the first round, or a follow-up's or
// a continuation's stream, which goes out after what the rounds before it wrote (renumbered, without a
// second opening, in formats whose events refer to each other). A stream guardrail's retry, while
// rounds.Corrections allows, writes the guardrail's feedback after the text the client has and comes back
// as a *CorrectionError for the caller to continue; the stream guardrails of a continuation see the text
// the client already has of the message. Every round of one Rounds must be in the same format.
//
// An out that buffers may implement http.Flusher: StreamRound flushes it before the response stage at
// the stream's finish (tool-call authorization and output guardrails), which may wait.
func (p *Pipeline) StreamRound(ctx context.Context, f *Format, rounds *Rounds, in io.Reader, out io.Writer, flush func(), info stream.Info) error {
	switch {
	case rounds.f == nil:
		rounds.f, rounds.guard = f, StreamGuardFunc(f.GuardStream)
		if f.JoinStreams != nil {
			rounds.guard = f.JoinStreams()
		}
	case rounds.f != f:
		return fmt.Errorf("pipeline: a client stream in format %s cannot go on with a stream in format %s", rounds.f.Name, f.Name)
	}
	if p.OnDeny == DenyRetry && (f.FollowUp == nil || f.JoinStreams == nil) {
		p = p.WithOnDeny(DenyExplain)
	}
	if f.Usage != nil && p.Engine.ObservesUsage() {
		in = &usageTap{r: in, read: f.Usage, frames: f.EventStream,
			observe: func(u warden.Usage) { p.Engine.ObserveUsage(ctx, info.Run, u) }}
	}
	var gate warden.TextGate
	var streamGate *stream.Gate
	if p.Engine.Has(warden.StageStream) {
		streamGate = (&stream.Runner{Engine: p.Engine}).Gate(ctx, info, rounds.released)
		gate = streamGate
	}
	var held *holdGate
	if p.Engine.Has(warden.StageOutput) {
		held = &holdGate{inner: gate}
		gate = held
	}
	// The response stage may wait (a webhook authorizer, a remote guardrail): what out buffered reaches
	// the client first, so that released text never waits on the checks of what comes after it.
	flushOut, _ := out.(http.Flusher)
	dctx := ctx
	if f.KeepAlive != nil {
		// A call that waits for a person keeps the stream alive meanwhile, between events.
		dctx = context.WithValue(ctx, keepAliveKey{}, func() {
			if _, err := out.Write(f.KeepAlive); err == nil && flushOut != nil {
				flushOut.Flush()
			}
		})
	}
	decide := func(r warden.Response) (warden.Response, error) {
		if flushOut != nil {
			flushOut.Flush()
		}
		if held != nil {
			return p.decideHeld(dctx, info.Run, r, held.take())
		}
		return p.Decide(dctx, info.Run, r)
	}
	err := rounds.guard.Guard(in, out, flush, decide, gate)
	var r *Refusal
	var tw *warden.TripwireError
	var retry *stream.RetryError
	var denied *DeniedError
	switch {
	case errors.As(err, &tw):
		r = halted(f, tw)
		r.Body = f.StreamError(haltMessage(tw), r.Code)
	case errors.As(err, &denied) && p.OnDeny == DenyRetry:
		if b, ok := rounds.guard.(StreamBody); ok {
			denied.Body = b.Body()
		}
		rounds.released = "" // the follow-up answers with a message of its own
		return denied        // nothing of the response's end was written; the caller follows up
	case errors.As(err, &denied):
		r = &Refusal{Status: http.StatusForbidden, Code: denied.Decision.FirstReason().Code, Cause: err}
		r.Body = f.StreamError(deniedMessage(denied), r.Code)
	case errors.As(err, &retry):
		if c, ok := rounds.guard.(Corrector); ok && rounds.Corrections > 0 && f.Continue != nil {
			// The text the client has: with output guardrails none of this round's was released.
			partial := rounds.released
			if held == nil {
				partial = streamGate.Released()
			}
			fb := retry.Feedback
			if partial != "" && !strings.HasSuffix(partial, " ") && !strings.HasSuffix(partial, "\n") {
				fb = " " + fb
			}
			if err := c.Correct(out, flush, fb); err != nil {
				return err
			}
			rounds.Corrections--
			rounds.corrected++
			rounds.released = partial + fb
			return &CorrectionError{Partial: rounds.released, Guardrail: retry.Guardrail, Code: retry.Code}
		}
		msg := fmt.Sprintf("Warden stopped this response: stream guardrail %q asked the model to correct itself (%s), and this stream cannot be re-issued", retry.Guardrail, retry.Code)
		if rounds.corrected > 0 {
			msg = fmt.Sprintf("Warden stopped this response: stream guardrail %q asked the model to correct itself (%s) again after %d corrections, the most allowed", retry.Guardrail, retry.Code, rounds.corrected)
		}
		r = &Refusal{Status: http.StatusForbidden, Code: retry.Code, Cause: err, Body: f.StreamError(msg, retry.Code)}
	default:
		return err
	}
	if _, werr := out.Write(r.Body); werr != nil {
		return werr
	}
	if flush != nil {
		flush()
	}
	return r
}

func deniedMessage(d *DeniedError) string {
	for i, res := range d.Results {
		if res != NotRunResult {
			return fmt.Sprintf("Warden stopped this response: tool call %q was denied: %s", d.Response.Message.ToolCalls[i].Name, res)
		}
	}
	return "Warden stopped this response: a tool call was denied"
}

func haltMessage(tw *warden.TripwireError) string {
	reason := tw.Decision.FirstReason()
	return fmt.Sprintf("Warden stopped this %s: %s guardrail %q (%s): %s", subject(tw.Stage), tw.Stage, tw.Guardrail, reason.Code, reason.Message)
}

// holdGate holds all of a stream's text, after the stream guardrails' gate (inner, when set) has let it
// go, so that the output guardrails see a final answer whole before any of it leaves: the stream's decide
// takes the held text into the response, and the wire guard writes the text decide returns as text it
// added. A halt or an error releases none of it. One response; not safe for concurrent use.
type holdGate struct {
	inner warden.TextGate
	held  strings.Builder
}

func (g *holdGate) Text(delta string) (string, error) {
	if g.inner != nil {
		var err error
		if delta, err = g.inner.Text(delta); err != nil {
			return "", err
		}
	}
	g.held.WriteString(delta)
	return "", nil
}

func (g *holdGate) Finish(end warden.Part) (string, error) {
	if g.inner != nil {
		rest, err := g.inner.Finish(end)
		if err != nil {
			return "", err
		}
		g.held.WriteString(rest)
	}
	return "", nil
}

// take returns the held text and forgets it.
func (g *holdGate) take() string {
	t := g.held.String()
	g.held.Reset()
	return t
}
