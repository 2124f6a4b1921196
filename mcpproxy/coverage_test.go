package mcpproxy_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// coverageConfig configures two guardrails at each stage the proxy runs: a stage that ran must show both,
// each evaluated or skipped with its reason (the command policy skips what is not a shell or file tool; a
// reject ends a stage, and the guardrails after it show "not reached").
const coverageConfig = `version: 1
guardrails:
  tool_call:
    - use: arguments
    - use: commands
  tool_result:
    - use: test_screen
    - use: injection
`

// The coverage matrix of the MCP proxy: transport × protocol generation × method × stage. Each method that
// has a stage must run it, and every guardrail configured for that stage must be evaluated: a configured
// guardrail that did not run fails the test.
func TestCoverageMatrix(t *testing.T) {
	t.Parallel()
	p, err := config.Parse("coverage.yaml", []byte(coverageConfig))
	if err != nil {
		t.Fatal(err)
	}
	configured := map[warden.Stage]int{warden.StageToolCall: 2, warden.StageToolResult: 2}
	type stageOf struct {
		stage warden.Stage
		tool  string
	}
	methods := []struct {
		method string
		call   func(context.Context, *mcp.ClientSession) error
		stages []stageOf
	}{
		{"tools/call", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "ls"}})
			return err
		}, []stageOf{{warden.StageToolCall, "mcp__files__run_command"}, {warden.StageToolResult, "mcp__files__run_command"}}},
		{"tools/list", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.ListTools(ctx, nil)
			return err
		}, []stageOf{{warden.StageToolResult, "mcp__files__run_command"}, {warden.StageToolResult, "mcp__files__read_file"}}},
		{"resources/read", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///notes.md"})
			return err
		}, []stageOf{{warden.StageToolCall, "mcp__files__resources/read"}, {warden.StageToolResult, "mcp__files__resources/read"}}},
		{"prompts/get", func(ctx context.Context, cs *mcp.ClientSession) error {
			_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review"})
			return err
		}, []stageOf{{warden.StageToolCall, "mcp__files__prompts/get"}, {warden.StageToolResult, "mcp__files__prompts/get"}}},
	}
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		for _, m := range methods {
			t.Run(fmt.Sprintf("stdio/%s/%s", version, m.method), func(t *testing.T) {
				t.Parallel()
				rec := &recorded{}
				l, err := p.Build(context.Background(), config.Options{Recorder: rec})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { l.Close() })
				px := proxyOf(t, l)
				cs := sdkSession(t, px, version)
				before := len(rec.snapshot())
				m.call(context.Background(), cs) // an answer a guardrail withheld is an error here; the records tell
				recs := rec.snapshot()[before:]
				for _, want := range m.stages {
					found := false
					for _, r := range recs {
						if r.Stage != want.stage || r.ToolName != want.tool {
							continue
						}
						found = true
						if len(r.Evaluations) != configured[want.stage] {
							t.Errorf("%s on %s: %d evaluations, want %d", want.stage, want.tool, len(r.Evaluations), configured[want.stage])
						}
						for _, ev := range r.Evaluations {
							if ev.Status != warden.StatusEvaluated && (ev.Status != warden.StatusSkipped || ev.Skip == "") {
								t.Errorf("%s on %s: guardrail %s %s (%q), want evaluated or skipped with its reason", want.stage, want.tool, ev.Guardrail, ev.Status, ev.Skip)
							}
						}
					}
					if !found {
						t.Errorf("no %s record for %s: the stage did not run", want.stage, want.tool)
					}
				}
			})
		}
	}
}
