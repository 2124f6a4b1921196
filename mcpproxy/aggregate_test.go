package mcpproxy_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/mcpproxy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mathServer is a second server whose listings come a page at a time.
func mathServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "math", Version: "1.0.0"}, &mcp.ServerOptions{PageSize: 1})
	type pair struct {
		A, B float64
	}
	for _, name := range []string{"add", "multiply", "subtract"} {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Arithmetic: " + name + "."},
			func(_ context.Context, _ *mcp.CallToolRequest, in pair) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " done"}}}, nil, nil
			})
	}
	return s
}

// aggregated connects an SDK client to an aggregate of sdkServer as "files" and mathServer as "math".
func aggregated(t *testing.T, version string) *mcp.ClientSession {
	t.Helper()
	l, _ := testEngine(t)
	return aggregateOf(t, version, map[string]*mcp.Server{"files": sdkServer(), "math": mathServer()},
		func(name string) mcpproxy.Config { return mcpproxy.Config{Server: name, Engine: l.Engine} })
}

// aggregateOf connects an SDK client, speaking version ("" for the SDK's own), to an aggregate of the
// servers by name on stdio, each behind a proxy configured by config.
func aggregateOf(t *testing.T, version string, servers map[string]*mcp.Server, config func(name string) mcpproxy.Config) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	var ups []mcpproxy.Upstream
	for name, srv := range servers {
		px, err := mcpproxy.New(config(name))
		if err != nil {
			t.Fatal(err)
		}
		sr, sw := io.Pipe()
		ur, uw := io.Pipe()
		go srv.Run(ctx, &mcp.IOTransport{Reader: sr, Writer: uw})
		ups = append(ups, mcpproxy.Upstream{Proxy: px, Conn: mcpproxy.NewStreamConn(ur, sw, 0, sw.Close)})
	}
	cr, cw := io.Pipe()
	pr, pw := io.Pipe()
	go mcpproxy.Aggregate(ctx, mcpproxy.NewStreamConn(cr, pw, 0, func() error { cr.Close(); return pw.Close() }), ups, mcpproxy.Flows{})
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1.0.0"}, nil)
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: cw}, opts)
	if err != nil {
		t.Fatalf("connecting to the aggregate (%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Several servers behind one client: their tools and prompts are SERVER__NAME, every page of each listing
// is merged, each call goes to its server and is judged as that server's, and a name of no server is
// refused.
func TestAggregate(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			cs := aggregated(t, version)
			ctx := context.Background()
			if info := cs.InitializeResult(); info == nil || info.ServerInfo == nil || info.ServerInfo.Name != "warden" {
				t.Errorf("the client sees server %+v, want warden", info)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
			}
			slices.Sort(names)
			want := []string{"files__read_file", "files__run_command", "math__add", "math__multiply", "math__subtract"}
			if !slices.Equal(names, want) {
				t.Errorf("tools %v, want %v", names, want)
			}
			for _, tc := range []struct {
				tool      string
				args      map[string]any
				wantText  string
				wantError bool
			}{
				{"files__run_command", map[string]any{"command": "go vet ./..."}, "ran: go vet ./...", false},
				{"files__run_command", map[string]any{"command": "rm -rf ~"}, "Guardrail denied: tool 'mcp__files__run_command'", true},
				{"math__multiply", map[string]any{"A": 2, "B": 3}, "multiply done", false},
				{"files__read_file", map[string]any{"path": "poisoned.md"}, "Guardrail withheld", true},
			} {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
				if err != nil {
					t.Errorf("%s: %v", tc.tool, err)
					continue
				}
				if text := textOf(res); !strings.Contains(text, tc.wantText) || res.IsError != tc.wantError {
					t.Errorf("%s %v: %q (isError %v), want %q", tc.tool, tc.args, text, res.IsError, tc.wantText)
				}
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell__run_command", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "names no server's tool") {
				t.Errorf("a tool of no server: %v", err)
			}
			prompts, err := cs.ListPrompts(ctx, nil)
			if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "files__review" {
				t.Errorf("prompts %+v, %v", prompts, err)
			}
			if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "files__review"}); err != nil {
				t.Errorf("GetPrompt: %v", err)
			}
			if _, err := cs.ListResources(ctx, nil); err != nil {
				t.Errorf("ListResources: %v", err)
			}
			if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///notes.md"}); err == nil || !strings.Contains(err.Error(), "Guardrail withheld") {
				t.Errorf("the listed resource telling the model what to do: %v", err)
			}
			if err := cs.Ping(ctx, nil); err != nil {
				t.Errorf("Ping: %v", err)
			}
		})
	}
}

// aggregateSession runs Aggregate over scripted servers "files" and "db" and gives the client's end and
// each server's.
func aggregateSession(t *testing.T, flows mcpproxy.Flows) (*peer, map[string]*peer) {
	t.Helper()
	client, servers, _ := aggregateRecorded(t, flows)
	return client, servers
}

