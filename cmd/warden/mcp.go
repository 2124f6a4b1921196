package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/mcpproxy"
	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"
)

func newMCPCommand(s streams) *cobra.Command {
	var configFile, name, logFormat, pinsFile, onChange, upstreamURL, listen, adminAddr string
	var headers, upstreams []string
	var showDenied, repin bool
	var timeout, haltFor time.Duration
	cmd := &cobra.Command{
		Use:   "mcp [--config FILE] [--name NAME] [--listen ADDR] [flags] (-- COMMAND [ARG...] | --url URL [--header 'K: V']...)",
		Short: "Guard an MCP server: run it behind Warden and speak MCP on this process's stdin and stdout",
		Long: `Mcp starts the MCP server COMMAND (a stdio server, as an MCP client would start it) and stands between
it and the client that started Warden: the client speaks MCP on Warden's standard input and output, Warden
speaks it to the server on the server's, and the server's standard error passes through to Warden's.
With --url instead, the server is a remote one reached over streamable HTTP (both protocol generations:
sessions, and the stateless requests of 2026-07-28); --header adds a header to every request, with
${VAR} taken from the environment (--header 'Authorization: Bearer ${GITHUB_TOKEN}'). With neither, and
mcp.servers in --config, the config's servers (commands and URLs) are behind the one client, their tools
as NAME__TOOL. With --listen ADDR, Warden serves streamable HTTP itself, at http://ADDR/mcp, to clients
that reach MCP servers by URL, each client session proxied to the server(s) (a command started for each
session); a request whose Mcp-Method, Mcp-Name or Mcp-Param-* header disagrees with its body is refused
(HeaderMismatch, -32020).

Every message is judged on the way, with the config's guardrails (the embedded defaults unless --config):
  tools/call            the tool_call guardrails judge the call, named mcp__<NAME>__<tool>; a denied call
                        never reaches the server and the client gets a tool result with isError and the
                        deny text, so that the model adapts
  tool results          the tool_result guardrails judge what the tool returned before the client sees it
  resources/read,       the tool_call guardrails judge the request as mcp__<NAME>__<method> (a file: URI
  prompts/get,          as a path: reading ~/.ssh as a resource is a file read); the answers' text goes
  completion/complete   through the tool_result guardrails
  elicitation/create    a form asking the user for a secret is declined (secrets go through URL mode)
  sampling/createMessage  the server's request: its text goes through the tool_result guardrails
  tools/list            tools a tool_call guardrail denies by name are left out (--show-denied keeps
                        them), and so are tools whose description the tool_result guardrails withhold
                        (their calls are then refused)
  other MCP methods     pass as they are (initialize, server/discover, other listings, ping, subscriptions,
                        notifications, the server's roots requests)
  anything else         refused with method-not-found (a notification is dropped), in both directions
Batches, messages whose members repeat or differ only in case, answers to no open request and messages that
are not JSON-RPC are refused; when the server fails, every open request gets an error, and a request it
does not answer within --timeout (restarted by the progress it reports) gets one too.

Each listed tool's title, description and schemas are pinned at its first listing (in --pins, by default
warden/mcp-pins.json in the user's config directory, shared by every warden mcp): a tool whose listing
later differs (a rug pull) is left out and its calls refused (--on-change warn lists it and logs), until
--repin accepts what the server lists now.

Behind one client, a call to one server whose arguments carry a secret another server's answer carried
is denied (mcp.secrets_across_servers, mcp.private in the config).

NAME (default: COMMAND's file name without its extension, or the URL's host) is how policies tell this
server's tools from another's. Audit events go where the config's audit section says, never to standard
output, which is the client's. Warden ends when the client closes its input (after closing the server's)
or when the server ends; its exit status is then the server's. docs/mcp.md has the details.`,
		Example: `  warden mcp -- npx -y @modelcontextprotocol/server-filesystem /work
  warden mcp --listen 127.0.0.1:8788 --upstream github=https://api.githubcopilot.com/mcp/ --upstream docs=http://127.0.0.1:9000/mcp
  warden mcp --config warden.yaml --name github -- github-mcp-server stdio
  warden mcp --name github --url https://api.githubcopilot.com/mcp/ --header 'Authorization: Bearer ${GITHUB_TOKEN}'
  warden mcp --config servers.yaml                  # the config's mcp.servers behind one client
  warden mcp --listen 127.0.0.1:8788 --config servers.yaml

  # in an MCP client's config (Claude Desktop, Cursor, VS Code):
  #   "command": "warden", "args": ["mcp", "--name", "files", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/work"]`,
		Args: argsUsage(func(cmd *cobra.Command, args []string) error {
			if len(upstreams) > 0 {
				if len(args) > 0 || upstreamURL != "" {
					return errors.New("give the servers as --upstream NAME=URL, or as a command after -- or --url, not both")
				}
				if _, err := parseUpstreams(upstreams); err != nil {
					return err
				}
				return nil
			}
			if upstreamURL != "" {
				if len(args) > 0 {
					return errors.New("give the server as a command after -- or as --url, not both")
				}
				u, err := url.Parse(upstreamURL)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return fmt.Errorf("--url %q is not an http:// or https:// URL with a host", upstreamURL)
				}
				return nil
			}
			if len(args) == 0 && configFile == "" {
				return errors.New(noServer)
			}
			return nil
		}),
		RunE: func(cmd *cobra.Command, args []string) error {
			logger, err := newLogger(s, logFormat)
			if err != nil {
				return usageError{err}
			}
			if name == "" && upstreamURL != "" {
				u, _ := url.Parse(upstreamURL)
				name = strings.NewReplacer(".", "-", ":", "-").Replace(u.Host)
			} else if name == "" && len(args) > 0 {
				name = strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0]))
			}
			header, err := parseHeaders(headers)
			if err != nil {
				return usageError{err}
			}
			l, err := config.Load(cmd.Context(), configFile, config.Options{Stderr: s.err, Stdout: s.err})
			if err != nil {
				return err
			}
			defer l.Close()
			if a := l.Parsed.File.Audit; a.Path == "stdout" && a.Sink != "none" {
				return fmt.Errorf("%s: audit.path: stdout is the MCP client's channel under warden mcp; write the audit to stderr or a file", l.Parsed.Name)
			}
			adminCtx, stopAdmin := context.WithCancel(cmd.Context())
			defer stopAdmin()
			bound, err := startAdmin(adminCtx, l, adminAddr, logger)
			if err != nil {
				return err
			}
			asks := mcpAsks(l, bound)
			var methods map[string]string
			servers := l.Parsed.File.MCP
			if servers != nil && len(servers.Servers) == 0 {
				methods, servers = servers.Methods, nil // mcp: with methods alone configures the one server
			}
			if len(upstreams) > 0 {
				if servers != nil {
					return usageError{fmt.Errorf("%s names its servers (mcp.servers): give no --upstream", l.Parsed.Name)}
				}
				ups, _ := parseUpstreams(upstreams)
				if len(ups) == 1 {
					for n, u := range ups {
						name, upstreamURL = n, u
					}
				} else {
					servers = &config.MCP{Servers: map[string]config.MCPServer{}}
					for n, u := range ups {
						servers.Servers[n] = config.MCPServer{URL: u, Headers: headerMap(header)}
					}
				}
			}
			switch {
			case servers != nil && (len(args) > 0 || upstreamURL != ""):
				return usageError{fmt.Errorf("%s names its servers (mcp.servers): give no command and no --url", l.Parsed.Name)}
			case servers == nil && len(args) == 0 && upstreamURL == "":
				return usageError{fmt.Errorf("%s names no servers (mcp.servers): %s", l.Parsed.Name, noServer)}
			}
			pins, err := openPins(pinsFile)
			if err != nil {
				return err
			}
			proxyOf := func(name string) (*mcpproxy.Proxy, error) {
				return mcpproxy.New(mcpproxy.Config{Server: name, Engine: l.Engine, Logger: logger, ShowDenied: showDenied,
					Pins: pins, OnPinChange: onChange, Repin: repin, RequestTimeout: timeout,
					Approvals: asks.waiter, AskWait: asks.wait, ApprovalPage: asks.page, StateKey: l.ApprovalKey,
					Methods: methods})
			}
			// One session function whatever the servers: the client is this process's stdin and stdout,
			// or each HTTP client with --listen.
			var serve mcpproxy.SessionFunc
			var params *mcpproxy.ParamHeaders
			switch {
			case servers != nil:
				flows := mcpproxy.Flows{Private: servers.Private, AllowSecrets: servers.SecretsAcrossServers == "allow"}
				if serve, err = aggregateSessions(s, servers.Servers, flows, proxyOf); err != nil {
					return err
				}
			case upstreamURL != "":
				px, err := proxyOf(name)
				if err != nil {
					return usageError{err}
				}
				params = mcpproxy.NewParamHeaders()
				serve = px.To(func() mcpproxy.Conn { return mcpproxy.NewHTTPConn(upstreamURL, nil, header, params) })
			case listen != "":
				px, err := proxyOf(name)
				if err != nil {
					return usageError{err}
				}
				serve = func(ctx context.Context, client mcpproxy.Conn) error {
					server, err := serverConn(s, name, config.MCPServer{Command: args}, nil)
					if err != nil {
						return err
					}
					return px.Serve(ctx, client, server)
				}
			default:
				px, err := proxyOf(name)
				if err != nil {
					return usageError{err}
				}
				return runMCPServer(cmd.Context(), px, s, args)
			}
			if listen != "" {
				return serveMCP(cmd.Context(), serve, params, listen, haltFor, logger)
			}
			return serve(cmd.Context(), mcpproxy.NewStreamConn(s.in, s.out, 0, nil))
		},
	}
	f := cmd.Flags()
	// Flags end at the server's command, as they do for env and timeout: what follows is the server's,
	// with or without a "--" before it (some clients drop it).
	f.SetInterspersed(false)
	f.StringVarP(&configFile, "config", "c", "", "config `file` (default: the embedded default)")
	f.StringVar(&name, "name", "", "the server's `name` in policies: its tools are mcp__NAME__TOOL (default: the command's file name)")
	f.BoolVar(&showDenied, "show-denied", false, "list the tools a tool_call guardrail denies by name (their calls stay denied)")
	f.StringVar(&pinsFile, "pins", "", "where the tools' pins are kept: a `file`, a redis:// URL (shared by replicas), or none (default: warden/mcp-pins.json in the user's config directory)")
	f.StringVar(&onChange, "on-change", "block", "what a tool whose listing differs from its pin gets: block or warn")
	f.BoolVar(&repin, "repin", false, "accept what the server lists now as the tools' new pins")
	f.StringVar(&upstreamURL, "url", "", "the MCP server's streamable HTTP endpoint, instead of a command")
	f.StringArrayVar(&upstreams, "upstream", nil, "`NAME=URL`: a streamable HTTP server and its name in policies, instead of a command; repeatable, several put behind one client as NAME__TOOL (as mcp.servers does)")
	f.StringVar(&listen, "listen", "", "serve streamable HTTP at http://`ADDR`/mcp to clients instead of stdio, each session proxied to the server(s): a command is started for each session")
	f.StringArrayVar(&headers, "header", nil, "`'Name: value'` to send with every request to --url or each --upstream (${VAR} from the environment); repeatable")
	f.DurationVar(&timeout, "timeout", 10*time.Minute, "how long a request waits for the server's answer, restarted by the progress it reports; 0 waits as long as the client")
	f.DurationVar(&haltFor, "halt-for", mcpproxy.DefaultHaltFor, "with --listen: how long a guardrail's halt refuses every request made with the same Authorization header, in any session or none; 0 ends only the halted session")
	f.StringVar(&logFormat, "log-format", "text", "log format on stderr: text or json")
	f.StringVar(&adminAddr, "admin", "", "serve the approvals page and API on `address` (default: approvals.admin.listen when configured; off otherwise)")
	return cmd
}

