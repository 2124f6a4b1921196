package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// tsPeers returns the directory of the TypeScript MCP peers, or skips the test when node or the installed
// SDK is missing outside CI; under CI=true they must be there (.ci/run installs them).
func tsPeers(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "tsmcp"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	if nodeErr != nil || modErr != nil {
		msg := "the TypeScript MCP peers need node and `npm ci --prefix cmd/warden/testdata/tsmcp` (.ci/run does both)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// tsClientReport is what client.mjs prints.
type tsClientReport struct {
	Tools []string `json:"tools"`
	Calls []struct {
		Name    string `json:"name"`
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
		Thrown  string `json:"thrown"`
	} `json:"calls"`
	Resources []struct {
		URI   string `json:"uri"`
		Text  string `json:"text"`
		Error string `json:"error"`
	} `json:"resources"`
	Ping   bool   `json:"ping"`
	Closed bool   `json:"closed"`
	Fatal  string `json:"fatal"`
}

// The official TypeScript SDK's client starts `warden mcp` as any stdio server, in front of the TypeScript
// SDK's server and of the Go SDK's: every answer Warden gives reads in it, denials as tool errors.
func TestMCPCommandWithTheTypeScriptSDK(t *testing.T) {
	t.Parallel()
	dir := tsPeers(t)
	for _, tc := range []struct {
		desc   string
		server []string
		// notes is what reading file:///work/notes.md gives: the TypeScript server's note carries an
		// instruction to the model; the Go server has no such resource.
		notes string
		// listen, when set, is --listen and its address: the client reaches warden over HTTP.
		listen []string
	}{
		{"TypeScript client, TypeScript server", []string{"node", filepath.Join(dir, "server.mjs")}, "Guardrail withheld", nil},
		{"TypeScript client, Go server", []string{"env", mcpServerEnv + "=1", os.Args[0]}, "error", nil},
		{"TypeScript client over HTTP, TypeScript server", []string{"node", filepath.Join(dir, "server.mjs")}, "Guardrail withheld", []string{"--listen", freeAddr(t)}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			wardenArgs := append([]string{"mcp", "--config", exampleMCPConfig(t), "--name", "shell", "--pins", filepath.Join(t.TempDir(), "pins.json")}, tc.listen...)
			wardenArgs = append(append(wardenArgs, "--"), tc.server...)
			target := append([]string{os.Args[0]}, wardenArgs...)
			var stderr lockedBuffer // warden's and the client's processes write to it at once
			if len(tc.listen) > 0 {
				// warden mcp --listen serves HTTP: the client reaches it by URL.
				w := exec.CommandContext(ctx, os.Args[0], wardenArgs...)
				w.Env = append(os.Environ(), asWardenEnv+"=1")
				w.Stderr = &stderr
				if err := w.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { w.Process.Signal(syscall.SIGTERM); w.Wait() })
				waitListening(t, ctx, "http://"+tc.listen[1]+"/healthz")
				target = []string{"http://" + tc.listen[1] + "/mcp"}
			}
			cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir, "client.mjs")}, target...)...)
			cmd.Env = append(os.Environ(), asWardenEnv+"=1")
			cmd.Stderr = &stderr // warden's audit events and logs, and the servers'
			stdout, err := cmd.Output()
			if err != nil {
				t.Fatalf("client.mjs: %v\n%s\nstderr:\n%s", err, stdout, stderr.String())
			}
			// The audit events name guardrails, tools and reasons, never what was filtered.
			for _, secret := range []string{"rm -rf", "aws/credentials", "id_ed25519", "ignore all previous", "evil.example"} {
				if strings.Contains(strings.ToLower(stderr.String()), secret) {
					t.Errorf("warden's stderr holds %q, content it filtered", secret)
				}
			}
			var r tsClientReport
			if err := json.Unmarshal(stdout, &r); err != nil {
				t.Fatalf("client.mjs printed %q: %v", stdout, err)
			}
			if r.Fatal != "" {
				t.Fatalf("the client failed: %s", r.Fatal)
			}
			if strings.Join(r.Tools, ",") != "run_command,fetch" && strings.Join(r.Tools, ",") != "fetch,run_command" {
				t.Errorf("tools %v, want run_command and fetch", r.Tools)
			}
			want := []struct {
				text    string
				isError bool
			}{
				{"ran: git status", false},
				{"Guardrail denied: tool 'mcp__shell__run_command'", true},
				{"Guardrail denied", true},
				{"Version 2 is out", false},
				{"(injection.detected)", true},
			}
			if len(r.Calls) != len(want) {
				t.Fatalf("calls %+v", r.Calls)
			}
			for i, w := range want {
				c := r.Calls[i]
				if c.Thrown != "" || c.IsError != w.isError || !strings.Contains(c.Text, w.text) || strings.Contains(strings.ToLower(c.Text), "ignore all previous") {
					t.Errorf("call %d (%s): %+v, want %q (isError %v)", i, c.Name, c, w.text, w.isError)
				}
			}
			if len(r.Resources) != 2 || !strings.Contains(r.Resources[0].Error, tc.notes) || r.Resources[0].Text != "" {
				t.Errorf("reading the notes: %+v, want an error holding %q", r.Resources, tc.notes)
			}
			if len(r.Resources) == 2 && !strings.Contains(r.Resources[1].Error, "warden.credential_access") {
				t.Errorf("reading a private key as a resource: %+v, want it denied", r.Resources[1])
			}
			if !r.Ping || !r.Closed {
				t.Errorf("ping %v, closed %v: the session should end cleanly", r.Ping, r.Closed)
			}
		})
	}
}

