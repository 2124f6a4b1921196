package oap_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/policy/oap"
)

// passport returns a passport document with the given limits and capabilities.
func passport(status string, caps []string, limits map[string]any) []byte {
	var cs []map[string]any
	for _, c := range caps {
		cs = append(cs, map[string]any{"id": c})
	}
	b, _ := json.Marshal(map[string]any{
		"passport_id": "550e8400-e29b-41d4-a716-446655440000", "agent_id": "ap_dev", "kind": "template",
		"spec_version": "oap/1.0", "owner_id": "org_acme", "owner_type": "org", "status": status, "assurance_level": "L0",
		"capabilities": cs, "limits": limits, "regions": []string{"US"}, "created_at": "2026-01-01T00:00:00Z",
		"updated_at": "2026-01-01T00:00:00Z", "version": "1.0.0",
	})
	return b
}

var allCaps = []string{"system.command.execute", "data.file.read", "data.file.write", "web.fetch", "mcp.tool.execute", "messaging.send"}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func newClock() *clock               { return &clock{t: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)} }
func writeFile(t testing.TB, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func evaluator(t testing.TB, doc []byte, edit func(*oap.OAP)) (*oap.OAP, string, *clock) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "passport.json")
	writeFile(t, p, doc)
	o := &oap.OAP{Passport: p}
	clk := newClock()
	o.SetClock(clk.now)
	if edit != nil {
		edit(o)
	}
	if err := o.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	return o, p, clk
}

func check(t *testing.T, o *oap.OAP, tool, args string) warden.Decision {
	t.Helper()
	d, err := o.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", tool, []byte(args))})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type row struct {
	desc, tool, args, code, message string
}

func runRows(t *testing.T, o *oap.OAP, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.desc, func(t *testing.T) {
			d := check(t, o, r.tool, r.args)
			if got := d.FirstReason().Code; got != r.code {
				t.Fatalf("code = %s (%s), want %s", got, d.FirstReason().Message, r.code)
			}
			if (r.code == "oap.allowed") != (d.Action == warden.ActionAllow) {
				t.Errorf("action %s with code %s", d.Action, r.code)
			}
			if r.message != "" && d.FirstReason().Message != r.message {
				t.Errorf("message = %q, want %q", d.FirstReason().Message, r.message)
			}
		})
	}
}

// The report's §4.9 worked examples: allowed_commands ["git","npm","node","ls"], blocked ["rm -rf","sudo","chmod 777"].
func TestCommandLimitsWithAnAllowlist(t *testing.T) {
	o, _, _ := evaluator(t, passport("active", allCaps, map[string]any{"system.command.execute": map[string]any{
		"allowed_commands": []string{"git", "npm", "node", "ls"}, "blocked_patterns": []string{"rm -rf", "sudo", "chmod 777"}, "max_execution_time": 300}}), nil)
	runRows(t, o, []row{
		{"git status is allowed", "bash", `{"command":"git status"}`, "oap.allowed", "All policy checks passed"},
		{"gitleaks is not git (the reference's prefix match allowed it)", "bash", `{"command":"gitleaks detect"}`, "oap.command_not_allowed", "Command 'gitleaks' is not in allowed list"},
		{"ls && sudo reboot names sudo", "bash", `{"command":"ls && sudo reboot"}`, "oap.command_not_allowed", "Command 'sudo' is not in allowed list"},
		{"rm is not in the list", "bash", `{"command":"rm -rf /tmp/x"}`, "oap.command_not_allowed", "Command 'rm' is not in allowed list"},
		{"a command hidden in bash -c is checked", "bash", `{"command":"ls; bash -c 'curl x'"}`, "oap.command_not_allowed", "Command 'bash' is not in allowed list"},
		{"cmd is read when command is absent", "bash", `{"cmd":"npm test"}`, "oap.allowed", ""},
		{"a timeout above max_execution_time", "bash", `{"command":"npm test","timeout":900}`, "oap.limit_exceeded", ""},
		{"a call without a command", "bash", `{"description":"x"}`, "oap.invalid_context", ""},
		{"a dynamic program name", "bash", `{"command":"$(echo ls)"}`, "warden.dynamic_command", ""},
	})
}

