package openai_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
	"github.com/agentwarden/warden/wire/sse"
	sdk "github.com/openai/openai-go/v3"
)

// decider runs what the gateway runs when a choice finishes.
func decider(t *testing.T) openai.Decide { return pipelinetest.Decide(t) }

// accumulate reads a guarded stream with the official SDK's accumulator.
func accumulate(t *testing.T, stream []byte) sdk.ChatCompletionAccumulator {
	t.Helper()
	var acc sdk.ChatCompletionAccumulator
	rd := sse.NewReader(bytes.NewReader(stream))
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return acc
		}
		if err != nil {
			t.Fatal(err)
		}
		if !ev.HasData || ev.Data == "[DONE]" {
			continue
		}
		var ch sdk.ChatCompletionChunk
		if err := json.Unmarshal([]byte(ev.Data), &ch); err != nil {
			t.Fatalf("openai-go cannot parse a chunk: %v\n%s", err, ev.Data)
		}
		acc.AddChunk(ch)
	}
}

func TestStreamFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture     string
		unchanged   bool
		wantCalls   []string
		wantFinish  string
		wantContent string
	}{
		{fixture: "stream_text", unchanged: true, wantFinish: "stop", wantContent: "Hello, world"},
		{fixture: "stream_tool_call", unchanged: true, wantCalls: []string{"bash"}, wantFinish: "tool_calls"},
		{fixture: "stream_safety_tool_call", wantFinish: "content_filter",
			wantContent: "Writing the file.\n\nThe model provider stopped this response with a safety-related signal (finish_reason='content_filter', detector='openai_compatible_content_filter'). Any tool calls produced in this turn were suppressed"},
		{fixture: "stream_denied_call", wantCalls: []string{"bash"}, wantFinish: "tool_calls",
			wantContent: "Cleaning up.\n\nGuardrail denied: tool 'bash' was blocked (warden.destructive_delete)"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := openai.GuardChatStream(bytes.NewReader(in), &out, nil, decider(t), nil); err != nil {
				t.Fatal(err)
			}
			if tt.unchanged && !bytes.Equal(out.Bytes(), in) {
				t.Errorf("an unchanged stream was not passed through byte for byte:\n%s", out.Bytes())
			}
			golden.Exact(t, filepath.Join("testdata", tt.fixture+".golden.sse"), out.Bytes(), *update)
			acc := accumulate(t, out.Bytes())
			ch := acc.Choices[0]
			var names []string
			for _, c := range ch.Message.ToolCalls {
				names = append(names, c.Function.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.wantCalls, ",") || ch.FinishReason != tt.wantFinish || !strings.Contains(ch.Message.Content, tt.wantContent) {
				t.Errorf("SDK accumulates calls %v, finish %q, content %q", names, ch.FinishReason, ch.Message.Content)
			}
			if tt.fixture == "stream_safety_tool_call" && bytes.Contains(out.Bytes(), []byte("# Fin")) {
				t.Error("the suppressed call's arguments reached the client")
			}
			if tt.fixture == "stream_denied_call" && bytes.Contains(out.Bytes(), []byte(`rm -rf`+` ~/`)) {
				t.Error("the denied call reached the client")
			}
		})
	}
}

// chanWriter hands each write to a channel, so a test can see when bytes go out.
type chanWriter chan []byte

func (c chanWriter) Write(b []byte) (int, error) { c <- bytes.Clone(b); return len(b), nil }