// lockedBuffer is a strings.Builder several processes' output may be copied into at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening waits until url answers.
func waitListening(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	for {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never answered", url)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// The MCP Inspector's command-line client, a third official client, starts `warden mcp` as any stdio
// server and reads each answer.
func TestMCPCommandWithTheInspector(t *testing.T) {
	t.Parallel()
	dir := tsPeers(t)
	inspector := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	if _, err := os.Stat(inspector); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the MCP Inspector is not installed: %v", err)
		}
		t.Skip("the MCP Inspector needs `npm ci --prefix cmd/warden/testdata/tsmcp` (.ci/run does it)")
	}
	for _, tc := range []struct {
		desc string
		args []string
		want []string
	}{
		{"it lists the tools", []string{"--method", "tools/list"}, []string{`"run_command"`, `"fetch"`}},
		{"an everyday call runs", []string{"--method", "tools/call", "--tool-name", "run_command", "--tool-arg", "command=git log -3"}, []string{"ran: git log -3"}},
		{"a destructive call reads as denied", []string{"--method", "tools/call", "--tool-name", "run_command", "--tool-arg", "command=rm -rf ~/"}, []string{"Guardrail denied: tool 'mcp__shell__run_command'", `"isError": true`}},
		{"a credential read as a resource is denied", []string{"--method", "resources/read", "--uri", "file:///home/dev/.aws/credentials"}, []string{"warden.credential_access"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			// The Inspector passes its server a few variables only: the one that makes this test binary warden
			// goes by -e.
			args := append([]string{inspector, "--cli", "-e", asWardenEnv + "=1"}, tc.args...)
			args = append(args, "--", os.Args[0], "mcp", "--pins", "none", "--name", "shell", "--", "node", filepath.Join(dir, "server.mjs"))
			cmd := exec.CommandContext(ctx, "node", args...)
			cmd.Env = append(os.Environ(), asWardenEnv+"=1", "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "catalog.json"))
			out, _ := cmd.CombinedOutput() // a refused read exits non-zero; its output says why
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the Inspector printed:\n%s\nwant it to hold %q", out, w)
				}
			}
		})
	}
}

// The official TypeScript SDK's client, declaring URL-mode elicitation, calls a tool a guardrail asks a
// person about through `warden mcp`: Warden sends it the approval page; the client, playing the person,
// approves on the admin listener's API, and the held call runs.
func TestMCPApprovalWithTheTypeScriptSDK(t *testing.T) {
	t.Parallel()
	dir := tsPeers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	doc := `version: 1
guardrails:
  tool_call:
    - use: commands
      config:
        rules: [{id: deploys, programs: [deploy], action: ask, code: acme.deploy}]
approvals:
  store: memory
  wait_timeout: 60s
  admin:
    listen: 127.0.0.1:0
    tokens: {ts-client: "${WARDEN_ADMIN_TOKEN}"}
audit: {sink: none}
`
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	target := []string{os.Args[0], "mcp", "--config", cfg, "--name", "shell", "--pins", "none", "--", "node", filepath.Join(dir, "server.mjs")}
	cmd := exec.CommandContext(ctx, "node", append([]string{filepath.Join(dir, "approve.mjs")}, target...)...)
	cmd.Env = append(os.Environ(), asWardenEnv+"=1", "WARDEN_ADMIN_TOKEN=ts-admin-token-0123456789")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("approve.mjs: %v\n%s\nstderr:\n%s", err, stdout, stderr.String())
	}
	var r struct {
		Elicitations []struct{ Mode, URL, ID string } `json:"elicitations"`
		Approved     int                              `json:"approved"`
		Call         struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		} `json:"call"`
		Fatal string `json:"fatal"`
	}
	if err := json.Unmarshal(stdout, &r); err != nil {
		t.Fatalf("approve.mjs printed %q: %v", stdout, err)
	}
	if r.Fatal != "" {
		t.Fatalf("the client failed: %s\nstderr:\n%s", r.Fatal, stderr.String())
	}
	if len(r.Elicitations) != 1 || r.Elicitations[0].Mode != "url" || !strings.Contains(r.Elicitations[0].URL, "/approvals/apr_") {
		t.Errorf("elicitations %+v, want the approval page once", r.Elicitations)
	}
	if r.Approved != 200 || r.Call.IsError || r.Call.Text != "ran: deploy --env prod" {
		t.Errorf("approval answered %d, call %+v: want the held call to run", r.Approved, r.Call)
	}
}