func TestCommandLimitsWithAStar(t *testing.T) {
	o, _, _ := evaluator(t, passport("active", allCaps, map[string]any{"system.command.execute": map[string]any{
		"allowed_commands": []string{"*"}, "blocked_patterns": []string{"rm -rf", "sudo", "chmod 777", "dd if="},
		"allowed_working_directories": []string{"/work/project"}, "blocked_env_vars": []string{"LD_PRELOAD"}}}), nil)
	runRows(t, o, []row{
		{"rm -rf inside the project hits the pattern", "bash", `{"command":"rm -rf ./build"}`, "oap.blocked_pattern", "Command contains blocked pattern: rm -rf"},
		{"rm -fr is the same pattern (the reference missed it)", "bash", `{"command":"rm -fr ./build"}`, "oap.blocked_pattern", ""},
		{"rm -r -f is the same pattern", "bash", `{"command":"rm -r -f ./build"}`, "oap.blocked_pattern", ""},
		{"\\rm -Rf is the same pattern", "bash", `{"command":"\\rm -Rf ./build"}`, "oap.blocked_pattern", ""},
		{"rm --recursive --force is the same pattern", "bash", `{"command":"/bin/rm --recursive --force ./build"}`, "oap.blocked_pattern", ""},
		{"two spaces do not hide it", "bash", `{"command":"rm  -rf  ./build"}`, "oap.blocked_pattern", ""},
		{"sudo anywhere is blocked", "bash", `{"command":"echo hi && sudo ls"}`, "oap.dangerous_operation", ""},
		{"chmod 777 is blocked", "bash", `{"command":"chmod 777 script.sh"}`, "oap.blocked_pattern", ""},
		{"a pattern ending in = matches a prefix", "bash", `{"command":"dd if=a.img of=b.img"}`, "oap.blocked_pattern", ""},
		{"rm -rf of / is a dangerous operation first", "bash", `{"command":"rm -rf /"}`, "oap.dangerous_operation", ""},
		{"curl | sh is a dangerous operation", "bash", `{"command":"curl -s x | sh"}`, "oap.dangerous_operation", ""},
		{"an ordinary command passes", "bash", `{"command":"go test ./..."}`, "oap.allowed", ""},
		{"a working directory outside the allowed ones", "bash", `{"command":"ls","cwd":"/etc"}`, "oap.directory_not_allowed", ""},
		{"a working directory inside is fine", "bash", `{"command":"ls","cwd":"/work/project/src"}`, "oap.allowed", ""},
		{"a sibling directory is not inside", "bash", `{"command":"ls","cwd":"/work/project2"}`, "oap.directory_not_allowed", ""},
		{"a blocked variable in env", "bash", `{"command":"ls","env":{"LD_PRELOAD":"x.so"}}`, "oap.env_var_blocked", ""},
		{"a blocked variable assigned in the command", "bash", `{"command":"LD_PRELOAD=x.so ls"}`, "oap.env_var_blocked", ""},
	})
}

func TestStatusVersionAndCapabilities(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, status, tool, code, message string
		caps                              []string
		doc                               func([]byte) []byte
		edit                              func(*oap.OAP)
	}{
		{desc: "a suspended passport denies everything", status: "suspended", tool: "read_file", code: "oap.passport_suspended",
			message: "Passport status is 'suspended', not 'active'. Agent suspended."},
		{desc: "a revoked passport denies", status: "revoked", tool: "read_file", code: "oap.passport_suspended"},
		{desc: "a draft passport denies", status: "draft", tool: "read_file", code: "oap.passport_suspended"},
		{desc: "another spec version denies", status: "active", tool: "read_file", code: "oap.passport_version_mismatch",
			doc: func(b []byte) []byte { return []byte(strings.Replace(string(b), `"oap/1.0"`, `"oap/2.0"`, 1)) }},
		{desc: "an unmapped tool denies", status: "active", tool: "lsblk", code: "oap.unknown_capability", message: "Tool 'lsblk' does not map to a capability"},
		{desc: "commander is not command", status: "active", tool: "commander", code: "oap.unknown_capability"},
		{desc: "unknown tools may be allowed", status: "active", tool: "commander", code: "oap.allowed", edit: func(o *oap.OAP) { o.UnknownTools = "allow" }},
		{desc: "a missing capability denies", status: "active", tool: "write_file", caps: []string{"data.file.read"}, code: "oap.unknown_capability",
			message: "Passport does not have required capability 'data.file.write' for policy 'data.file.write.v1'"},
		{desc: "ls is a file read", status: "active", tool: "ls", caps: []string{"data.file.read"}, code: "oap.allowed"},
		{desc: "execute_command is a command", status: "active", tool: "execute_command", caps: []string{"data.file.read"}, code: "oap.unknown_capability",
			message: "Passport does not have required capability 'system.command.execute' for policy 'system.command.execute.v1'"},
		{desc: "a custom mapping comes first", status: "active", tool: "deploy_service", caps: []string{"repo.merge"}, code: "oap.allowed",
			edit: func(o *oap.OAP) { o.Mapping = []oap.Mapping{{Capability: "repo.merge", Tools: []string{"deploy"}}} }},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			caps := tt.caps
			if caps == nil {
				caps = allCaps
			}
			doc := passport(tt.status, caps, map[string]any{})
			if tt.doc != nil {
				doc = tt.doc(doc)
			}
			o, _, _ := evaluator(t, doc, tt.edit)
			d := check(t, o, tt.tool, `{"path":"README.md","command":"ls"}`)
			if d.FirstReason().Code != tt.code || (tt.message != "" && d.FirstReason().Message != tt.message) {
				t.Errorf("reason %+v, want %s %q", d.FirstReason(), tt.code, tt.message)
			}
		})
	}
}

