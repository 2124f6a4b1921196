package warden_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/google/go-cmp/cmp"
)

// summary is the part of an evaluation a behaviour is about.
type summary struct {
	Guardrail string
	Status    string
	Effect    string
	Code      string
}

func summarize(evs []warden.Evaluation) []summary {
	out := make([]summary, len(evs))
	for i, ev := range evs {
		out[i] = summary{Guardrail: ev.Guardrail, Status: ev.Status.String(), Effect: ev.Effect.String()}
		if len(ev.Decision.Reasons) > 0 {
			out[i].Code = ev.Decision.Reasons[0].Code
		}
	}
	return out
}

func toolGuard(d warden.Decision, err error) warden.ToolCallGuardrailFunc {
	return func(context.Context, warden.ToolCallCheck) (warden.Decision, error) { return d, err }
}

func allowTool() warden.ToolCallGuardrailFunc { return toolGuard(warden.Allow(), nil) }

func entry(name string, g any, opts ...func(*warden.Options)) warden.Entry {
	e := warden.Entry{Name: name, Guardrail: g}
	for _, o := range opts {
		o(&e.Options)
	}
	return e
}

func failOpen(o *warden.Options) { o.FailOpen = true }
func monitor(o *warden.Options)  { o.Mode = warden.ModeMonitor }
func off(o *warden.Options)      { o.Mode = warden.ModeOff }
func parallel(o *warden.Options) { o.Execution = warden.ExecutionParallel }
func timeout(d time.Duration) func(*warden.Options) {
	return func(o *warden.Options) { o.Timeout = d }
}
func tools(p ...string) func(*warden.Options) { return func(o *warden.Options) { o.Tools = p } }

func mustEngine(t *testing.T, spec warden.Spec) *warden.Engine {
	t.Helper()
	e, err := warden.NewEngine(spec)
	if err != nil {
		t.Fatalf("NewEngine: %v", err)
	}
	return e
}

var bashCall = warden.NewToolCall("call_1", "bash", []byte(`{"command":"ls -la"}`))