// parseUpstreams reads --upstream NAME=URL values: names a tool name can carry, each once, and http(s) URLs.
func parseUpstreams(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		n, u, ok := strings.Cut(v, "=")
		if !ok || n == "" {
			return nil, fmt.Errorf("--upstream %q: want NAME=URL", v)
		}
		if strings.Contains(n, "__") || strings.IndexFunc(n, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}) >= 0 {
			return nil, fmt.Errorf("--upstream %q: a server's name has letters, digits, '-' and '_' only, and no \"__\"", v)
		}
		if _, dup := out[n]; dup {
			return nil, fmt.Errorf("--upstream: server %q named twice", n)
		}
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return nil, fmt.Errorf("--upstream %q: %q is not an http:// or https:// URL with a host", v, u)
		}
		out[n] = u
	}
	return out, nil
}

// headerMap turns parsed --header values into a config server's headers.
func headerMap(h http.Header) map[string]string {
	if len(h) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, vs := range h {
		out[k] = strings.Join(vs, ", ")
	}
	return out
}

// openPins opens the pins: a file, Redis for a redis:// or rediss:// URL, none for "none", or the
// default file in the user's config directory.
func openPins(file string) (mcpproxy.PinStore, error) {
	switch {
	case file == "none":
		return nil, nil
	case strings.HasPrefix(file, "redis://") || strings.HasPrefix(file, "rediss://"):
		opts, err := redis.ParseURL(file)
		if err != nil {
			return nil, fmt.Errorf("--pins: %w", err)
		}
		return mcpproxy.NewRedisPins(redis.NewClient(opts), "warden:mcp:pins"), nil
	case file == "":
		dir, err := os.UserConfigDir()
		if err != nil {
			return nil, fmt.Errorf("--pins: no default place for the pin file (%v); name one, or none", err)
		}
		file = filepath.Join(dir, "warden", "mcp-pins.json")
	}
	pins, err := mcpproxy.OpenFilePins(file)
	if err != nil {
		return nil, fmt.Errorf("--pins: %w", err)
	}
	return pins, nil
}

