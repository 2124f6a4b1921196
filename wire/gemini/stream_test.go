package gemini_test

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
	"github.com/agentwarden/warden/wire/gemini"
	"github.com/agentwarden/warden/wire/sse"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
)

// streamRead is what a go-genai client makes of a guarded stream: every chunk parsed by the SDK, the text
// joined, the function calls with their thought signatures, and the last finish reason.
type streamRead struct {
	text   string
	calls  []string // name(args)+signature
	finish genai.FinishReason
}

func readStream(t *testing.T, stream []byte) streamRead {
	t.Helper()
	var got streamRead
	rd := sse.NewReader(bytes.NewReader(stream))
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		if !ev.HasData {
			continue
		}
		var resp genai.GenerateContentResponse
		if err := json.Unmarshal([]byte(ev.Data), &resp); err != nil {
			t.Fatalf("go-genai cannot parse chunk %q: %v", ev.Data, err)
		}
		for _, c := range resp.Candidates {
			if c.FinishReason != "" {
				got.finish = c.FinishReason
			}
			if c.Content == nil {
				continue
			}
			for _, p := range c.Content.Parts {
				if p.FunctionCall != nil {
					args, _ := json.Marshal(p.FunctionCall.Args)
					got.calls = append(got.calls, p.FunctionCall.Name+string(args)+string(p.ThoughtSignature))
				} else if !p.Thought {
					got.text += p.Text
				}
			}
		}
	}
}

func TestGuardStreamFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture    string
		unchanged  bool
		wantCalls  string
		wantFinish genai.FinishReason
		wantInText string
	}{
		{fixture: "stream_function_call", unchanged: true, wantCalls: `bash{"command":"go test ./..."}SIG1`, wantFinish: genai.FinishReasonStop, wantInText: "Running the tests."},
		{fixture: "stream_safety_function_call", wantFinish: genai.FinishReasonSafety,
			wantInText: "Writing the file.\n\nThe model provider stopped this response with a safety-related signal (finishReason='SAFETY', detector='gemini_safety'). Any tool calls produced in this turn were suppressed"},
		{fixture: "stream_denied_first_call", wantCalls: `bash{"command":"ls"}SIG1`, wantFinish: genai.FinishReasonStop,
			wantInText: "Cleaning up.Done.\n\nGuardrail denied: tool 'bash' was blocked (warden.destructive_delete)"},
		{fixture: "stream_prompt_blocked", wantInText: "(promptFeedback.blockReason='PROHIBITED_CONTENT', detector='gemini_prompt_block') and returned no content."},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := gemini.GuardStream(bytes.NewReader(in), &out, nil, pipelinetest.Decide(t), nil); err != nil {
				t.Fatal(err)
			}
			if tt.unchanged && out.String() != string(in) {
				t.Errorf("an unchanged stream was not passed through byte for byte:\n%s", out.String())
			}
			golden.Exact(t, filepath.Join("testdata", tt.fixture+".golden.sse"), out.Bytes(), *update)
			got := readStream(t, out.Bytes())
			if strings.Join(got.calls, " ") != tt.wantCalls || got.finish != tt.wantFinish || !strings.Contains(got.text, tt.wantInText) {
				t.Errorf("go-genai sees calls %q, finish %q, text %q", got.calls, got.finish, got.text)
			}
		})
	}
}

func TestGuardStream(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(filepath.Join("testdata", "stream_function_call.sse"))
	if err != nil {
		t.Fatal(err)
	}
	cut := in[:bytes.LastIndex(in, []byte("data: "))]
	rewrite := func(r warden.Response) (warden.Response, error) {
		calls := append([]warden.ToolCall(nil), r.Message.ToolCalls...)
		calls[0] = warden.NewToolCall(calls[0].ID, calls[0].Name, []byte(`{"command":"go test -short ./..."}`))
		r.Message.ToolCalls = calls
		return r, nil
	}
	tests := []struct {
		desc      string
		in        []byte
		decide    gemini.Decide
		wantErr   string
		wantOut   []string
		wantNotIn []string
	}{
		{desc: "a tripwire releases nothing held", in: in, wantErr: "tripped",
			decide:  func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("tripped") },
			wantOut: []string{"Running "}, wantNotIn: []string{"functionCall"}},
		{desc: "a stream cut before its finish reason releases nothing held", in: cut, decide: pipelinetest.Decide(t),
			wantErr: "ended before its finish", wantNotIn: []string{"functionCall"}},
		{desc: "changed arguments go out in the finishing chunk", in: in, decide: rewrite,
			wantOut: []string{`"args":{"command":"go test -short ./..."}`, `"finishReason":"STOP"`}, wantNotIn: []string{`"command":"go test ./..."`}},
		{desc: "a chunk that is not JSON is an error", in: []byte("data: {\r\n\r\n"), decide: rewrite, wantErr: "not JSON"},
		{desc: "calls for several candidates are refused", in: []byte(`data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"a"}}]}},{"content":{"parts":[]}}]}` + "\n\n"), decide: rewrite, wantErr: "several candidates"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := gemini.GuardStream(bytes.NewReader(tt.in), &out, nil, tt.decide, nil)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(out.String(), s) {
					t.Errorf("output lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tt.wantNotIn {
				if strings.Contains(out.String(), s) {
					t.Errorf("output has %q:\n%s", s, out.String())
				}
			}
		})
	}
}

