package openai_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/safety"
	"github.com/agentwarden/warden/wire/openai"
	sdk "github.com/openai/openai-go/v3"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// guarded runs the safety guardrail over every choice, as the response stage does, and encodes the body.
func guarded(t *testing.T, body []byte) ([]byte, *openai.ChatResponse) {
	t.Helper()
	g := &safety.Guardrail{}
	if err := g.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	e, err := warden.NewEngine(warden.Spec{Response: []warden.Entry{{Name: "safety", Guardrail: g}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := openai.DecodeChatResponse(body)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Len() {
		out, err := e.CheckResponse(context.Background(), warden.ResponseCheck{Response: r.Response(i)})
		if err != nil {
			t.Fatal(err)
		}
		if out.Decision.Action == warden.ActionModify {
			if err := r.Set(i, out.Value); err != nil {
				t.Fatal(err)
			}
		}
	}
	enc, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return enc, r
}

func TestFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture     string
		unchanged   bool
		wantCalls   int
		wantFinish  string
		wantContent string // a part of the content afterwards
	}{
		{fixture: "healthy_tool_calls", unchanged: true, wantCalls: 1, wantFinish: "tool_calls"},
		{fixture: "safety_stop_tool_calls", wantCalls: 0, wantFinish: "content_filter", wantContent: "Writing the report now.\n\nThe model provider stopped this response with a safety-related signal (finish_reason='content_filter', detector='openai_compatible_content_filter'). Any tool calls produced in this turn were suppressed"},
		{fixture: "safety_stop_blank", wantCalls: 0, wantFinish: "content_filter", wantContent: "and returned no content. Please rephrase your request or start a new conversation."},
		{fixture: "safety_stop_text", unchanged: true, wantFinish: "content_filter", wantContent: "Here is a partial answer"},
		{fixture: "length_truncated_call", wantCalls: 1, wantFinish: "length", wantContent: "1 call(s) whose arguments were cut off were suppressed"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".json"))
			if err != nil {
				t.Fatal(err)
			}
			in = []byte(strings.TrimSpace(string(in)))
			got, _ := guarded(t, in)
			if tt.unchanged && string(got) != string(in) {
				t.Errorf("an unchanged response was not passed through byte for byte:\n%s", got)
			}
			golden.JSON(t, filepath.Join("testdata", tt.fixture+".golden.json"), got, *update)
			// The official SDK must read what Warden sends.
			var cc sdk.ChatCompletion
			if err := json.Unmarshal(got, &cc); err != nil {
				t.Fatalf("openai-go cannot parse the output: %v", err)
			}
			ch := cc.Choices[0]
			if len(ch.Message.ToolCalls) != tt.wantCalls || ch.FinishReason != tt.wantFinish || !strings.Contains(ch.Message.Content, tt.wantContent) {
				t.Errorf("SDK sees %d tool calls, finish %q, content %q", len(ch.Message.ToolCalls), ch.FinishReason, ch.Message.Content)
			}
		})
	}
}

func TestUntouchedFieldsKeepTheirBytes(t *testing.T) {
	t.Parallel()
	in, _ := os.ReadFile("testdata/safety_stop_tool_calls.json")
	got, _ := guarded(t, []byte(strings.TrimSpace(string(in))))
	for _, kept := range []string{`"id":"chatcmpl-AQ2"`, `"created":1732000001`, `"content_filter_results":{"hate":{"filtered":true,"severity":"medium"}}`,
		`"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}`, `"finish_reason":"content_filter"`} {
		if !strings.Contains(string(got), kept) {
			t.Errorf("lost or changed: %s\n%s", kept, got)
		}
	}
	if strings.Contains(string(got), "tool_calls") || strings.Contains(string(got), "The first") {
		t.Errorf("the suppressed calls or their arguments are still in the body:\n%s", got)
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body string
		check      func(t *testing.T, r warden.Response)
		wantErr    string
	}{
		{desc: "finish reasons are normalized and the raw value kept",
			body: `{"choices":[{"message":{"role":"assistant","content":"x"},"finish_reason":"CONTENT_FILTER"}]}`,
			check: func(t *testing.T, r warden.Response) {
				if r.FinishReason != warden.FinishSafety || r.Signal != (warden.Signal{Field: "finish_reason", Value: "CONTENT_FILTER"}) {
					t.Errorf("finish %s, signal %+v", r.FinishReason, r.Signal)
				}
			}},
		{desc: "content as parts is read",
			body: `{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"stop"}]}`,
			check: func(t *testing.T, r warden.Response) {
				if r.Message.Text() != "ab" {
					t.Errorf("text %q", r.Message.Text())
				}
			}},
		{desc: "truncated arguments make an incomplete call",
			body: `{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]},"finish_reason":"length"}]}`,
			check: func(t *testing.T, r warden.Response) {
				if len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Complete {
					t.Errorf("calls %+v", r.Message.ToolCalls)
				}
			}},
		{desc: "a legacy function_call is a tool call",
			body: `{"choices":[{"message":{"role":"assistant","function_call":{"name":"f","arguments":"{}"}},"finish_reason":"function_call"}]}`,
			check: func(t *testing.T, r warden.Response) {
				if len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Name != "f" || r.FinishReason != warden.FinishToolCalls {
					t.Errorf("calls %+v finish %s", r.Message.ToolCalls, r.FinishReason)
				}
			}},
		{desc: "a GLM sensitive stop is kept as the raw signal", body: `{"choices":[{"message":{"role":"assistant","content":""},"finish_reason":"sensitive"}]}`,
			check: func(t *testing.T, r warden.Response) {
				if r.FinishReason != warden.FinishUnknown || r.Signal.Value != "sensitive" {
					t.Errorf("finish %s signal %+v", r.FinishReason, r.Signal)
				}
			}},
		{desc: "a body without choices is an error", body: `{"error":{"message":"x"}}`, wantErr: `no "choices"`},
		{desc: "garbage is an error", body: `<html>`, wantErr: "not a chat completion"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := openai.DecodeChatResponse([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r.Response(0))
		})
	}
}
