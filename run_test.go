package warden_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/google/go-cmp/cmp"
)

func inputGuard(f func(ctx context.Context, c warden.InputCheck) (warden.Decision, error)) warden.InputGuardrailFunc {
	return f
}

func allowInput() warden.InputGuardrailFunc {
	return inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) { return warden.Allow(), nil })
}

func haltInput(code string) warden.InputGuardrailFunc {
	return inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) {
		return warden.Halt(code, "tripped"), nil
	})
}

// waitInput blocks until release is closed or its context ends, then decides d.
func waitInput(release <-chan struct{}, d warden.Decision) warden.InputGuardrailFunc {
	return inputGuard(func(ctx context.Context, _ warden.InputCheck) (warden.Decision, error) {
		select {
		case <-release:
			return d, nil
		case <-ctx.Done():
			return warden.Decision{}, ctx.Err()
		}
	})
}

var userInput = []warden.Message{warden.TextMessage(warden.RoleUser, "list my files")}

func TestBlockingInputHaltStopsTheRunBeforeTheModel(t *testing.T) {
	t.Parallel()
	toolChecked := false
	e := mustEngine(t, warden.Spec{
		Input: []warden.Entry{entry("guard", haltInput("test.blocked")), entry("later", allowInput(), parallel)},
		ToolCall: []warden.Entry{entry("tc", warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
			toolChecked = true
			return warden.Allow(), nil
		}))},
	})
	run, rctx := e.StartRun(context.Background(), warden.RunInfo{RunID: "r1"})
	defer run.Close()
	_, err := run.Input(context.Background(), userInput)
	var tw *warden.TripwireError
	if !errors.As(err, &tw) || tw.Guardrail != "guard" || tw.Stage != warden.StageInput {
		t.Fatalf("err = %v, want the input tripwire of guard", err)
	}
	if rctx.Err() == nil {
		t.Error("the run context is not cancelled, so a model call would go ahead")
	}
	if !errors.Is(context.Cause(rctx), tw) {
		t.Errorf("run context cause = %v, want the tripwire", context.Cause(rctx))
	}
	out, err := run.ToolCall(context.Background(), bashCall)
	if !errors.As(err, &tw) || out.Allowed() || toolChecked {
		t.Errorf("tool call after a halt: err %v, allowed %v, guardrail ran %v; want the tripwire, denied, not run", err, out.Allowed(), toolChecked)
	}
	want := []summary{{"guard", "evaluated", "halt", "test.blocked"}, {"later", "skipped", "allow", ""}, {"tc", "skipped", "allow", ""}}
	if diff := cmp.Diff(want, summarize(run.Results())); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestBlockingInputGuardrailsRunInOrderOnModifiedInput(t *testing.T) {
	t.Parallel()
	var order []string
	redact := inputGuard(func(_ context.Context, c warden.InputCheck) (warden.Decision, error) {
		order = append(order, "redact")
		return warden.Modify([]warden.Message{warden.TextMessage(warden.RoleUser, "[redacted]")}), nil
	})
	check := inputGuard(func(_ context.Context, c warden.InputCheck) (warden.Decision, error) {
		order = append(order, "check")
		if c.Messages[0].Text() != "[redacted]" {
			return warden.Halt("test.unredacted", "saw the original input"), nil
		}
		return warden.Allow(), nil
	})
	e := mustEngine(t, warden.Spec{Input: []warden.Entry{entry("redact", redact), entry("check", check)}})
	out, err := e.CheckInput(context.Background(), warden.InputCheck{Messages: userInput})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"redact", "check"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if out.Decision.Action != warden.ActionModify || out.Value[0].Text() != "[redacted]" {
		t.Errorf("outcome = %s with %q, want the modified input", out.Decision.Action, out.Value[0].Text())
	}
}