func TestClientStreamBody(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile(filepath.Join("testdata", "stream_denied_first_call.sse"))
	if err != nil {
		t.Fatal(err)
	}
	deny := func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("denied") }
	tests := []struct {
		desc      string
		decide    gemini.Decide
		wantParts string // the body's first candidate's parts
	}{
		{desc: "a denied round's body holds its text, then its calls with their thought signature", decide: deny,
			wantParts: `[{"text":"Cleaning up."},{"functionCall":{"name":"bash","args":{"command":"rm -rf ~/"}},"thoughtSignature":"U0lHMQ=="},{"functionCall":{"name":"bash","args":{"command":"ls"}}},{"text":"Done."}]`},
		{desc: "a round decided without error has no body", decide: pipelinetest.Decide(t)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var c gemini.ClientStream
			_ = c.Guard(bytes.NewReader(in), io.Discard, nil, tt.decide, nil)
			if tt.wantParts == "" {
				if c.Body() != nil {
					t.Errorf("body = %s, want none", c.Body())
				}
				return
			}
			var body struct {
				Candidates []struct {
					Content struct {
						Parts json.RawMessage `json:"parts"`
					} `json:"content"`
				} `json:"candidates"`
			}
			if err := json.Unmarshal(c.Body(), &body); err != nil || len(body.Candidates) != 1 {
				t.Fatalf("body %s: %v", c.Body(), err)
			}
			if got := string(body.Candidates[0].Content.Parts); got != tt.wantParts {
				t.Errorf("parts = %s\nwant %s", got, tt.wantParts)
			}
			calls := []warden.ToolCall{warden.NewToolCall("c1", "bash", []byte(`{"command":"rm -rf ~/"}`)), warden.NewToolCall("c2", "bash", []byte(`{"command":"ls"}`))}
			req, err := gemini.FollowUp([]byte(`{"contents":[{"role":"user","parts":[{"text":"tidy"}]}]}`), c.Body(),
				warden.Message{Role: warden.RoleAssistant, ToolCalls: calls}, []string{"denied", "not run"})
			if err != nil || !strings.Contains(string(req), `"thoughtSignature":"U0lHMQ=="`) {
				t.Errorf("the follow-up does not send the signature back (err %v): %s", err, req)
			}
		})
	}
}

func TestGuardStreamGate(t *testing.T) {
	t.Parallel()
	pipelinetest.GateBehaviours(t, pipelinetest.StreamFormat{
		Build: func(deltas ...string) []byte {
			var s strings.Builder
			for _, d := range deltas {
				b, _ := json.Marshal(d)
				s.WriteString(`data: {"candidates":[{"content":{"parts":[{"text":` + string(b) + `}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":4},"modelVersion":"gemini-2.5-flash","responseId":"r1"}` + "\r\n\r\n")
			}
			s.WriteString(`data: {"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":9},"modelVersion":"gemini-2.5-flash","responseId":"r1"}` + "\r\n\r\n")
			return []byte(s.String())
		},
		Guard: gemini.GuardStream,
		Text:  func(t *testing.T, out []byte) string { return readStream(t, out).text },
	})
}

// The response the guardrails decide on holds what the stream said in order: a run of text chunks as one
// text part (however many chunks carried it), a thought summary where it came, then the text after it.
func TestGuardStreamDecidesOnTextRunsAndThoughtsInOrder(t *testing.T) {
	t.Parallel()
	chunk := func(part string, finish string) string {
		return `data: {"candidates":[{"content":{"parts":[` + part + `],"role":"model"},"index":0` + finish + `}]}` + "\r\n\r\n"
	}
	in := chunk(`{"text":"Let "}`, "") + chunk(`{"text":"me "}`, "") + chunk(`{"text":"think.","thought":true}`, "") +
		chunk(`{"text":"Done"}`, "") + chunk(`{"text":"."}`, "") + chunk(`{"text":""}`, `,"finishReason":"STOP"`)
	var got []warden.ContentPart
	decide := func(r warden.Response) (warden.Response, error) {
		got = r.Message.Content
		return r, nil
	}
	if err := gemini.GuardStream(strings.NewReader(in), io.Discard, nil, decide, nil); err != nil {
		t.Fatal(err)
	}
	want := []warden.ContentPart{{Kind: warden.ContentText, Text: "Let me "}, {Kind: warden.ContentReasoning, Text: "think."}, {Kind: warden.ContentText, Text: "Done."}}
	var nonEmpty []warden.ContentPart
	for _, p := range got {
		if p.Text != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if diff := cmp.Diff(want, nonEmpty); diff != "" {
		t.Errorf("decided on content (-want +got):\n%s", diff)
	}
}