// aggregateRecorded is aggregateSession with the engine's records.
func aggregateRecorded(t *testing.T, flows mcpproxy.Flows) (*peer, map[string]*peer, *recorded) {
	t.Helper()
	l, rec := testEngine(t)
	servers := map[string]*peer{}
	var ups []mcpproxy.Upstream
	for _, name := range []string{"files", "db"} {
		px, err := mcpproxy.New(mcpproxy.Config{Server: name, Engine: l.Engine})
		if err != nil {
			t.Fatal(err)
		}
		sr, sw := io.Pipe()
		ur, uw := io.Pipe()
		servers[name] = &peer{t: t, w: uw, lines: lines(sr)}
		ups = append(ups, mcpproxy.Upstream{Proxy: px, Conn: mcpproxy.NewStreamConn(ur, sw, 0, sw.Close)})
		t.Cleanup(func() { uw.Close() })
	}
	cr, cw := io.Pipe()
	pr, pw := io.Pipe()
	go mcpproxy.Aggregate(context.Background(), mcpproxy.NewStreamConn(cr, pw, 0, func() error { cr.Close(); return pw.Close() }), ups, flows)
	t.Cleanup(func() { cw.Close() })
	return &peer{t: t, w: cw, lines: lines(pr)}, servers, rec
}

// call sends a tools/call through the aggregate; when it reaches server, that server answers with result.
// It gives the text the client reads, whether it is an error, and whether the call reached the server.
func call(t *testing.T, client *peer, servers map[string]*peer, id, tool, args, result string) (string, bool, bool) {
	t.Helper()
	client.send(`{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`)
	server, _, _ := strings.Cut(tool, "__")
	reached := false
	got := client.nextOr(servers[server], func(m map[string]any) {
		reached = true
		servers[server].send(`{"jsonrpc":"2.0","id":"` + id + `","result":{"content":[{"type":"text","text":` + result + `}]}}`)
	})
	text, isError := resultText(got)
	return text, isError, reached
}

// The interceptor working group's cross-server exfiltration case, and its family: each call alone is
// allowed, but a secret one server's answer carried must not be sent to another server, in any
// argument, however embedded; writing it back to the server it came from is not a crossing; and a
// private server's data stays with it.
func TestCrossServerFlows(t *testing.T) {
	t.Parallel()
	const readEnv = `{"path":"/workspace/.env"}`
	for _, tc := range []struct {
		desc     string
		flows    mcpproxy.Flows
		answer   string // what files' read_file answers (a JSON string)
		then     string // the next call's tool
		args     string
		denied   bool
		fromWhat string
	}{
		{"a token read from files is not sent to db", mcpproxy.Flows{}, `"STRIPE_KEY=ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"`,
			"db__write_query", `{"query":"INSERT INTO notes (body) VALUES ('ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP')"}`, true, "a secret read from server 'files'"},
		{"nor inside a nested argument", mcpproxy.Flows{}, `"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"`,
			"db__write_query", `{"rows":[{"note":"key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok"}]}`, true, "a secret"},
		{"nor a key in a known format with no name", mcpproxy.Flows{}, `"found AKIAIOSFODNN7EXAMPLE in the log"`,
			"db__write_query", `{"query":"SELECT 'AKIAIOSFODNN7EXAMPLE'"}`, true, "a secret"},
		{"writing a secret back to the server it came from is allowed", mcpproxy.Flows{}, `"KEY=sk_live_4eC7aRm9Kx2bNw5pQj8sYd"`,
			"files__write_file", `{"path":"/workspace/.env.bak","content":"sk_live_4eC7aRm9Kx2bNw5pQj8sYd"}`, false, ""},
		{"a call carrying none of it is allowed", mcpproxy.Flows{}, `"STRIPE_KEY=ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"`,
			"db__write_query", `{"query":"SELECT count(*) FROM notes"}`, false, ""},
		{"secrets may cross when the policy allows it", mcpproxy.Flows{AllowSecrets: true}, `"STRIPE_KEY=ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"`,
			"db__write_query", `{"query":"INSERT INTO notes VALUES ('ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP')"}`, false, ""},
		{"a private server's line is not sent to another", mcpproxy.Flows{Private: []string{"files"}}, `"roadmap: /home/dev/acme/plans/2027-acquisition-targets.md"`,
			"db__write_query", `{"query":"INSERT INTO notes VALUES ('/home/dev/acme/plans/2027-acquisition-targets.md')"}`, true, "data of a private server read from server 'files'"},
		{"a server not private keeps no such data", mcpproxy.Flows{}, `"roadmap: /home/dev/acme/plans/2027-acquisition-targets.md"`,
			"db__write_query", `{"query":"INSERT INTO notes VALUES ('/home/dev/acme/plans/2027-acquisition-targets.md')"}`, false, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			client, servers := aggregateSession(t, tc.flows)
			if text, isError, reached := call(t, client, servers, "r", "files__read_file", readEnv, tc.answer); isError || !reached || text == "" {
				t.Fatalf("the read: %q (isError %v, reached %v)", text, isError, reached)
			}
			text, isError, reached := call(t, client, servers, "w", tc.then, tc.args, `"ok"`)
			if tc.denied != (isError && !reached) {
				t.Fatalf("%s: %q (isError %v, reached %v), want denied=%v", tc.then, text, isError, reached, tc.denied)
			}
			if tc.denied && (!strings.Contains(text, "warden.cross_server_flow") || !strings.Contains(text, tc.fromWhat)) {
				t.Errorf("denial %q, want it to name %q", text, tc.fromWhat)
			}
		})
	}
}

