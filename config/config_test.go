package config_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
)

// fixed is a test module: it decides what its config says, and records its lifecycle.
type fixed struct {
	Action string          `yaml:"action"`
	Code   string          `yaml:"code"`
	Limit  int             `yaml:"limit"`
	Wait   warden.Duration `yaml:"wait"`
	Nested struct {
		Depth int `yaml:"depth"`
	} `yaml:"nested"`
	FailAt string `yaml:"fail_at"` // provision | validate
	closed *[]string
	name   string
}

var (
	lifecycleMu sync.Mutex
	closedLog   []string
)

func (f *fixed) Provision(context.Context) error {
	if f.FailAt == "provision" {
		return errors.New("cannot reach the policy store")
	}
	return nil
}

func (f *fixed) Validate() error {
	if f.FailAt == "validate" {
		return errors.New("limit must be positive")
	}
	return nil
}

func (f *fixed) Close() error {
	lifecycleMu.Lock()
	defer lifecycleMu.Unlock()
	closedLog = append(closedLog, f.Code)
	return nil
}

func (f *fixed) CheckToolCall(context.Context, warden.ToolCallCheck) (warden.Decision, error) {
	switch f.Action {
	case "reject":
		return warden.Reject(f.Code, "rejected by config"), nil
	case "error":
		return warden.Decision{}, errors.New("broken")
	}
	return warden.Allow(), nil
}

func init() {
	warden.Register(warden.ModuleInfo{ID: "guardrail.tool_call.fixed", New: func() any { return new(fixed) }, Summary: "test module"})
	warden.Register(warden.ModuleInfo{ID: "guardrail.tool_call.not_a_tool_guard", New: func() any { return new(struct{}) }})
}

