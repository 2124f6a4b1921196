package stream_test

import (
	"context"
	"errors"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/stream"
)

func text(s string) warden.Part { return warden.Part{Kind: warden.PartText, Text: s} }

func finish(f warden.FinishReason) warden.Part {
	return warden.Part{Kind: warden.PartFinish, Finish: f}
}

func call(i int, id, name, args string) warden.Part {
	return warden.Part{Kind: warden.PartToolCallDelta, ToolCall: warden.ToolCallDelta{Index: i, ID: id, Name: name, ArgumentsDelta: args}}
}

// attempts returns a source whose n-th attempt yields attempts[n], and records the corrections it got and
// the context of each attempt, to see that the runner cancels the ones it leaves.
type attempts struct {
	mu          sync.Mutex
	parts       [][]warden.Part
	corrections []*stream.Correction
	contexts    []context.Context
}

func (a *attempts) source(ctx context.Context, c *stream.Correction) iter.Seq2[warden.Part, error] {
	a.mu.Lock()
	n := len(a.corrections)
	a.corrections = append(a.corrections, c)
	a.contexts = append(a.contexts, ctx)
	a.mu.Unlock()
	return func(yield func(warden.Part, error) bool) {
		parts := a.parts[min(n, len(a.parts)-1)]
		for _, p := range parts {
			if p.Kind == warden.PartError && p.Err != nil {
				if !yield(warden.Part{}, p.Err) {
					return
				}
				continue
			}
			if !yield(p, nil) {
				return
			}
		}
	}
}

// retryOn asks for a correction when the pending text holds word.
func retryOn(word string) warden.StreamGuardrail {
	return warden.StreamGuardrailFunc(func(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
		if strings.Contains(c.Pending, word) {
			return warden.Retry("test.word", "I should not say that. Let me rephrase."), nil
		}
		return warden.Allow(), nil
	})
}

// holdAll is a judge of the whole response: it holds every byte until the finish.
type holdAll struct{ seen []string }

func (h *holdAll) CheckPart(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
	h.seen = append(h.seen, c.Pending)
	return warden.Allow(), nil
}
func (h *holdAll) Holdback(pending string) int { return len(pending) }

var denyRm = warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	if strings.Contains(string(c.Call.Arguments), "rm -rf") {
		return warden.Reject("test.rm", "that deletes files"), nil
	}
	return warden.Allow(), nil
})

// rendered is the client's view: text concatenated, calls as name(args), the finish.
func rendered(parts []warden.Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.Kind {
		case warden.PartText:
			b.WriteString(p.Text)
		case warden.PartToolCallDelta:
			b.WriteString("<" + p.ToolCall.Name + p.ToolCall.ArgumentsDelta + ">")
		case warden.PartFinish:
			b.WriteString("|" + string(p.Finish))
		}
	}
	return b.String()
}

