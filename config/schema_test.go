package config_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	_ "github.com/agentwarden/warden/builtin" // the default config uses built-in modules
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/guardrail/injection"
	"github.com/agentwarden/warden/guardrail/judge"
	"github.com/agentwarden/warden/guardrail/redact"
	"github.com/agentwarden/warden/guardrail/regex"
	"github.com/agentwarden/warden/guardrail/session"
	"github.com/agentwarden/warden/guardrail/terms"
	"github.com/agentwarden/warden/policy/allowlist"
	wcel "github.com/agentwarden/warden/policy/cel"
	"github.com/agentwarden/warden/policy/commands"
	"github.com/agentwarden/warden/policy/oap"
	"github.com/agentwarden/warden/policy/webhook"
	"github.com/agentwarden/warden/safety"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(config.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("config.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlAsJSON turns a YAML document into the JSON value the schema describes.
func yamlAsJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDocsSchemaIsTheEmbeddedSchema(t *testing.T) {
	t.Parallel()
	docs, err := os.ReadFile("../docs/config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, config.Schema()) {
		t.Error("docs/config.schema.json differs from config/schema.json; run: go run ./cmd/warden config schema > docs/config.schema.json")
	}
}

func TestEveryExampleConfigValidatesAndLoads(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test")
	schema := compileSchema(t)
	all, _ := filepath.Glob("../examples/*.yaml")
	var files []string
	for _, f := range all {
		if !strings.HasSuffix(f, "_test.yaml") { // policy tests (warden policy test), not configs
			files = append(files, f)
		}
	}
	files = append(files, "default.yaml")
	if len(files) < 3 {
		t.Fatalf("found %d example configs, want the default and the examples", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(yamlAsJSON(t, data)); err != nil {
				t.Errorf("schema: %v", err)
			}
			p, err := config.Parse(f, data)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			l, err := p.Build(context.Background(), config.Options{Recorder: nil, Stderr: &bytes.Buffer{}})
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			l.Close()
			os.Remove("warden-audit.jsonl")
		})
	}
}

func TestSchemaRejectsWhatTheLoaderRejects(t *testing.T) {
	t.Parallel()
	schema := compileSchema(t)
	tests := []struct {
		desc string
		yaml string
	}{
		{"an unknown top-level key", "version: 1\nextra: 1\n"},
		{"a missing version", "guardrails: {}\n"},
		{"an unknown key in a guardrail", "version: 1\nguardrails: {tool_call: [{use: x, colour: red}]}\n"},
		{"a guardrail without use", "version: 1\nguardrails: {output: [{name: x}]}\n"},
		{"parallel execution outside input", "version: 1\nguardrails: {output: [{use: x, execution: parallel}]}\n"},
		{"tools outside the tool stages", "version: 1\nguardrails: {input: [{use: x, tools: [a]}]}\n"},
		{"an unknown mode", "version: 1\nguardrails: {input: [{use: x, mode: loud}]}\n"},
		{"a timeout that is not a duration", "version: 1\nguardrails: {input: [{use: x, timeout: soon}]}\n"},
		{"an unknown key in a judge config", "version: 1\nguardrails: {input: [{use: judge, config: {endpoint: 'http://x', model: m, prompt: p, temprature: 0}}]}\n"},
		{"an unknown key in an allowlist config", "version: 1\nguardrails: {tool_call: [{use: allowlist, config: {allowed_tool: [a]}}]}\n"},
		{"an unknown key in a commands config", "version: 1\nguardrails: {tool_call: [{use: commands, config: {allowed_command: [git]}}]}\n"},
		{"a command rule without a code", "version: 1\nguardrails: {tool_call: [{use: commands, config: {rules: [{id: x, programs: [y]}]}}]}\n"},
		{"a judge config without a model", "version: 1\nguardrails: {input: [{use: judge, config: {endpoint: 'http://x', prompt: p}}]}\n"},
		{"an unknown audit sink", "version: 1\naudit: {sink: kafka}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if err := schema.Validate(yamlAsJSON(t, []byte(tt.yaml))); err == nil {
				t.Error("the schema accepts it")
			}
		})
	}
}

// The schema lists, for each object, exactly the keys the Go type decodes: a field added to a struct
// without the schema (or the reverse) fails here.
func TestSchemaPropertiesMatchTheGoTypes(t *testing.T) {
	t.Parallel()
	var schema struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(config.Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		def string
		typ reflect.Type
	}{
		{"", reflect.TypeFor[config.File]()},
		{"stages", reflect.TypeFor[config.Stages]()},
		{"common", reflect.TypeFor[config.Guardrail]()},
		{"audit", reflect.TypeFor[config.Audit]()},
		{"ledger", reflect.TypeFor[config.Ledger]()},
		{"redis", reflect.TypeFor[config.RedisServer]()},
		{"mcp", reflect.TypeFor[config.MCP]()},
		{"approvals", reflect.TypeFor[config.Approvals]()},
		{"approvalWebhook", reflect.TypeFor[config.ApprovalWebhook]()},
		{"admin", reflect.TypeFor[config.Admin]()},
		{"call_budget", reflect.TypeFor[session.CallBudget]()},
		{"loop_breaker", reflect.TypeFor[session.LoopBreaker]()},
		{"rate_limit", reflect.TypeFor[session.RateLimit]()},
		{"token_budget", reflect.TypeFor[session.TokenBudget]()},
		{"sessionRedis", reflect.TypeFor[session.RedisServer]()},
		{"mcpServer", reflect.TypeFor[config.MCPServer]()},
		{"judge", reflect.TypeFor[judge.Judge]()},
		{"allowlist", reflect.TypeFor[allowlist.Allowlist]()},
		{"injection", reflect.TypeFor[injection.Injection]()},
		{"commands", reflect.TypeFor[commands.Commands]()},
		{"commandRule", reflect.TypeFor[commands.Rule]()},
		{"cel", reflect.TypeFor[wcel.Rules]()},
		{"celRule", reflect.TypeFor[wcel.Rule]()},
		{"http", reflect.TypeFor[webhook.Webhook]()},
		{"oap", reflect.TypeFor[oap.OAP]()},
		{"safety", reflect.TypeFor[safety.Guardrail]()},
		{"redact", reflect.TypeFor[redact.ResultRedact]()}, // the stream's Redact has the same keys but action
		{"blocked_terms", reflect.TypeFor[terms.BlockedTerms]()},
		{"regex", reflect.TypeFor[regex.Regex]()},
		{"regexPattern", reflect.TypeFor[regex.Pattern]()},
		{"safetyDetector", reflect.TypeFor[safety.DetectorConfig]()},
		{"oapMapping", reflect.TypeFor[oap.Mapping]()},
	}
	for _, tt := range tests {
		t.Run(tt.typ.String(), func(t *testing.T) {
			t.Parallel()
			props := schema.Properties
			if tt.def != "" {
				props = schema.Defs[tt.def].Properties
			}
			var inSchema, inGo []string
			for k := range props {
				inSchema = append(inSchema, k)
			}
			for i := range tt.typ.NumField() {
				f := tt.typ.Field(i)
				if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); f.IsExported() && name != "-" {
					inGo = append(inGo, name)
				}
			}
			sort.Strings(inSchema)
			sort.Strings(inGo)
			if !slices.Equal(inSchema, inGo) {
				t.Errorf("schema keys %v, Go keys %v", inSchema, inGo)
			}
		})
	}
}
