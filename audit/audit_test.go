package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
)

const sentinel = "SENTINEL-c0ffee-arguments"

// Careless guardrails: each quotes its subject in a reason, an error or a skip reason.
func quotingEngine(t *testing.T, rec warden.Recorder) *warden.Engine {
	t.Helper()
	e, err := warden.NewEngine(warden.Spec{
		Input: []warden.Entry{{Name: "in", Guardrail: warden.InputGuardrailFunc(func(_ context.Context, c warden.InputCheck) (warden.Decision, error) {
			return warden.Decision{Action: warden.ActionAllow, Reasons: []warden.Reason{{Code: "test.seen", Message: "saw " + c.Messages[0].Text()}}}, nil
		})}},
		ToolCall: []warden.Entry{
			{Name: "skipper", Guardrail: warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
				return warden.Decision{}, warden.NotApplicable("arguments " + string(c.Call.Arguments))
			})},
			{Name: "quoter", Guardrail: warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
				var a struct{ Path string }
				_ = json.Unmarshal(c.Call.Arguments, &a)
				return warden.Decision{Action: warden.ActionReject, PolicyID: "policy-1", Reasons: []warden.Reason{{Code: "test.path", Message: "path " + a.Path + " is blocked"}},
					Metadata: map[string]string{"args": string(c.Call.Arguments)}}, nil
			})},
		},
		ToolResult: []warden.Entry{{Name: "erring", Guardrail: warden.ToolResultGuardrailFunc(func(_ context.Context, c warden.ToolResultCheck) (warden.Decision, error) {
			return warden.Decision{}, fmt.Errorf("cannot parse %q", c.Result.Content)
		})}},
		Output: []warden.Entry{{Name: "out", Guardrail: warden.OutputGuardrailFunc(func(_ context.Context, c warden.OutputCheck) (warden.Decision, error) {
			return warden.Halt("test.out", "output was: "+c.Output.Text()), nil
		}), Options: warden.Options{Mode: warden.ModeMonitor}}},
		Recorder: rec,
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEventsNeverCarryContent(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	e := quotingEngine(t, audit.NewRecorder(audit.NewJSONL(&buf)))
	ctx := context.Background()
	run := warden.RunInfo{RunID: "run-1", ThreadID: "th-1", AgentID: "agent-1", UserID: "user-" + sentinel, Attributes: map[string]string{"k": sentinel}}
	call := warden.NewToolCall("call-1", "write_file", []byte(`{"path":"/etc/`+sentinel+`","content":"x"}`))
	_, _ = e.CheckInput(ctx, warden.InputCheck{Run: run, Messages: []warden.Message{warden.TextMessage(warden.RoleUser, "please "+sentinel)}})
	_, _ = e.CheckToolCall(ctx, warden.ToolCallCheck{Run: run, Call: call})
	_, _ = e.CheckToolResult(ctx, warden.ToolResultCheck{Run: run, Call: call, Result: warden.ToolResult{CallID: "call-1", Content: "output " + sentinel}})
	_, _ = e.CheckOutput(ctx, warden.OutputCheck{Run: run, Output: warden.TextMessage(warden.RoleAssistant, "done "+sentinel)})

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d events, want one per evaluation (5):\n%s", len(lines), buf.String())
	}
	if strings.Contains(buf.String(), sentinel) {
		t.Errorf("audit output carries content:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), "[redacted]") {
		t.Errorf("nothing was scrubbed, so the careless guardrails did not run:\n%s", buf.String())
	}
}

func TestEventFields(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	e := quotingEngine(t, audit.NewRecorder(audit.NewJSONL(&buf)))
	call := warden.NewToolCall("call-7", "write_file", []byte(`{"path":"/tmp/a"}`))
	_, _ = e.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: warden.RunInfo{RunID: "r", AgentID: "a", IsSubagent: true}, Call: call})
	_, _ = e.CheckOutput(context.Background(), warden.OutputCheck{Output: warden.TextMessage(warden.RoleAssistant, "hi")})
	var evs []audit.Event
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var ev audit.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		evs = append(evs, ev)
	}
	if len(evs) != 3 {
		t.Fatalf("events = %d, want 3", len(evs))
	}
	tests := []struct {
		desc string
		ok   bool
	}{
		{"events carry the format version", evs[0].V == audit.Version && evs[0].Kind == "evaluation"},
		{"a skipped guardrail says so and why", evs[0].Status == "skipped" && strings.HasPrefix(evs[0].Skip, "arguments ")},
		{"an evaluated reject carries action, effect, reasons and policy", evs[1].Status == "evaluated" && evs[1].Action == "reject" && evs[1].Effect == "reject" && evs[1].PolicyID == "policy-1" && evs[1].Reasons[0].Code == "test.path"},
		{"every event of a stage carries the stage's decision", evs[0].Decision == "reject" && evs[1].Decision == "reject"},
		{"tool events name the tool and the call, not the arguments", evs[1].ToolName == "write_file" && evs[1].ToolCallID == "call-7"},
		{"run attribution is kept", evs[1].RunID == "r" && evs[1].AgentID == "a" && evs[1].IsSubagent},
		{"a monitored halt is recorded as would-block and allowed", evs[2].Action == "halt" && evs[2].Effect == "allow" && evs[2].WouldBlock && evs[2].Decision == "allow"},
		{"the time is set", !evs[0].Time.IsZero()},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: events %+v", tt.desc, evs)
		}
	}
}

func TestLongMessagesAreCut(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 400) // 800 bytes
	rec := &warden.Record{Stage: warden.StageOutput, Evaluations: []warden.Evaluation{{Guardrail: "g", Status: warden.StatusEvaluated,
		Decision: warden.Decision{Action: warden.ActionHalt, Reasons: []warden.Reason{{Code: "c", Message: long}}}}}}
	got := audit.Events(rec)[0].Reasons[0].Message
	if len(got) > 504 || !strings.HasSuffix(got, "…") || !json.Valid([]byte(`"`+got+`"`)) {
		t.Errorf("message of %d bytes, want at most 500 plus an ellipsis, on a rune boundary", len(got))
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestAFailedWriteIsCountedAndChangesNoDecision(t *testing.T) {
	t.Parallel()
	rec := audit.NewRecorder(audit.NewJSONL(failingWriter{}))
	var reported error
	rec.OnError = func(err error) { reported = err }
	e := quotingEngine(t, rec)
	out, _ := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "t", []byte(`{}`))})
	if out.Decision.Action != warden.ActionReject {
		t.Errorf("decision = %s, want the guardrail's reject", out.Decision.Action)
	}
	if rec.Failed() != 1 || reported == nil {
		t.Errorf("failed = %d, reported %v; want the failure counted and reported", rec.Failed(), reported)
	}
}
