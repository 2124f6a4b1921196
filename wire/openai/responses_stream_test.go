package openai_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
	"github.com/agentwarden/warden/wire/sse"
	"github.com/openai/openai-go/v3/responses"
)

// responsesStreamRead is what an openai-go client sees of a guarded Responses stream: the items finished
// (output_item.done, by output index, as "type" or "function_call:name"), and the terminal response.
type responsesStreamRead struct {
	done     []string
	final    responses.Response
	indexes  []int
	terminal string
	seqs     []int64 // every event's sequence_number, in the order received
	opened   int     // response.created events
}

// checkSequence fails unless the events' sequence numbers count up from 0, one by one.
func (got responsesStreamRead) checkSequence(t *testing.T) {
	t.Helper()
	for i, n := range got.seqs {
		if n != int64(i) {
			t.Errorf("sequence numbers %v do not count up from 0", got.seqs)
			return
		}
	}
}

func readResponsesStream(t *testing.T, stream []byte) responsesStreamRead {
	t.Helper()
	var got responsesStreamRead
	byIndex := map[int]string{}
	rd := sse.NewReader(bytes.NewReader(stream))
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !ev.HasData {
			continue
		}
		var e responses.ResponseStreamEventUnion
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			t.Fatalf("openai-go cannot read event %q: %v", ev.Data, err)
		}
		got.seqs = append(got.seqs, e.SequenceNumber)
		switch e.Type {
		case "response.created":
			got.opened++
		case "response.output_item.done":
			name := e.Item.Type
			if e.Item.Type == "function_call" {
				name += ":" + e.Item.Name
			}
			byIndex[int(e.OutputIndex)] = name
		case "response.completed", "response.incomplete", "response.failed":
			got.final, got.terminal = e.Response, e.Type
		}
	}
	for i := range byIndex {
		got.indexes = append(got.indexes, i)
	}
	sort.Ints(got.indexes)
	for _, i := range got.indexes {
		got.done = append(got.done, byIndex[i])
	}
	return got
}

func TestGuardResponsesStreamFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture    string
		unchanged  bool
		wantDone   string // items finished, in output index order
		wantFinal  string // the terminal response's item types
		wantInText string
	}{
		{fixture: "responses_stream_function_call", unchanged: true, wantDone: "message function_call:bash", wantFinal: "message,function_call", wantInText: "Running the tests."},
		{fixture: "responses_stream_content_filter", wantDone: "message message", wantFinal: "message,message",
			wantInText: "Writing the file.The model provider stopped this response with a safety-related signal (incomplete_details.reason='content_filter', detector='openai_responses_incomplete'). Any tool calls produced in this turn were suppressed"},
		{fixture: "responses_stream_denied_first_call", wantDone: "message message function_call:bash message", wantFinal: "message,message,function_call,message",
			wantInText: "Cleaning up.Done.Guardrail denied: tool 'bash' was blocked (warden.destructive_delete)"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := openai.GuardResponsesStream(bytes.NewReader(in), &out, nil, pipelinetest.Decide(t), nil); err != nil {
				t.Fatal(err)
			}
			if tt.unchanged && out.String() != string(in) {
				t.Errorf("an unchanged stream was not passed through byte for byte:\n%s", out.String())
			}
			golden.Exact(t, filepath.Join("testdata", tt.fixture+".golden.sse"), out.Bytes(), *update)
			readResponsesStream(t, out.Bytes()).check(t, tt.wantDone, tt.wantFinal, tt.wantInText)
		})
	}
}

// check fails unless the client got the items finished wantDone, a terminal response whose item types are
// wantFinal and whose text has wantInText, items at output indexes without gaps, and sequence numbers
// counting up from 0.
func (got responsesStreamRead) check(t *testing.T, wantDone, wantFinal, wantInText string) {
	t.Helper()
	var final []string
	for _, it := range got.final.Output {
		final = append(final, it.Type)
	}
	for i, idx := range got.indexes {
		if idx != i {
			t.Errorf("output indexes %v have a gap", got.indexes)
			break
		}
	}
	got.checkSequence(t)
	text := strings.ReplaceAll(got.final.OutputText(), "\n", "")
	if strings.Join(got.done, " ") != wantDone || strings.Join(final, ",") != wantFinal || !strings.Contains(text, wantInText) {
		t.Errorf("openai-go sees items %q, final %q, text %q", got.done, final, text)
	}
}

func TestResponsesClientStreamRounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc       string
		rounds     []pipelinetest.Round
		wantDone   string
		wantFinal  string
		wantInText string
	}{
		{desc: "a follow-up's items go on after the items the client has",
			rounds:   []pipelinetest.Round{{Fixture: "responses_stream_denied_first_call", Deny: true}, {Fixture: "responses_stream_function_call"}},
			wantDone: "message message message function_call:bash", wantFinal: "message,message,message,function_call", wantInText: "Cleaning up.Done.Running the tests."},
		{desc: "a third round goes on after both earlier rounds",
			rounds:   []pipelinetest.Round{{Fixture: "responses_stream_denied_first_call", Deny: true}, {Fixture: "responses_stream_denied_first_call", Deny: true}, {Fixture: "responses_stream_text"}},
			wantDone: "message message message message message", wantFinal: "message,message,message,message,message", wantInText: "Cleaning up.Done.Cleaning up.Done."},
		{desc: "a follow-up explained goes on after the items the client has",
			rounds:   []pipelinetest.Round{{Fixture: "responses_stream_denied_first_call", Deny: true}, {Fixture: "responses_stream_denied_first_call"}},
			wantDone: "message message message message function_call:bash message", wantFinal: "message,message,message,message,function_call,message", wantInText: "Guardrail denied"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out := bytes.NewBuffer(pipelinetest.GuardRounds(t, new(openai.ResponsesClientStream), tt.rounds...))
			got := readResponsesStream(t, out.Bytes())
			if got.opened != 1 || strings.Count(out.String(), "event: response.in_progress") != 1 {
				t.Errorf("the client got %d response.created and %d response.in_progress events, want 1 of each", got.opened, strings.Count(out.String(), "event: response.in_progress"))
			}
			if n := strings.Count(out.String(), `"type":"response.completed"`); n != 1 {
				t.Errorf("the client got %d terminal events, want 1 (the last round's)", n)
			}
			got.check(t, tt.wantDone, tt.wantFinal, tt.wantInText)
		})
	}
}

func TestResponsesClientStreamBody(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(filepath.Join("testdata", "responses_stream_denied_first_call.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var terminal struct {
		Response json.RawMessage `json:"response"`
	}
	last := in[bytes.LastIndex(in, []byte("data: "))+len("data: "):]
	if err := json.Unmarshal(bytes.TrimSpace(last), &terminal); err != nil {
		t.Fatal(err)
	}
	deny := func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("denied") }
	tests := []struct {
		desc   string
		decide openai.Decide
		want   []byte
	}{
		{desc: "a denied round's body is its terminal response as the provider wrote it", decide: deny, want: terminal.Response},
		{desc: "a round decided without error has no body", decide: pipelinetest.Decide(t)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var c openai.ResponsesClientStream
			_ = c.Guard(bytes.NewReader(in), io.Discard, nil, tt.decide, nil)
			if !bytes.Equal(c.Body(), tt.want) {
				t.Errorf("body = %s\nwant %s", c.Body(), tt.want)
			}
		})
	}
}