func TestParallelInputOverlapsTheModelButGatesSideEffects(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	e := mustEngine(t, warden.Spec{
		Input:    []warden.Entry{entry("slow", waitInput(release, warden.Allow()), parallel)},
		ToolCall: []warden.Entry{entry("tc", allowTool())},
	})
	run, _ := e.StartRun(context.Background(), warden.RunInfo{})
	defer run.Close()
	if _, err := run.Input(context.Background(), userInput); err != nil {
		t.Fatalf("Input returned %v while its parallel guardrail is pending; want it to return at once", err)
	}
	// The model call happens here, overlapping the guardrail. Its tool call must wait.
	done := make(chan error, 1)
	go func() {
		_, err := run.ToolCall(context.Background(), bashCall)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("tool call was authorized (err %v) while an input guardrail was pending", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("tool call after the input passed: %v", err)
	}
	want := []summary{{"slow", "evaluated", "allow", ""}, {"tc", "evaluated", "allow", ""}}
	if diff := cmp.Diff(want, summarize(run.Results())); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestParallelInputHaltCancelsTheRunAndSiblings(t *testing.T) {
	t.Parallel()
	never := make(chan struct{})
	trip := make(chan struct{})
	toolChecked := false
	e := mustEngine(t, warden.Spec{
		Input: []warden.Entry{
			entry("sibling", waitInput(never, warden.Allow()), parallel),
			entry("tripper", waitInput(trip, warden.Halt("test.injection", "prompt injection")), parallel),
		},
		ToolCall: []warden.Entry{entry("tc", warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
			toolChecked = true
			return warden.Allow(), nil
		}))},
	})
	run, rctx := e.StartRun(context.Background(), warden.RunInfo{})
	defer run.Close()
	if _, err := run.Input(context.Background(), userInput); err != nil {
		t.Fatal(err)
	}
	close(trip)
	select {
	case <-rctx.Done(): // the model call would be cancelled here
	case <-time.After(5 * time.Second):
		t.Fatal("the run context was not cancelled by the parallel tripwire")
	}
	_, err := run.ToolCall(context.Background(), bashCall)
	var tw *warden.TripwireError
	if !errors.As(err, &tw) || tw.Guardrail != "tripper" || toolChecked {
		t.Fatalf("tool call: err %v, guardrail ran %v; want the tripwire of tripper and no evaluation", err, toolChecked)
	}
	// The tripwire holds what was known when the run halted; the run's results, once the cancelled
	// sibling has returned, hold everything, stages in order.
	if diff := cmp.Diff([]summary{{"tripper", "evaluated", "halt", "test.injection"}}, summarize(tw.Results)); diff != "" {
		t.Errorf("tripwire results (-want +got):\n%s", diff)
	}
	run.Close()
	want := []summary{{"sibling", "skipped", "allow", ""}, {"tripper", "evaluated", "halt", "test.injection"}, {"tc", "skipped", "allow", ""}}
	if diff := cmp.Diff(want, summarize(run.Results())); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestParallelInputGuardrailsRunConcurrently(t *testing.T) {
	t.Parallel()
	// Each waits for the other to start: run one after the other, they would both time out.
	aStarted, bStarted := make(chan struct{}), make(chan struct{})
	meet := func(mine, theirs chan struct{}) warden.InputGuardrailFunc {
		return inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) {
			close(mine)
			select {
			case <-theirs:
				return warden.Allow(), nil
			case <-time.After(5 * time.Second):
				return warden.Halt("test.sequential", "ran alone"), nil
			}
		})
	}
	e := mustEngine(t, warden.Spec{Input: []warden.Entry{entry("a", meet(aStarted, bStarted), parallel), entry("b", meet(bStarted, aStarted), parallel)}})
	out, err := e.CheckInput(context.Background(), warden.InputCheck{Messages: userInput})
	if err != nil || !out.Allowed() {
		t.Fatalf("err %v, allowed %v: parallel guardrails did not overlap", err, out.Allowed())
	}
}