func TestRunner(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc       string
		stream     []warden.Entry
		mode       warden.Mode
		maxRetries int
		onDeny     stream.OnDeny
		attempts   [][]warden.Part
		want       string
		wantErr    func(error) bool
		check      func(t *testing.T, a *attempts)
	}{
		{desc: "with no guardrails every delta passes at once", attempts: [][]warden.Part{{text("Hel"), text("lo."), finish(warden.FinishStop)}},
			want: "Hello.|stop"},
		{desc: "a retry cancels the attempt, writes the feedback and continues from the correction",
			stream: []warden.Entry{{Name: "words", Guardrail: retryOn("secret")}}, maxRetries: 1,
			attempts: [][]warden.Part{{text("The code is "), text("secret"), text(" 42"), finish(warden.FinishStop)}, {text(" It is private."), finish(warden.FinishStop)}},
			want:     "The code is  I should not say that. Let me rephrase. It is private.|stop",
			check: func(t *testing.T, a *attempts) {
				if len(a.corrections) != 2 || a.corrections[0] != nil || a.corrections[1].Retry != 1 ||
					a.corrections[1].Text != "The code is  I should not say that. Let me rephrase." || a.corrections[1].Guardrail != "words" {
					t.Errorf("corrections %+v", a.corrections)
				}
				if a.contexts[0].Err() == nil {
					t.Error("the abandoned attempt's context was not cancelled")
				}
			}},
		{desc: "retries spent end the stream with an explicit error", stream: []warden.Entry{{Name: "words", Guardrail: retryOn("secret")}}, maxRetries: 2,
			attempts: [][]warden.Part{{text("secret"), finish(warden.FinishStop)}},
			want:     " I should not say that. Let me rephrase. I should not say that. Let me rephrase.",
			wantErr: func(err error) bool {
				var re *stream.RetriesExhaustedError
				return errors.As(err, &re) && re.Retries == 2 && re.Code == "test.word"
			}},
		{desc: "max_retries 0 allows no retry", stream: []warden.Entry{{Name: "words", Guardrail: retryOn("secret")}},
			attempts: [][]warden.Part{{text("secret"), finish(warden.FinishStop)}},
			wantErr: func(err error) bool {
				var re *stream.RetriesExhaustedError
				return errors.As(err, &re) && re.Retries == 0
			}},
		{desc: "a halt ends the stream with the tripwire", stream: []warden.Entry{{Name: "stop", Guardrail: warden.StreamGuardrailFunc(func(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
			if strings.Contains(c.Pending, "bomb") {
				return warden.Halt("test.halt", "no"), nil
			}
			return warden.Allow(), nil
		})}},
			attempts: [][]warden.Part{{text("how to "), text("build a bomb"), finish(warden.FinishStop)}},
			want:     "how to ",
			wantErr: func(err error) bool {
				var tw *warden.TripwireError
				return errors.As(err, &tw) && tw.Guardrail == "stop"
			}},
		{desc: "a whole-response guardrail holds every byte until the finish", stream: []warden.Entry{{Name: "judge", Guardrail: &holdAll{}}},
			attempts: [][]warden.Part{{text("a"), text("b"), finish(warden.FinishStop)}}, want: "ab|stop"},
		{desc: "tool calls are held to the finish and released whole when allowed",
			attempts: [][]warden.Part{{call(0, "c1", "bash", `{"command":`), text("Running."), call(0, "", "", `"ls"}`), finish(warden.FinishToolCalls)}},
			want:     `Running.<bash{"command":"ls"}>|tool_calls`},
		{desc: "a denied call is dropped and explained; no call left means stop", onDeny: stream.DenyExplain,
			attempts: [][]warden.Part{{text("Cleaning."), call(0, "c1", "bash", `{"command":"rm -rf /"}`), finish(warden.FinishToolCalls)}},
			want:     "Cleaning.\n\nGuardrail denied: tool 'bash' was blocked (test.rm). Reason: that deletes files. Choose an alternative approach.|stop"},
		{desc: "a denied call becomes the feedback of a retry", maxRetries: 1,
			attempts: [][]warden.Part{
				{call(0, "c1", "bash", `{"command":"rm -rf /"}`), finish(warden.FinishToolCalls)},
				{call(0, "c2", "bash", `{"command":"ls"}`), finish(warden.FinishToolCalls)}},
			want: ` Guardrail denied: tool 'bash' was blocked (test.rm). Reason: that deletes files. Choose an alternative approach.<bash{"command":"ls"}>|tool_calls`},
		{desc: "a stream that ends before its finish releases nothing held", stream: []warden.Entry{{Name: "judge", Guardrail: &holdAll{}}},
			attempts: [][]warden.Part{{text("partial"), call(0, "c1", "bash", `{}`)}},
			wantErr:  func(err error) bool { return errors.Is(err, stream.ErrIncomplete) }},
		{desc: "an upstream error ends the run with it and releases no held call",
			attempts: [][]warden.Part{{text("ok "), call(0, "c1", "bash", `{}`), {Kind: warden.PartError, Err: errors.New("connection reset")}}},
			want:     "ok ",
			wantErr:  func(err error) bool { return err != nil && err.Error() == "connection reset" }},
		{desc: "a guardrail in monitor mode never holds text", stream: []warden.Entry{{Name: "judge", Guardrail: &holdAll{}, Options: warden.Options{Mode: warden.ModeMonitor}}},
			attempts: [][]warden.Part{{text("a"), text("b")}}, want: "ab",
			wantErr: func(err error) bool { return errors.Is(err, stream.ErrIncomplete) }},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			e, err := warden.NewEngine(warden.Spec{Stream: tt.stream, ToolCall: []warden.Entry{{Name: "no-rm", Guardrail: denyRm}}})
			if err != nil {
				t.Fatal(err)
			}
			a := &attempts{parts: tt.attempts}
			var out []warden.Part
			r := &stream.Runner{Engine: e, MaxRetries: tt.maxRetries, OnDeny: tt.onDeny}
			err = r.Run(context.Background(), stream.Info{}, a.source, func(p warden.Part) error { out = append(out, p); return nil })
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !tt.wantErr(err) {
				t.Fatalf("err = %v", err)
			}
			if got := rendered(out); got != tt.want {
				t.Errorf("the client receives\n %q\nwant %q", got, tt.want)
			}
			if tt.check != nil {
				tt.check(t, a)
			}
		})
	}
}

