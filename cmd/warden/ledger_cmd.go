package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	"github.com/spf13/cobra"
)

func newLedgerCommand(s streams) *cobra.Command {
	var configFile string
	load := func(cmd *cobra.Command) (*config.Loaded, error) {
		l, err := config.Load(cmd.Context(), configFile, config.Options{Recorder: warden.RecorderFunc(func(context.Context, *warden.Record) {}), Approvals: dryApprovals{}})
		if err != nil {
			return nil, err
		}
		switch {
		case l.Ledger == nil:
			l.Close()
			return nil, errors.New("the config has no ledger section")
		case l.Parsed.File.Ledger.Backend != "redis":
			l.Close()
			return nil, errors.New("the ledger's backend is memory: each gateway process keeps its own, so it cannot be read from here; use backend: redis to share one")
		}
		return l, nil
	}
	cmd := &cobra.Command{
		Use:   "ledger",
		Short: "Inspect and clear the end-user violation ledger",
		Long: `The ledger counts provider safety stops per end user and blocks a user's requests, before they reach the
provider, after max_violations within window, for block_for. These commands read the shared (redis) ledger
the config's ledger section names.`,
		Example: `  warden ledger status --config warden.yaml user-1234
  warden ledger clear --config warden.yaml user-1234`,
	}
	cmd.PersistentFlags().StringVarP(&configFile, "config", "c", "", "config `file` with a ledger section (backend: redis)")
	cmd.AddCommand(&cobra.Command{
		Use:     "status USER",
		Short:   "Show a user's violations and block",
		Example: "  warden ledger status --config warden.yaml user-1234",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := load(cmd)
			if err != nil {
				return err
			}
			defer l.Close()
			now := time.Now()
			st, err := l.Ledger.Status(cmd.Context(), args[0], now)
			if err != nil {
				return fmt.Errorf("ledger: %v", err)
			}
			fmt.Fprintf(s.out, "%s: %d violation(s) in the window\n", args[0], st.Violations)
			if st.BlockedUntil.IsZero() {
				fmt.Fprintln(s.out, "not blocked")
			} else {
				fmt.Fprintf(s.out, "blocked until %s (%s from now)\n", st.BlockedUntil.UTC().Format(time.RFC3339), st.BlockedUntil.Sub(now).Round(time.Second))
			}
			return nil
		},
	}, &cobra.Command{
		Use:     "clear USER",
		Short:   "Forget a user's violations and lift the block",
		Example: "  warden ledger clear --config warden.yaml user-1234",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := load(cmd)
			if err != nil {
				return err
			}
			defer l.Close()
			if err := l.Ledger.Clear(cmd.Context(), args[0]); err != nil {
				return fmt.Errorf("ledger: %v", err)
			}
			fmt.Fprintf(s.out, "%s: cleared\n", args[0])
			return nil
		},
	})
	return cmd
}
