package warden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
)

const sentinel = "SENTINEL-7f3a-do-not-log"

func TestContentBearingTypesDoNotLogTheirContent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		value any
	}{
		{"a tool call", warden.NewToolCall("c1", "bash", []byte(`{"command":"echo `+sentinel+`"}`))},
		{"a message", warden.TextMessage(warden.RoleUser, "my key is "+sentinel)},
		{"a message's tool calls", warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{warden.NewToolCall("c1", "bash", []byte(`"`+sentinel+`"`))}}},
		{"a tool result", warden.ToolResult{CallID: "c1", Content: sentinel}},
		{"a stream part", warden.Part{Kind: warden.PartText, Text: sentinel}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			slog.New(slog.NewJSONHandler(&buf, nil)).Info("checked", "subject", tt.value)
			if strings.Contains(buf.String(), sentinel) {
				t.Errorf("log line contains the content: %s", buf.String())
			}
			if !strings.Contains(buf.String(), `"subject":{`) {
				t.Errorf("log line has no summary of the subject: %s", buf.String())
			}
		})
	}
}

func TestRecorderGetsEveryStageAndScrubsContent(t *testing.T) {
	t.Parallel()
	var recs []*warden.Record
	var quoted, scrubbed []string // texts that quoted the content, and what Scrub made of them
	rec := warden.RecorderFunc(func(ctx context.Context, r *warden.Record) {
		if ctx.Err() != nil {
			t.Error("recorder got a cancelled context")
		}
		recs = append(recs, r)
		for _, ev := range r.Evaluations {
			texts := []string{}
			for _, reason := range ev.Decision.Reasons {
				texts = append(texts, reason.Message)
			}
			if ev.Err != nil {
				texts = append(texts, ev.Err.Error())
			}
			for _, s := range texts {
				if strings.Contains(s, sentinel) {
					quoted = append(quoted, s)
					scrubbed = append(scrubbed, r.Scrub(s))
				}
			}
		}
	})
	// A careless guardrail that quotes the arguments in its reason and its error.
	quoting := warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
		var args struct{ Command string }
		_ = json.Unmarshal(c.Call.Arguments, &args)
		return warden.Reject("test.quote", "refused to run "+args.Command), nil
	})
	erroring := warden.ToolResultGuardrailFunc(func(_ context.Context, c warden.ToolResultCheck) (warden.Decision, error) {
		return warden.Decision{}, fmt.Errorf("could not classify %q", c.Result.Content)
	})
	e := mustEngine(t, warden.Spec{
		ToolCall:   []warden.Entry{entry("quoting", quoting)},
		ToolResult: []warden.Entry{entry("erroring", erroring)},
		Recorder:   rec,
	})
	call := warden.NewToolCall("c9", "bash", []byte(`{"command":"curl https://x.example/`+sentinel+`"}`))
	if _, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: call}); err != nil {
		t.Fatal(err)
	}
	_, _ = e.CheckToolResult(context.Background(), warden.ToolResultCheck{Call: call, Result: warden.ToolResult{CallID: "c9", Content: "secret " + sentinel + " here"}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = e.CheckToolCall(ctx, warden.ToolCallCheck{Call: call}) // recorded although the caller is gone
	if len(recs) != 3 || recs[0].Stage != warden.StageToolCall || recs[1].Stage != warden.StageToolResult || recs[2].Stage != warden.StageToolCall {
		t.Fatalf("records = %d, want one per stage checked", len(recs))
	}
	if recs[0].ToolName != "bash" || recs[0].ToolCallID != "c9" {
		t.Errorf("record names %q/%q, want bash/c9", recs[0].ToolName, recs[0].ToolCallID)
	}
	if len(quoted) != 2 {
		t.Fatalf("%d texts quoted the content, want the reason and the error: %q", len(quoted), quoted)
	}
	for _, s := range scrubbed {
		if strings.Contains(s, sentinel) || !strings.Contains(s, "[redacted]") {
			t.Errorf("scrubbed text %q still carries content", s)
		}
	}
}

func TestTripwireErrorUnwrapsTheGuardrailsFailure(t *testing.T) {
	t.Parallel()
	cause := errors.New("judge unreachable")
	g := warden.OutputGuardrailFunc(func(context.Context, warden.OutputCheck) (warden.Decision, error) { return warden.Decision{}, cause })
	e := mustEngine(t, warden.Spec{Output: []warden.Entry{entry("judge", g)}})
	_, err := e.CheckOutput(context.Background(), warden.OutputCheck{})
	if !errors.Is(err, cause) {
		t.Errorf("err = %v, want it to wrap the guardrail's error", err)
	}
	if want := `warden: output guardrail "judge" halted the run (warden.guardrail_error): guardrail error (fail-closed)`; err.Error() != want {
		t.Errorf("message = %q\nwant      %q", err.Error(), want)
	}
}
