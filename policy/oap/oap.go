// Package oap is a local evaluator of Open Agent Passports (spec_version oap/1.0) as a tool-call guardrail.
//
// For each tool call it checks, in order, and the first failure denies with the OAP reason code:
//
//  1. the passport's status is active (the kill switch: oap.passport_suspended);
//  2. its spec_version is oap/1.0 (oap.passport_version_mismatch);
//  3. the tool maps to a capability (oap.unknown_capability), matching names as whole tokens;
//  4. the passport grants that capability (oap.unknown_capability);
//  5. the capability's limits: commands (analyzed with a real shell parser), file paths, web domains and
//     private addresses, MCP servers and tools, messaging recipients, and call rates.
//
// The passport file is read again when it changes, within reload_interval (default 5s), so a status flipped
// to suspended takes effect well inside the 30 seconds OAP requires. A passport that stops parsing denies
// everything (oap.passport_invalid) until it is fixed. Decisions carry OAP's decision fields in metadata:
// decision_id, policy_id, passport_digest (sha256 of the RFC 8785 canonical passport), created_at and
// expires_in. Nothing is signed: verification_mode is local.
package oap

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/hosts"
	"github.com/agentwarden/warden/policy/commands"
	"github.com/agentwarden/warden/shell"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.oap",
		New:     func() any { return new(OAP) },
		Summary: "evaluates tool calls against an Open Agent Passport (status, capabilities, limits)",
	})
}

// OAP is the passport evaluator's config and, once provisioned, the guardrail.
type OAP struct {
	// Passport is the passport file (JSON). Required.
	Passport string `yaml:"passport" json:"passport"`
	// ReloadInterval is how often the file is checked for changes. Default 5s; at most 30s.
	ReloadInterval warden.Duration `yaml:"reload_interval" json:"reload_interval"`
	// Strict validates the passport against the published schema's rules (tolerating its known defects).
	// Default false: only the fields the evaluator uses are checked.
	Strict bool `yaml:"strict" json:"strict"`
	// UnknownTools is deny (default: oap.unknown_capability) or allow, for tools no mapping covers.
	UnknownTools string `yaml:"unknown_tools" json:"unknown_tools"`
	// Mapping is checked before the default tool → capability table.
	Mapping []Mapping `yaml:"mapping" json:"mapping"`
	// DefaultMapping includes the default table after Mapping. Default true.
	DefaultMapping *bool `yaml:"default_mapping" json:"default_mapping"`
	// DangerousOperations runs the command policy's default rules on every command (oap.dangerous_operation),
	// as the reference evaluator's built-in checks do. Default true.
	DangerousOperations *bool `yaml:"dangerous_operations" json:"dangerous_operations"`
	// DecisionTTL is the decisions' expires_in. Default 60s.
	DecisionTTL warden.Duration `yaml:"decision_ttl" json:"decision_ttl"`

	mapping   []compiledMapping
	dangerous *commands.Commands
	current   atomic.Pointer[loaded]
	reloadMu  sync.Mutex
	checked   atomic.Int64 // unix nanoseconds of the last file check
	now       func() time.Time
	rates     rateWindows
}

// loaded is one version of the passport file, prepared.
type loaded struct {
	sum      [32]byte
	passport *Passport
	limits   limits
	digest   string
	err      error // the file does not load: deny everything
}

var (
	_ warden.ToolCallGuardrail = (*OAP)(nil)
	_ warden.Provisioner       = (*OAP)(nil)
)

