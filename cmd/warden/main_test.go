package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/config"
	"github.com/spf13/cobra"
)

func runCLI(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// cliCase is one run of the command line and what it must do.
type cliCase struct {
	desc     string
	args     []string
	stdin    string
	wantCode int
	wantOut  []string // each must appear in stdout
	wantErr  []string // each must appear in stderr
	denyOut  []string // none may appear in stdout
}

func runCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCLI(tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			for _, w := range tt.denyOut {
				if strings.Contains(out, w) {
					t.Errorf("stdout holds %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestCommands(t *testing.T) {
	t.Parallel()
	runCLICases(t, []cliCase{
		{desc: "version prints the version", args: []string{"version"}, wantOut: []string{"warden ", "go1."}},
		{desc: "validate with no file checks the embedded default", args: []string{"config", "validate"},
			wantOut: []string{"<default>: valid", "tool_call", "audit", "jsonl to stderr"}},
		{desc: "validate summarizes each stage's guardrails", args: []string{"config", "validate", "../../examples/judge.yaml"},
			wantOut: []string{"examples/judge.yaml: valid", "injection-judge (judge, parallel)", "result-judge (judge)"}},
		{desc: "validate reports every problem with file, line, column and key, exit 1", args: []string{"config", "validate", "testdata/bad.yaml"}, wantCode: 1,
			wantErr: []string{"testdata/bad.yaml:4:12: guardrails.tool_call[0].use: unknown guardrail \"judg\"", "testdata/bad.yaml:5:13: guardrails.tool_call[0].mode: unknown mode \"loud\""}},
		{desc: "validate reads standard input for -", args: []string{"config", "validate", "-"}, stdin: "version: 1\n", wantOut: []string{"<stdin>: valid"}},
		{desc: "validate names a missing file, exit 1", args: []string{"config", "validate", "nope.yaml"}, wantCode: 1, wantErr: []string{"nope.yaml"}},
		{desc: "validate with two files is a usage error, exit 2", args: []string{"config", "validate", "a", "b"}, wantCode: 2, wantErr: []string{"accepts at most 1 arg", "warden --help"}},
		{desc: "an unknown command is a usage error, exit 2", args: []string{"serveit"}, wantCode: 2, wantErr: []string{`unknown command "serveit"`}},
		{desc: "an unknown flag is a usage error, exit 2", args: []string{"config", "validate", "--strictly"}, wantCode: 2, wantErr: []string{"unknown flag: --strictly"}},
		{desc: "default prints the embedded config", args: []string{"config", "default"}, wantOut: []string{string(config.Default())}},
		{desc: "modules lists the registered modules", args: []string{"config", "modules"}, wantOut: []string{"MODULE", "guardrail.input.judge", "guardrail.tool_call.judge"}},
		{desc: "help shows an example", args: []string{"config", "validate", "--help"}, wantOut: []string{"Examples:", "warden config validate warden.yaml"}},
		{desc: "root help documents the exit codes", args: []string{"--help"}, wantOut: []string{"0 ok, 1 error, 2 usage, 3 denied"}},
	})
}

func TestSchemaCommandPrintsValidJSON(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI("", "config", "schema")
	if code != 0 || !json.Valid([]byte(out)) || out != string(config.Schema()) {
		t.Errorf("exit %d, valid JSON %v, equal to the embedded schema %v", code, json.Valid([]byte(out)), out == string(config.Schema()))
	}
}

func TestEveryCommandHasAnExample(t *testing.T) {
	t.Parallel()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() != "help" && c.Name() != "completion" && strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no example in its help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCommand(streams{}))
}

func TestBenchCommand(t *testing.T) {
	t.Parallel()
	tiny := []string{"bench", "--requests", "20", "--stream-requests", "4", "--chunks", "4", "--chunk-interval", "10us",
		"--concurrency", "2", "--duration", "40ms", "--rounds", "2", "--throughput-rounds", "1"}
	runCLICases(t, []cliCase{
		{desc: "bench reports every target and the checks", args: tiny,
			wantOut: []string{"bare-proxy", "warden-off", "TTFT p99", "streams/s", "added p99, whole, concurrency 1", "evaluated 3/3 guardrails"},
			wantErr: []string{"warming up", "throughput at concurrency 2"}},
		{desc: "bench writes JSON on request", args: append(tiny, "--format", "json"), wantOut: []string{`"targets"`, `"p99_us"`, `"checks"`}},
		{desc: "bench rejects a negative count, exit 2", args: []string{"bench", "--requests", "-1"}, wantCode: 2, wantErr: []string{"requests cannot be negative"}},
		{desc: "bench rejects an unknown format, exit 2", args: []string{"bench", "--format", "xml"}, wantCode: 2, wantErr: []string{`"xml" is not text or json`}},
		{desc: "bench help explains the targets", args: []string{"bench", "--help"}, wantOut: []string{"bare httputil.ReverseProxy", "within 150µs", "--keep-audit"}},
		{desc: "bench help offers pinning, not the proxies' process's own flag", args: []string{"bench", "--help"},
			wantOut: []string{"--pin ", "a process of their own"}, denyOut: []string{"--serve-proxies"}},
	})
}

// writeFile writes a test's file into dir and returns its path.
func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
