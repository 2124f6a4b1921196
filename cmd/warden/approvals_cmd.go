package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentwarden/warden/approvals/admin"
	"github.com/agentwarden/warden/config"
	"github.com/spf13/cobra"
)

const defaultAdminURL = "http://" + config.DefaultAdminListen

func newApprovalsCommand(s streams) *cobra.Command {
	var adminURL, token string
	client := func() (*adminClient, error) {
		if adminURL == "" {
			adminURL = os.Getenv("WARDEN_ADMIN_URL")
		}
		if adminURL == "" {
			adminURL = defaultAdminURL
		}
		if token == "" {
			token = os.Getenv("WARDEN_ADMIN_TOKEN")
		}
		if token == "" {
			return nil, usageError{errors.New("no token: pass --token or set WARDEN_ADMIN_TOKEN (one of approvals.admin.tokens)")}
		}
		u, err := url.Parse(adminURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, usageError{fmt.Errorf("--admin %q is not an http:// or https:// URL", adminURL)}
		}
		return &adminClient{base: strings.TrimSuffix(adminURL, "/"), token: token, http: &http.Client{Timeout: 15 * time.Second}}, nil
	}
	cmd := &cobra.Command{
		Use:   "approvals",
		Short: "List, approve and deny the tool calls that wait for a person",
		Long: `A guardrail that asks (action: ask in a commands or cel rule) holds a tool call until a person approves
it. These commands talk to the admin listener of a running warden serve or warden mcp (approvals.admin in
its config, or --admin there), authenticated by one of approvals.admin.tokens: the decision is recorded
under that token's approver name. The call's arguments are shown on the approvals page only; list gives
each request's page.`,
		Example: `  export WARDEN_ADMIN_TOKEN=...        # one of approvals.admin.tokens
  warden approvals list
  warden approvals approve apr_3f9c... --note "release day"
  warden approvals deny apr_3f9c... --note "push to a branch instead"
  warden approvals list --all --admin https://warden-admin.internal`,
	}
	cmd.PersistentFlags().StringVar(&adminURL, "admin", "", "admin listener `URL` (default: $WARDEN_ADMIN_URL, else "+defaultAdminURL+")")
	cmd.PersistentFlags().StringVar(&token, "token", "", "bearer `token` (default: $WARDEN_ADMIN_TOKEN)")

	var all, asJSON bool
	list := &cobra.Command{
		Use:     "list [--all] [--json]",
		Short:   "List the requests waiting for a decision (--all: every recent one)",
		Example: "  warden approvals list\n  warden approvals list --all --json --admin http://127.0.0.1:8788",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := client()
			if err != nil {
				return err
			}
			status := "pending"
			if all {
				status = "all"
			}
			var out struct {
				Approvals []admin.APIRecord `json:"approvals"`
			}
			if err := c.do(cmd.Context(), http.MethodGet, "/api/approvals?status="+status, nil, &out); err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(s.out)
				enc.SetIndent("", "  ")
				return enc.Encode(out.Approvals)
			}
			if len(out.Approvals) == 0 {
				if all {
					fmt.Fprintln(s.out, "no approval requests")
				} else {
					fmt.Fprintln(s.out, "nothing waits for a decision")
				}
				return nil
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTOOL\tFOR\tCODE\tSTATUS\tEXPIRES\tPAGE")
			for _, a := range out.Approvals {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.Tool, a.Principal, a.Code, a.Status, a.Expires.Local().Format("15:04:05"), a.URL)
			}
			return tw.Flush()
		},
	}
	list.Flags().BoolVar(&all, "all", false, "every recent request, decided ones too")
	list.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(list)

	for _, verdict := range []string{"approve", "deny"} {
		var note string
		c := &cobra.Command{
			Use:     verdict + " ID [--note TEXT]",
			Short:   strings.ToUpper(verdict[:1]) + verdict[1:] + " a waiting request",
			Example: "  warden approvals " + verdict + " apr_3f9c0d… --note \"" + map[string]string{"approve": "release day", "deny": "push to a branch instead"}[verdict] + "\"",
			Args:    argsUsage(cobra.ExactArgs(1)),
			RunE: func(cmd *cobra.Command, args []string) error {
				c, err := client()
				if err != nil {
					return err
				}
				body, _ := json.Marshal(map[string]string{"note": note})
				var rec admin.APIRecord
				if err := c.do(cmd.Context(), http.MethodPost, "/api/approvals/"+url.PathEscape(args[0])+"/"+verdict, body, &rec); err != nil {
					return err
				}
				fmt.Fprintf(s.out, "%s: %s by %s (tool %s)\n", rec.ID, rec.Status, rec.Approver, rec.Tool)
				return nil
			},
		}
		c.Flags().StringVar(&note, "note", "", "a note kept with the decision; a denial's note is what the model reads")
		cmd.AddCommand(c)
	}
	return cmd
}

// adminClient calls the admin listener's API.
type adminClient struct {
	base, token string
	http        *http.Client
}

func (c *adminClient) do(ctx context.Context, method, path string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("the admin listener at %s: %w", c.base, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		if resp.StatusCode == http.StatusUnauthorized {
			msg = "the token was refused (want one of approvals.admin.tokens)"
		}
		return fmt.Errorf("admin listener: %s: %s", resp.Status, msg)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("admin listener: unreadable answer: %w", err)
	}
	return nil
}

// startAdmin serves the approvals page and API when the config has approvals.admin or addr is set, until
// ctx ends. It returns at once, with the address it listens on (nil when it serves nothing); the listener
// is bound before it returns, so a bad address fails the start.
func startAdmin(ctx context.Context, l *config.Loaded, addr string, logger *slog.Logger) (net.Addr, error) {
	a := l.Parsed.File.Approvals
	switch {
	case addr == "" && (a == nil || a.Admin == nil):
		return nil, nil
	case a == nil:
		return nil, usageError{errors.New("--admin: the config has no approvals section to serve")}
	case a.Admin == nil || len(a.Admin.Tokens)+len(a.Admin.Users) == 0:
		return nil, usageError{errors.New("--admin: the config names no approvals.admin tokens or users, and the page is never served without authentication")}
	}
	if addr == "" {
		addr = a.Admin.Listen
	}
	if addr == "" {
		addr = config.DefaultAdminListen
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("admin listener: %w", err)
	}
	base := a.AdminURL()
	if a.Admin.URL == "" {
		base = "http://" + ln.Addr().String() // the port a ":0" listen or --admin got
		l.SetAdminURL(base)
	}
	h, err := admin.New(admin.Config{Service: l.Approvals, Tokens: a.Admin.Tokens, Users: a.Admin.Users, Key: l.ApprovalKey, BaseURL: base, Logger: logger})
	if err != nil {
		ln.Close()
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	logger.Info("warden admin listening", "addr", ln.Addr().String())
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return ln.Addr(), nil
}
