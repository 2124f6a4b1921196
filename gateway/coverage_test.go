package gateway_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
)

// present allows everything at every stage: it is there to be seen evaluating.
type present struct{}

func (present) CheckInput(context.Context, warden.InputCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}
func (present) CheckResponse(context.Context, warden.ResponseCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}
func (present) CheckToolCall(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}
func (present) CheckToolResult(context.Context, warden.ToolResultCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}
func (present) CheckPart(context.Context, warden.PartCheck) (warden.Decision, error) {
	return warden.Allow(), nil
}

// renumber is an output guardrail that writes "42" as "[N]": its change must reach the client, and the
// original must not, whole or streamed.
type renumber struct{}

func (renumber) CheckOutput(_ context.Context, c warden.OutputCheck) (warden.Decision, error) {
	if !strings.Contains(c.Output.Text(), "42") {
		return warden.Allow(), nil
	}
	m := warden.TextMessage(c.Output.Role, strings.ReplaceAll(c.Output.Text(), "42", "[N]"))
	return warden.Modify(m, warden.Reason{Code: "test.renumbered"}), nil
}

func init() {
	for _, s := range []warden.Stage{warden.StageInput, warden.StageResponse, warden.StageToolCall, warden.StageToolResult, warden.StageStream} {
		warden.Register(warden.ModuleInfo{ID: "guardrail." + s.String() + ".present", New: func() any { return new(present) }, Summary: "test: allows, to be seen"})
	}
	warden.Register(warden.ModuleInfo{ID: "guardrail.output.renumber", New: func() any { return new(renumber) }, Summary: "test: 42 becomes [N]"})
}

// everyStage configures a guardrail at every stage, beside the defaults.
const everyStage = `version: 1
guardrails:
  input: [{use: present}]
  response: [{use: safety}, {use: present}]
  tool_call: [{use: commands}, {use: present}]
  tool_result: [{use: present}]
  output: [{use: renumber}]
  stream: [{use: present}]
audit: {sink: none}
`

// TestCoverageMatrix runs every surface, whole and streamed, through a turn that ends in a tool call and
// one that ends in a final answer, and fails if a guardrail configured for a stage the turn went through
// did not evaluate: a guardrail that silently never runs is the bypass users fear most.
func TestCoverageMatrix(t *testing.T) {
	t.Parallel()
	type turn struct {
		name  string
		reply func(stream bool) reply
		// stages are those the turn goes through, besides the request side's input and tool_result.
		stages    []warden.Stage
		wantText  string
		wantCalls []string
	}
	replies := map[string][2]func(t *testing.T) []byte{ // tool turn, final answer; whole then stream
		"openai-chat": {func(t *testing.T) []byte { return fixture(t, "openai", "healthy_tool_calls.json") }, func(t *testing.T) []byte { return fixture(t, "openai", "healthy_text.json") }},
		"openai-chat stream": {func(t *testing.T) []byte { return fixture(t, "openai", "stream_tool_call.sse") }, func(t *testing.T) []byte {
			return bytes.Replace(fixture(t, "openai", "stream_text.sse"), []byte("Hello"), []byte("All 42 tests pass"), 1)
		}},
		"openai-responses":        {func(t *testing.T) []byte { return fixture(t, "openai", "responses_healthy_function_call.json") }, func(t *testing.T) []byte { return fixture(t, "openai", "responses_healthy_text.json") }},
		"openai-responses stream": {func(t *testing.T) []byte { return fixture(t, "openai", "responses_stream_function_call.sse") }, func(t *testing.T) []byte { return fixture(t, "openai", "responses_stream_text.sse") }},
		"anthropic":               {func(t *testing.T) []byte { return fixture(t, "anthropic", "healthy_tool_use.json") }, func(t *testing.T) []byte { return fixture(t, "anthropic", "healthy_text.json") }},
		"anthropic stream":        {func(t *testing.T) []byte { return fixture(t, "anthropic", "stream_tool_use.sse") }, func(t *testing.T) []byte { return fixture(t, "anthropic", "stream_text.sse") }},
		"gemini":                  {func(t *testing.T) []byte { return fixture(t, "gemini", "healthy_function_call.json") }, func(t *testing.T) []byte { return fixture(t, "gemini", "healthy_text.json") }},
		"gemini stream":           {func(t *testing.T) []byte { return fixture(t, "gemini", "stream_function_call.sse") }, func(t *testing.T) []byte { return fixture(t, "gemini", "stream_text.sse") }},
	}
	for _, ask := range []string{"openai-chat", "openai-chat stream", "openai-responses", "openai-responses stream", "anthropic", "anthropic stream", "gemini", "gemini stream"} {
		streamed := strings.HasSuffix(ask, " stream")
		for i, name := range []string{"a turn that ends in a tool call", "a final answer"} {
			stages := []warden.Stage{warden.StageInput, warden.StageToolResult, warden.StageResponse, warden.StageToolCall}
			wantCalls := []string{`bash {"command":"go test ./..."}`}
			if i == 1 {
				stages[3], wantCalls = warden.StageOutput, nil
			}
			if streamed {
				stages = append(stages, warden.StageStream)
			}
			t.Run(ask+"/"+name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, everyStage)
				r := reply{body: replies[ask][i](t)}
				if streamed {
					r.contentType = "text/event-stream"
				}
				h.up.answer(r)
				got, err := askers[ask](t, h, true)
				if err != nil {
					t.Fatal(err)
				}
				if noSpace(got.calls) != noSpace(wantCalls) {
					t.Errorf("tool calls = %q, want %q", got.calls, wantCalls)
				}
				if i == 1 && !strings.Contains(got.text, "[N]") || strings.Contains(got.text, "42") {
					t.Errorf("text = %q: want the output guardrail's change, and not the original", got.text)
				}
				if strings.Count(got.text, "test") > 1 {
					t.Errorf("text = %q: held text went out twice", got.text)
				}
				checkCoverage(t, h.recs, stages)
			})
		}
	}
}

// checkCoverage fails unless every guardrail configured for each of stages has an evaluated record, and
// none errored or was skipped.
func checkCoverage(t *testing.T, recs *records, stages []warden.Stage) {
	t.Helper()
	recs.mu.Lock()
	defer recs.mu.Unlock()
	evaluated := map[string]bool{}
	for _, rec := range recs.list {
		for _, ev := range rec.Evaluations {
			key := fmt.Sprintf("%s/%s", ev.Stage, ev.Guardrail)
			switch ev.Status {
			case warden.StatusEvaluated:
				evaluated[key] = true
			default:
				t.Errorf("%s: %s (%s %v)", key, ev.Status, ev.Skip, ev.Err)
			}
		}
	}
	configured := map[warden.Stage][]string{
		warden.StageInput: {"present"}, warden.StageResponse: {"safety", "present"}, warden.StageToolCall: {"commands", "present"},
		warden.StageToolResult: {"present"}, warden.StageOutput: {"renumber"}, warden.StageStream: {"present"},
	}
	for _, s := range stages {
		for _, g := range configured[s] {
			if key := fmt.Sprintf("%s/%s", s, g); !evaluated[key] {
				t.Errorf("%s never evaluated", key)
			}
		}
	}
}
