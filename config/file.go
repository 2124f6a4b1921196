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
	// Ledger counts provider safety stops per end user and blocks repeat offenders; absent means off.
	Ledger *Ledger `yaml:"ledger"`
	// Detectors configures the trace safety detectors that `warden scan` runs; absent means the shipped
	// settings.
	Detectors *Detectors `yaml:"detectors"`
	// Gateway configures `warden serve`; absent means the defaults and the providers' public endpoints.
	Gateway *Gateway `yaml:"gateway"`
	// MCP names the MCP servers `warden mcp` puts behind one client; absent means the one server its
	// command line names.
	MCP *MCP `yaml:"mcp"`
	// Approvals lets a person approve the tool calls a guardrail asks about (action: ask); absent, such
	// calls are rejected (warden.approval_unavailable).
	Approvals *Approvals `yaml:"approvals"`
}

// Approvals configures human approval (docs/approval.md).
type Approvals struct {
	// Store is sqlite (default: a file in data_dir, kept across restarts), redis (shared by gateway
	// replicas) or memory (forgotten when the process stops).
	Store string `yaml:"store"`
	// DataDir holds the SQLite file and the generated key. Default $XDG_STATE_HOME/warden, else
	// ~/.local/state/warden.
	DataDir string `yaml:"data_dir"`
	// TTL is how long a request waits for a decision, and how long a decision then stands. Default 1h.
	TTL warden.Duration `yaml:"ttl"`
	// OnAsk is what a surface does with a call that waits for approval: wait (default) holds the answer
	// until a person decides or wait_timeout passes, then runs the call or denies it; deny answers at once,
	// telling the model the call awaits approval under an id, and the identical call passes once approved.
	OnAsk string `yaml:"on_ask"`
	// WaitTimeout bounds a wait; a call not decided by then is denied. Default 60s.
	WaitTimeout warden.Duration `yaml:"wait_timeout"`
	// Key protects approval state handed to clients (HMAC-SHA256): at least 32 bytes, written as hex or
	// base64; write ${WARDEN_APPROVALS_KEY}. Default: a key generated once in data_dir (sqlite), or for the
	// process (memory). The redis store needs it, so that every replica has the same.
	Key string `yaml:"key"`
	// Redis is the server of the redis store. Its prefix defaults to "warden:approvals:".
	Redis RedisServer `yaml:"redis"`
	// Webhook is told of each new request.
	Webhook *ApprovalWebhook `yaml:"webhook"`
	// Admin serves the approvals page and the API that `warden approvals` uses.
	Admin *Admin `yaml:"admin"`
}

// ApprovalWebhook posts each new approval request to a URL.
type ApprovalWebhook struct {
	// URL receives a POST per new request. Required.
	URL string `yaml:"url"`
	// Format is json (default: the request's id, tool, principal, reason and page link; never the
	// arguments) or slack (an incoming-webhook message).
	Format string `yaml:"format"`
	// Headers are sent with each POST ("Authorization: Bearer ${HOOK_TOKEN}").
	Headers map[string]string `yaml:"headers"`
	// Timeout bounds one POST. Default 5s.
	Timeout warden.Duration `yaml:"timeout"`
}

// Admin configures the admin listener: the approvals page and its API.
type Admin struct {
	// Listen is the address; --admin wins. Default 127.0.0.1:8788.
	Listen string `yaml:"listen"`
	// URL is how people reach the listener (links in webhooks and MCP elicitations). Default
	// http://LISTEN.
	URL string `yaml:"url"`
	// Tokens are bearer tokens by approver name, for the API and the CLI: write ${ALICE_TOKEN}.
	Tokens map[string]string `yaml:"tokens"`
	// Users are page logins (HTTP basic auth) by approver name, with their passwords: write ${ALICE_PASSWORD}.
	Users map[string]string `yaml:"users"`
}

// MCP configures `warden mcp`.
type MCP struct {
	// Servers are the MCP servers behind one client, by name: their tools reach the client as NAME__TOOL
	// and the policy as mcp__NAME__TOOL. Each is a command (a stdio server Warden starts) or a URL (a
	// streamable HTTP server).
	Servers map[string]MCPServer `yaml:"servers"`
	// SecretsAcrossServers is deny (the default: a call whose arguments carry a secret another server's
	// answer carried is denied) or allow.
	SecretsAcrossServers string `yaml:"secrets_across_servers"`
	// Private names servers whose data stays with them: a call to another server whose arguments carry
	// a value of 16 characters or more that one of their answers carried is denied.
	Private []string `yaml:"private"`
	// Methods lets through client methods MCP does not define, by name: allow (as they are) or check
	// (the request through the tool_call stage, the answer through the tool_result stage). Others are
	// refused. For one server behind warden mcp; aggregated servers refuse them.
	Methods map[string]string `yaml:"methods"`
}

// MCPServer is one server of MCP.Servers: Command or URL.
type MCPServer struct {
	// Command starts a stdio server: the program and its arguments.
	Command []string `yaml:"command"`
	// Env is added to the command's environment.
	Env map[string]string `yaml:"env"`
	// URL is a streamable HTTP server's endpoint.
	URL string `yaml:"url"`
	// Headers are sent with every request to URL (a token: "Bearer ${GITHUB_TOKEN}").
	Headers map[string]string `yaml:"headers"`
}