func TestResponsesClientStreamCorrect(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("testdata", "responses_stream_text.sse"))
	if err != nil {
		t.Fatal(err)
	}
	forbidden := bytes.ReplaceAll(text, []byte("pass"), []byte("FORBIDDEN"))
	tests := []struct {
		desc      string
		first     []byte
		gate      *pipelinetest.RetryGate
		wantDone  string
		wantFinal string
		wantText  string
	}{
		{desc: "the feedback ends the message item the guardrail cut short", first: forbidden, gate: &pipelinetest.RetryGate{Word: "FORBIDDEN"},
			wantDone: "message message", wantFinal: "message,message", wantText: "All 42 tests  Let me rephrase.All 42 tests pass."},
		{desc: "the feedback is the whole text of a part the guardrail cut at its first delta", first: bytes.ReplaceAll(text, []byte("All 42"), []byte("FORBIDDEN")),
			gate: &pipelinetest.RetryGate{Word: "FORBIDDEN"}, wantDone: "message message", wantFinal: "message,message", wantText: " Let me rephrase.All 42 tests pass."},
		{desc: "feedback after the round's items ended comes as an item of its own", first: text, gate: &pipelinetest.RetryGate{AtFinish: 2},
			wantDone: "message message message", wantFinal: "message,message,message", wantText: "All 42 tests pass. Let me rephrase.All 42 tests pass."},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var c openai.ResponsesClientStream
			var out bytes.Buffer
			if err := c.Guard(bytes.NewReader(tt.first), &out, nil, pipelinetest.Decide(t), tt.gate); !errors.Is(err, pipelinetest.ErrRetry) {
				t.Fatalf("first round: err = %v, want the gate's retry", err)
			}
			if err := c.Correct(&out, nil, " Let me rephrase."); err != nil {
				t.Fatal(err)
			}
			if err := c.Guard(bytes.NewReader(text), &out, nil, pipelinetest.Decide(t), nil); err != nil {
				t.Fatal(err)
			}
			got := readResponsesStream(t, out.Bytes())
			got.check(t, tt.wantDone, tt.wantFinal, tt.wantText)
			if got.opened != 1 {
				t.Errorf("%d response.created events, want 1", got.opened)
			}
		})
	}
}

func TestGuardResponsesStream(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(filepath.Join("testdata", "responses_stream_function_call.sse"))
	if err != nil {
		t.Fatal(err)
	}
	cut := in[:bytes.Index(in, []byte("event: response.completed"))]
	rewrite := func(r warden.Response) (warden.Response, error) {
		calls := append([]warden.ToolCall(nil), r.Message.ToolCalls...)
		calls[0] = warden.NewToolCall(calls[0].ID, calls[0].Name, []byte(`{"command":"go test -short ./..."}`))
		r.Message.ToolCalls = calls
		return r, nil
	}
	tests := []struct {
		desc    string
		in      []byte
		decide  openai.Decide
		wantErr string
	}{
		{desc: "a tripwire releases nothing held", in: in, wantErr: "tripped",
			decide: func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("tripped") }},
		{desc: "a stream cut before its terminal event releases nothing held", in: cut, decide: pipelinetest.Decide(t), wantErr: "ended before its finish"},
		{desc: "an event that is not JSON is an error", in: []byte("event: x\ndata: {\n\n"), decide: rewrite, wantErr: "not JSON"},
		{desc: "an event for an item never added is an error", in: []byte(`data: {"type":"response.function_call_arguments.delta","output_index":3,"delta":"x"}` + "\n\n"), decide: rewrite, wantErr: "was not added"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := openai.GuardResponsesStream(bytes.NewReader(tt.in), &out, nil, tt.decide, nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if bytes.Contains(out.Bytes(), []byte("function_call_arguments")) {
				t.Errorf("held call events reached the client:\n%s", out.Bytes())
			}
		})
	}
}

