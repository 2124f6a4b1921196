package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// policyTestFile is a file of policy tests.
type policyTestFile struct {
	// Config is the config whose tool_call guardrails are tested, relative to the test file; the embedded
	// default when empty.
	Config string           `yaml:"config"`
	Cases  []policyTestCase `yaml:"cases"`
}

type policyTestCase struct {
	Name      string            `yaml:"name"`
	Tool      string            `yaml:"tool"`
	ID        string            `yaml:"id"`
	Arguments any               `yaml:"arguments"`
	Context   map[string]any    `yaml:"context"`
	Want      policyExpectation `yaml:"want"`
	line      int
}

type policyExpectation struct {
	Allow     *bool  `yaml:"allow"`
	Action    string `yaml:"action"`
	Code      string `yaml:"code"`
	PolicyID  string `yaml:"policy_id"`
	Guardrail string `yaml:"guardrail"`
	Message   string `yaml:"message"`
}

func newPolicyCommand(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "policy",
		Short:   "Test tool-call policies",
		Example: "  warden policy test policy_test.yaml",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "test FILE...",
		Short: "Run a policy's own tests: tool calls and the verdicts they must get",
		Long: `Test runs files of policy tests, like opa test. Each file names a config (relative to the file; the
embedded default when omitted) and lists cases: a tool call and the verdict it must get.

  config: warden.yaml
  cases:
    - name: deleting the home directory is denied
      tool: bash
      arguments: {command: "rm -rf ~"}
      want: {allow: false, code: warden.destructive_delete}
    - name: the tests may run
      tool: bash
      arguments: {command: "go test ./..."}
      context: {agent_id: ci-bot, is_subagent: false}
      want: {allow: true}

want takes allow (required), and optionally action, code (the first reason's), policy_id, guardrail and
message (a part of the text the model sees). Failures are printed with what was wanted and what came.
Exit code 0 when every case passes, 1 otherwise.`,
		Example: `  warden policy test policy_test.yaml
  warden policy test policies/*_test.yaml`,
		Args: argsUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			passed, failed := 0, 0
			for _, f := range args {
				p, n, err := runPolicyTests(cmd.Context(), f, s)
				if err != nil {
					return err
				}
				passed += p
				failed += n
			}
			fmt.Fprintf(s.out, "%d passed, %d failed\n", passed, failed)
			if failed > 0 {
				return exitCodeError{code: exitError}
			}
			return nil
		},
	})
	return cmd
}

func runPolicyTests(ctx context.Context, file string, s streams) (passed, failed int, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, 0, err
	}
	var tf policyTestFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&tf); err != nil {
		return 0, 0, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var doc yaml.Node
	_ = yaml.Unmarshal(data, &doc)
	if len(doc.Content) > 0 {
		for i := 0; i+1 < len(doc.Content[0].Content); i += 2 {
			if doc.Content[0].Content[i].Value == "cases" {
				for j, c := range doc.Content[0].Content[i+1].Content {
					if j < len(tf.Cases) {
						tf.Cases[j].line = c.Line
					}
				}
			}
		}
	}
	if len(tf.Cases) == 0 {
		return 0, 0, fmt.Errorf("%s: no cases", file)
	}
	cfg := tf.Config
	if cfg != "" && !filepath.IsAbs(cfg) {
		cfg = filepath.Join(filepath.Dir(file), cfg)
	}
	l, err := config.Load(ctx, cfg, config.Options{Recorder: warden.RecorderFunc(func(context.Context, *warden.Record) {}), Approvals: dryApprovals{}})
	if err != nil {
		return 0, 0, err
	}
	defer l.Close()
	for _, c := range tf.Cases {
		where := fmt.Sprintf("%s:%d", file, c.line)
		if c.Want.Allow == nil || c.Tool == "" {
			return passed, failed, fmt.Errorf("%s: a case needs tool and want.allow", where)
		}
		line, err := json.Marshal(map[string]any{"tool": c.Tool, "id": c.ID, "arguments": orEmpty(c.Arguments), "context": orEmptyMap(c.Context)})
		if err != nil {
			return passed, failed, fmt.Errorf("%s: %v", where, err)
		}
		v, err := evaluate(ctx, l.Engine, line)
		if err != nil {
			return passed, failed, fmt.Errorf("%s: %v", where, err)
		}
		if diff := c.Want.differences(v); diff != "" {
			failed++
			fmt.Fprintf(s.out, "FAIL %s: %s\n%s", where, c.Name, diff)
			continue
		}
		passed++
	}
	return passed, failed, nil
}

func orEmpty(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// differences describes how a verdict differs from what was wanted, or "" when it does not.
func (w policyExpectation) differences(v checkOutput) string {
	var b strings.Builder
	code := ""
	if len(v.Reasons) > 0 {
		code = v.Reasons[0].Code
	}
	check := func(what, want, got string, ok bool) {
		if !ok {
			fmt.Fprintf(&b, "    %-9s want %q, got %q\n", what, want, got)
		}
	}
	check("allow", fmt.Sprint(*w.Allow), fmt.Sprint(v.Allow), *w.Allow == v.Allow)
	if w.Action != "" {
		check("action", w.Action, v.Action, w.Action == v.Action)
	}
	if w.Code != "" {
		check("code", w.Code, code, w.Code == code)
	}
	if w.PolicyID != "" {
		check("policy_id", w.PolicyID, v.PolicyID, w.PolicyID == v.PolicyID)
	}
	if w.Guardrail != "" {
		check("guardrail", w.Guardrail, v.Guardrail, w.Guardrail == v.Guardrail)
	}
	if w.Message != "" {
		check("message", "…"+w.Message+"…", v.Message, strings.Contains(v.Message, w.Message))
	}
	if b.Len() > 0 && v.Allow != *w.Allow && code != "" {
		fmt.Fprintf(&b, "    (decided by %s: %s)\n", v.PolicyID, v.Reasons[0].Message)
	}
	return b.String()
}
