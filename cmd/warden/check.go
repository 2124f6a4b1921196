package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/spf13/cobra"
)

// checkInput is one tool call to check.
type checkInput struct {
	Tool      string          `json:"tool"`
	ID        string          `json:"id"`
	Arguments json.RawMessage `json:"arguments"`
	Context   struct {
		AgentID    string            `json:"agent_id"`
		Passport   string            `json:"passport"`
		UserID     string            `json:"user_id"`
		ThreadID   string            `json:"thread_id"`
		RunID      string            `json:"run_id"`
		IsSubagent bool              `json:"is_subagent"`
		Scope      string            `json:"scope"`
		Attributes map[string]string `json:"attributes"`
	} `json:"context"`
}

// checkOutput is the verdict on one tool call.
type checkOutput struct {
	Allow     bool            `json:"allow"`
	Action    string          `json:"action"`
	Reasons   []warden.Reason `json:"reasons"`
	Guardrail string          `json:"guardrail,omitempty"`
	PolicyID  string          `json:"policy_id,omitempty"`
	// Message is the exact text the model would see as the tool's result; empty when allowed.
	Message string `json:"message"`
	// Error is set, in --jsonl mode, for a line that could not be evaluated.
	Error string `json:"error,omitempty"`
}

func newCheckCommand(s streams) *cobra.Command {
	var configFile string
	var jsonl, withAudit bool
	var compare string
	cmd := &cobra.Command{
		Use:   "check [FILE|-]",
		Short: "Check tool calls against the tool-call guardrails",
		Long: `Check evaluates tool calls against the tool_call guardrails of a config (the embedded default policy
when --config is not given) and prints one verdict per call, with the exact text the model would see when
the call is denied. Nothing is run.

Input is one JSON object, or with --jsonl one per line:

  {"tool": "bash", "arguments": {"command": "ls"},
   "context": {"agent_id": "...", "user_id": "...", "thread_id": "...", "is_subagent": false, "scope": "..."}}

Output, one JSON object per input:

  {"allow": false, "action": "reject", "reasons": [{"code": "...", "message": "..."}], "guardrail": "...",
   "policy_id": "...", "message": "Guardrail denied: tool 'bash' was blocked (...). Reason: .... Choose an alternative approach."}

Exit codes: for one call, 0 when allowed and 3 when denied; with --jsonl, 0 when every line was evaluated
(whatever the verdicts) and 1 when a line could not be, which is named. Audit records are not written
unless --audit is given.

Reviewing a policy change: with --compare OLD, each recorded call is checked under OLD and under --config,
and only the calls whose verdict changes (allowed or not, the action, or the first reason's code) are
printed, as {"line": N, "tool": "...", "before": {verdict}, "after": {verdict}}; a count goes to stderr, and
the exit code is 3 when any call changes, 0 when none does.`,
		Example: `  echo '{"tool": "bash", "arguments": {"command": "rm -rf ~"}}' | warden check
  warden check --jsonl examples/calls.jsonl
  warden check --config warden.yaml --jsonl calls.jsonl > verdicts.jsonl
  warden check --jsonl calls.jsonl --config new.yaml --compare old.yaml`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := config.Options{Stdout: s.err, Stderr: s.err, Approvals: dryApprovals{}}
			if !withAudit {
				opts.Recorder = warden.RecorderFunc(func(context.Context, *warden.Record) {})
			}
			l, err := config.Load(cmd.Context(), configFile, opts)
			if err != nil {
				return err
			}
			defer l.Close()
			in := s.in
			name := "<stdin>"
			if len(args) == 1 && args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				in, name = f, args[0]
			}
			if compare != "" {
				if !jsonl {
					return usageError{errors.New("--compare reviews recorded calls: give them with --jsonl")}
				}
				old, err := config.Load(cmd.Context(), compare, opts)
				if err != nil {
					return err
				}
				defer old.Close()
				return compareLines(cmd.Context(), old.Engine, l.Engine, in, name, s.out, s.err)
			}
			if jsonl {
				return checkLines(cmd.Context(), l.Engine, in, name, s.out)
			}
			return checkOne(cmd.Context(), l.Engine, in, name, s.out)
		},
	}
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "config `file` (default: the embedded default)")
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "read one tool call per line and write one verdict per line")
	cmd.Flags().BoolVar(&withAudit, "audit", false, "write audit records as the config says")
	cmd.Flags().StringVar(&compare, "compare", "", "with --jsonl: an `old config` to review --config against; print only the calls whose verdict changes")
	return cmd
}

