package trace_test

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden/trace"
	"github.com/google/go-cmp/cmp"
)

// readAll reads every trace, collecting record errors as strings.
func readAll(t *testing.T, in string, f trace.Format) ([]*trace.Trace, []string) {
	t.Helper()
	r := trace.NewReader(strings.NewReader(in), f, "in.jsonl")
	var out []*trace.Trace
	var errs []string
	for {
		tr, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, errs
		}
		var re *trace.Error
		if errors.As(err, &re) {
			errs = append(errs, err.Error())
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
}

// summary is what the tests compare: the events in a short form.
func summary(tr *trace.Trace) []string {
	var s []string
	for _, e := range tr.Events {
		x := string(e.Type)
		if e.Name != "" {
			x += " " + e.Name
		}
		if len(e.Arguments) > 0 {
			x += " " + string(e.Arguments)
		}
		if e.Content != "" {
			x += ": " + e.Content
		}
		s = append(s, x)
	}
	return s
}

func TestReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		format   trace.Format
		in       string
		recorded []bool
		events   [][]string
		input    []string
		output   []string
		errs     []string
	}{
		{
			desc:     "warden trace with events has them recorded",
			in:       `{"id":"a","scope":"fix the test","messages":[{"role":"user","content":"fix it"}],"events":[{"type":"tool_call","name":"bash","arguments":{"command":"go test"}},{"type":"agent_message","content":"done"}]}`,
			recorded: []bool{true},
			events:   [][]string{{`tool_call bash {"command":"go test"}`, "agent_message: done"}},
			input:    []string{"fix it"},
			output:   []string{"done"},
		},
		{
			desc:     "warden trace without events key was not recorded",
			format:   trace.Warden,
			in:       `{"id":"a","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`,
			recorded: []bool{false},
			events:   [][]string{nil},
			input:    []string{"hi"},
			output:   []string{"hello"},
		},
		{
			desc:     "warden trace with an empty events list recorded that nothing happened",
			in:       `{"id":"a","output":"I deployed it","events":[]}`,
			recorded: []bool{true},
			events:   [][]string{nil},
			input:    []string{""},
			output:   []string{"I deployed it"},
		},
		{
			desc:     "warden trace with an unknown key is an error naming the line, and reading goes on",
			in:       "{\"id\":\"a\",\"outptu\":\"x\",\"events\":[]}\n\n{\"id\":\"b\",\"output\":\"y\"}",
			errs:     []string{`in.jsonl:1: warden trace: json: unknown field "outptu"`},
			recorded: []bool{false}, events: [][]string{nil}, input: []string{""}, output: []string{"y"},
		},
		{
			desc: "warden event of an unknown type is an error",
			in:   `{"id":"a","events":[{"type":"tool_use","name":"x"}]}`,
			errs: []string{`in.jsonl:1: events[0]: unknown event type "tool_use" (known: user_message, agent_thought, tool_call, tool_result, agent_message)`},
		},
		{
			desc:     "evaluation record keeps raw arguments as a string",
			in:       `{"id":"e","detector":"scope_escalation","input":"list files","output":"ok","label":true,"meta":{"label_quality":"human"},"trace_events":[{"type":"tool_call","name":"bash","arguments":{"_raw":"rm -rf /"}},{"type":"tool_result","content":"done"}]}`,
			recorded: []bool{true},
			events:   [][]string{{`tool_call bash "rm -rf /"`, "tool_result: done"}},
			input:    []string{"list files"},
			output:   []string{"ok"},
		},
		{
			desc:     "evaluation record without trace_events was not recorded",
			in:       `{"id":"e","detector":"over_refusal","input":"q","output":"I cannot help.","label":false,"meta":{}}`,
			recorded: []bool{false},
			events:   [][]string{nil},
			input:    []string{"q"},
			output:   []string{"I cannot help."},
		},
		{
			desc: "openai transcript pairs tool results with their calls",
			in: `{"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"weather?"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]},` +
				`{"role":"tool","tool_call_id":"c1","content":"rain"},{"role":"assistant","content":[{"type":"text","text":"It rains."}]}]}`,
			recorded: []bool{true},
			events:   [][]string{{"user_message: weather?", `tool_call get_weather {"city":"Oslo"}`, "tool_result get_weather: rain", "agent_message: It rains."}},
			input:    []string{"weather?"},
			output:   []string{"It rains."},
		},
		{
			desc:     "openai arguments that are not JSON are kept as a string",
			in:       `{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","function":{"name":"bash","arguments":"ls -la"}}]}]}`,
			recorded: []bool{true},
			events:   [][]string{{`tool_call bash "ls -la"`}},
			input:    []string{""},
			output:   []string{""},
		},
		{
			desc: "anthropic transcript reads thinking, tool_use and tool_result blocks",
			in: `{"system":"You are terse.","messages":[{"role":"user","content":"list"},` +
				`{"role":"assistant","content":[{"type":"thinking","thinking":"use ls"},{"type":"tool_use","id":"t1","name":"bash","input":{"command":"ls"}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.go"}]}]},` +
				`{"role":"assistant","content":[{"type":"text","text":"One file."}]}]}`,
			recorded: []bool{true},
			events:   [][]string{{"user_message: list", "agent_thought: use ls", `tool_call bash {"command":"ls"}`, "tool_result bash: a.go", "agent_message: One file."}},
			input:    []string{"list"},
			output:   []string{"One file."},
		},
		{
			desc:     "a document that is one array of messages is one transcript",
			in:       "[\n {\"role\":\"user\",\"content\":\"hi\"},\n {\"role\":\"assistant\",\"content\":\"hello\"}\n]",
			recorded: []bool{true},
			events:   [][]string{{"user_message: hi", "agent_message: hello"}},
			input:    []string{"hi"},
			output:   []string{"hello"},
		},
		{
			desc:     "a document that is an array of records reads each",
			in:       "[\n{\"id\":\"a\",\"output\":\"x\"},\n{\"id\":\"b\",\"output\":\"y\",\"events\":[]}\n]",
			recorded: []bool{false, true},
			events:   [][]string{nil, nil},
			input:    []string{"", ""},
			output:   []string{"x", "y"},
		},
		{
			desc:     "a bad record in an array is named and the records after it are still read",
			in:       "[\n{\"id\":\"a\",\"outptu\":\"x\",\"events\":[]},\n{\"id\":\"b\",\"output\":\"y\"}\n]",
			errs:     []string{`in.jsonl: record 1: warden trace: json: unknown field "outptu"`},
			recorded: []bool{false},
			events:   [][]string{nil},
			input:    []string{""},
			output:   []string{"y"},
		},
		{
			desc: "a record whose format cannot be told is an error",
			in:   `{"prompt":"x"}`,
			errs: []string{"in.jsonl:1: cannot tell the record's format from its keys (use --input-format)"},
		},
		{
			desc:     "messages alone are read as a transcript, which records events",
			in:       `{"id":"a","messages":[{"role":"user","content":"hi"}]}`,
			recorded: []bool{true},
			events:   [][]string{{"user_message: hi"}},
			input:    []string{"hi"},
			output:   []string{""},
		},
		{
			desc:   "a named format is used without guessing",
			format: trace.OpenAI,
			in:     `{"id":"x","output":"y"}`,
			errs:   []string{`in.jsonl:1: a transcript needs a "messages" array`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			f := tc.format
			if f == "" {
				f = trace.Auto
			}
			got, errs := readAll(t, tc.in, f)
			if diff := cmp.Diff(tc.errs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if len(got) != len(tc.recorded) {
				t.Fatalf("got %d traces, want %d", len(got), len(tc.recorded))
			}
			for i, tr := range got {
				if tr.EventsRecorded != tc.recorded[i] {
					t.Errorf("trace %d: EventsRecorded = %v, want %v", i, tr.EventsRecorded, tc.recorded[i])
				}
				if diff := cmp.Diff(tc.events[i], summary(tr)); diff != "" {
					t.Errorf("trace %d events (-want +got):\n%s", i, diff)
				}
				if tr.Input() != tc.input[i] || tr.FinalOutput() != tc.output[i] {
					t.Errorf("trace %d: input %q output %q, want %q %q", i, tr.Input(), tr.FinalOutput(), tc.input[i], tc.output[i])
				}
			}
		})
	}
}