// Gateway configures the gateway that `warden serve` runs.
type Gateway struct {
	// Listen is the address to listen on. Default 127.0.0.1:8787; --listen wins.
	Listen string `yaml:"listen"`
	// MaxBodyBytes bounds a request body; larger ones get 413 in the provider's shape. Default 32 MiB.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`
	// MaxResponseBytes bounds a whole (non-streamed) upstream response. Default 64 MiB.
	MaxResponseBytes int64 `yaml:"max_response_bytes"`
	// ReadHeaderTimeout bounds the reading of a request's headers; a client that has not sent them all by
	// then has its connection closed. Default 10s.
	ReadHeaderTimeout warden.Duration `yaml:"read_header_timeout"`
	// ReadBodyTimeout bounds the reading of a request's body, from the request's start; a body not all
	// arrived by then gets 408 in the provider's shape. The answer, a stream included, is not bounded by
	// it. Default 1m.
	ReadBodyTimeout warden.Duration `yaml:"read_body_timeout"`
	// IdleTimeout bounds how long a kept-alive connection waits for its next request. Default 2m.
	IdleTimeout warden.Duration `yaml:"idle_timeout"`
	// OnDeny says what a response with a denied tool call becomes: retry (default) gives the model its own
	// call with the deny message as the result and answers with its next response; explain removes the call
	// and adds the deny message to the text; error answers 403 in the provider's error shape.
	OnDeny string `yaml:"on_deny"`
	// DenyRetries bounds the follow-ups of one exchange under retry; then the answer is explained. Default 2.
	DenyRetries int `yaml:"deny_retries"`
	// StreamRetries bounds the self-corrections of one streamed exchange: a stream guardrail's retry shows
	// its feedback and re-issues the request so that the model continues from it. 0 allows none. Default 2.
	StreamRetries *int `yaml:"stream_retries"`
	// Upstreams overrides the built-in openai, anthropic and gemini upstreams (by name, without prefix) and
	// adds others under their own path prefix. --upstream NAME=URL wins over url.
	Upstreams []Upstream `yaml:"upstreams"`
}

// Upstream is one provider endpoint of the gateway.
type Upstream struct {
	// Name identifies it; openai, anthropic and gemini are the built-in ones, chosen by path.
	Name string `yaml:"name"`
	// URL is the base the request path is appended to, e.g. https://api.deepseek.com.
	URL string `yaml:"url"`
	// Prefix selects this upstream by path (/deepseek); default "/" + name. Not for the built-in names.
	Prefix string `yaml:"prefix"`
	// Provider is how it authenticates: openai (default: Authorization: Bearer), anthropic (x-api-key) or
	// gemini (x-goog-api-key).
	Provider string `yaml:"provider"`
	// APIKeyEnv names an environment variable holding the key Warden sends in place of the client's; empty
	// passes the client's key through.
	APIKeyEnv string `yaml:"api_key_env"`
	// Timeout bounds a whole exchange, a stream included. Default 10m.
	Timeout warden.Duration `yaml:"timeout"`
}

// Detectors configures the trace safety detectors.
type Detectors struct {
	// Thresholds replaces the shipped threshold of each detector it names, a value in [0, 1]: a finding is
	// positive when its detector fires with a score at or above its threshold. `warden calibrate` writes this
	// section.
	Thresholds map[string]float64 `yaml:"thresholds"`
}

// Ledger configures the end-user violation ledger.
type Ledger struct {
	// Backend is memory (default: one process) or redis (shared by every replica).
	Backend string `yaml:"backend"`
	// MaxViolations safety stops within Window block the user for BlockFor. Defaults 3, 1h, 1h.
	MaxViolations int             `yaml:"max_violations"`
	Window        warden.Duration `yaml:"window"`
	BlockFor      warden.Duration `yaml:"block_for"`
	// UserHeader is the HTTP header that names the end user when the request body names none; the gateway
	// reads it. Empty: only the body's own field (OpenAI safety_identifier or user, Anthropic
	// metadata.user_id) names the end user.
	UserHeader string `yaml:"user_header"`
	// InjectEndUser fills the provider's end-user field from UserHeader when the client left it empty, so
	// the provider attributes a violation to the user rather than to the API key.
	InjectEndUser bool `yaml:"inject_end_user"`
	// Redis is the server of the redis backend.
	Redis RedisServer `yaml:"redis"`
}

// RedisServer says how to reach Redis.
type RedisServer struct {
	// Addr is host:port. Default 127.0.0.1:6379.
	Addr string `yaml:"addr"`
	// Username and Password authenticate; write ${REDIS_PASSWORD}.
	Username string `yaml:"username"`
	Password string `yaml:"password"`
	// DB selects the database. Default 0.
	DB int `yaml:"db"`
	// Prefix starts every key. Default "warden:ledger:".
	Prefix string `yaml:"prefix"`
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