// runMCPServer starts the server's command, proxies this process's stdin and stdout to it, and returns
// when either side ends: the server's exit status, or why it could not run.
func runMCPServer(ctx context.Context, px *mcpproxy.Proxy, s streams, args []string) error {
	server := exec.Command(args[0], args[1:]...)
	server.Stderr = s.err
	server.WaitDelay = 5 * time.Second
	toServer, err := server.StdinPipe()
	if err != nil {
		return err
	}
	fromServer, err := server.StdoutPipe()
	if err != nil {
		return err
	}
	if err := server.Start(); err != nil {
		return fmt.Errorf("starting the MCP server %q: %w", args[0], err)
	}
	in, _ := s.in.(io.ReadCloser)
	client := mcpproxy.NewStreamConn(s.in, s.out, 0, func() error {
		if in != nil && in != os.Stdin {
			return in.Close()
		}
		return nil
	})
	serverConn := mcpproxy.NewStreamConn(fromServer, toServer, 0, toServer.Close)
	serveErr := px.Serve(ctx, client, serverConn)
	toServer.Close()
	waitErr := server.Wait()
	if serveErr != nil {
		return serveErr
	}
	var exit *exec.ExitError
	if errors.As(waitErr, &exit) {
		if exit.ExitCode() < 0 {
			return fmt.Errorf("the MCP server %s", exit.ProcessState.String())
		}
		return exitCodeError{code: exit.ExitCode(), err: fmt.Errorf("the MCP server exited with status %d", exit.ExitCode())}
	}
	return waitErr
}

