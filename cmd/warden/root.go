package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes, documented in docs/cli.md.
const (
	exitOK     = 0
	exitError  = 1
	exitUsage  = 2
	exitDenied = 3
)

// usageError marks a mistake in how a command was called (exit 2), as opposed to a failure (exit 1).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

// exitCodeError carries an exit code other than 1 with its message (e.g. 3, denied).
type exitCodeError struct {
	code int
	err  error
}

func (e exitCodeError) Error() string {
	if e.err == nil {
		return "exit status " + strconv.Itoa(e.code)
	}
	return e.err.Error()
}

// streams are a command's standard input and outputs, so tests run commands in-process.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func run(args []string, in io.Reader, out, errOut io.Writer) int {
	root := newRootCommand(streams{in: in, out: out, err: errOut})
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ue usageError
	var ce exitCodeError
	if errors.As(err, &ce) && ce.err == nil {
		return ce.code // the result is on stdout already (a denial)
	}
	fmt.Fprintln(errOut, "warden:", err)
	switch {
	case errors.As(err, &ce):
		return ce.code
	case errors.As(err, &ue), strings.HasPrefix(err.Error(), "unknown command"), strings.HasPrefix(err.Error(), "unknown flag"),
		strings.HasPrefix(err.Error(), "unknown shorthand flag"), strings.HasPrefix(err.Error(), "required flag"):
		fmt.Fprintln(errOut, "Run 'warden --help' for usage.")
		return exitUsage
	}
	return exitError
}

func newRootCommand(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "warden",
		Short: "Guardrails for tool-using AI agents",
		Long: `Warden guards tool-using AI agents: it authorizes every tool call before it runs, treats a provider's
safety stop as interrupted output, and runs input, output, tool and stream guardrails that fail closed.

Exit codes: 0 ok, 1 error, 2 usage, 3 denied.`,
		Example: `  # Would the embedded default policy let an agent run this?
  echo '{"tool": "bash", "arguments": {"command": "rm -rf ~"}}' | warden check

  # Check a config file, printing every problem with its file, line and key
  warden config validate warden.yaml

  # Start from the embedded default config
  warden config default > warden.yaml`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newVersionCommand(s), newConfigCommand(s), newCheckCommand(s), newPolicyCommand(s), newGuardCommand(s), newLedgerCommand(s), newApprovalsCommand(s), newScanCommand(s), newCalibrateCommand(s), newServeCommand(s), newMCPCommand(s), newBenchCommand(s))
	return root
}

// argsUsage wraps a cobra argument check so that its failures exit with the usage code.
func argsUsage(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