// Provision loads the passport and prepares the mapping and checks.
func (o *OAP) Provision(context.Context) error {
	if o.Passport == "" {
		return errors.New("passport: required (a passport file)")
	}
	if o.ReloadInterval == 0 {
		o.ReloadInterval = warden.Duration(5 * time.Second)
	}
	if o.ReloadInterval.Std() > 30*time.Second {
		return errors.New("reload_interval: at most 30s (OAP: a suspension takes effect within 30 seconds)")
	}
	if o.DecisionTTL == 0 {
		o.DecisionTTL = warden.Duration(time.Minute)
	}
	switch o.UnknownTools {
	case "", "deny", "allow":
	default:
		return fmt.Errorf("unknown_tools: %q (want deny or allow)", o.UnknownTools)
	}
	ms := slices.Clone(o.Mapping)
	if o.DefaultMapping == nil || *o.DefaultMapping {
		ms = append(ms, defaultMapping...)
	}
	for i, m := range o.Mapping {
		if !capabilityID.MatchString(m.Capability) || len(m.Tools) == 0 {
			return fmt.Errorf("mapping[%d]: want a capability id and tools", i)
		}
	}
	o.mapping = compileMappings(ms)
	if o.DangerousOperations == nil || *o.DangerousOperations {
		o.dangerous = &commands.Commands{AllowDynamic: true, AllowUnparsable: true}
		if err := o.dangerous.Provision(context.Background()); err != nil {
			return err
		}
	}
	if o.now == nil {
		o.now = time.Now
	}
	l := o.load()
	if l.err != nil {
		return fmt.Errorf("passport %s: %v", o.Passport, l.err)
	}
	o.current.Store(l)
	o.checked.Store(o.now().UnixNano())
	return nil
}

// load reads and prepares the passport file.
func (o *OAP) load() *loaded {
	data, err := os.ReadFile(o.Passport)
	if err != nil {
		return &loaded{err: err}
	}
	l := &loaded{sum: sha256.Sum256(data)}
	if l.passport, l.err = parsePassport(data, o.Strict); l.err != nil {
		return l
	}
	if l.limits, l.err = decodeLimits(l.passport.Limits); l.err != nil {
		return l
	}
	l.digest, l.err = Digest(data)
	return l
}

// passport returns the current passport, reading the file again when the interval has passed and its
// content changed.
func (o *OAP) passport() *loaded {
	now := o.now().UnixNano()
	if now-o.checked.Load() < int64(o.ReloadInterval) {
		return o.current.Load()
	}
	o.reloadMu.Lock()
	defer o.reloadMu.Unlock()
	if now-o.checked.Load() >= int64(o.ReloadInterval) {
		o.checked.Store(now)
		if data, err := os.ReadFile(o.Passport); err != nil || sha256.Sum256(data) != o.current.Load().sum {
			o.current.Store(o.load())
		}
	}
	return o.current.Load()
}

// CheckToolCall evaluates the call against the passport.
func (o *OAP) CheckToolCall(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	l := o.passport()
	capability := capabilityOf(o.mapping, c.Call.Name)
	pack := packOf(capability)
	deny := func(code, msg string) (warden.Decision, error) {
		return o.decision(l, pack, c, false, code, msg), nil
	}
	if l.err != nil {
		return deny("oap.passport_invalid", "the passport does not load; every call is denied until it is fixed")
	}
	p := l.passport
	if p.Status != "active" {
		return deny("oap.passport_suspended", fmt.Sprintf("Passport status is '%s', not 'active'. Agent suspended.", p.Status))
	}
	if p.SpecVersion != SpecVersion {
		return deny("oap.passport_version_mismatch", fmt.Sprintf("Passport spec_version is '%s', not '%s'", p.SpecVersion, SpecVersion))
	}
	if capability == "" {
		if o.UnknownTools == "allow" {
			return o.decision(l, pack, c, true, "oap.allowed", "no capability governs this tool"), nil
		}
		return deny("oap.unknown_capability", fmt.Sprintf("Tool '%s' does not map to a capability", c.Call.Name))
	}
	if !p.has(capability) {
		return deny("oap.unknown_capability", fmt.Sprintf("Passport does not have required capability '%s' for policy '%s'", capability, pack))
	}
	var args map[string]any
	if len(c.Call.Arguments) > 0 {
		if err := json.Unmarshal(c.Call.Arguments, &args); err != nil {
			return deny("oap.invalid_context", "the tool's arguments are not a JSON object")
		}
	}
	if code, msg := o.checkLimits(l, capability, c, args); code != "" {
		return deny(code, msg)
	}
	return o.decision(l, pack, c, true, "oap.allowed", "All policy checks passed"), nil
}