// noServer says how to name a server.
const noServer = "name the MCP server's command after --, e.g. warden mcp -- mcp-server-git, its URL with --url, or servers in --config (mcp.servers)"

// serverConn connects to one configured server: a URL reached over streamable HTTP, or a command started
// now whose connection, closed, closes its input and waits for it to end.
func serverConn(s streams, name string, srv config.MCPServer, params *mcpproxy.ParamHeaders) (mcpproxy.Conn, error) {
	if srv.URL != "" {
		h := http.Header{}
		for k, v := range srv.Headers {
			h.Set(k, v)
		}
		return mcpproxy.NewHTTPConn(srv.URL, nil, h, params), nil
	}
	c := exec.Command(srv.Command[0], srv.Command[1:]...)
	c.Stderr = s.err
	c.WaitDelay = 5 * time.Second
	c.Env = os.Environ()
	for k, v := range srv.Env {
		c.Env = append(c.Env, k+"="+v)
	}
	in, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("starting the MCP server %s (%q): %w", name, srv.Command[0], err)
	}
	var once sync.Once
	return mcpproxy.NewStreamConn(out, in, 0, func() error {
		once.Do(func() {
			in.Close()
			go c.Wait() // reaps the server; WaitDelay bounds a server that does not end with its input
		})
		return nil
	}), nil
}

