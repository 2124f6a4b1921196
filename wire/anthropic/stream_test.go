package anthropic_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/anthropic"
	"github.com/agentwarden/warden/wire/sse"
	sdk "github.com/anthropics/anthropic-sdk-go"
)

// accumulate reads a guarded stream with the official SDK's accumulator, which checks that blocks arrive
// in index order with no gaps.
func accumulate(t *testing.T, stream []byte) sdk.Message {
	t.Helper()
	var msg sdk.Message
	rd := sse.NewReader(bytes.NewReader(stream))
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return msg
		}
		if err != nil {
			t.Fatal(err)
		}
		if !ev.HasData {
			continue
		}
		var e sdk.MessageStreamEventUnion
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			t.Fatalf("the SDK cannot read event %q: %v", ev.Data, err)
		}
		if err := msg.Accumulate(e); err != nil {
			t.Fatalf("the SDK's accumulator: %v\n%s", err, stream)
		}
	}
}

func TestGuardStreamFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture    string
		unchanged  bool
		wantBlocks string // block types and, for tool_use, the tool's input
		wantStop   string
		wantInText string
	}{
		{fixture: "stream_tool_use", unchanged: true, wantBlocks: `text tool_use{"command": "go test ./..."}`, wantStop: "tool_use", wantInText: "Running the tests."},
		{fixture: "stream_refusal_tool_use", wantBlocks: "text text", wantStop: "refusal",
			wantInText: "Writing the file.\n\nThe model provider stopped this response with a safety-related signal (stop_reason='refusal', detector='anthropic_refusal'). Any tool calls produced in this turn were suppressed"},
		{fixture: "stream_denied_first_call", wantBlocks: `text text tool_use{"command": "ls"} text`, wantStop: "tool_use",
			wantInText: "Cleaning up.Done.\n\nGuardrail denied: tool 'bash' was blocked (warden.destructive_delete)"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := anthropic.GuardStream(bytes.NewReader(in), &out, nil, pipelinetest.Decide(t), nil); err != nil {
				t.Fatal(err)
			}
			if tt.unchanged && out.String() != string(in) {
				t.Errorf("an unchanged stream was not passed through byte for byte:\n%s", out.String())
			}
			golden.Exact(t, filepath.Join("testdata", tt.fixture+".golden.sse"), out.Bytes(), *update)
			msg := accumulate(t, out.Bytes())
			var blocks []string
			var text strings.Builder
			for _, b := range msg.Content {
				switch b.Type {
				case "tool_use":
					blocks = append(blocks, "tool_use"+string(b.Input))
				case "text":
					blocks = append(blocks, "text")
					text.WriteString(b.Text)
				default:
					blocks = append(blocks, b.Type)
				}
			}
			if strings.Join(blocks, " ") != tt.wantBlocks || string(msg.StopReason) != tt.wantStop || !strings.Contains(text.String(), tt.wantInText) {
				t.Errorf("the SDK sees blocks %q, stop %q, text %q", blocks, msg.StopReason, text.String())
			}
		})
	}
}