func TestGuardResponsesStreamChangedArguments(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(filepath.Join("testdata", "responses_stream_function_call.sse"))
	if err != nil {
		t.Fatal(err)
	}
	rewrite := func(r warden.Response) (warden.Response, error) {
		calls := append([]warden.ToolCall(nil), r.Message.ToolCalls...)
		calls[0] = warden.NewToolCall(calls[0].ID, calls[0].Name, []byte(`{"command":"go test -short ./..."}`))
		r.Message.ToolCalls = calls
		return r, nil
	}
	var out bytes.Buffer
	if err := openai.GuardResponsesStream(bytes.NewReader(in), &out, nil, rewrite, nil); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte(`go test ./...`)) {
		t.Errorf("the original arguments reached the client:\n%s", out.Bytes())
	}
	var deltas strings.Builder
	var doneArgs, itemArgs string
	rd := sse.NewReader(bytes.NewReader(out.Bytes()))
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var e responses.ResponseStreamEventUnion
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			t.Fatal(err)
		}
		switch e.Type {
		case "response.function_call_arguments.delta":
			deltas.WriteString(e.Delta)
		case "response.function_call_arguments.done":
			doneArgs = e.Arguments
		case "response.output_item.done":
			if e.Item.Type == "function_call" {
				itemArgs = e.Item.Arguments.OfString
			}
		}
	}
	const want = `{"command":"go test -short ./..."}`
	if deltas.String() != want || doneArgs != want || itemArgs != want {
		t.Errorf("openai-go sees deltas %q, done %q, item %q; want %q each", deltas.String(), doneArgs, itemArgs, want)
	}
	final := readResponsesStream(t, out.Bytes()).final
	if len(final.Output) != 2 || final.Output[1].Arguments.OfString != want {
		t.Errorf("the terminal response has %+v", final.Output)
	}
}

// TestGuardResponsesStreamChangesEveryCallKind: a changed call goes out with only its new arguments, for a
// custom tool's streamed input and a built-in call's action alike.
func TestGuardResponsesStreamChangesEveryCallKind(t *testing.T) {
	t.Parallel()
	event := func(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }
	created := event("response.created", `{"type":"response.created","sequence_number":0,"response":{"id":"r","object":"response","status":"in_progress","output":[]}}`)
	customItem := func(input string) string {
		return `{"type":"custom_tool_call","id":"ctc_1","call_id":"call_c","name":"patch","input":"` + input + `"}`
	}
	shellItem := `{"type":"shell_call","id":"sh_1","call_id":"call_s","status":"completed","action":{"commands":["rm -rf /tmp/x"]}}`
	tests := []struct {
		desc     string
		stream   string
		newArgs  string
		wantSeen []string // in what the client receives
	}{
		{desc: "a custom tool's input deltas carry the new input", newArgs: `"ls"`,
			stream: created +
				event("response.output_item.added", `{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":`+customItem("")+`}`) +
				event("response.custom_tool_call_input.delta", `{"type":"response.custom_tool_call_input.delta","sequence_number":2,"output_index":0,"item_id":"ctc_1","delta":"rm -rf"}`) +
				event("response.custom_tool_call_input.delta", `{"type":"response.custom_tool_call_input.delta","sequence_number":3,"output_index":0,"item_id":"ctc_1","delta":" /tmp/x"}`) +
				event("response.custom_tool_call_input.done", `{"type":"response.custom_tool_call_input.done","sequence_number":4,"output_index":0,"item_id":"ctc_1","input":"rm -rf /tmp/x"}`) +
				event("response.output_item.done", `{"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":`+customItem("rm -rf /tmp/x")+`}`) +
				event("response.completed", `{"type":"response.completed","sequence_number":6,"response":{"id":"r","object":"response","status":"completed","output":[`+customItem("rm -rf /tmp/x")+`]}}`),
			wantSeen: []string{`"delta":"ls"`, `"input":"ls"`, `"item":{"type":"custom_tool_call","id":"ctc_1","call_id":"call_c","name":"patch","input":"ls"}`}},
		{desc: "a shell call's action is replaced in its items and the terminal response", newArgs: `{"commands":["ls /tmp"]}`,
			stream: created +
				event("response.output_item.added", `{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":`+shellItem+`}`) +
				event("response.output_item.done", `{"type":"response.output_item.done","sequence_number":2,"output_index":0,"item":`+shellItem+`}`) +
				event("response.completed", `{"type":"response.completed","sequence_number":3,"response":{"id":"r","object":"response","status":"completed","output":[`+shellItem+`]}}`),
			wantSeen: []string{`"action":{"commands":["ls /tmp"]}`}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			rewrite := func(r warden.Response) (warden.Response, error) {
				if len(r.Message.ToolCalls) != 1 {
					t.Fatalf("decide sees %d calls", len(r.Message.ToolCalls))
				}
				c := r.Message.ToolCalls[0]
				r.Message.ToolCalls = []warden.ToolCall{warden.NewToolCall(c.ID, c.Name, []byte(tt.newArgs))}
				return r, nil
			}
			var out bytes.Buffer
			if err := openai.GuardResponsesStream(strings.NewReader(tt.stream), &out, nil, rewrite, nil); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out.String(), "rm -rf") {
				t.Errorf("the original arguments reached the client:\n%s", out.String())
			}
			for _, w := range tt.wantSeen {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the client does not see %s in:\n%s", w, out.String())
				}
			}
			if read := readResponsesStream(t, out.Bytes()); read.terminal != "response.completed" || len(read.final.Output) != 1 {
				t.Errorf("openai-go reads terminal %q with %d items", read.terminal, len(read.final.Output))
			}
		})
	}
}