func TestFileWebMCPAndMessagingLimits(t *testing.T) {
	o, _, clk := evaluator(t, passport("active", allCaps, map[string]any{
		"data.file.read":   map[string]any{"allowed_paths": []string{"/work/project"}, "blocked_paths": []string{"/work/project/secrets"}, "allowed_extensions": []string{"go", ".md"}},
		"data.file.write":  map[string]any{"allowed_paths": []string{"/work/project"}, "blocked_patterns": []string{"*.pem"}, "max_file_size_mb": 0.001},
		"web.fetch":        map[string]any{"allowed_domains": []string{"api.github.com", "*.example.com"}, "blocked_domains": []string{"bad.example.com"}, "allowed_methods": []string{"GET"}},
		"mcp.tool.execute": map[string]any{"allowed_servers": []string{"github"}, "max_calls_per_minute": 2},
		"messaging.send":   map[string]any{"allowed_recipients": []string{"#ops"}, "msgs_per_min": 1},
	}), nil)
	runRows(t, o, []row{
		{"a read inside the allowed path", "read_file", `{"path":"/work/project/src/main.go"}`, "oap.allowed", ""},
		{"a read next to the allowed path is not inside it", "read_file", `{"path":"/work/projectx/main.go"}`, "oap.path_not_allowed", ""},
		{"a read escaping with .. is not inside", "read_file", `{"path":"/work/project/../etc/passwd.go"}`, "oap.path_not_allowed", ""},
		{"a read of a blocked path", "read_file", `{"file_path":"/work/project/secrets/key.md"}`, "oap.path_blocked", ""},
		{"a read of another extension", "read_file", `{"path":"/work/project/bin/tool.exe"}`, "oap.extension_not_allowed", ""},
		{"a write matching a blocked pattern", "write_file", `{"path":"/work/project/cert.pem","content":"x"}`, "oap.blocked_pattern", ""},
		{"a write over the size limit", "write_file", `{"path":"/work/project/a.txt","content":"` + strings.Repeat("x", 2000) + `"}`, "oap.limit_exceeded", ""},
		{"an allowed domain", "web_fetch", `{"url":"https://api.github.com/repos"}`, "oap.allowed", ""},
		{"a subdomain of an allowed wildcard", "web_fetch", `{"url":"https://docs.example.com/x"}`, "oap.allowed", ""},
		{"a blocked subdomain", "web_fetch", `{"url":"https://bad.example.com/x"}`, "oap.domain_blocked", ""},
		{"a domain not allowed", "web_fetch", `{"url":"https://evil.test/x"}`, "oap.domain_not_allowed", ""},
		{"loopback", "web_fetch", `{"url":"http://127.0.0.1:8080/admin"}`, "oap.private_ip_blocked", ""},
		{"loopback as one number", "web_fetch", `{"url":"http://2130706433/"}`, "oap.private_ip_blocked", ""},
		{"loopback in hex parts", "web_fetch", `{"url":"http://0x7f.1/"}`, "oap.private_ip_blocked", ""},
		{"IPv6 loopback", "web_fetch", `{"url":"http://[::1]/"}`, "oap.private_ip_blocked", ""},
		{"the cloud metadata address", "web_fetch", `{"url":"http://169.254.169.254/latest/meta-data"}`, "oap.private_ip_blocked", ""},
		{"a private network address", "web_fetch", `{"url":"http://10.1.2.3/"}`, "oap.private_ip_blocked", ""},
		{"localhost", "web_fetch", `{"url":"http://localhost:5432/"}`, "oap.private_ip_blocked", ""},
		{"a method not allowed", "web_fetch", `{"url":"https://api.github.com/x","method":"post"}`, "oap.method_not_allowed", ""},
		{"a search has no address to check", "web_search", `{"query":"x"}`, "oap.allowed", ""},
		{"an allowed MCP server", "mcp__github__create_issue", `{}`, "oap.allowed", ""},
		{"an MCP server not allowed", "mcp__slack__post_message", `{}`, "oap.server_not_allowed", ""},
		{"the second MCP call in the minute", "mcp__github__list_issues", `{}`, "oap.allowed", ""},
		{"the third MCP call in the minute", "mcp__github__list_issues", `{}`, "oap.rate_limit_exceeded", ""},
		{"an allowed recipient", "send_message", `{"to":"#ops","text":"hi"}`, "oap.allowed", ""},
		{"a second message in the minute", "send_message", `{"to":"#ops","text":"hi"}`, "oap.rate_limit_exceeded", ""},
		{"a recipient not allowed", "send_message", `{"recipient":"#general","text":"hi"}`, "oap.recipient_not_allowed", ""},
	})
	clk.add(61 * time.Second)
	runRows(t, o, []row{{"the MCP window slides", "mcp__github__list_issues", `{}`, "oap.allowed", ""}})
}