// What one client session read never taints another's calls.
func TestCrossServerFlowsAreSessions(t *testing.T) {
	t.Parallel()
	client, servers := aggregateSession(t, mcpproxy.Flows{})
	call(t, client, servers, "r", "files__read_file", `{"path":".env"}`, `"STRIPE_KEY=ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"`)
	other, otherServers := aggregateSession(t, mcpproxy.Flows{})
	if text, isError, reached := call(t, other, otherServers, "w", "db__write_query", `{"q":"ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"}`, `"ok"`); isError || !reached {
		t.Errorf("another session's call: %q (isError %v, reached %v), want it allowed", text, isError, reached)
	}
}

// A denied crossing is an evaluation record like any other: the engine's reject, with its reason code.
func TestCrossServerFlowsAreRecorded(t *testing.T) {
	t.Parallel()
	client, servers, rec := aggregateRecorded(t, mcpproxy.Flows{})
	call(t, client, servers, "r", "files__read_file", `{"path":".env"}`, `"STRIPE_KEY=ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"`)
	call(t, client, servers, "w", "db__write_query", `{"q":"ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"}`, `"ok"`)
	for _, r := range rec.snapshot() {
		if r.ToolName == "mcp__db__write_query" && r.Decision.Guardrail == "warden" && r.Decision.FirstReason().Code == mcpproxy.CodeCrossServerFlow {
			return
		}
	}
	t.Errorf("no record of the denied crossing among %d records", len(rec.snapshot()))
}

// Behind one client served over HTTP, a client that listens for changes (subscriptions/listen in
// 2026-07-28; the session's stream before it) hears of a tool a server adds, and the listen survives the
// calls made meanwhile.
func TestAggregateListChanged(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			l, _ := testEngine(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			files := sdkServer()
			serve := func(ctx context.Context, client mcpproxy.Conn) error {
				var ups []mcpproxy.Upstream
				for name, srv := range map[string]*mcp.Server{"files": files, "math": mathServer()} {
					px, err := mcpproxy.New(mcpproxy.Config{Server: name, Engine: l.Engine})
					if err != nil {
						return err
					}
					sr, sw := io.Pipe()
					ur, uw := io.Pipe()
					go srv.Run(ctx, &mcp.IOTransport{Reader: sr, Writer: uw})
					ups = append(ups, mcpproxy.Upstream{Proxy: px, Conn: mcpproxy.NewStreamConn(ur, sw, 0, sw.Close)})
				}
				return mcpproxy.Aggregate(ctx, client, ups, mcpproxy.Flows{})
			}
			warden := httptest.NewServer(mcpproxy.NewHandler(serve, nil))
			t.Cleanup(warden.Close)
			changed := make(chan struct{}, 1)
			client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1.0.0"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
					select {
					case changed <- struct{}{}:
					default:
					}
				}})
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: warden.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connecting: %v", err)
			}
			defer cs.Close()
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "math__add", Arguments: map[string]any{"A": 1, "B": 2}}); err != nil {
				t.Fatal(err)
			}
			// The client's listen is set up as the session starts, apart from the calls: a change made
			// before it is up is owed to no one, so a tool is added again until one is heard (under
			// load, the first can come first).
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			for i := 0; ; i++ {
				mcp.AddTool(files, &mcp.Tool{Name: fmt.Sprintf("late%d", i), Description: "Added later."},
					func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
						return &mcp.CallToolResult{}, nil, nil
					})
				select {
				case <-changed:
					return
				case <-ctx.Done():
					t.Fatal("the tools/list_changed notification did not reach the client")
				case <-tick.C:
				}
			}
		})
	}
}

// TestAggregateRefusesAURIListedTwice: two servers listing one resource URI make a read of it ambiguous; a
// server cannot take over another's resource by listing its URI.
func TestAggregateRefusesAURIListedTwice(t *testing.T) {
	t.Parallel()
	l, _ := testEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	server := func(name, text string) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
		s.AddResource(&mcp.Resource{URI: "file:///shared.md", Name: "shared"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///shared.md", Text: text}}}, nil
		})
		s.AddResource(&mcp.Resource{URI: "file:///" + name + ".md", Name: name}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///" + name + ".md", Text: "own " + name}}}, nil
		})
		return s
	}
	cs := aggregateOf(t, "", map[string]*mcp.Server{"docs": server("docs", "from docs"), "rogue": server("rogue", "from rogue")},
		func(name string) mcpproxy.Config { return mcpproxy.Config{Server: name, Engine: l.Engine} })
	if _, err := cs.ListResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///shared.md"})
	if err == nil || !strings.Contains(err.Error(), "more than one server (docs, rogue)") {
		t.Errorf("reading the URI both list: %v, want it refused naming both", err)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file:///docs.md"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "own docs" {
		t.Errorf("a URI one server lists: %v %+v", err, res)
	}
}