func (o *OAP) checkLimits(l *loaded, capability string, c warden.ToolCallCheck, args map[string]any) (string, string) {
	switch capability {
	case "system.command.execute":
		return o.checkCommand(&l.limits.command, args)
	case "data.file.read":
		return checkFile(&l.limits.fileRead, args, false)
	case "data.file.write":
		return checkFile(&l.limits.fileWrite, args, true)
	case "web.fetch":
		return checkWeb(&l.limits.web, args)
	case "web.browser":
		return checkWeb(&l.limits.browser, args)
	case "mcp.tool.execute":
		return o.checkMCP(&l.limits.mcp, l.passport, c.Call.Name, args)
	case "messaging.send":
		return o.checkMessaging(&l.limits.messaging, l.passport, args)
	}
	return "", ""
}

func (o *OAP) checkCommand(lim *commandLimits, args map[string]any) (string, string) {
	cmd := str(args, "command", "cmd")
	if cmd == "" {
		if a, ok := args["args"].([]any); ok && len(a) > 0 {
			cmd, _ = a[0].(string)
		}
	}
	if cmd == "" {
		return "oap.invalid_context", "no command in the tool's arguments"
	}
	a := shell.Analyze(cmd)
	if a.Has(shell.TooComplex) {
		return commands.CodeTooComplex, "the command is too long or too complex to analyze"
	}
	if a.Err != nil {
		return commands.CodeUnparsable, "the command does not parse as a shell command line"
	}
	if a.Has(shell.DynamicProgram) || a.Has(shell.TooDeep) {
		return commands.CodeDynamic, "a program name or command string is known only at run time"
	}
	if len(lim.AllowedCommands) > 0 && !slices.Contains(lim.AllowedCommands, "*") {
		for _, cm := range a.Commands {
			if cm.Program != "" && !slices.Contains(lim.AllowedCommands, cm.Program) {
				return "oap.command_not_allowed", fmt.Sprintf("Command '%s' is not in allowed list", cm.Program)
			}
		}
	}
	// A variable the passport blocks by name is its own reason, before the general dangerous-operation checks
	// (LD_PRELOAD is also code loaded at run time).
	if len(lim.BlockedEnvVars) > 0 {
		if env, ok := args["env"].(map[string]any); ok {
			for k := range env {
				if slices.Contains(lim.BlockedEnvVars, k) {
					return "oap.env_var_blocked", fmt.Sprintf("Environment variable '%s' is blocked", k)
				}
			}
		}
		for _, cm := range a.Commands {
			for _, as := range cm.Assigns {
				name, _, _ := strings.Cut(as, "=")
				if slices.Contains(lim.BlockedEnvVars, name) {
					return "oap.env_var_blocked", fmt.Sprintf("Environment variable '%s' is blocked", name)
				}
			}
		}
	}
	if o.dangerous != nil {
		if d := o.dangerous.CheckAnalysis(a); d.Action != warden.ActionAllow {
			return "oap.dangerous_operation", d.FirstReason().Message
		}
	}
	for i := range lim.patterns {
		if lim.patterns[i].matches(cmd, a) {
			return "oap.blocked_pattern", "Command contains blocked pattern: " + lim.patterns[i].raw
		}
	}
	if len(lim.AllowedWorkingDirectories) > 0 {
		if cwd := str(args, "cwd", "working_directory", "workdir"); cwd != "" && !underAny(cwd, lim.AllowedWorkingDirectories) {
			return "oap.directory_not_allowed", fmt.Sprintf("Working directory '%s' is not allowed", cwd)
		}
	}
	if lim.MaxExecutionTime > 0 {
		if t, ok := args["timeout"].(float64); ok && t > lim.MaxExecutionTime {
			return "oap.limit_exceeded", fmt.Sprintf("timeout %gs exceeds max_execution_time %gs", t, lim.MaxExecutionTime)
		}
	}
	return "", ""
}