func TestAPassportChangeTakesEffectWithinTheReloadInterval(t *testing.T) {
	o, p, clk := evaluator(t, passport("active", allCaps, map[string]any{}), nil)
	if d := check(t, o, "read_file", `{"path":"a"}`); d.Action != warden.ActionAllow {
		t.Fatalf("active passport denied: %+v", d)
	}
	writeFile(t, p, passport("suspended", allCaps, map[string]any{}))
	clk.add(2 * time.Second)
	if d := check(t, o, "read_file", `{"path":"a"}`); d.Action != warden.ActionAllow {
		t.Errorf("the file was read again before the interval: %+v", d)
	}
	clk.add(4 * time.Second) // 6s since the last check; the interval is 5s
	if d := check(t, o, "read_file", `{"path":"a"}`); d.FirstReason().Code != "oap.passport_suspended" {
		t.Fatalf("suspension not in effect: %+v", d.FirstReason())
	}
	writeFile(t, p, []byte("{broken"))
	clk.add(6 * time.Second)
	if d := check(t, o, "read_file", `{"path":"a"}`); d.FirstReason().Code != "oap.passport_invalid" {
		t.Fatalf("a broken passport must deny: %+v", d.FirstReason())
	}
	writeFile(t, p, passport("active", allCaps, map[string]any{}))
	clk.add(6 * time.Second)
	if d := check(t, o, "read_file", `{"path":"a"}`); d.Action != warden.ActionAllow {
		t.Errorf("the repaired passport still denies: %+v", d.FirstReason())
	}
}

func TestDecisionCarriesOAPFields(t *testing.T) {
	t.Parallel()
	doc := passport("active", allCaps, map[string]any{})
	o, _, _ := evaluator(t, doc, nil)
	d := check(t, o, "read_file", `{"path":"a"}`)
	canon, err := oap.Canonical(doc)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(canon)
	m := d.Metadata
	tests := []struct {
		desc string
		ok   bool
	}{
		{"a random decision id", regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(m["decision_id"])},
		{"the policy pack", m["policy_id"] == "data.file.read.v1" && d.PolicyID == "data.file.read.v1"},
		{"the passport digest over the canonical passport", m["passport_digest"] == "sha256:"+hex.EncodeToString(sum[:])},
		{"created at and expires in", m["created_at"] != "" && m["expires_in"] == "60"},
		{"the passport's identity", m["passport_id"] == "550e8400-e29b-41d4-a716-446655440000" && m["owner_id"] == "org_acme" && m["assurance_level"] == "L0"},
		{"local verification", m["verification_mode"] == "local"},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: %v", tt.desc, m)
		}
	}
}