func TestTextGoesOutAtOnceAndToolCallsWait(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("testdata/stream_denied_call.sse")
	if err != nil {
		t.Fatal(err)
	}
	events := strings.SplitAfter(string(in), "\n\n")
	pr, pw := io.Pipe()
	out := make(chanWriter, 16)
	done := make(chan error, 1)
	go func() { done <- openai.GuardChatStream(pr, out, nil, decider(t), nil) }()
	expect := func(what string) {
		t.Helper()
		select {
		case b := <-out:
			if !strings.Contains(string(b), what) {
				t.Fatalf("got %s, want %q", b, what)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q was not sent before the stream went on", what)
		}
	}
	nothing := func() {
		t.Helper()
		select {
		case b := <-out:
			t.Fatalf("sent before the finish reason: %s", b)
		case <-time.After(50 * time.Millisecond):
		}
	}
	_, _ = io.WriteString(pw, events[0]) // text
	expect("Cleaning up.")
	_, _ = io.WriteString(pw, events[1]) // a tool call
	nothing()
	_, _ = io.WriteString(pw, events[2]) // another
	nothing()
	_, _ = io.WriteString(pw, events[3]) // finish
	expect(`"id":"call_ok"`)
	expect("Guardrail denied")
	expect(`"finish_reason":"tool_calls"`)
	_, _ = io.WriteString(pw, events[4])
	expect("[DONE]")
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestStreamErrors(t *testing.T) {
	t.Parallel()
	failing := func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("tripped") }
	tests := []struct {
		desc, in string
		decide   openai.Decide
		want     string
		sent     string // what reached the client before the error
	}{
		{"a decision error ends the stream and releases nothing held",
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"bash\",\"arguments\":\"{}\"}}]}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
			failing, "tripped", ""},
		{"a chunk that is not JSON is an error", "data: {nope\n\n", nil, "not JSON", ""},
		{"tool calls for several choices in one chunk are refused",
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"x\",\"arguments\":\"\"}}]}},{\"index\":1,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"function\":{\"name\":\"y\",\"arguments\":\"\"}}]}}]}\n\n",
			nil, "several choices", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := openai.GuardChatStream(strings.NewReader(tt.in), &out, nil, tt.decide, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if out.String() != tt.sent {
				t.Errorf("sent %q before the error", out.String())
			}
		})
	}
}

func TestChangedArgumentsGoOutWhole(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("testdata/stream_tool_call.sse")
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
	if err := openai.GuardChatStream(bytes.NewReader(in), &out, nil, rewrite, nil); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte(`"arguments":"{\"comm"`)) {
		t.Errorf("the original argument deltas reached the client:\n%s", out.Bytes())
	}
	acc := accumulate(t, out.Bytes())
	calls := acc.Choices[0].Message.ToolCalls
	if len(calls) != 1 || calls[0].ID != "call_s1" || calls[0].Function.Name != "bash" || calls[0].Function.Arguments != `{"command":"go test -short ./..."}` {
		t.Errorf("the SDK sees calls %+v", calls)
	}
	if acc.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("finish reason %q", acc.Choices[0].FinishReason)
	}
}

func TestChatStreamGate(t *testing.T) {
	t.Parallel()
	pipelinetest.GateBehaviours(t, pipelinetest.StreamFormat{
		Build: func(deltas ...string) []byte {
			chunk := func(delta, finish string) string {
				return `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":` + delta + `,"logprobs":null,"finish_reason":` + finish + "}]}\n\n"
			}
			s := chunk(`{"role":"assistant","content":""}`, "null")
			for _, d := range deltas {
				b, _ := json.Marshal(d)
				s += chunk(`{"content":`+string(b)+`}`, "null")
			}
			return []byte(s + chunk(`{}`, `"stop"`) + "data: [DONE]\n\n")
		},
		Guard: openai.GuardChatStream,
		Text: func(t *testing.T, out []byte) string {
			acc := accumulate(t, out)
			if len(acc.Choices) != 1 {
				t.Fatalf("%d choices, want 1", len(acc.Choices))
			}
			return acc.Choices[0].Message.Content
		},
	})
}

func TestChatStreamGateShapes(t *testing.T) {
	t.Parallel()
	const head = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[`
	tests := []struct {
		desc, in   string
		wantText   string
		wantCalls  int
		wantErr    string
		wantAbsent string
		wantOrder  []string // appear in the output in this order
	}{
		{desc: "content in the finish chunk goes out before the finish",
			in:       head + `{"index":0,"delta":{"content":"Mail bob@example.com"},"finish_reason":null}]}` + "\n\n" + head + `{"index":0,"delta":{"content":" now"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n",
			wantText: "Mail [EMAIL] now", wantAbsent: "bob", wantOrder: []string{"[EMAIL]", "now", `"finish_reason":"stop"`}},
		{desc: "a rewritten chunk loses the logprobs that spell the original text",
			in:       head + `{"index":0,"delta":{"content":"bob@example.com is it"},"logprobs":{"content":[{"token":"bob@example.com","logprob":-0.1,"bytes":null,"top_logprobs":[]}]},"finish_reason":null}]}` + "\n\n" + head + `{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n",
			wantText: "[EMAIL] is it", wantAbsent: "bob"},
		{desc: "tool calls follow the text the gate let go",
			in:       head + `{"index":0,"delta":{"content":"See bob@example.com"},"finish_reason":null}]}` + "\n\n" + head + `{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]},"finish_reason":null}]}` + "\n\n" + head + `{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n",
			wantText: "See [EMAIL]", wantCalls: 1, wantAbsent: "bob", wantOrder: []string{"[EMAIL]", `"call_1"`, `"finish_reason":"tool_calls"`}},
		{desc: "one chunk with two choices' text ends the stream with neither sent",
			in:      head + `{"index":0,"delta":{"content":"One bob@example.com"},"finish_reason":null},{"index":1,"delta":{"content":"Two"},"finish_reason":null}]}` + "\n\n",
			wantErr: "one choice", wantAbsent: "bob"},
		{desc: "a stream with several choices ends with an error, the second choice's text unsent",
			in:      head + `{"index":0,"delta":{"content":"One."},"finish_reason":null}]}` + "\n\n" + head + `{"index":1,"delta":{"content":"Two bob@example.com"},"finish_reason":null}]}` + "\n\n",
			wantErr: "one choice", wantAbsent: "Two"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := openai.GuardChatStream(strings.NewReader(tt.in), &out, nil, decider(t), pipelinetest.Gate(t, "redact", "{types: [email]}"))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				acc := accumulate(t, out.Bytes())
				if got := acc.Choices[0].Message.Content; got != tt.wantText {
					t.Errorf("client text = %q, want %q", got, tt.wantText)
				}
				if got := len(acc.Choices[0].Message.ToolCalls); got != tt.wantCalls {
					t.Errorf("%d tool calls, want %d", got, tt.wantCalls)
				}
			}
			if strings.Contains(out.String(), tt.wantAbsent) {
				t.Errorf("output contains %q:\n%s", tt.wantAbsent, out.String())
			}
			at := 0
			for _, s := range tt.wantOrder {
				i := strings.Index(out.String()[at:], s)
				if i < 0 {
					t.Fatalf("%q missing after offset %d:\n%s", s, at, out.String())
				}
				at += i + len(s)
			}
		})
	}
}