func TestGuardStream(t *testing.T) {
	t.Parallel()
	toolUse, err := os.ReadFile(filepath.Join("testdata", "stream_tool_use.sse"))
	if err != nil {
		t.Fatal(err)
	}
	cut := toolUse[:bytes.Index(toolUse, []byte("event: message_delta"))]
	dropAll := func(r warden.Response) (warden.Response, error) { r.Message.ToolCalls = nil; return r, nil }
	rewrite := func(r warden.Response) (warden.Response, error) {
		r.Message.ToolCalls[0] = warden.NewToolCall(r.Message.ToolCalls[0].ID, "bash", []byte(`{"command":"go test -short ./..."}`))
		return r, nil
	}
	tests := []struct {
		desc        string
		in          []byte
		decide      anthropic.Decide
		wantErr     string
		wantOut     []string
		wantMissing []string
	}{
		{desc: "a tripwire releases nothing held", in: toolUse, wantErr: "tripped",
			decide:  func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("tripped") },
			wantOut: []string{"Running "}, wantMissing: []string{"tool_use", "message_delta"}},
		{desc: "a stream cut before its stop reason releases nothing held", in: cut, decide: pipelinetest.Decide(t),
			wantErr: "ended before its finish", wantMissing: []string{"toolu_s1"}},
		{desc: "with every call removed tool_use becomes end_turn", in: toolUse, decide: dropAll,
			wantOut: []string{`"stop_reason":"end_turn"`}, wantMissing: []string{"toolu_s1", `"stop_reason":"tool_use"`}},
		{desc: "changed arguments go out in one delta", in: toolUse, decide: rewrite,
			wantOut: []string{`"partial_json":"{\"command\":\"go test -short ./...\"}"`}, wantMissing: []string{`"partial_json":"{\"comm"`}},
		{desc: "an event that is not JSON is an error", in: []byte("event: content_block_delta\ndata: {\n\n"), decide: dropAll, wantErr: "not JSON"},
		{desc: "a delta for a block that never started is an error", in: []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":4,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n"), decide: dropAll, wantErr: "did not start"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := anthropic.GuardStream(bytes.NewReader(tt.in), &out, nil, tt.decide, nil)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tt.wantMissing {
				if strings.Contains(out.String(), s) {
					t.Errorf("output has %q:\n%s", s, out.String())
				}
			}
			if tt.wantErr == "" {
				accumulate(t, out.Bytes())
			}
		})
	}
}

func TestClientStreamRounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc       string
		rounds     []pipelinetest.Round
		wantBlocks string
		wantText   string
		wantStop   string
	}{
		{desc: "a follow-up's blocks go on after the blocks the client has",
			rounds:     []pipelinetest.Round{{Fixture: "stream_denied_first_call", Deny: true}, {Fixture: "stream_tool_use"}},
			wantBlocks: `text text text tool_use{"command": "go test ./..."}`, wantText: "Cleaning up.Done.Running the tests.", wantStop: "tool_use"},
		{desc: "a third round goes on after both earlier rounds",
			rounds:     []pipelinetest.Round{{Fixture: "stream_denied_first_call", Deny: true}, {Fixture: "stream_denied_first_call", Deny: true}, {Fixture: "stream_text"}},
			wantBlocks: `text text text text text`, wantText: "Cleaning up.Done.Cleaning up.Done.", wantStop: "end_turn"},
		{desc: "a follow-up explained goes on after the blocks the client has",
			rounds:     []pipelinetest.Round{{Fixture: "stream_denied_first_call", Deny: true}, {Fixture: "stream_denied_first_call"}},
			wantBlocks: `text text text text tool_use{"command": "ls"} text`, wantText: "Guardrail denied", wantStop: "tool_use"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			out := bytes.NewBuffer(pipelinetest.GuardRounds(t, new(anthropic.ClientStream), tt.rounds...))
			if n := strings.Count(out.String(), "event: message_start"); n != 1 {
				t.Errorf("the client got %d message_start events, want 1", n)
			}
			if n := strings.Count(out.String(), "event: message_delta"); n != 1 {
				t.Errorf("the client got %d message_delta events, want 1 (the last round's)", n)
			}
			msg := accumulate(t, out.Bytes())
			var blocks []string
			var text strings.Builder
			for _, b := range msg.Content {
				if b.Type == "tool_use" {
					blocks = append(blocks, "tool_use"+string(b.Input))
					continue
				}
				blocks = append(blocks, b.Type)
				text.WriteString(b.Text)
			}
			if strings.Join(blocks, " ") != tt.wantBlocks || string(msg.StopReason) != tt.wantStop || !strings.Contains(text.String(), tt.wantText) {
				t.Errorf("the SDK sees blocks %q, stop %q, text %q", blocks, msg.StopReason, text.String())
			}
		})
	}
}