// A tool no mapping covers is decided by unknown_tools, and its decision says so, not ".v1".
func TestUnmappedToolsNameTheirPolicy(t *testing.T) {
	t.Parallel()
	for _, unknown := range []string{"deny", "allow"} {
		t.Run(unknown, func(t *testing.T) {
			t.Parallel()
			o, _, _ := evaluator(t, passport("active", allCaps, map[string]any{}), func(o *oap.OAP) { o.UnknownTools = unknown })
			d := check(t, o, "summon_dragon", `{}`)
			if d.PolicyID != "oap.unknown_tools" || d.Metadata["policy_id"] != "oap.unknown_tools" {
				t.Errorf("policy id %q, metadata %q; want oap.unknown_tools", d.PolicyID, d.Metadata["policy_id"])
			}
		})
	}
}

func TestPassportValidation(t *testing.T) {
	t.Parallel()
	minimal := []byte(`{"spec_version": "oap/1.0", "status": "active", "capabilities": [{"id": "system.command.execute"}], "limits": {}}`)
	tests := []struct {
		desc   string
		doc    []byte
		strict bool
		want   string // "" loads
	}{
		{"the DeerFlow doc's minimal passport loads by default", minimal, false, ""},
		{"it fails strict validation: the schema requires more", minimal, true, "passport_id: required"},
		{"a full passport passes strict validation", passport("active", allCaps, map[string]any{}), true, ""},
		{"strict tolerates the spec text's optional fields", []byte(strings.Replace(string(passport("active", allCaps, nil)), `{`, `{"expires_at":"2027-01-01T00:00:00Z","never_expires":false,"did":"did:web:x",`, 1)), true, ""},
		{"strict rejects unknown fields", []byte(strings.Replace(string(passport("active", allCaps, nil)), `{`, `{"colour":"red",`, 1)), true, "colour: not a passport field"},
		{"strict checks formats", []byte(strings.Replace(string(passport("active", allCaps, nil)), `"L0"`, `"L9"`, 1)), true, `assurance_level: "L9" is not an assurance level`},
		{"a capability id with capitals fails", []byte(`{"spec_version":"oap/1.0","status":"active","capabilities":[{"id":"System.Exec"}]}`), false, "is not a capability id"},
		{"a missing status fails", []byte(`{"spec_version":"oap/1.0"}`), false, "status: missing"},
		{"limits of the wrong type fail", []byte(`{"spec_version":"oap/1.0","status":"active","limits":{"system.command.execute":{"allowed_commands":"git"}}}`), false, "limits.system.command.execute"},
		{"garbage fails", []byte(`not json`), false, "not a JSON passport"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(t.TempDir(), "p.json")
			writeFile(t, p, tt.doc)
			err := (&oap.OAP{Passport: p, Strict: tt.strict}).Provision(context.Background())
			if tt.want == "" {
				if err != nil {
					t.Errorf("err = %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "passport.json")
	writeFile(t, p, passport("active", []string{"data.file.read"}, map[string]any{}))
	tests := []struct{ desc, config, want string }{
		{"a passport file is required", "{}", "passport: required"},
		{"a missing file is named", "{passport: '" + dir + "/nope.json'}", "nope.json"},
		{"a reload interval over 30s is refused", "{passport: '" + p + "', reload_interval: 1m}", "reload_interval: at most 30s"},
		{"an unknown key fails", "{passport: '" + p + "', pasport: x}", `unknown key "pasport"`},
		{"unknown_tools takes deny or allow", "{passport: '" + p + "', unknown_tools: maybe}", `unknown_tools: "maybe"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("tool_call", "oap", tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("a denial through the engine reads as seed 001 says", func(t *testing.T) {
		t.Parallel()
		l, err := configtest.Load("tool_call", "oap", "{passport: '"+p+"'}")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		out, _ := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{"command":"ls"}`))})
		want := "Guardrail denied: tool 'bash' was blocked (oap.unknown_capability). Reason: Passport does not have required capability 'system.command.execute' for policy 'system.command.execute.v1'. Choose an alternative approach."
		if out.Message != want {
			t.Errorf("message = %q\nwant      %q", out.Message, want)
		}
	})
}

// File blocked_patterns are shell globs as APort's shell matches them: * crosses /, so a ** pattern
// matches at any depth; a pattern that could never match is a passport error, not a rule that never fires.
func TestFileBlockedPatternsAreShellGlobs(t *testing.T) {
	t.Parallel()
	o, _, _ := evaluator(t, passport("active", allCaps, map[string]any{
		"data.file.write": map[string]any{"blocked_patterns": []string{"**/secrets/*", "*.pem", "/etc/*", "id_[re]*", "[!a-z]*.bak", `notes\?.txt`}},
	}), nil)
	runRows(t, o, []row{
		{"** crosses directories", "write_file", `{"path":"/work/app/config/secrets/db.yaml","content":"x"}`, "oap.blocked_pattern", ""},
		{"** matches a relative path", "write_file", `{"path":"deploy/secrets/token","content":"x"}`, "oap.blocked_pattern", ""},
		{"* at the start crosses directories", "write_file", `{"path":"/srv/tls/site.pem","content":"x"}`, "oap.blocked_pattern", ""},
		{"* after a prefix crosses directories", "write_file", `{"path":"/etc/ssh/sshd_config","content":"x"}`, "oap.blocked_pattern", ""},
		{"a class matches its members", "write_file", `{"path":"/home/u/.ssh/id_rsa","content":"x"}`, "oap.blocked_pattern", ""},
		{"a negated class", "write_file", `{"path":"/tmp/0dump.bak","content":"x"}`, "oap.blocked_pattern", ""},
		{"an escaped ? is literal", "write_file", `{"path":"/work/notes?.txt","content":"x"}`, "oap.blocked_pattern", ""},
		{"an escaped ? matches no other character", "write_file", `{"path":"/work/notesX.txt","content":"x"}`, "oap.allowed", ""},
		{"a path outside every pattern", "write_file", `{"path":"/work/app/main.go","content":"x"}`, "oap.allowed", ""},
		{"a negated class excludes its members", "write_file", `{"path":"adump.bak","content":"x"}`, "oap.allowed", ""},
	})
	for _, tt := range []struct{ pattern, want string }{
		{"secrets/[abc", "never closed"}, {"", "is empty"}, {`trailing\`, "lone backslash"}, {"[]", "never closed"}, {"x[!]", "empty [ ] class"},
	} {
		t.Run("a pattern that can never match: "+tt.pattern, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(t.TempDir(), "passport.json")
			writeFile(t, p, passport("active", allCaps, map[string]any{
				"data.file.read": map[string]any{"blocked_patterns": []string{tt.pattern}},
			}))
			err := (&oap.OAP{Passport: p}).Provision(context.Background())
			if err == nil || !strings.Contains(err.Error(), "limits.data.file.read.blocked_patterns[0]") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one naming the pattern and %q", err, tt.want)
			}
		})
	}
}

// A limit Warden does not enforce is refused with the passport, never silently unenforced.
func TestUnenforcedLimitsAreRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc   string
		limits map[string]any
		want   string
	}{
		{"limits for a capability Warden does not check", map[string]any{"code.repository.merge": map[string]any{"allowed_repos": []string{"acme/app"}, "max_pr_size_kb": 500}}, "limits.code.repository.merge: Warden does not enforce"},
		{"data.export's row limits", map[string]any{"data.export": map[string]any{"allow_pii": false, "max_rows": 1000}}, "limits.data.export: Warden does not enforce"},
		{"an unknown limit of a checked capability", map[string]any{"data.file.write": map[string]any{"allowed_paths": []string{"/w"}, "max_files": 3}}, `limits.data.file.write: json: unknown field "max_files"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(t.TempDir(), "passport.json")
			writeFile(t, p, passport("active", allCaps, tt.limits))
			err := (&oap.OAP{Passport: p}).Provision(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("web.browser has limits of its own, and web.fetch's when it has none", func(t *testing.T) {
		t.Parallel()
		withBrowser := append(append([]string(nil), allCaps...), "web.browser")
		o, _, _ := evaluator(t, passport("active", withBrowser, map[string]any{
			"web.fetch": map[string]any{"allowed_domains": []string{"api.github.com"}},
		}), nil)
		runRows(t, o, []row{{"a browser without limits of its own keeps web.fetch's", "browser_navigate", `{"url":"https://evil.test/"}`, "oap.domain_not_allowed", ""}})
		o2, _, _ := evaluator(t, passport("active", withBrowser, map[string]any{
			"web.fetch":   map[string]any{"allowed_domains": []string{"api.github.com"}},
			"web.browser": map[string]any{"allowed_domains": []string{"docs.example.com"}},
		}), nil)
		runRows(t, o2, []row{
			{"a browser's own limits allow", "browser_navigate", `{"url":"https://docs.example.com/"}`, "oap.allowed", ""},
			{"a browser's own limits deny", "browser_navigate", `{"url":"https://api.github.com/"}`, "oap.domain_not_allowed", ""},
		})
	})
}
