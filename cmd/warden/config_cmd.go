package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/spf13/cobra"
)

func newConfigCommand(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Validate, print and explain Warden config files",
		Example: `  warden config validate warden.yaml
  warden config default > warden.yaml
  warden config schema > config.schema.json
  warden config modules`,
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:   "validate [FILE|-]",
			Short: "Check a config file: every key, every module, all problems at once",
			Long: `Validate parses a config file, expands ${ENV} references, checks every key strictly, and loads every
module it names (decoding and provisioning its config) without serving anything. Each problem is printed
as file:line:col: module: key.path: message. With no FILE it validates the embedded default; with - it
reads standard input. Exit code 0 when valid, 1 when not.`,
			Example: `  warden config validate warden.yaml
  warden config validate            # the embedded default
  cat warden.yaml | warden config validate -`,
			Args: argsUsage(cobra.MaximumNArgs(1)),
			RunE: func(cmd *cobra.Command, args []string) error { return validateConfig(cmd.Context(), s, args) },
		},
		&cobra.Command{
			Use:     "default",
			Short:   "Print the embedded default config",
			Example: "  warden config default > warden.yaml",
			Args:    argsUsage(cobra.NoArgs),
			RunE: func(*cobra.Command, []string) error {
				_, err := s.out.Write(config.Default())
				return err
			},
		},
		&cobra.Command{
			Use:     "schema",
			Short:   "Print the JSON Schema of the config file format",
			Long:    "Schema prints the JSON Schema (draft 2020-12) of Warden config files, for editors and CI checks.",
			Example: "  warden config schema > config.schema.json",
			Args:    argsUsage(cobra.NoArgs),
			RunE: func(*cobra.Command, []string) error {
				_, err := s.out.Write(config.Schema())
				return err
			},
		},
		&cobra.Command{
			Use:     "modules",
			Short:   "List the modules config can use",
			Long:    "Modules lists every registered module by ID. A guardrail module guardrail.<stage>.<name> is used as `use: <name>` under guardrails.<stage>.",
			Example: "  warden config modules",
			Args:    argsUsage(cobra.NoArgs),
			RunE: func(*cobra.Command, []string) error {
				tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "MODULE\tSUMMARY")
				for _, m := range warden.Modules() {
					fmt.Fprintf(tw, "%s\t%s\n", m.ID, m.Summary)
				}
				return tw.Flush()
			},
		},
	)
	return cmd
}

func validateConfig(ctx context.Context, s streams, args []string) error {
	name, data := config.DefaultName, config.Default()
	if len(args) == 1 {
		var err error
		if name, data, err = readInput(s, args[0]); err != nil {
			return err
		}
	}
	p, err := config.Parse(name, data)
	if err != nil {
		return fmt.Errorf("%s is not valid:\n%w", name, err)
	}
	// A no-op recorder and a dry run of approvals: validating must not create or append to the audit file,
	// nor create the approvals' data directory, database or key.
	l, err := p.Build(ctx, config.Options{Recorder: warden.RecorderFunc(func(context.Context, *warden.Record) {}), Approvals: dryApprovals{}})
	if err != nil {
		return fmt.Errorf("%s is not valid:\n%w", name, err)
	}
	defer l.Close()
	fmt.Fprintf(s.out, "%s: valid\n", name)
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	for _, st := range warden.Stages {
		var names []string
		for _, g := range stageGuardrails(p.File.Guardrails, st) {
			desc := g.Name + " (" + g.Use
			if g.Mode != warden.ModeEnforce {
				desc += ", " + g.Mode.String()
			}
			if g.Execution == warden.ExecutionParallel {
				desc += ", parallel"
			}
			if g.FailClosed != nil && !*g.FailClosed {
				desc += ", fail-open"
			}
			names = append(names, desc+")")
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\n", st, len(names), strings.Join(names, ", "))
	}
	sink, path := p.File.Audit.Sink, p.File.Audit.Path
	if sink == "" {
		sink = "jsonl"
	}
	if path == "" {
		path = "stderr"
	}
	if sink == "none" {
		fmt.Fprintf(tw, "  audit\t\tnone\n")
	} else {
		fmt.Fprintf(tw, "  audit\t\t%s to %s\n", sink, path)
	}
	return tw.Flush()
}

func stageGuardrails(g config.Stages, s warden.Stage) []config.Guardrail {
	switch s {
	case warden.StageInput:
		return g.Input
	case warden.StageResponse:
		return g.Response
	case warden.StageToolCall:
		return g.ToolCall
	case warden.StageToolResult:
		return g.ToolResult
	case warden.StageOutput:
		return g.Output
	case warden.StageStream:
		return g.Stream
	}
	return nil
}

// readInput reads a file argument, or standard input for "-".
func readInput(s streams, arg string) (string, []byte, error) {
	if arg == "-" {
		data, err := io.ReadAll(s.in)
		return "<stdin>", data, err
	}
	data, err := readFile(arg)
	return arg, data, err
}