func TestToolCallStage(t *testing.T) {
	t.Parallel()
	hang := warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
		time.Sleep(2 * time.Second) // ignores its context on purpose
		return warden.Allow(), nil
	})
	modifyArgs := warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
		c.Call.Arguments = json.RawMessage(`{"command":"ls"}`)
		return warden.Modify(c.Call, warden.Reason{Code: "test.normalized"}), nil
	})
	seesModified := warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
		if string(c.Call.Arguments) != `{"command":"ls"}` {
			return warden.Reject("test.unmodified", "saw the original arguments"), nil
		}
		return warden.Allow(), nil
	})
	tests := []struct {
		desc        string
		call        warden.ToolCall
		entries     []warden.Entry
		wantAction  warden.Action
		wantMessage string
		wantArgs    string
		wantErr     error
		want        []summary
	}{
		{
			desc:       "allows when every guardrail allows, recording each in definition order",
			entries:    []warden.Entry{entry("a", allowTool()), entry("b", allowTool())},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "evaluated", "allow", ""}, {"b", "evaluated", "allow", ""}},
		},
		{
			desc:        "first reject short-circuits and later guardrails are recorded as not reached",
			entries:     []warden.Entry{entry("a", toolGuard(warden.Reject("oap.tool_not_allowed", "tool 'bash' is denied"), nil)), entry("b", allowTool())},
			wantAction:  warden.ActionReject,
			wantMessage: "Guardrail denied: tool 'bash' was blocked (oap.tool_not_allowed). Reason: tool 'bash' is denied. Choose an alternative approach.",
			want:        []summary{{"a", "evaluated", "reject", "oap.tool_not_allowed"}, {"b", "skipped", "allow", ""}},
		},
		{
			desc:       "halt ends the run with a tripwire error",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Halt("test.halt", "stop everything"), nil)), entry("b", allowTool())},
			wantAction: warden.ActionHalt,
			wantErr:    &warden.TripwireError{},
			want:       []summary{{"a", "evaluated", "halt", "test.halt"}, {"b", "skipped", "allow", ""}},
		},
		{
			desc:       "modify chains: the next guardrail sees the replacement, and the outcome carries it",
			entries:    []warden.Entry{entry("normalize", modifyArgs), entry("check", seesModified)},
			wantAction: warden.ActionModify,
			wantArgs:   `{"command":"ls"}`,
			want:       []summary{{"normalize", "evaluated", "modify", "test.normalized"}, {"check", "evaluated", "allow", ""}},
		},
		{
			desc:        "an error fails closed with oap.evaluator_error",
			entries:     []warden.Entry{entry("a", toolGuard(warden.Decision{}, errors.New("provider down")))},
			wantAction:  warden.ActionReject,
			wantMessage: "Guardrail denied: tool 'bash' was blocked (oap.evaluator_error). Reason: guardrail provider error (fail-closed). Choose an alternative approach.",
			want:        []summary{{"a", "errored", "reject", "oap.evaluator_error"}},
		},
		{
			desc:       "an error in a fail-open guardrail allows and is still recorded as errored",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Decision{}, errors.New("provider down")), failOpen), entry("b", allowTool())},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "errored", "allow", "oap.evaluator_error"}, {"b", "evaluated", "allow", ""}},
		},
		{
			desc: "a panic is recovered and denies",
			entries: []warden.Entry{entry("a", warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
				panic("boom")
			}))},
			wantAction: warden.ActionReject,
			want:       []summary{{"a", "errored", "reject", "oap.evaluator_error"}},
		},
		{
			desc:       "a decision without an action denies",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Decision{}, nil))},
			wantAction: warden.ActionReject,
			want:       []summary{{"a", "errored", "reject", "oap.evaluator_error"}},
		},
		{
			desc:       "an action the stage does not accept denies",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Retry("test.retry", "again"), nil))},
			wantAction: warden.ActionReject,
			want:       []summary{{"a", "errored", "reject", "oap.evaluator_error"}},
		},
		{
			desc:       "a modify whose replacement has the wrong type denies",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Modify("not a tool call"), nil))},
			wantAction: warden.ActionReject,
			want:       []summary{{"a", "errored", "reject", "oap.evaluator_error"}},
		},
		{
			desc:       "monitor mode records the reject it would have made and allows",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Reject("test.deny", "no"), nil), monitor), entry("b", allowTool())},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "evaluated", "allow", "test.deny"}, {"b", "evaluated", "allow", ""}},
		},
		{
			desc:       "monitor mode allows when the guardrail errors",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Decision{}, errors.New("down")), monitor)},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "errored", "allow", "oap.evaluator_error"}},
		},
		{
			desc:       "mode off skips the guardrail",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Reject("test.deny", "no"), nil), off)},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "skipped", "allow", ""}},
		},
		{
			desc:       "a guardrail limited to other tools is skipped",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Reject("test.deny", "no"), nil), tools("mcp__*", "github_*"))},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "skipped", "allow", ""}},
		},
		{
			desc:       "a guardrail whose tool pattern matches is evaluated",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Reject("test.deny", "no"), nil), tools("ba*"))},
			wantAction: warden.ActionReject,
			want:       []summary{{"a", "evaluated", "reject", "test.deny"}},
		},
		{
			desc:       "a guardrail that says it does not apply is skipped",
			entries:    []warden.Entry{entry("a", toolGuard(warden.Decision{}, warden.NotApplicable("no shell command"))), entry("b", allowTool())},
			wantAction: warden.ActionAllow,
			want:       []summary{{"a", "skipped", "allow", ""}, {"b", "evaluated", "allow", ""}},
		},
		{
			desc:       "a guardrail that ignores its context is abandoned at its timeout and denies",
			entries:    []warden.Entry{entry("slow", hang, timeout(20*time.Millisecond))},
			wantAction: warden.ActionReject,
			want:       []summary{{"slow", "errored", "reject", "oap.evaluator_error"}},
		},
		{
			desc:       "a fail-open guardrail that times out allows",
			entries:    []warden.Entry{entry("slow", hang, timeout(20*time.Millisecond), failOpen)},
			wantAction: warden.ActionAllow,
			want:       []summary{{"slow", "errored", "allow", "oap.evaluator_error"}},
		},
		{
			desc:        "an incomplete call is rejected before any guardrail runs",
			call:        warden.NewToolCall("call_2", "bash", []byte(`{"command":"rm -rf /tm`)),
			entries:     []warden.Entry{entry("a", allowTool())},
			wantAction:  warden.ActionReject,
			wantMessage: "Guardrail denied: tool 'bash' was blocked (warden.incomplete_tool_call). Reason: the call's arguments were cut off or are not valid JSON. Choose an alternative approach.",
			want:        []summary{{"a", "skipped", "allow", ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			e := mustEngine(t, warden.Spec{ToolCall: tt.entries})
			call := tt.call
			if call.Name == "" {
				call = bashCall
			}
			out, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: call})
			if tt.wantErr != nil {
				var tw *warden.TripwireError
				if !errors.As(err, &tw) {
					t.Fatalf("err = %v, want a *TripwireError", err)
				}
				if tw.Stage != warden.StageToolCall || tw.Guardrail != tt.entries[0].Name || len(tw.Results) != len(tt.entries) {
					t.Errorf("tripwire = stage %s guardrail %q with %d results", tw.Stage, tw.Guardrail, len(tw.Results))
				}
			} else if err != nil {
				t.Fatalf("err = %v", err)
			}
			if out.Decision.Action != tt.wantAction {
				t.Errorf("action = %s, want %s", out.Decision.Action, tt.wantAction)
			}
			switch {
			case tt.wantMessage != "" && out.Message != tt.wantMessage:
				t.Errorf("message = %q\nwant      %q", out.Message, tt.wantMessage)
			case tt.wantAction == warden.ActionReject && !strings.HasPrefix(out.Message, "Guardrail denied: tool 'bash' was blocked ("):
				t.Errorf("message = %q, want the deny message", out.Message)
			case tt.wantAction != warden.ActionReject && out.Message != "":
				t.Errorf("message = %q, want none", out.Message)
			}
			if tt.wantArgs != "" && string(out.Value.Arguments) != tt.wantArgs {
				t.Errorf("arguments = %s, want %s", out.Value.Arguments, tt.wantArgs)
			}
			if diff := cmp.Diff(tt.want, summarize(out.Evaluations)); diff != "" {
				t.Errorf("evaluations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluationDetails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		entry warden.Entry
		check func(t *testing.T, ev warden.Evaluation)
	}{
		{
			desc: "a recovered panic is a *PanicError",
			entry: entry("p", warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
				panic("boom")
			})),
			check: func(t *testing.T, ev warden.Evaluation) {
				var pe *warden.PanicError
				if !errors.As(ev.Err, &pe) || pe.Value != "boom" {
					t.Errorf("err = %v, want a PanicError for boom", ev.Err)
				}
			},
		},
		{
			desc: "a timeout is ErrTimeout",
			entry: entry("t", warden.ToolCallGuardrailFunc(func(ctx context.Context, _ warden.ToolCallCheck) (warden.Decision, error) {
				<-ctx.Done()
				return warden.Decision{}, ctx.Err()
			}), timeout(10*time.Millisecond)),
			check: func(t *testing.T, ev warden.Evaluation) {
				if !errors.Is(ev.Err, warden.ErrTimeout) {
					t.Errorf("err = %v, want ErrTimeout", ev.Err)
				}
			},
		},
		{
			desc:  "an unset action is ErrNoAction",
			entry: entry("u", toolGuard(warden.Decision{}, nil)),
			check: func(t *testing.T, ev warden.Evaluation) {
				if !errors.Is(ev.Err, warden.ErrNoAction) {
					t.Errorf("err = %v, want ErrNoAction", ev.Err)
				}
			},
		},
		{
			desc:  "the skip reason of a guardrail that does not apply is recorded",
			entry: entry("n", toolGuard(warden.Decision{}, warden.NotApplicable("no shell command"))),
			check: func(t *testing.T, ev warden.Evaluation) {
				if ev.Skip != "no shell command" {
					t.Errorf("skip = %q", ev.Skip)
				}
			},
		},
		{
			desc:  "monitor mode keeps the would-be decision and reports WouldBlock",
			entry: entry("m", toolGuard(warden.Reject("test.deny", "no"), nil), monitor),
			check: func(t *testing.T, ev warden.Evaluation) {
				if !ev.WouldBlock() || ev.Decision.Action != warden.ActionReject {
					t.Errorf("WouldBlock = %v, decision %s", ev.WouldBlock(), ev.Decision.Action)
				}
			},
		},
		{
			desc: "the duration of an evaluation is measured",
			entry: entry("d", warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
				time.Sleep(5 * time.Millisecond)
				return warden.Allow(), nil
			})),
			check: func(t *testing.T, ev warden.Evaluation) {
				if ev.Duration < 5*time.Millisecond {
					t.Errorf("duration = %s, want at least 5ms", ev.Duration)
				}
			},
		},
		{
			desc:  "the decision names the guardrail that made it",
			entry: entry("named", toolGuard(warden.Reject("c", "m"), nil)),
			check: func(t *testing.T, ev warden.Evaluation) {
				if ev.Decision.Guardrail != "named" {
					t.Errorf("decision guardrail = %q", ev.Decision.Guardrail)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			e := mustEngine(t, warden.Spec{ToolCall: []warden.Entry{tt.entry}})
			out, _ := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: bashCall})
			tt.check(t, out.Evaluations[0])
		})
	}
}