func checkFile(lim *fileLimits, args map[string]any, write bool) (string, string) {
	p := str(args, "file_path", "path", "filepath", "filename", "file", "target_file")
	if p == "" {
		return "oap.invalid_context", "no file path in the tool's arguments"
	}
	if len(lim.AllowedPaths) > 0 && !underAny(p, lim.AllowedPaths) {
		return "oap.path_not_allowed", fmt.Sprintf("Path '%s' is not in allowed paths", p)
	}
	if len(lim.BlockedPaths) > 0 && underAny(p, lim.BlockedPaths) {
		return "oap.path_blocked", fmt.Sprintf("Path '%s' is blocked", p)
	}
	for i, pat := range lim.BlockedPatterns {
		if matchesGlobOrSubstring(cleanPath(p), pat, lim.globs[i]) {
			return "oap.blocked_pattern", "Path matches blocked pattern: " + pat
		}
	}
	if len(lim.AllowedExtensions) > 0 {
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
		if !slices.ContainsFunc(lim.AllowedExtensions, func(e string) bool { return strings.ToLower(strings.TrimPrefix(e, ".")) == ext }) {
			return "oap.extension_not_allowed", fmt.Sprintf("Extension '.%s' is not allowed", ext)
		}
	}
	if write && lim.MaxFileSizeMB > 0 {
		if content, ok := args["content"].(string); ok && float64(len(content)) > lim.MaxFileSizeMB*1024*1024 {
			return "oap.limit_exceeded", fmt.Sprintf("content of %d bytes exceeds max_file_size_mb %g", len(content), lim.MaxFileSizeMB)
		}
	}
	return "", ""
}

func checkWeb(lim *webLimits, args map[string]any) (string, string) {
	raw := str(args, "url", "uri")
	if raw == "" {
		return "", "" // a search: no address to check
	}
	host := urlHost(raw)
	if host == "" {
		return "oap.invalid_context", "the URL is not an absolute http or https URL"
	}
	if !lim.AllowPrivateIPs && hosts.Private(host) {
		return "oap.private_ip_blocked", "the URL points at a private, loopback or link-local address"
	}
	if domainIn(host, lim.BlockedDomains) {
		return "oap.domain_blocked", fmt.Sprintf("Domain '%s' is blocked", host)
	}
	if len(lim.AllowedDomains) > 0 && !domainIn(host, lim.AllowedDomains) {
		return "oap.domain_not_allowed", fmt.Sprintf("Domain '%s' is not in allowed domains", host)
	}
	if len(lim.AllowedMethods) > 0 {
		m := strings.ToUpper(str(args, "method"))
		if m == "" {
			m = "GET"
		}
		if !slices.ContainsFunc(lim.AllowedMethods, func(x string) bool { return strings.EqualFold(x, m) }) {
			return "oap.method_not_allowed", fmt.Sprintf("Method '%s' is not allowed", m)
		}
	}
	return "", ""
}

// mcpNames reads an MCP tool's server and tool: from the name (mcp__server__tool, mcp.server.tool) or the
// arguments (server, tool).
func mcpNames(name string, args map[string]any) (server, tool string) {
	switch {
	case strings.HasPrefix(name, "mcp__"):
		server, tool, _ = strings.Cut(name[len("mcp__"):], "__")
	case strings.HasPrefix(name, "mcp."):
		server, tool, _ = strings.Cut(name[len("mcp."):], ".")
	}
	if s := str(args, "server"); s != "" {
		server = s
	}
	if t := str(args, "tool"); t != "" {
		tool = t
	}
	return server, tool
}