func TestInputStage(t *testing.T) {
	t.Parallel()
	never := make(chan struct{})
	tests := []struct {
		desc    string
		entries []warden.Entry
		wantErr bool
		want    []summary
	}{
		{
			desc: "a parallel guardrail cannot modify the input, and failing closed halts",
			entries: []warden.Entry{entry("p", inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) {
				return warden.Modify([]warden.Message{}), nil
			}), parallel)},
			wantErr: true,
			want:    []summary{{"p", "errored", "halt", "warden.guardrail_error"}},
		},
		{
			desc:    "a blocking halt means parallel guardrails never start",
			entries: []warden.Entry{entry("p", waitInput(never, warden.Allow()), parallel), entry("b", haltInput("test.halt"))},
			wantErr: true,
			want:    []summary{{"p", "skipped", "allow", ""}, {"b", "evaluated", "halt", "test.halt"}},
		},
		{
			desc:    "results of mixed blocking and parallel guardrails are in definition order",
			entries: []warden.Entry{entry("p1", allowInput(), parallel), entry("b1", allowInput()), entry("p2", allowInput(), parallel), entry("b2", allowInput())},
			want:    []summary{{"p1", "evaluated", "allow", ""}, {"b1", "evaluated", "allow", ""}, {"p2", "evaluated", "allow", ""}, {"b2", "evaluated", "allow", ""}},
		},
		{
			desc:    "reject is not an input action, so the guardrail errors and halts",
			entries: []warden.Entry{entry("r", inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) { return warden.Reject("x", "y"), nil }))},
			wantErr: true,
			want:    []summary{{"r", "errored", "halt", "warden.guardrail_error"}},
		},
		{
			desc: "an input guardrail that errors fail-open lets the run go on",
			entries: []warden.Entry{entry("e", inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) {
				return warden.Decision{}, errors.New("judge down")
			}), failOpen)},
			want: []summary{{"e", "errored", "allow", "warden.guardrail_error"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			e := mustEngine(t, warden.Spec{Input: tt.entries})
			out, err := e.CheckInput(context.Background(), warden.InputCheck{Messages: userInput})
			var tw *warden.TripwireError
			if got := errors.As(err, &tw); got != tt.wantErr {
				t.Fatalf("tripwire = %v (%v), want %v", got, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, summarize(out.Evaluations)); diff != "" {
				t.Errorf("evaluations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOtherStages(t *testing.T) {
	t.Parallel()
	result := warden.ToolResult{CallID: "call_1", Name: "bash", Content: "total 0"}
	t.Run("a tool result reject replaces the result with a message the model sees", func(t *testing.T) {
		t.Parallel()
		g := warden.ToolResultGuardrailFunc(func(context.Context, warden.ToolResultCheck) (warden.Decision, error) {
			return warden.Reject("warden.injection", "the result carries instructions"), nil
		})
		e := mustEngine(t, warden.Spec{ToolResult: []warden.Entry{entry("inj", g)}})
		out, err := e.CheckToolResult(context.Background(), warden.ToolResultCheck{Call: bashCall, Result: result})
		if err != nil {
			t.Fatal(err)
		}
		want := warden.ToolResult{CallID: "call_1", Name: "bash", IsError: true,
			Content: "Guardrail withheld the result of tool 'bash' (warden.injection). Reason: the result carries instructions."}
		if diff := cmp.Diff(want, out.Value); diff != "" {
			t.Errorf("value (-want +got):\n%s", diff)
		}
	})
	t.Run("a tool result modify replaces the output", func(t *testing.T) {
		t.Parallel()
		g := warden.ToolResultGuardrailFunc(func(_ context.Context, c warden.ToolResultCheck) (warden.Decision, error) {
			c.Result.Content = "[redacted]"
			return warden.Modify(c.Result), nil
		})
		e := mustEngine(t, warden.Spec{ToolResult: []warden.Entry{entry("redact", g)}})
		out, _ := e.CheckToolResult(context.Background(), warden.ToolResultCheck{Call: bashCall, Result: result})
		if out.Value.Content != "[redacted]" || !out.Allowed() {
			t.Errorf("value = %+v, allowed %v", out.Value, out.Allowed())
		}
	})
	t.Run("a tool result halt is a tripwire", func(t *testing.T) {
		t.Parallel()
		g := warden.ToolResultGuardrailFunc(func(context.Context, warden.ToolResultCheck) (warden.Decision, error) {
			return warden.Halt("test.exfil", "secret in output"), nil
		})
		e := mustEngine(t, warden.Spec{ToolResult: []warden.Entry{entry("h", g)}})
		_, err := e.CheckToolResult(context.Background(), warden.ToolResultCheck{Call: bashCall, Result: result})
		var tw *warden.TripwireError
		if !errors.As(err, &tw) || tw.Stage != warden.StageToolResult {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("an output halt ends the run with the output stage's tripwire", func(t *testing.T) {
		t.Parallel()
		g := warden.OutputGuardrailFunc(func(context.Context, warden.OutputCheck) (warden.Decision, error) {
			return warden.Halt("test.pii", "personal data"), nil
		})
		e := mustEngine(t, warden.Spec{Output: []warden.Entry{entry("pii", g)}})
		run, _ := e.StartRun(context.Background(), warden.RunInfo{})
		defer run.Close()
		_, err := run.Output(context.Background(), warden.TextMessage(warden.RoleAssistant, "hello"))
		var tw *warden.TripwireError
		if !errors.As(err, &tw) || tw.Stage != warden.StageOutput || tw.Guardrail != "pii" {
			t.Fatalf("err = %v", err)
		}
		if _, again := run.Output(context.Background(), warden.TextMessage(warden.RoleAssistant, "hello")); !errors.Is(again, tw) {
			t.Errorf("a halted run answered %v, want the same tripwire", again)
		}
	})
	t.Run("a response guardrail may ask for a retry", func(t *testing.T) {
		t.Parallel()
		g := warden.ResponseGuardrailFunc(func(context.Context, warden.ResponseCheck) (warden.Decision, error) {
			return warden.Retry("test.retry", "answer in English"), nil
		})
		e := mustEngine(t, warden.Spec{Response: []warden.Entry{entry("lang", g)}})
		out, err := e.CheckResponse(context.Background(), warden.ResponseCheck{})
		if err != nil || out.Decision.Action != warden.ActionRetry || out.Decision.Feedback() != "answer in English" {
			t.Errorf("outcome = %+v, err %v", out.Decision, err)
		}
	})
	t.Run("a stream guardrail modifies a part", func(t *testing.T) {
		t.Parallel()
		g := warden.StreamGuardrailFunc(func(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
			c.Part.Text = "***"
			return warden.Modify(c.Part), nil
		})
		e := mustEngine(t, warden.Spec{Stream: []warden.Entry{entry("mask", g)}})
		out, _ := e.CheckPart(context.Background(), warden.PartCheck{Part: warden.Part{Kind: warden.PartText, Text: "secret"}})
		if out.Value.Text != "***" {
			t.Errorf("part text = %q", out.Value.Text)
		}
	})
}

func TestRunIsSafeForConcurrentToolCalls(t *testing.T) {
	t.Parallel()
	e := mustEngine(t, warden.Spec{ToolCall: []warden.Entry{entry("a", allowTool())}})
	run, _ := e.StartRun(context.Background(), warden.RunInfo{})
	defer run.Close()
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := run.ToolCall(context.Background(), bashCall); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(run.Results()); n != 16 {
		t.Errorf("results = %d, want 16", n)
	}
}

func TestParallelHaltTakesEffectWhileASiblingIgnoresCancellation(t *testing.T) {
	t.Parallel()
	stubborn := make(chan struct{}) // the sibling returns only when the test ends
	t.Cleanup(func() { close(stubborn) })
	trip := make(chan struct{})
	ignoresCtx := inputGuard(func(context.Context, warden.InputCheck) (warden.Decision, error) {
		<-stubborn
		return warden.Allow(), nil
	})
	e := mustEngine(t, warden.Spec{
		Input:    []warden.Entry{entry("stubborn", ignoresCtx, parallel), entry("tripper", waitInput(trip, warden.Halt("test.halt", "tripped")), parallel)},
		ToolCall: []warden.Entry{entry("tc", allowTool())},
	})
	run, rctx := e.StartRun(context.Background(), warden.RunInfo{})
	if _, err := run.Input(context.Background(), userInput); err != nil {
		t.Fatal(err)
	}
	close(trip)
	select {
	case <-rctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the run context is still live: the halt waited for a sibling that ignores cancellation")
	}
	done := make(chan error, 1)
	go func() {
		_, err := run.ToolCall(context.Background(), bashCall)
		done <- err
	}()
	select {
	case err := <-done:
		var tw *warden.TripwireError
		if !errors.As(err, &tw) || tw.Guardrail != "tripper" {
			t.Errorf("tool call: %v, want the tripwire", err)
		}
		if diff := cmp.Diff([]summary{{"tripper", "evaluated", "halt", "test.halt"}}, summarize(tw.Results)); diff != "" {
			t.Errorf("tripwire results (-want +got):\n%s", diff)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the tool call waited for a sibling that ignores cancellation")
	}
}

func TestClosingARunCancelsItsParallelGuardrails(t *testing.T) {
	t.Parallel()
	never := make(chan struct{})
	e := mustEngine(t, warden.Spec{Input: []warden.Entry{entry("slow", waitInput(never, warden.Allow()), parallel)}})
	run, _ := e.StartRun(context.Background(), warden.RunInfo{})
	if _, err := run.Input(context.Background(), userInput); err != nil {
		t.Fatal(err)
	}
	run.Close() // returns only once the guardrail has returned: it must see the cancellation
	want := []summary{{"slow", "errored", "halt", "warden.guardrail_error"}}
	if diff := cmp.Diff(want, summarize(run.Results())); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestRunInputWithOnlyBlockingGuardrailsThatPassReturnsANilError(t *testing.T) {
	t.Parallel()
	e := mustEngine(t, warden.Spec{Input: []warden.Entry{entry("guard", allowInput())}})
	run, _ := e.StartRun(context.Background(), warden.RunInfo{})
	defer run.Close()
	if _, err := run.Input(context.Background(), userInput); err != nil {
		t.Fatalf("err = %#v, want nil (a nil *TripwireError must not come back as a non-nil error)", err)
	}
}