func TestReaderOTLP(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/otel.json")
	if err != nil {
		t.Fatal(err)
	}
	got, errs := readAll(t, string(data), trace.Auto)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(got) != 1 {
		t.Fatalf("got %d traces, want 1 (the trace without GenAI spans is not one)", len(got))
	}
	tr := got[0]
	want := []string{
		"user_message: Run the tests",
		`tool_call bash {"command":"go test ./..."}`,
		"tool_result bash: ok  example.com/x 0.01s",
		"agent_message: All tests pass.",
	}
	if diff := cmp.Diff(want, summary(tr)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if tr.ID != "t1" || tr.System != "You help with builds." || tr.Scope.Text != "Run the tests" || !tr.EventsRecorded {
		t.Errorf("got id %q system %q scope %q recorded %v", tr.ID, tr.System, tr.Scope.Text, tr.EventsRecorded)
	}
}

func TestTraceJSONKeepsAbsentAndEmptyEventsApart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		in   string
	}{
		{"absent events stay absent", `{"id":"a","output":"x"}`},
		{"empty events stay empty", `{"id":"a","output":"x","events":[]}`},
		{"declared empty categories stay declared", `{"id":"a","scope":{"text":"read","categories":[]},"events":[]}`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got, _ := readAll(t, tc.in, trace.Warden)
			b, err := got[0].MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			again, _ := readAll(t, string(b), trace.Warden)
			if again[0].EventsRecorded != got[0].EventsRecorded || (again[0].Scope.Categories == nil) != (got[0].Scope.Categories == nil) {
				t.Errorf("round trip of %s gave %s", tc.in, b)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	if _, err := trace.ParseFormat("csv"); err == nil || !strings.Contains(err.Error(), "known: auto, warden, eval, openai, anthropic, otel") {
		t.Errorf("ParseFormat(csv) = %v", err)
	}
	if f, err := trace.ParseFormat("OTel"); err != nil || f != trace.OTel {
		t.Errorf("ParseFormat(OTel) = %v, %v", f, err)
	}
}

func TestLabelSaysWhetherAPersonGaveIt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc      string
		label     string
		wantHuman bool
	}{
		{"a label without a quality is the team's, so human", `{"detector":"deception","expected":true}`, true},
		{"a label whose quality is human is human", `{"detector":"deception","expected":true,"quality":"human"}`, true},
		{"a label from an automatic judge is not human", `{"detector":"deception","expected":true,"quality":"automatic judge"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			x, err := trace.NewReader(strings.NewReader(`{"id":"a","output":"x","label":`+tt.label+`}`), trace.Warden, "t").Next()
			if err != nil {
				t.Fatal(err)
			}
			if x.Label.Human != tt.wantHuman {
				t.Errorf("Human = %v, want %v", x.Label.Human, tt.wantHuman)
			}
		})
	}
}