func TestCancelledContextDeniesEvenWhenFailOpen(t *testing.T) {
	t.Parallel()
	called := false
	g := warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
		called = true
		return warden.Allow(), nil
	})
	e := mustEngine(t, warden.Spec{ToolCall: []warden.Entry{entry("a", g, failOpen)}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, _ := e.CheckToolCall(ctx, warden.ToolCallCheck{Call: bashCall})
	if out.Allowed() || called {
		t.Errorf("allowed = %v, guardrail called = %v; want a deny without calling it", out.Allowed(), called)
	}
	if !errors.Is(out.Evaluations[0].Err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", out.Evaluations[0].Err)
	}
}

func TestToolCallCheckGetsTime(t *testing.T) {
	t.Parallel()
	var got time.Time
	g := warden.ToolCallGuardrailFunc(func(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
		got = c.Time
		return warden.Allow(), nil
	})
	e := mustEngine(t, warden.Spec{ToolCall: []warden.Entry{entry("a", g)}})
	before := time.Now()
	if _, err := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: bashCall}); err != nil {
		t.Fatal(err)
	}
	if got.Before(before) || time.Since(got) > time.Minute {
		t.Errorf("check time = %v, want about now", got)
	}
}

func TestDenyMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		tool string
		d    warden.Decision
		want string
	}{
		{"uses the first reason's code and message", "bash", warden.Decision{Action: warden.ActionReject, Reasons: []warden.Reason{{"oap.blocked_pattern", "pattern matched"}, {"x", "y"}}},
			"Guardrail denied: tool 'bash' was blocked (oap.blocked_pattern). Reason: pattern matched. Choose an alternative approach."},
		{"falls back to oap.denied when there are no reasons", "write_file", warden.Decision{Action: warden.ActionReject},
			"Guardrail denied: tool 'write_file' was blocked (oap.denied). Reason: blocked by guardrail policy. Choose an alternative approach."},
		{"keeps an empty reason message as the seed does", "bash", warden.Reject("oap.denied", ""),
			"Guardrail denied: tool 'bash' was blocked (oap.denied). Reason: . Choose an alternative approach."},
		{"keeps an empty tool name", "", warden.Reject("oap.tool_not_allowed", "all tools blocked"),
			"Guardrail denied: tool '' was blocked (oap.tool_not_allowed). Reason: all tools blocked. Choose an alternative approach."},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := warden.DenyMessage(tt.tool, tt.d); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestNewToolCallCompleteness(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		args string
		want bool
	}{
		{"a JSON object is complete", `{"a":1}`, true},
		{"empty arguments are complete", ``, true},
		{"truncated JSON is incomplete", `{"a":`, false},
		{"two values are incomplete", `{} {}`, false},
		{"non-JSON is incomplete", `ls -la`, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := warden.NewToolCall("id", "t", []byte(tt.args)).Complete; got != tt.want {
				t.Errorf("Complete = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewEngineRejectsBadSpecs(t *testing.T) {
	t.Parallel()
	output := warden.OutputGuardrailFunc(func(context.Context, warden.OutputCheck) (warden.Decision, error) { return warden.Allow(), nil })
	tests := []struct {
		desc string
		spec warden.Spec
		want string
	}{
		{"a guardrail without a name", warden.Spec{ToolCall: []warden.Entry{{Guardrail: allowTool()}}}, "tool_call guardrail 1: no name"},
		{"a name used twice in a stage", warden.Spec{ToolCall: []warden.Entry{entry("a", allowTool()), entry("a", allowTool())}}, "name used twice"},
		{"a nil guardrail", warden.Spec{ToolCall: []warden.Entry{{Name: "a"}}}, "nil guardrail"},
		{"a guardrail of another stage", warden.Spec{ToolCall: []warden.Entry{entry("a", output)}}, "does not implement warden.ToolCallGuardrail"},
		{"parallel execution outside the input stage", warden.Spec{ToolCall: []warden.Entry{entry("a", allowTool(), parallel)}}, "parallel applies to input guardrails only"},
		{"a tools filter outside the tool stages", warden.Spec{Output: []warden.Entry{entry("a", output, tools("x"))}}, "tools applies to tool_call and tool_result"},
		{"a malformed tool pattern", warden.Spec{ToolCall: []warden.Entry{entry("a", allowTool(), tools("[x"))}}, `tool pattern "[x"`},
		{"a negative timeout", warden.Spec{ToolCall: []warden.Entry{entry("a", allowTool(), timeout(-time.Second))}}, "negative timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := warden.NewEngine(tt.spec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestNewEngineReportsEveryProblem(t *testing.T) {
	t.Parallel()
	_, err := warden.NewEngine(warden.Spec{
		ToolCall: []warden.Entry{{Guardrail: allowTool()}},
		Output:   []warden.Entry{{Name: "o"}},
	})
	if err == nil || !strings.Contains(err.Error(), "no name") || !strings.Contains(err.Error(), "nil guardrail") {
		t.Errorf("err = %v, want both problems", err)
	}
}

func TestGuardrailsListsNamesInDefinitionOrder(t *testing.T) {
	t.Parallel()
	in := warden.InputGuardrailFunc(func(context.Context, warden.InputCheck) (warden.Decision, error) { return warden.Allow(), nil })
	e := mustEngine(t, warden.Spec{Input: []warden.Entry{entry("p1", in, parallel), entry("b1", in), entry("p2", in, parallel)}})
	if diff := cmp.Diff([]string{"p1", "b1", "p2"}, e.Guardrails(warden.StageInput)); diff != "" {
		t.Error(diff)
	}
}

func TestHasAgreesWithGuardrails(t *testing.T) {
	t.Parallel()
	in := warden.InputGuardrailFunc(func(context.Context, warden.InputCheck) (warden.Decision, error) { return warden.Allow(), nil })
	out := warden.OutputGuardrailFunc(func(context.Context, warden.OutputCheck) (warden.Decision, error) { return warden.Allow(), nil })
	tests := []struct {
		desc string
		spec warden.Spec
	}{
		{desc: "an engine without guardrails has none at any stage", spec: warden.Spec{}},
		{desc: "parallel input guardrails count as input guardrails", spec: warden.Spec{Input: []warden.Entry{entry("p", in, parallel)}}},
		{desc: "an output guardrail is at the output stage only", spec: warden.Spec{Output: []warden.Entry{{Name: "o", Guardrail: out}}}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			e := mustEngine(t, tt.spec)
			for _, s := range warden.Stages {
				if got, want := e.Has(s), len(e.Guardrails(s)) > 0; got != want {
					t.Errorf("Has(%s) = %v, want %v", s, got, want)
				}
			}
		})
	}
}

// denyByName denies every call of the tools it names, and says so from the name alone.
type denyByName []string

func (d denyByName) DeniesTool(name string) bool { return slices.Contains(d, name) }

func (d denyByName) CheckToolCall(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	if d.DeniesTool(c.Call.Name) {
		return warden.Reject("test.denied", "denied by name"), nil
	}
	return warden.Allow(), nil
}

// A listing may leave out a tool only when an enforcing guardrail that applies to it denies it by name.
func TestDeniesTool(t *testing.T) {
	t.Parallel()
	byArgs := warden.ToolCallGuardrailFunc(func(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
		return warden.Reject("test.args", "denied by its arguments"), nil
	})
	for _, tc := range []struct {
		desc  string
		entry warden.Entry
		tool  string
		want  bool
	}{
		{"a guardrail that denies the name", warden.Entry{Name: "d", Guardrail: denyByName{"rm"}}, "rm", true},
		{"a name it does not deny", warden.Entry{Name: "d", Guardrail: denyByName{"rm"}}, "ls", false},
		{"a guardrail in monitor mode hides nothing", warden.Entry{Name: "d", Guardrail: denyByName{"rm"}, Options: warden.Options{Mode: warden.ModeMonitor}}, "rm", false},
		{"a guardrail off hides nothing", warden.Entry{Name: "d", Guardrail: denyByName{"rm"}, Options: warden.Options{Mode: warden.ModeOff}}, "rm", false},
		{"a guardrail limited to other tools hides nothing", warden.Entry{Name: "d", Guardrail: denyByName{"rm"}, Options: warden.Options{Tools: []string{"mcp__*"}}}, "rm", false},
		{"a guardrail limited to the tool hides it", warden.Entry{Name: "d", Guardrail: denyByName{"mcp__x__rm"}, Options: warden.Options{Tools: []string{"mcp__*"}}}, "mcp__x__rm", true},
		{"a guardrail that judges arguments never hides a tool", warden.Entry{Name: "a", Guardrail: byArgs}, "rm", false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			e, err := warden.NewEngine(warden.Spec{ToolCall: []warden.Entry{tc.entry}})
			if err != nil {
				t.Fatal(err)
			}
			if got := e.DeniesTool(tc.tool); got != tc.want {
				t.Errorf("DeniesTool(%q) = %v, want %v", tc.tool, got, tc.want)
			}
		})
	}
}

// A call the surface denied before any guardrail ran is recorded like any other: the engine's decision,
// every guardrail skipped with why, the model's message.
func TestDenyToolCall(t *testing.T) {
	t.Parallel()
	var got []*warden.Record
	e, err := warden.NewEngine(warden.Spec{
		ToolCall: []warden.Entry{{Name: "d", Guardrail: denyByName{"rm"}}},
		Recorder: warden.RecorderFunc(func(_ context.Context, r *warden.Record) { got = append(got, r) }),
	})
	if err != nil {
		t.Fatal(err)
	}
	out := e.DenyToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c1", "mcp__db__write", []byte(`{"q":"x"}`))}, "warden.cross_server_flow", "its arguments carry a secret read from server 'files'")
	if out.Allowed() || !strings.Contains(out.Message, "Guardrail denied: tool 'mcp__db__write' was blocked (warden.cross_server_flow)") {
		t.Errorf("outcome %+v", out)
	}
	if len(got) != 1 || got[0].Stage != warden.StageToolCall || got[0].Decision.Guardrail != "warden" || len(got[0].Evaluations) != 1 ||
		got[0].Evaluations[0].Status != warden.StatusSkipped || !strings.Contains(got[0].Evaluations[0].Skip, "warden.cross_server_flow") {
		t.Errorf("records %+v", got)
	}
}
