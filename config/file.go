package config

import (
	"github.com/agentwarden/warden"
	"go.yaml.in/yaml/v3"
)

// File is a Warden config file as written: the raw, decoded form. Build compiles it into an Engine.
type File struct {
	// Version of the config format; 1 is the only one.
	Version int `yaml:"version"`
	// Guardrails lists each stage's guardrails in the order they run.
	Guardrails Stages `yaml:"guardrails"`
	// Audit says where evaluation records go.
	Audit Audit `yaml:"audit"`
}

// Stages holds the guardrails of each stage of a turn.
type Stages struct {
	Input      []Guardrail `yaml:"input"`
	Response   []Guardrail `yaml:"response"`
	ToolCall   []Guardrail `yaml:"tool_call"`
	ToolResult []Guardrail `yaml:"tool_result"`
	Output     []Guardrail `yaml:"output"`
	Stream     []Guardrail `yaml:"stream"`
}

// Guardrail configures one guardrail: the module it uses, its module config, and the options every
// guardrail has.
type Guardrail struct {
	// Name identifies the guardrail in results and audit; it defaults to the module name and must be
	// unique within its stage.
	Name string `yaml:"name"`
	// Use names the module, e.g. judge. Required.
	Use string `yaml:"use"`
	// Mode is enforce (default), monitor (record what would have happened, allow) or off.
	Mode warden.Mode `yaml:"mode"`
	// FailClosed denies when the guardrail errors, times out or panics. Default true.
	FailClosed *bool `yaml:"fail_closed"`
	// Timeout bounds one evaluation (e.g. 2s); none by default beyond the module's own.
	Timeout warden.Duration `yaml:"timeout"`
	// Execution is blocking (default) or parallel; input guardrails only.
	Execution warden.Execution `yaml:"execution"`
	// Tools limits tool_call and tool_result guardrails to tools matching these patterns (*, ?, [...]).
	Tools []string `yaml:"tools"`
	// Config is the module's own config, decoded strictly into the module's struct.
	Config yaml.Node `yaml:"config"`
}

// Audit configures the audit sink.
type Audit struct {
	// Sink is jsonl (default) or none.
	Sink string `yaml:"sink"`
	// Path is where JSON lines go: stdout, stderr (default) or a file path, appended to.
	Path string `yaml:"path"`
}

func (s *Stages) byStage() [][]Guardrail {
	return [][]Guardrail{
		warden.StageInput: s.Input, warden.StageResponse: s.Response, warden.StageToolCall: s.ToolCall,
		warden.StageToolResult: s.ToolResult, warden.StageOutput: s.Output, warden.StageStream: s.Stream,
	}
}
