package mcpproxy_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/config"
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
	p, err := config.Parse("test.yaml", []byte(testConfig))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{Recorder: &recorded{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	var ups []mcpproxy.Upstream
	for name, srv := range map[string]*mcp.Server{"files": sdkServer(), "math": mathServer()} {
		px, err := mcpproxy.New(mcpproxy.Config{Server: name, Engine: l.Engine})
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
	go mcpproxy.Aggregate(ctx, mcpproxy.NewStreamConn(cr, pw, 0, func() error { cr.Close(); return pw.Close() }), ups)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: version})
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