// aggregateSessions is the SessionFunc of the config's servers behind one client: each session connects
// to every server (starting each command), and ends their connections with it.
func aggregateSessions(s streams, servers map[string]config.MCPServer, flows mcpproxy.Flows, proxyOf func(string) (*mcpproxy.Proxy, error)) (mcpproxy.SessionFunc, error) {
	names := slices.Sorted(maps.Keys(servers))
	proxies := map[string]*mcpproxy.Proxy{}
	params := map[string]*mcpproxy.ParamHeaders{}
	for _, name := range names {
		px, err := proxyOf(name)
		if err != nil {
			return nil, usageError{err}
		}
		proxies[name], params[name] = px, mcpproxy.NewParamHeaders()
	}
	return func(ctx context.Context, client mcpproxy.Conn) error {
		var ups []mcpproxy.Upstream
		defer func() {
			for _, u := range ups {
				u.Conn.Close()
			}
		}()
		for _, name := range names {
			conn, err := serverConn(s, name, servers[name], params[name])
			if err != nil {
				return err
			}
			ups = append(ups, mcpproxy.Upstream{Proxy: proxies[name], Conn: conn})
		}
		return mcpproxy.Aggregate(ctx, client, ups, flows)
	}, nil
}

// parseHeaders reads --header flags, expanding ${VAR} in their values.
func parseHeaders(flags []string) (http.Header, error) {
	h := http.Header{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("--header %q: want 'Name: value'", f)
		}
		h.Add(name, strings.TrimSpace(os.ExpandEnv(value)))
	}
	return h, nil
}

// serveMCP serves streamable HTTP at addr's /mcp, each client session proxied by serve, until ctx ends or
// a signal comes. params, when not nil, is the one server's registry of Mcp-Param-* bindings.
func serveMCP(ctx context.Context, serve mcpproxy.SessionFunc, params *mcpproxy.ParamHeaders, addr string, haltFor time.Duration, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	mux := http.NewServeMux()
	handler := mcpproxy.NewHandler(serve, params)
	handler.HaltFor = haltFor
	if haltFor == 0 {
		handler.HaltFor = -1 // 0 on the command line: a halt ends its own session only
	}
	defer handler.Close() // every session's server connection, and each command started for one
	mux.Handle("/mcp", handler)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: defaultReadHeaderTimeout, IdleTimeout: defaultIdleTimeout,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger.Info("warden mcp listening", "addr", "http://"+ln.Addr().String()+"/mcp")
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// mcpApprovals is how warden mcp lets a call a guardrail asked about wait for a person.
type mcpApprovals struct {
	waiter mcpproxy.ApprovalWaiter
	wait   time.Duration
	page   func(id string) string
}

// mcpAsks reads the approvals section: on_ask wait holds calls (and sends clients that take URL-mode
// elicitation the page, when an admin listener serves one); deny answers at once.
func mcpAsks(l *config.Loaded, admin net.Addr) mcpApprovals {
	a := l.Parsed.File.Approvals
	if a == nil || l.Approvals == nil || a.OnAsk == "deny" {
		return mcpApprovals{}
	}
	out := mcpApprovals{waiter: l.Approvals, wait: a.WaitFor()}
	base := ""
	switch {
	case a.Admin != nil && a.Admin.URL != "":
		base = a.AdminURL()
	case admin != nil:
		base = "http://" + admin.String()
	}
	if base != "" {
		out.page = func(id string) string { return approvals.PageLink(base, id) }
	}
	return out
}