// responsesStream builds a Responses stream of one message item whose text arrives in these deltas.
func responsesStream(deltas ...string) []byte {
	var s strings.Builder
	seq := 0
	ev := func(typ, body string) {
		s.WriteString("event: " + typ + "\ndata: {\"type\":\"" + typ + "\"," + body + ",\"sequence_number\":" + strconv.Itoa(seq) + "}\n\n")
		seq++
	}
	q := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	whole := strings.Join(deltas, "")
	const resp = `"response":{"id":"resp_1","object":"response","created_at":1763700000,"status":%q,"error":null,"incomplete_details":null,"model":"gpt-5.1","output":[%s],"usage":null}`
	item := func(status, content string) string {
		return `{"id":"msg_1","type":"message","status":"` + status + `","role":"assistant","content":[` + content + `]}`
	}
	part := func(text string) string {
		return `{"type":"output_text","annotations":[],"logprobs":[],"text":` + q(text) + `}`
	}
	ev("response.created", fmt.Sprintf(resp, "in_progress", ""))
	ev("response.output_item.added", `"output_index":0,"item":`+item("in_progress", ""))
	ev("response.content_part.added", `"item_id":"msg_1","output_index":0,"content_index":0,"part":`+part(""))
	for _, d := range deltas {
		ev("response.output_text.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":`+q(d)+`,"logprobs":[]`)
	}
	ev("response.output_text.done", `"item_id":"msg_1","output_index":0,"content_index":0,"text":`+q(whole)+`,"logprobs":[]`)
	ev("response.content_part.done", `"item_id":"msg_1","output_index":0,"content_index":0,"part":`+part(whole))
	ev("response.output_item.done", `"output_index":0,"item":`+item("completed", part(whole)))
	ev("response.completed", fmt.Sprintf(resp, "completed", item("completed", part(whole))))
	return []byte(s.String())
}

// responsesText is the text an openai-go client streams from a Responses stream (its output_text deltas),
// held to agree with every done event and the terminal response.
func responsesText(t *testing.T, out []byte) string {
	t.Helper()
	var deltas strings.Builder
	rd := sse.NewReader(bytes.NewReader(out))
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return deltas.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		var e responses.ResponseStreamEventUnion
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			t.Fatalf("openai-go cannot read event %q: %v", ev.Data, err)
		}
		var done string
		switch e.Type {
		case "response.output_text.delta":
			deltas.WriteString(e.Delta)
			continue
		case "response.output_text.done":
			done = e.Text
		case "response.content_part.done":
			done = e.Part.Text
		case "response.output_item.done":
			done = e.Item.Content[0].Text
		case "response.completed":
			done = e.Response.OutputText()
		default:
			continue
		}
		if done != deltas.String() {
			t.Errorf("%s carries %q; the deltas said %q", e.Type, done, deltas.String())
		}
	}
}

func TestGuardResponsesStreamGate(t *testing.T) {
	t.Parallel()
	pipelinetest.GateBehaviours(t, pipelinetest.StreamFormat{Build: responsesStream, Guard: openai.GuardResponsesStream, Text: responsesText})
}