// TestNoByteReleasedUnseen: every released byte was in the pending text an enforcing guardrail saw before
// the release.
func TestNoByteReleasedUnseen(t *testing.T) {
	t.Parallel()
	var seen strings.Builder
	watch := warden.StreamGuardrailFunc(func(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
		seen.Reset()
		seen.WriteString(c.Released + c.Pending)
		return warden.Allow(), nil
	})
	e, err := warden.NewEngine(warden.Spec{Stream: []warden.Entry{{Name: "watch", Guardrail: watch}}})
	if err != nil {
		t.Fatal(err)
	}
	a := &attempts{parts: [][]warden.Part{{text("one "), text("two "), text("three"), finish(warden.FinishStop)}}}
	var released string
	err = (&stream.Runner{Engine: e}).Run(context.Background(), stream.Info{}, a.source, func(p warden.Part) error {
		released += p.Text
		if !strings.HasPrefix(seen.String(), released) {
			t.Errorf("released %q before the guardrail saw it (it saw %q)", released, seen.String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	word := warden.StreamGuardrailFunc(func(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
		if strings.Contains(c.Pending, "secret") {
			return warden.Retry("test.word", "Let me rephrase."), nil
		}
		return warden.Allow(), nil
	})
	e, err := warden.NewEngine(warden.Spec{Stream: []warden.Entry{{Name: "judge", Guardrail: &holdAll{}}, {Name: "word", Guardrail: word}}})
	if err != nil {
		t.Fatal(err)
	}
	r := &stream.Runner{Engine: e}
	g := r.Gate(context.Background(), stream.Info{}, "Earlier. ")
	for _, d := range []string{"Held ", "until the end."} {
		if out, err := g.Text(d); err != nil || out != "" {
			t.Fatalf("Text(%q) = %q, %v; want it held", d, out, err)
		}
	}
	if out, err := g.Finish(finish(warden.FinishStop)); err != nil || out != "Held until the end." {
		t.Errorf("Finish = %q, %v", out, err)
	}
	if got := g.Released(); got != "Earlier. Held until the end." {
		t.Errorf("Released = %q", got)
	}
	g = r.Gate(context.Background(), stream.Info{}, "")
	_, err = g.Text("the secret is")
	var re *stream.RetryError
	if !errors.As(err, &re) || re.Feedback != "Let me rephrase." || re.Guardrail != "word" {
		t.Errorf("Text = %v, want a retry", err)
	}
}