func (o *OAP) checkMCP(lim *mcpLimits, p *Passport, name string, args map[string]any) (string, string) {
	server, tool := mcpNames(name, args)
	if len(lim.AllowedServers) > 0 && !slices.Contains(lim.AllowedServers, "*") && !slices.Contains(lim.AllowedServers, server) {
		return "oap.server_not_allowed", fmt.Sprintf("MCP server '%s' is not allowed", server)
	}
	if len(lim.AllowedTools) > 0 && !slices.Contains(lim.AllowedTools, "*") && !slices.Contains(lim.AllowedTools, tool) && !slices.Contains(lim.AllowedTools, server+"."+tool) {
		return "oap.tool_not_allowed", fmt.Sprintf("MCP tool '%s' is not allowed", tool)
	}
	if lim.MaxCallsPerMinute > 0 && !o.rates.take(p.PassportID+"|mcp", o.now(), time.Minute, lim.MaxCallsPerMinute) {
		return "oap.rate_limit_exceeded", fmt.Sprintf("more than %d MCP calls per minute", lim.MaxCallsPerMinute)
	}
	return "", ""
}

func (o *OAP) checkMessaging(lim *messagingLimits, p *Passport, args map[string]any) (string, string) {
	to := str(args, "recipient", "to", "channel", "channel_id")
	if len(lim.AllowedRecipients) > 0 && !slices.Contains(lim.AllowedRecipients, "*") && !slices.Contains(lim.AllowedRecipients, to) {
		return "oap.recipient_not_allowed", fmt.Sprintf("Recipient '%s' is not allowed", to)
	}
	now := o.now()
	if lim.MsgsPerMin > 0 && !o.rates.take(p.PassportID+"|msg/min", now, time.Minute, lim.MsgsPerMin) {
		return "oap.rate_limit_exceeded", fmt.Sprintf("more than %d messages per minute", lim.MsgsPerMin)
	}
	if lim.MsgsPerDay > 0 && !o.rates.take(p.PassportID+"|msg/day", now, 24*time.Hour, lim.MsgsPerDay) {
		return "oap.rate_limit_exceeded", fmt.Sprintf("more than %d messages per day", lim.MsgsPerDay)
	}
	return "", ""
}

// decision builds the decision with OAP's fields in its metadata.
func (o *OAP) decision(l *loaded, pack string, c warden.ToolCallCheck, allow bool, code, msg string) warden.Decision {
	d := warden.Decision{Action: warden.ActionReject, Reasons: []warden.Reason{{Code: code, Message: msg}}, PolicyID: pack}
	if allow {
		d.Action = warden.ActionAllow
	}
	created := c.Time
	if created.IsZero() {
		created = o.now()
	}
	d.Metadata = map[string]string{
		"decision_id": newUUID(), "policy_id": pack, "created_at": created.UTC().Format(time.RFC3339),
		"expires_in": strconv.Itoa(int(o.DecisionTTL.Std().Seconds())), "verification_mode": "local",
	}
	if l.passport != nil {
		d.Metadata["passport_digest"] = l.digest
		d.Metadata["passport_id"] = l.passport.PassportID
		d.Metadata["owner_id"] = l.passport.OwnerID
		d.Metadata["assurance_level"] = l.passport.AssuranceLevel
		d.Metadata["agent_id"] = l.passport.AgentID
	}
	return d
}

func str(args map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := args[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// rateWindows counts events per key in sliding windows.
type rateWindows struct {
	mu     sync.Mutex
	events map[string][]time.Time
}

// take records an event if fewer than max happened within window; it reports whether it did.
func (r *rateWindows) take(key string, now time.Time, window time.Duration, max int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.events == nil {
		r.events = map[string][]time.Time{}
	}
	ev := r.events[key]
	cut := 0
	for cut < len(ev) && now.Sub(ev[cut]) >= window {
		cut++
	}
	ev = ev[cut:]
	if len(ev) >= max {
		r.events[key] = ev
		return false
	}
	r.events[key] = append(ev, now)
	return true
}