func TestClientStreamBody(t *testing.T) {
	t.Parallel()
	ev := func(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }
	thinking := ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}`) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Clean the home dir."}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBsig=="}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`) +
		ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Mail me at a@example.com."}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":2}`) +
		ev("content_block_start", `{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":3}`) +
		ev("content_block_start", `{"type":"content_block_start","index":4,"content_block":{"type":"tool_use","id":"toolu_a","name":"bash","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{\"command\":\"rm -rf ~/\"}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":4}`) +
		ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`) +
		ev("message_stop", `{"type":"message_stop"}`)
	deny := func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("denied") }
	tests := []struct {
		desc     string
		decide   anthropic.Decide
		gate     func(t *testing.T) warden.TextGate
		want     string // the body's content, when a round was denied
		wantNone bool
	}{
		{desc: "a denied round's body holds its blocks as streamed, signatures included", decide: deny,
			want: `[{"type":"thinking","thinking":"Clean the home dir.","signature":"EqQBsig=="},{"type":"redacted_thinking","data":"EmwKAhgB"},{"type":"text","text":"Mail me at a@example.com."},{"type":"tool_use","id":"toolu_a","name":"bash","input":{"command":"rm -rf ~/"}}]`},
		{desc: "the body holds text as it came, not as the stream guardrails released it", decide: deny,
			gate: func(t *testing.T) warden.TextGate { return pipelinetest.Gate(t, "redact", "{types: [email]}") },
			want: `[{"type":"thinking","thinking":"Clean the home dir.","signature":"EqQBsig=="},{"type":"redacted_thinking","data":"EmwKAhgB"},{"type":"text","text":"Mail me at a@example.com."},{"type":"tool_use","id":"toolu_a","name":"bash","input":{"command":"rm -rf ~/"}}]`},
		{desc: "a round decided without error has no body", decide: pipelinetest.Decide(t), wantNone: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var gate warden.TextGate
			if tt.gate != nil {
				gate = tt.gate(t)
			}
			var c anthropic.ClientStream
			var out bytes.Buffer
			_ = c.Guard(strings.NewReader(thinking), &out, nil, tt.decide, gate)
			if tt.wantNone {
				if c.Body() != nil {
					t.Errorf("body = %s, want none", c.Body())
				}
				return
			}
			var body struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(c.Body(), &body); err != nil {
				t.Fatalf("body %s: %v", c.Body(), err)
			}
			if body.Role != "assistant" || string(body.Content) != tt.want {
				t.Errorf("body = %s\nwant content %s", c.Body(), tt.want)
			}
			call := warden.NewToolCall("toolu_a", "bash", []byte(`{"command":"rm -rf ~/"}`))
			req, err := anthropic.FollowUp([]byte(`{"model":"c","max_tokens":9,"messages":[{"role":"user","content":"tidy"}]}`), c.Body(),
				warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{call}}, []string{"denied"})
			if err != nil || !strings.Contains(string(req), `"signature":"EqQBsig=="`) {
				t.Errorf("the follow-up does not send the thinking back (err %v): %s", err, req)
			}
		})
	}
}

func TestClientStreamCorrect(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("testdata", "stream_text.sse"))
	if err != nil {
		t.Fatal(err)
	}
	forbidden := bytes.ReplaceAll(text, []byte("pass"), []byte("FORBIDDEN"))
	tests := []struct {
		desc       string
		first      []byte
		gate       *pipelinetest.RetryGate
		wantBlocks int
		wantText   string
	}{
		{desc: "the feedback ends the text block the guardrail cut short", first: forbidden, gate: &pipelinetest.RetryGate{Word: "FORBIDDEN"},
			wantBlocks: 2, wantText: "All 42 tests  Let me rephrase.All 42 tests pass."},
		{desc: "feedback after the round's blocks ended comes as a block of its own", first: text, gate: &pipelinetest.RetryGate{AtFinish: 2},
			wantBlocks: 3, wantText: "All 42 tests pass. Let me rephrase.All 42 tests pass."},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var c anthropic.ClientStream
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
			msg := accumulate(t, out.Bytes())
			var got strings.Builder
			for _, b := range msg.Content {
				got.WriteString(b.Text)
			}
			if len(msg.Content) != tt.wantBlocks || got.String() != tt.wantText || msg.StopReason != "end_turn" {
				t.Errorf("the SDK sees %d blocks, text %q, stop %q; want %d blocks, text %q\n%s", len(msg.Content), got.String(), msg.StopReason, tt.wantBlocks, tt.wantText, out.String())
			}
		})
	}
}

func TestGuardStreamGate(t *testing.T) {
	t.Parallel()
	pipelinetest.GateBehaviours(t, pipelinetest.StreamFormat{
		Build: func(deltas ...string) []byte {
			var s strings.Builder
			ev := func(name, data string) { s.WriteString("event: " + name + "\ndata: " + data + "\n\n") }
			ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`)
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			for _, d := range deltas {
				b, _ := json.Marshal(d)
				ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(b)+`}}`)
			}
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}`)
			ev("message_stop", `{"type":"message_stop"}`)
			return []byte(s.String())
		},
		Guard: anthropic.GuardStream,
		Text: func(t *testing.T, out []byte) string {
			var text strings.Builder
			for _, b := range accumulate(t, out).Content {
				text.WriteString(b.Text)
			}
			return text.String()
		},
	})
}

// The response the stop is decided on holds all the text of every block, however its deltas were read:
// written straight from the reader's buffer (a text delta of a block the client sees at its own index) or
// read as events (the first, and any other kind), and the client gets every event as it came.
func TestDecisionSeesTheTextOfEveryDelta(t *testing.T) {
	t.Parallel()
	ev := func(typ, data string) string { return "event: " + typ + "\ndata: " + data + "\n\n" }
	delta := func(i, text string) string {
		return ev("content_block_delta", `{"type":"content_block_delta","index":`+i+`,"delta":{"type":"text_delta","text":"`+text+`"}}`)
	}
	start := ev("message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}`)
	block := func(i string) string {
		return ev("content_block_start", `{"type":"content_block_start","index":`+i+`,"content_block":{"type":"text","text":""}}`)
	}
	stop := func(i string) string { return ev("content_block_stop", `{"type":"content_block_stop","index":`+i+`}`) }
	end := ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`) +
		ev("message_stop", `{"type":"message_stop"}`)
	for _, tc := range []struct {
		desc, stream, want string
	}{
		{"one block's deltas", start + block("0") + delta("0", "a") + delta("0", "b") + delta("0", "c") + stop("0") + end, "abc"},
		{"two blocks, a ping between", start + block("0") + delta("0", "a") + stop("0") + ev("ping", `{"type":"ping"}`) + block("1") + delta("1", "b") + delta("1", "c") + stop("1") + end, "abc"},
		{"deltas alternating between two open blocks", start + block("0") + block("1") + delta("0", "a") + delta("1", "b") + delta("0", "c") + delta("1", "d") + stop("0") + stop("1") + end, "acbd"},
		{"escaped text", start + block("0") + delta("0", `\"a\"`) + delta("0", `\n\u00e9`) + stop("0") + end, "\"a\"\né"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			var text string
			decide := func(r warden.Response) (warden.Response, error) {
				text = r.Message.Text()
				return r, nil
			}
			var out bytes.Buffer
			if err := anthropic.GuardStream(strings.NewReader(tc.stream), &out, nil, decide, nil); err != nil {
				t.Fatal(err)
			}
			if text != tc.want {
				t.Errorf("decided on %q, want %q", text, tc.want)
			}
			if out.String() != tc.stream {
				t.Errorf("the client got\n%q\nwant the stream as it came\n%q", out.String(), tc.stream)
			}
		})
	}
}