func checkOne(ctx context.Context, e *warden.Engine, in io.Reader, name string, out io.Writer) error {
	data, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	v, err := evaluate(ctx, e, bytes.TrimSpace(data))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if err := writeJSON(out, v); err != nil {
		return err
	}
	if !v.Allow {
		return exitCodeError{code: exitDenied}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// evaluate decodes one tool call and runs the tool-call stage on it.
func evaluate(ctx context.Context, e *warden.Engine, line []byte) (checkOutput, error) {
	var ci checkInput
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ci); err != nil {
		return checkOutput{}, fmt.Errorf("not a tool call: %v", err)
	}
	if ci.Tool == "" {
		return checkOutput{}, errors.New(`not a tool call: "tool" is missing`)
	}
	c := ci.Context
	run := warden.RunInfo{AgentID: c.AgentID, Passport: c.Passport, UserID: c.UserID, ThreadID: c.ThreadID, RunID: c.RunID,
		IsSubagent: c.IsSubagent, Scope: c.Scope, Attributes: c.Attributes}
	args := []byte(ci.Arguments)
	if len(args) > 0 && args[0] == '"' {
		// Providers send arguments as a JSON string holding JSON; accept that too.
		var s string
		if err := json.Unmarshal(args, &s); err == nil {
			args = []byte(s)
		}
	}
	out, err := e.CheckToolCall(ctx, warden.ToolCallCheck{Run: run, Call: warden.NewToolCall(ci.ID, ci.Tool, args)})
	v := checkOutput{Allow: out.Allowed(), Action: out.Decision.Action.String(), Reasons: out.Decision.Reasons,
		Guardrail: out.Decision.Guardrail, PolicyID: out.Decision.PolicyID, Message: out.Message}
	if v.Reasons == nil {
		v.Reasons = []warden.Reason{}
	}
	var tw *warden.TripwireError
	if errors.As(err, &tw) {
		v.Allow, v.Message = false, ""
	} else if err != nil {
		return checkOutput{}, err
	}
	return v, nil
}

// checkLines evaluates one call per line on every core and writes the verdicts in input order.
func checkLines(ctx context.Context, e *warden.Engine, in io.Reader, name string, out io.Writer) error {
	return eachLine(in, name, out, func(_ int, line []byte) ([]byte, error) {
		v, err := evaluate(ctx, e, line)
		if err != nil {
			v = checkOutput{Action: "error", Reasons: []warden.Reason{}, Error: err.Error()}
		}
		b, _ := json.Marshal(v)
		return append(b, '\n'), err
	})
}

// changedVerdict is a call whose verdict differs between two policies, in --compare's output.
type changedVerdict struct {
	Line   int         `json:"line"`
	Tool   string      `json:"tool"`
	Before checkOutput `json:"before"`
	After  checkOutput `json:"after"`
}

// compareLines evaluates one call per line under two engines and writes the calls whose verdicts differ
// (allowed or not, the action, or the first reason's code), in input order. A change exits 3, so that a
// policy change can be reviewed in CI against recorded calls.
func compareLines(ctx context.Context, before, after *warden.Engine, in io.Reader, name string, out, errOut io.Writer) error {
	var total, changed atomic.Int64
	err := eachLine(in, name, out, func(n int, line []byte) ([]byte, error) {
		total.Add(1)
		b, err := evaluate(ctx, before, line)
		if err != nil {
			return nil, err
		}
		a, err := evaluate(ctx, after, line)
		if err != nil {
			return nil, err
		}
		if b.Allow == a.Allow && b.Action == a.Action && firstCode(b) == firstCode(a) {
			return nil, nil
		}
		changed.Add(1)
		var ci checkInput
		_ = json.Unmarshal(line, &ci)
		out, _ := json.Marshal(changedVerdict{Line: n, Tool: ci.Tool, Before: b, After: a})
		return append(out, '\n'), nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(errOut, "%d of %d calls change verdict\n", changed.Load(), total.Load())
	if changed.Load() > 0 {
		return exitCodeError{code: exitDenied}
	}
	return nil
}

func firstCode(v checkOutput) string {
	if len(v.Reasons) == 0 {
		return ""
	}
	return v.Reasons[0].Code
}

// eachLine runs each on every non-blank line of in, on every core, and writes what it returns (nothing
// for nil) in input order; a line each fails is named in the error, after every line has run.
func eachLine(in io.Reader, name string, out io.Writer, each func(n int, line []byte) ([]byte, error)) error {
	type job struct {
		n    int
		line []byte
		res  chan []byte
	}
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan job, 256)
	order := make(chan job, 256)
	var failed []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				b, err := each(j.n, j.line)
				if err != nil {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("%s:%d: %v", name, j.n, err))
					mu.Unlock()
				}
				j.res <- b
			}
		})
	}
	w := bufio.NewWriterSize(out, 64<<10)
	var writeErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		for j := range order {
			b := <-j.res
			if writeErr == nil {
				_, writeErr = w.Write(b)
			}
		}
	}()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		j := job{n: n, line: bytes.Clone(line), res: make(chan []byte, 1)}
		order <- j
		jobs <- j
	}
	close(jobs)
	close(order)
	wg.Wait()
	<-done
	if err := w.Flush(); writeErr == nil {
		writeErr = err
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", name, n+1, err)
	}
	if writeErr != nil {
		return writeErr
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d line(s) could not be evaluated:\n%s", len(failed), joinLines(failed))
	}
	return nil
}

func joinLines(s []string) string {
	var b bytes.Buffer
	for i, l := range s {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return b.String()
}