func TestParseReportsPositionKeyAndCause(t *testing.T) {
	t.Setenv("WARDEN_TEST_SET", "value")
	tests := []struct {
		desc string
		yaml string
		want string
	}{
		{"an unknown top-level key, with a suggestion", "version: 1\nguardrailz: {}\n",
			`test.yaml:2:1: guardrailz: unknown key "guardrailz" (did you mean "guardrails"?)`},
		{"an unknown key in a guardrail entry", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      fail_open: true\n",
			`test.yaml:5:7: guardrails.tool_call[0].fail_open: unknown key "fail_open" (did you mean "fail_closed"?)`},
		{"an unknown stage", "version: 1\nguardrails:\n  tools: []\n",
			`test.yaml:3:3: guardrails.tools: unknown key "tools"`},
		{"a mode that does not exist", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      mode: loud\n",
			`test.yaml:5:13: guardrails.tool_call[0].mode: unknown mode "loud" (want enforce, monitor or off)`},
		{"a duration that does not parse", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      timeout: soon\n",
			`test.yaml:5:16: guardrails.tool_call[0].timeout: invalid duration "soon"`},
		{"a bool that is not one", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      fail_closed: maybe\n",
			`test.yaml:5:20: guardrails.tool_call[0].fail_closed: cannot unmarshal !!str`},
		{"a stage that is not a list", "version: 1\nguardrails:\n  tool_call: {use: fixed}\n",
			`test.yaml:3:14: guardrails.tool_call: want a list, got a mapping`},
		{"a missing version", "guardrails: {}\n", `test.yaml:1:1: version: missing; write version: 1`},
		{"an unsupported version", "version: 2\n", `test.yaml:1:1: version: unsupported version 2 (want 1)`},
		{"a guardrail without use", "version: 1\nguardrails:\n  tool_call:\n    - name: x\n",
			`test.yaml:4:7: guardrails.tool_call[0].use: missing: name the module this guardrail uses`},
		{"two guardrails with one name", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n    - use: fixed\n",
			`test.yaml:5:7: guardrails.tool_call[1].name: "fixed" is already the name of guardrails.tool_call[0]`},
		{"parallel execution outside input", "version: 1\nguardrails:\n  output:\n    - use: judge\n      execution: parallel\n",
			`guardrails.output[0].execution: parallel applies to input guardrails only`},
		{"a tools filter outside the tool stages", "version: 1\nguardrails:\n  input:\n    - use: judge\n      tools: [bash]\n",
			`guardrails.input[0].tools: applies to tool_call and tool_result guardrails only`},
		{"a bad tool pattern", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      tools: ['[bash']\n",
			`guardrails.tool_call[0].tools[0]: bad pattern "[bash"`},
		{"an environment variable that is not set", "version: 1\naudit:\n  path: ${WARDEN_TEST_UNSET}/audit.jsonl\n",
			`test.yaml:3:9: audit.path: environment variable WARDEN_TEST_UNSET is not set (write ${WARDEN_TEST_UNSET:-default} to give a default)`},
		{"a key given twice", "version: 1\nversion: 1\n", `test.yaml:2:1: version: key repeated (first at line 1)`},
		{"YAML that does not parse", "version: 1\nguardrails: [\n", `test.yaml:2: not valid YAML`},
		{"an empty file", "", `test.yaml:1:1: the file is empty`},
		{"an unknown audit sink", "version: 1\naudit:\n  sink: kafka\n", `audit.sink: unknown sink "kafka" (want jsonl or none)`},
		{"a ledger user header that is not a header name", "version: 1\nledger:\n  user_header: 'X-User: me'\n", `test.yaml:2:1: ledger.user_header: "X-User: me" is not an HTTP header name`},
		{"injecting the end user without a header to read it from", "version: 1\nledger:\n  inject_end_user: true\n", `ledger.inject_end_user: needs user_header`},
		{"a threshold for a detector that does not exist", "version: 1\ndetectors:\n  thresholds:\n    deceptoin: 0.4\n",
			`test.yaml:4:5: detectors.thresholds.deceptoin: unknown detector "deceptoin" (known: deception,`},
		{"a threshold outside [0, 1]", "version: 1\ndetectors:\n  thresholds:\n    deception: 1.5\n",
			`test.yaml:4:5: detectors.thresholds.deception: threshold 1.5 is outside [0, 1]`},
		{"a threshold that is not a number", "version: 1\ndetectors:\n  thresholds:\n    deception: high\n",
			`test.yaml:4:16: detectors.thresholds.deception: cannot unmarshal !!str`},
		{"an unknown key in the detectors section", "version: 1\ndetectors:\n  threshold: {}\n",
			`test.yaml:3:3: detectors.threshold: unknown key "threshold" (did you mean "thresholds"?)`},
		{"an unknown on_deny", "version: 1\ngateway:\n  on_deny: block\n",
			`test.yaml:3:3: gateway.on_deny: unknown value "block" (want retry, explain or error)`},
		{"negative deny_retries", "version: 1\ngateway:\n  deny_retries: -1\n",
			`test.yaml:3:3: gateway.deny_retries: must be positive`},
		{"negative stream_retries", "version: 1\ngateway:\n  stream_retries: -1\n",
			`test.yaml:3:3: gateway.stream_retries: must be 0 or more`},
		{"a read_body_timeout that is not a duration", "version: 1\ngateway:\n  read_body_timeout: soon\n",
			`test.yaml:3:22: gateway.read_body_timeout: invalid duration "soon"`},
		{"a negative read_header_timeout", "version: 1\ngateway:\n  read_header_timeout: -1s\n",
			`test.yaml:3:24: gateway.read_header_timeout: invalid duration "-1s": must not be negative`},
		{"an unknown key in a gateway upstream", "version: 1\ngateway:\n  upstreams:\n    - name: openai\n      api_key: sk-1\n",
			`test.yaml:5:7: gateway.upstreams[0].api_key: unknown key "api_key"`},
		{"an upstream without a URL", "version: 1\ngateway:\n  upstreams:\n    - name: deepseek\n",
			`test.yaml:4:7: gateway.upstreams[0].url: missing: the upstream's base URL`},
		{"an upstream URL that is not http", "version: 1\ngateway:\n  upstreams:\n    - name: deepseek\n      url: ftp://x\n",
			`test.yaml:4:7: gateway.upstreams[0].url: "ftp://x" is not an http:// or https:// URL with a host`},
		{"a built-in upstream with a prefix", "version: 1\ngateway:\n  upstreams:\n    - name: openai\n      prefix: /oa\n",
			`test.yaml:4:7: gateway.upstreams[0].prefix: the built-in upstream "openai" is chosen by path`},
		{"two upstreams with one name", "version: 1\ngateway:\n  upstreams:\n    - {name: k, url: 'http://a'}\n    - {name: k, url: 'http://b'}\n",
			`test.yaml:5:7: gateway.upstreams[1].name: "k" is already the name of gateway.upstreams[0]`},
		{"an upstream prefix that takes a built-in path", "version: 1\ngateway:\n  upstreams:\n    - {name: v, url: 'http://a', prefix: /v1}\n",
			`test.yaml:4:7: gateway.upstreams[0].prefix: "/v1" is taken by the built-in routes`},
		{"an unknown upstream provider", "version: 1\ngateway:\n  upstreams:\n    - {name: v, url: 'http://a', provider: cohere}\n",
			`test.yaml:4:7: gateway.upstreams[0].provider: unknown provider "cohere"`},
		{"a listen address without a port", "version: 1\ngateway:\n  listen: localhost\n",
			`test.yaml:3:3: gateway.listen: "localhost" is not host:port`},
		{"an MCP section without servers", "version: 1\nmcp:\n  servers: {}\n",
			`mcp.servers: name one server at least`},
		{"an MCP method with a rule other than allow or check", "version: 1\nmcp:\n  methods:\n    x/run: maybe\n",
			`test.yaml:4:5: mcp.methods.x/run: "maybe" is not allow or check`},
		{"MCP methods beside servers behind one client", "version: 1\nmcp:\n  servers:\n    git: {command: [git-mcp]}\n  methods:\n    x/run: allow\n",
			`test.yaml:5:3: mcp.methods: servers behind one client refuse methods MCP does not define`},
		{"an MCP server with neither command nor url", "version: 1\nmcp:\n  servers:\n    git: {}\n",
			`test.yaml:4:5: mcp.servers.git: give command (a stdio server) or url`},
		{"an MCP server with both", "version: 1\nmcp:\n  servers:\n    git: {command: [git-mcp], url: 'http://a/mcp'}\n",
			`test.yaml:4:5: mcp.servers.git: give command or url, not both`},
		{"an MCP server name with a double underscore", "version: 1\nmcp:\n  servers:\n    my__git: {command: [git-mcp]}\n",
			`mcp.servers.my__git: a server's name has letters`},
		{"an MCP server URL that is not http", "version: 1\nmcp:\n  servers:\n    gh: {url: 'ws://a/mcp'}\n",
			`mcp.servers.gh.url: "ws://a/mcp" is not an http:// or https:// URL`},
		{"headers for a command", "version: 1\nmcp:\n  servers:\n    gh: {command: [gh-mcp], headers: {A: b}}\n",
			`mcp.servers.gh.headers: headers are for a URL's server`},
		{"an unknown key of an MCP server", "version: 1\nmcp:\n  servers:\n    gh: {command: [gh-mcp], args: [x]}\n",
			`mcp.servers.gh.args: unknown key "args"`},
		{"an unknown approvals store", "version: 1\napprovals:\n  store: postgres\n",
			`test.yaml:3:3: approvals.store: unknown store "postgres" (want sqlite, redis or memory)`},
		{"an unknown on_ask", "version: 1\napprovals:\n  on_ask: later\n",
			`test.yaml:3:3: approvals.on_ask: "later" is not wait or deny`},
		{"an approvals key too short", "version: 1\napprovals:\n  key: abcd\n",
			`approvals.key: the key has 2 bytes; want at least 32`},
		{"an approvals key that is not hex or base64", "version: 1\napprovals:\n  key: '!!!'\n",
			`approvals.key: the key is neither hex nor base64`},
		{"an admin listener without authentication", "version: 1\napprovals:\n  admin: {listen: '127.0.0.1:8788'}\n",
			`approvals.admin: name tokens or users`},
		{"an admin token too short", "version: 1\napprovals:\n  admin: {tokens: {alice: short}}\n",
			`approvals.admin.tokens.alice: shorter than 16 characters`},
		{"an admin listen address without a port", "version: 1\napprovals:\n  admin: {listen: localhost, tokens: {alice: 0123456789abcdef0}}\n",
			`approvals.admin.listen: "localhost" is not host:port`},
		{"a webhook URL that is not http", "version: 1\napprovals:\n  webhook: {url: 'ftp://x'}\n",
			`approvals.webhook.url: "ftp://x" is not an http:// or https:// URL`},
		{"a webhook format that does not exist", "version: 1\napprovals:\n  webhook: {url: 'http://x', format: teams}\n",
			`approvals.webhook.format: "teams" is not json or slack`},
		{"an unknown key of approvals", "version: 1\napprovals:\n  timeout: 1m\n",
			`approvals.timeout: unknown key "timeout"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			_, err := config.Parse("test.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant it to contain %s", err, tt.want)
			}
			var ce *config.Error
			if err != nil && !errors.As(err, &ce) {
				t.Errorf("err is %T, want it to hold a *config.Error", err)
			}
		})
	}
}

func TestParseReportsEveryProblemSorted(t *testing.T) {
	t.Parallel()
	_, err := config.Parse("f.yaml", []byte("version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      mode: loud\n      colour: red\n    - use: fixd\n    - use: fixed\n      name: b\n      config: {limt: 1}\nextra: 1\n"))
	var es config.Errors
	if !errors.As(err, &es) || len(es) != 5 {
		t.Fatalf("err = %v, want 5 problems: structure, an unknown module and a module key together", err)
	}
	for i := 1; i < len(es); i++ {
		if es[i-1].Line > es[i].Line {
			t.Errorf("problems out of order: line %d before line %d", es[i-1].Line, es[i].Line)
		}
	}
}

func TestEnvironmentExpansion(t *testing.T) {
	t.Setenv("WARDEN_TEST_CODE", "from.env")
	tests := []struct {
		desc, value, want string
	}{
		{"a set variable is replaced", "${WARDEN_TEST_CODE}", "from.env"},
		{"a default applies when the variable is unset", "${WARDEN_TEST_NOPE:-fallback}", "fallback"},
		{"a variable inside text is replaced", "x-${WARDEN_TEST_CODE}-y", "x-from.env-y"},
		{"$${ is a literal ${", "$${WARDEN_TEST_CODE}", "${WARDEN_TEST_CODE}"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			p, err := config.Parse("t.yaml", []byte("version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config: {code: '"+tt.value+"'}\n"))
			if err != nil {
				t.Fatal(err)
			}
			var f struct {
				Code string `yaml:"code"`
			}
			if err := p.File.Guardrails.ToolCall[0].Config.Decode(&f); err != nil || f.Code != tt.want {
				t.Errorf("code = %q (%v), want %q", f.Code, err, tt.want)
			}
		})
	}
}

func TestModuleProblemsNameTheModuleAndPosition(t *testing.T) {
	tests := []struct {
		desc string
		yaml string
		want string
	}{
		{"an unknown module lists what is registered", "version: 1\nguardrails:\n  tool_call:\n    - use: fixd\n",
			`t.yaml:4:12: guardrails.tool_call[0].use: unknown guardrail "fixd" (forgotten import?); registered for tool_call: `},
		{"an unknown key in a module's config names the module", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config:\n        limt: 3\n",
			`t.yaml:6:9: guardrail.tool_call.fixed: guardrails.tool_call[0].config.limt: unknown key "limt" (did you mean "limit"?)`},
		{"a nested unknown key in a module's config", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config:\n        nested: {deep: 1}\n",
			`t.yaml:6:18: guardrail.tool_call.fixed: guardrails.tool_call[0].config.nested.deep: unknown key "deep" (known keys: depth)`},
		{"a wrong type in a module's config", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config:\n        limit: lots\n",
			`t.yaml:6:16: guardrail.tool_call.fixed: guardrails.tool_call[0].config.limit: cannot unmarshal !!str`},
		{"a module config that is not a mapping", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config: [1]\n",
			`guardrails.tool_call[0].config: want a mapping of keys, got a list`},
		{"a provision failure names the module and its config", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config: {fail_at: provision}\n",
			`t.yaml:5:15: guardrail.tool_call.fixed: guardrails.tool_call[0].config: cannot reach the policy store`},
		{"a validation failure names the module and its config", "version: 1\nguardrails:\n  tool_call:\n    - use: fixed\n      config: {fail_at: validate}\n",
			`t.yaml:5:15: guardrail.tool_call.fixed: guardrails.tool_call[0].config: limit must be positive`},
		{"a module that does not fit its stage is a wiring error", "version: 1\nguardrails:\n  tool_call:\n    - use: not_a_tool_guard\n",
			`does not implement warden.ToolCallGuardrail`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			p, err := config.Parse("t.yaml", []byte(tt.yaml))
			if err == nil {
				_, err = p.Build(context.Background(), config.Options{})
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v\nwant it to contain %s", err, tt.want)
			}
		})
	}
}

func TestBuildClosesWhatItProvisionedWhenALaterModuleFails(t *testing.T) {
	lifecycleMu.Lock()
	closedLog = nil
	lifecycleMu.Unlock()
	p, err := config.Parse("t.yaml", []byte("version: 1\nguardrails:\n  tool_call:\n    - {use: fixed, name: a, config: {code: first}}\n    - {use: fixed, name: b, config: {code: second, fail_at: validate}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Build(context.Background(), config.Options{}); err == nil {
		t.Fatal("build succeeded, want the validation failure")
	}
	lifecycleMu.Lock()
	defer lifecycleMu.Unlock()
	if strings.Join(closedLog, ",") != "second,first" {
		t.Errorf("closed %v, want the failed module and then the provisioned one", closedLog)
	}
}

func TestBuiltEngineHonoursOptions(t *testing.T) {
	var audit bytes.Buffer
	p, err := config.Parse("t.yaml", []byte(`version: 1
guardrails:
  tool_call:
    - name: open
      use: fixed
      fail_closed: false
      config: {action: error, code: a}
    - name: watch
      use: fixed
      mode: monitor
      config: {action: reject, code: watched}
    - name: only-mcp
      use: fixed
      tools: ["mcp__*"]
      config: {action: reject, code: mcp}
audit:
  path: stdout
`))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{Stdout: &audit})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out, err := l.Engine.CheckToolCall(context.Background(), warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", []byte(`{}`))})
	if err != nil || !out.Allowed() {
		t.Fatalf("allowed = %v (%v), want allowed: fail-open error, monitored reject, skipped filter", out.Allowed(), err)
	}
	got := []string{}
	for _, ev := range out.Evaluations {
		got = append(got, ev.Guardrail+":"+ev.Status.String())
	}
	if strings.Join(got, " ") != "open:errored watch:evaluated only-mcp:skipped" {
		t.Errorf("evaluations = %v", got)
	}
	if n := strings.Count(audit.String(), "\n"); n != 3 {
		t.Errorf("audit lines = %d, want 3:\n%s", n, audit.String())
	}
	if !strings.Contains(audit.String(), `"module":"guardrail.tool_call.fixed"`) {
		t.Errorf("audit does not name the module:\n%s", audit.String())
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "warden.yaml")
	if err := os.WriteFile(good, []byte("version: 1\naudit: {sink: none}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc    string
		file    string
		wantErr string
	}{
		{"the embedded default loads when no file is named", "", ""},
		{"a file loads", good, ""},
		{"a missing file is an error naming it", filepath.Join(dir, "nope.yaml"), "nope.yaml: no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			l, err := config.Load(context.Background(), tt.file, config.Options{Stderr: &bytes.Buffer{}})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l.Close()
		})
	}
}

func TestMCPMethodsAloneConfigureTheOneServer(t *testing.T) {
	t.Parallel()
	p, err := config.Parse("test.yaml", []byte("version: 1\nmcp:\n  methods:\n    x/run: check\n    notifications/x/ready: allow\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.File.MCP.Methods; got["x/run"] != "check" || got["notifications/x/ready"] != "allow" || len(p.File.MCP.Servers) != 0 {
		t.Errorf("mcp = %+v, want the two methods and no servers", p.File.MCP)
	}
}