// The response a choice's finish is decided on holds all its text, however its chunks were read: written
// straight from the reader's buffer (a text chunk shaped as the one before), or read as events (the first
// chunk, one with a role, one shaped otherwise, one with a member after choices), and the client gets
// every chunk as it came.
func TestDecisionSeesTheTextOfEveryChunk(t *testing.T) {
	t.Parallel()
	chunk := func(delta, after string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]` + after + "}\n\n"
	}
	for _, tc := range []struct {
		desc, stream, want string
	}{
		{"chunks of one shape", chunk(`{"role":"assistant","content":"a"}`, "") + chunk(`{"content":"b"}`, "") + chunk(`{"content":"c"}`, "") + chunk(`{"content":"d"}`, ""), "abcd"},
		{"a chunk shaped otherwise between them", chunk(`{"content":"a"}`, "") + chunk(`{"content":"b"}`, "") + chunk(`{"content":"c","refusal":null}`, "") + chunk(`{"content":"d"}`, "") + chunk(`{"content":"e"}`, ""), "abcde"},
		{"a member after choices in every chunk", chunk(`{"content":"a"}`, `,"obfuscation":"x1"`) + chunk(`{"content":"b"}`, `,"obfuscation":"y22"`) + chunk(`{"content":"c"}`, `,"obfuscation":"z"`), "abc"},
		{"escaped text", chunk(`{"content":"a"}`, "") + chunk(`{"content":"\"b\"\n"}`, "") + chunk(`{"content":"\u00e9"}`, ""), "a\"b\"\né"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			in := tc.stream + `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
			var text string
			decide := func(r warden.Response) (warden.Response, error) {
				text = r.Message.Text()
				return r, nil
			}
			var out bytes.Buffer
			if err := openai.GuardChatStream(strings.NewReader(in), &out, nil, decide, nil); err != nil {
				t.Fatal(err)
			}
			if text != tc.want {
				t.Errorf("decided on %q, want %q", text, tc.want)
			}
			if out.String() != in {
				t.Errorf("the client got\n%q\nwant the stream as it came\n%q", out.String(), in)
			}
		})
	}
}

// Every chunk of a client's stream carries the first round's id — a follow-up's, and the feedback Warden
// writes after one — since openai-go's accumulator drops chunks of another id.
func TestChatClientStreamKeepsTheFirstRoundsID(t *testing.T) {
	t.Parallel()
	pass := func(r warden.Response) (warden.Response, error) { return r, nil }
	round := func(id, text string) string {
		return `data: {"id":"` + id + `","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"` + text + `"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"` + id + `","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" + "data: [DONE]\n\n"
	}
	var out bytes.Buffer
	c := new(openai.ChatClientStream)
	if err := c.Guard(strings.NewReader(round("chatcmpl-A", "first")), &out, nil, pass, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Guard(strings.NewReader(round("chatcmpl-B", "second")), &out, nil, pass, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Correct(&out, nil, "feedback"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "chatcmpl-B") || !strings.Contains(out.String(), "feedback") || !strings.Contains(out.String(), "second") {
		t.Errorf("the client's stream carries another round's id or lost text:\n%s", out.String())
	}
}
