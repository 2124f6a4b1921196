package recovery_test

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/guardrail/recovery"
	"github.com/agentwarden/warden/stream"
)

func TestRecovery(t *testing.T) {
	t.Parallel()
	tools := []string{"bash", "sql"}
	skills := []warden.Skill{{Name: "pdf-report", Path: "/skills/pdf-report/SKILL.md"}}
	tests := []struct {
		desc     string
		part     warden.Part
		tools    []string
		want     warden.Action
		feedback string
	}{
		{desc: "a text part passes", part: warden.Part{Kind: warden.PartText, Text: "hi"}, tools: tools, want: warden.ActionAllow},
		{desc: "tool choice none lists the tools", part: errPart("Tool choice is none, but model called a tool"), tools: tools, want: warden.ActionRetry,
			feedback: "I tried to call a tool that doesn't exist. Available tools: bash, sql. Let me use one of these instead."},
		{desc: "tool choice none without tools answers in text", part: errPart("Tool choice is none"), want: warden.ActionRetry,
			feedback: "I tried to call a tool, but no tools are available. Let me respond with plain text instead."},
		{desc: "an unknown tool is named, with the tools and the closest", part: errPart("attempted to call tool 'bsh' which was not in request.tools"), tools: tools,
			want: warden.ActionRetry, feedback: `I tried to call "bsh" but it doesn't exist. Available tools: bash, sql. The closest is "bash". Let me use one of these instead.`},
		{desc: "a skill called as a tool is sent to its instructions, names normalised", part: errPart("attempted to call tool 'PDF_Report' which was not in request.tools"), tools: tools,
			want: warden.ActionRetry, feedback: `"pdf-report" is a skill, not a tool. There is no separate invoke action for it. Read the skill at /skills/pdf-report/SKILL.md and follow the instructions there.`},
		{desc: "the typed error is read before any wording", part: warden.Part{Kind: warden.PartError, Err: &warden.ToolCallError{Kind: warden.NoSuchTool, Tool: "sq1"}}, tools: tools,
			want: warden.ActionRetry, feedback: `I tried to call "sq1" but it doesn't exist. Available tools: bash, sql. The closest is "sql". Let me use one of these instead.`},
		{desc: "a wrapped typed error is read too", part: warden.Part{Kind: warden.PartError, Err: errors.Join(errors.New("stream"), &warden.ToolCallError{Kind: warden.InvalidArguments})},
			want: warden.ActionRetry, feedback: "I generated malformed JSON for the tool arguments. Let me format my tool call properly with valid JSON."},
		{desc: "malformed JSON arguments", part: errPart("Failed to parse tool call arguments as JSON"), want: warden.ActionRetry,
			feedback: "I generated malformed JSON for the tool arguments. Let me format my tool call properly with valid JSON."},
		{desc: "a schema mismatch names the tool and the errors", part: errPart("tool call validation failed: parameters for tool render_ask did not match schema: errors: [missing properties: 'question']"),
			want: warden.ActionRetry, feedback: `I called "render_ask" with invalid parameters. Schema errors: missing properties: 'question'. Let me fix the parameters and try again.`},
		{desc: "a parse failure of the response", part: errPart("Parsing failed"), want: warden.ActionRetry,
			feedback: "My response format was invalid. Let me try again with a properly formatted response."},
		{desc: "a failed generation lists the tools", part: errPart("Failed to call a function. Please adjust your prompt. See 'failed_generation'"), tools: tools, want: warden.ActionRetry,
			feedback: "My function call was malformed. Available tools: bash, sql. Let me format my tool call correctly."},
		{desc: "any other error passes on and ends the stream", part: errPart("rate limit exceeded"), tools: tools, want: warden.ActionAllow},
		{desc: "the wording is matched case-sensitively, as providers write it", part: errPart("tool choice is NONE"), want: warden.ActionAllow},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			d, err := recovery.Recovery{}.CheckPart(context.Background(), warden.PartCheck{Part: tt.part, Tools: tt.tools, Skills: skills})
			if err != nil {
				t.Fatal(err)
			}
			if d.Action != tt.want {
				t.Fatalf("action %v, want %v", d.Action, tt.want)
			}
			if tt.want == warden.ActionRetry && d.FirstReason().Message != tt.feedback {
				t.Errorf("feedback\n %q\nwant %q", d.FirstReason().Message, tt.feedback)
			}
		})
	}
}

func errPart(msg string) warden.Part {
	return warden.Part{Kind: warden.PartError, Err: errors.New(msg)}
}

// TestRecoveryThroughTheRunner: an error about an unknown tool mid-stream becomes a self-correction, and
// the model's second attempt finishes the response.
func TestRecoveryThroughTheRunner(t *testing.T) {
	t.Parallel()
	e, err := warden.NewEngine(warden.Spec{Stream: []warden.Entry{{Name: "error_recovery", Guardrail: recovery.Recovery{}}}})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	src := func(_ context.Context, c *stream.Correction) iter.Seq2[warden.Part, error] {
		calls++
		return func(yield func(warden.Part, error) bool) {
			if c == nil {
				if yield(warden.Part{Kind: warden.PartText, Text: "Let me check."}, nil) {
					yield(warden.Part{}, &warden.ToolCallError{Kind: warden.NoSuchTool, Tool: "grep"})
				}
				return
			}
			if yield(warden.Part{Kind: warden.PartText, Text: " Using bash."}, nil) {
				yield(warden.Part{Kind: warden.PartFinish, Finish: warden.FinishStop}, nil)
			}
		}
	}
	var out strings.Builder
	err = (&stream.Runner{Engine: e, MaxRetries: 2}).Run(context.Background(), stream.Info{Tools: []string{"bash"}}, src, func(p warden.Part) error {
		out.WriteString(p.Text)
		return nil
	})
	want := `Let me check. I tried to call "grep" but it doesn't exist. Available tools: bash. Let me use one of these instead. Using bash.`
	if err != nil || out.String() != want || calls != 2 {
		t.Errorf("err %v, %d attempts, client sees\n %q\nwant %q", err, calls, out.String(), want)
	}
}
