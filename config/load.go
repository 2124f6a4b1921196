package config

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/ledger"
	"github.com/redis/go-redis/v9"
	"go.yaml.in/yaml/v3"
)

//go:embed default.yaml
var defaultConfig []byte

// DefaultName is the name errors give the embedded default config.
const DefaultName = "<default>"

// Default returns the embedded default config, the one Warden runs when given none.
func Default() []byte { return bytes.Clone(defaultConfig) }

// Parsed is a config file that decoded cleanly and passed every check that needs no module. Build turns it
// into a running engine.
type Parsed struct {
	Name string
	File File
	// version digests the guardrails section: approvals are bound to it.
	version string
	// pos holds the position of each guardrail entry, by stage, for module errors found at Build.
	pos [][]entryPos
}

type entryPos struct {
	line, col       int // the entry
	useLine, useCol int // its use key's value
}

// Options adjust how a config is built.
type Options struct {
	// Recorder replaces the recorder the audit section configures, when set.
	Recorder warden.Recorder
	// WrapRecorder, when set, wraps the recorder (configured or given): the gateway counts each exchange's
	// evaluations this way and still writes every record to the audit sink.
	WrapRecorder func(warden.Recorder) warden.Recorder
	// Approvals, when set, resolves the engine's asks in place of the approvals section's store, which is
	// then not opened: offline tools (warden check, policy test, guard) pass a dry run that files nothing.
	Approvals warden.Approvals
	// Stdout and Stderr are where an audit path of "stdout" or "stderr" writes; os.Stdout and os.Stderr when nil.
	Stdout, Stderr io.Writer
}

// Loaded is a built config: the engine and what it holds open. Close it when done.
type Loaded struct {
	Parsed *Parsed
	Engine *warden.Engine
	// Ledger is the end-user violation ledger, nil when the config has none.
	Ledger ledger.Ledger
	// Approvals resolves the engine's asks and takes people's decisions; nil when the config has no
	// approvals section.
	Approvals *approvals.Service
	// ApprovalKey protects approval state handed to clients; set with Approvals.
	ApprovalKey []byte
	webhook     *approvals.Webhook
	closers     []io.Closer
}

// Close releases every module and the audit sink, in reverse order of opening.
func (l *Loaded) Close() error {
	var errs []error
	for i := len(l.closers) - 1; i >= 0; i-- {
		errs = append(errs, l.closers[i].Close())
	}
	l.closers = nil
	return errors.Join(errs...)
}

// Load reads, parses and builds the config file at path; an empty path means the embedded default.
func Load(ctx context.Context, file string, opts Options) (*Loaded, error) {
	var p *Parsed
	var err error
	if file == "" {
		p, err = Parse(DefaultName, defaultConfig)
	} else {
		var data []byte
		if data, err = os.ReadFile(file); err != nil {
			return nil, err
		}
		p, err = Parse(file, data)
	}
	if err != nil {
		return nil, err
	}
	return p.Build(ctx, opts)
}

// Parse decodes a config file: YAML, ${ENV} expansion, a strict check of every key against the format and
// against each module's config struct, defaults, and every rule that needs no provisioned module. name is the file name errors report. All problems are
// returned at once, as Errors sorted by position.
func Parse(name string, data []byte) (*Parsed, error) {
	errs := &errorList{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 0
		msg := err.Error()
		var n int
		if _, scanErr := fmt.Sscanf(msg, "yaml: line %d:", &n); scanErr == nil {
			line = n
		}
		errs.add(line, 0, "", "", "not valid YAML: %s", cleanDecodeError(err))
		return nil, errs.err()
	}
	if len(doc.Content) == 0 {
		errs.add(1, 1, "", "", "the file is empty (want at least: version: 1)")
		return nil, errs.err()
	}
	root := doc.Content[0]
	expandEnv(root, osLookup, "", errs)
	checkStrict(root, reflect.TypeFor[File](), "", "", errs)
	checkModules(root, errs)
	if err := errs.err(); err != nil {
		return nil, err
	}
	p := &Parsed{Name: name}
	if err := root.Decode(&p.File); err != nil {
		errs.add(root.Line, root.Column, "", "", "%s", cleanDecodeError(err))
		return nil, errs.err()
	}
	p.pos = entryPositions(root)
	p.version = policyVersion(root)
	p.check(root, errs)
	if err := errs.err(); err != nil {
		return nil, err
	}
	return p, nil
}

// PolicyVersion digests the guardrails section as loaded (environment references expanded): approvals are
// bound to it, so that one given under a policy lapses when the policy changes.
func (p *Parsed) PolicyVersion() string { return p.version }

// check applies the rules that need no module.
func (p *Parsed) check(root *yaml.Node, errs *errorList) {
	f := &p.File
	if f.Version != 1 {
		line, col := keyPos(root, "version")
		if line == 0 {
			errs.add(root.Line, root.Column, "version", "", "missing; write version: 1")
		} else {
			errs.add(line, col, "version", "", "unsupported version %d (want 1)", f.Version)
		}
	}
	for s, list := range f.Guardrails.byStage() {
		stage := warden.Stage(s)
		seen := map[string]int{}
		for i := range list {
			g := &list[i]
			at := p.pos[s][i]
			where := fmt.Sprintf("guardrails.%s[%d]", stage, i)
			if g.Use == "" {
				errs.add(at.line, at.col, where+".use", "", "missing: name the module this guardrail uses")
				continue
			}
			if g.Name == "" {
				g.Name = g.Use
			}
			if prev, dup := seen[g.Name]; dup {
				errs.add(at.line, at.col, where+".name", "", "%q is already the name of guardrails.%s[%d]; give each a distinct name", g.Name, stage, prev)
			}
			seen[g.Name] = i
			if g.Execution == warden.ExecutionParallel && stage != warden.StageInput {
				errs.add(at.line, at.col, where+".execution", "", "parallel applies to input guardrails only")
			}
			if len(g.Tools) > 0 && stage != warden.StageToolCall && stage != warden.StageToolResult {
				errs.add(at.line, at.col, where+".tools", "", "applies to tool_call and tool_result guardrails only")
			}
			for j, pat := range g.Tools {
				if _, err := path.Match(pat, ""); err != nil {
					errs.add(at.line, at.col, fmt.Sprintf("%s.tools[%d]", where, j), "", "bad pattern %q: %v", pat, err)
				}
			}
		}
	}
	if lg := f.Ledger; lg != nil {
		line, col := keyPos(root, "ledger")
		switch lg.Backend {
		case "", "memory", "redis":
		default:
			errs.add(line, col, "ledger.backend", "", "unknown backend %q (want memory or redis)", lg.Backend)
		}
		if lg.MaxViolations < 0 {
			errs.add(line, col, "ledger.max_violations", "", "must be at least 1")
		}
		if strings.ContainsAny(lg.UserHeader, " \t\r\n:") {
			errs.add(line, col, "ledger.user_header", "", "%q is not an HTTP header name", lg.UserHeader)
		}
		if lg.InjectEndUser && lg.UserHeader == "" {
			errs.add(line, col, "ledger.inject_end_user", "", "needs user_header: the id to inject comes from that header")
		}
	}
	if d := f.Detectors; d != nil {
		ths := valueOf(valueOf(root, "detectors"), "thresholds")
		for _, name := range slices.Sorted(maps.Keys(d.Thresholds)) {
			line, col := keyPos(ths, name)
			if _, ok := warden.LookupModule("detector." + name); !ok {
				errs.add(line, col, "detectors.thresholds."+name, "", "unknown detector %q (known: %s)", name, strings.Join(warden.ModuleNames("detector."), ", "))
			} else if v := d.Thresholds[name]; v < 0 || v > 1 || math.IsNaN(v) {
				errs.add(line, col, "detectors.thresholds."+name, "", "threshold %v is outside [0, 1]", v)
			}
		}
	}
	if gw := f.Gateway; gw != nil {
		checkGateway(gw, valueOf(root, "gateway"), errs)
	}
	if m := f.MCP; m != nil {
		checkMCP(m, valueOf(root, "mcp"), errs)
	}
	if a := f.Approvals; a != nil {
		checkApprovals(a, valueOf(root, "approvals"), errs)
	}
	switch f.Audit.Sink {
	case "", "jsonl", "none":
	default:
		line, col := keyPos(root, "audit")
		errs.add(line, col, "audit.sink", "", "unknown sink %q (want jsonl or none)", f.Audit.Sink)
	}
}

// Build decodes and provisions every module and returns the engine. A module's error names the module ID
// and its config's position; on any error, whatever was provisioned is closed again.
func (p *Parsed) Build(ctx context.Context, opts Options) (*Loaded, error) {
	errs := &errorList{file: p.Name}
	l := &Loaded{Parsed: p}
	var spec warden.Spec
	lists := [][]warden.Entry{}
	for s, list := range p.File.Guardrails.byStage() {
		stage := warden.Stage(s)
		var entries []warden.Entry
		for i := range list {
			if e, ok := p.buildGuardrail(ctx, stage, i, &list[i], errs, l); ok {
				entries = append(entries, e)
			}
		}
		lists = append(lists, entries)
	}
	if err := errs.err(); err != nil {
		l.Close()
		return nil, err
	}
	spec.Input, spec.Response, spec.ToolCall = lists[warden.StageInput], lists[warden.StageResponse], lists[warden.StageToolCall]
	spec.ToolResult, spec.Output, spec.Stream = lists[warden.StageToolResult], lists[warden.StageOutput], lists[warden.StageStream]
	spec.Recorder = opts.Recorder
	if spec.Recorder == nil {
		rec, closer, err := openAudit(p.File.Audit, opts)
		if err != nil {
			l.Close()
			return nil, &Error{File: p.Name, Path: "audit.path", Msg: err.Error()}
		}
		if rec != nil {
			spec.Recorder = rec
		}
		if closer != nil {
			l.closers = append(l.closers, closer)
		}
	}
	auditRec, _ := spec.Recorder.(*audit.Recorder)
	if opts.WrapRecorder != nil {
		spec.Recorder = opts.WrapRecorder(spec.Recorder)
	}
	spec.PolicyVersion = p.version
	if opts.Approvals != nil {
		spec.Approvals = opts.Approvals
	} else if p.File.Approvals != nil {
		if err := p.buildApprovals(l, auditRec); err != nil {
			l.Close()
			return nil, &Error{File: p.Name, Path: "approvals", Msg: err.Error()}
		}
		spec.Approvals = l.Approvals
	}
	engine, err := warden.NewEngine(spec)
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("%s: %w", p.Name, err)
	}
	l.Engine = engine
	if p.File.Ledger != nil {
		if l.Ledger, err = p.buildLedger(l); err != nil {
			l.Close()
			return nil, &Error{File: p.Name, Path: "ledger", Msg: err.Error()}
		}
	}
	return l, nil
}

// buildLedger makes the ledger the config describes, with its defaults.
func (p *Parsed) buildLedger(l *Loaded) (ledger.Ledger, error) {
	c := *p.File.Ledger
	pol := ledger.Policy{MaxViolations: c.MaxViolations, Window: c.Window.Std(), BlockFor: c.BlockFor.Std()}
	if pol.MaxViolations == 0 {
		pol.MaxViolations = 3
	}
	if pol.Window == 0 {
		pol.Window = time.Hour
	}
	if pol.BlockFor == 0 {
		pol.BlockFor = time.Hour
	}
	if c.Backend != "redis" {
		return ledger.NewMemory(pol)
	}
	addr, prefix := c.Redis.Addr, c.Redis.Prefix
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	if prefix == "" {
		prefix = "warden:ledger:"
	}
	client := redis.NewClient(&redis.Options{Addr: addr, Username: c.Redis.Username, Password: c.Redis.Password, DB: c.Redis.DB})
	l.closers = append(l.closers, client)
	return ledger.NewRedis(pol, client, prefix)
}

func (p *Parsed) buildGuardrail(ctx context.Context, stage warden.Stage, i int, g *Guardrail, errs *errorList, l *Loaded) (warden.Entry, bool) {
	at := p.pos[stage][i]
	where := fmt.Sprintf("guardrails.%s[%d]", stage, i)
	info, err := warden.LookupGuardrail(stage, g.Use)
	if err != nil {
		errs.add(at.useLine, at.useCol, where+".use", "", "%v", err)
		return warden.Entry{}, false
	}
	inst := info.New()
	cfgLine, cfgCol := at.line, at.col
	if g.Config.Kind != 0 {
		cfgLine, cfgCol = g.Config.Line, g.Config.Column
		// Parse checked every key strictly, so a plain decode is safe here.
		if err := g.Config.Decode(inst); err != nil {
			errs.add(cfgLine, cfgCol, where+".config", info.ID, "%s", cleanDecodeError(err))
			return warden.Entry{}, false
		}
	}
	if pr, ok := inst.(warden.Provisioner); ok {
		if err := pr.Provision(ctx); err != nil {
			errs.add(cfgLine, cfgCol, where+".config", info.ID, "%v", err)
			closeModule(inst)
			return warden.Entry{}, false
		}
	}
	if v, ok := inst.(warden.Validator); ok {
		if err := v.Validate(); err != nil {
			errs.add(cfgLine, cfgCol, where+".config", info.ID, "%v", err)
			closeModule(inst)
			return warden.Entry{}, false
		}
	}
	if c, ok := inst.(warden.Closer); ok {
		l.closers = append(l.closers, c)
	}
	opts := warden.Options{Mode: g.Mode, Timeout: g.Timeout.Std(), Execution: g.Execution, Tools: g.Tools}
	opts.FailOpen = g.FailClosed != nil && !*g.FailClosed
	return warden.Entry{Name: g.Name, Module: info.ID, Guardrail: inst, Options: opts}, true
}

func closeModule(inst any) {
	if c, ok := inst.(warden.Closer); ok {
		_ = c.Close()
	}
}

func openAudit(a Audit, opts Options) (*audit.Recorder, io.Closer, error) {
	if a.Sink == "none" {
		return nil, nil, nil
	}
	var w io.Writer
	var closer io.Closer
	switch a.Path {
	case "", "stderr":
		w = opts.Stderr
		if w == nil {
			w = os.Stderr
		}
	case "stdout":
		w = opts.Stdout
		if w == nil {
			w = os.Stdout
		}
	default:
		f, err := os.OpenFile(a.Path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, err
		}
		w, closer = f, f
	}
	sink := audit.NewJSONL(w)
	return audit.NewRecorder(sink), multiCloser{sink, closer}, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var errs []error
	for _, c := range m {
		if c != nil {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// checkModules looks up the module of every guardrail entry and checks its config's keys strictly. It
// reads the YAML nodes, not the decoded File, so that it runs even when other keys are wrong and one run
// reports every problem. New has no side effects, so this needs no provisioning.
func checkModules(root *yaml.Node, errs *errorList) {
	g := valueOf(root, "guardrails")
	for _, s := range warden.Stages {
		seq := valueOf(g, s.String())
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		for i, item := range seq.Content {
			use := valueOf(item, "use")
			if use == nil || use.Kind != yaml.ScalarNode || use.Value == "" {
				continue // reported as a missing use
			}
			where := fmt.Sprintf("guardrails.%s[%d]", s, i)
			info, err := warden.LookupGuardrail(s, use.Value)
			if err != nil {
				errs.add(use.Line, use.Column, where+".use", "", "%v", err)
				continue
			}
			if cfg := valueOf(item, "config"); cfg != nil {
				checkStrict(cfg, reflect.TypeOf(info.New()), where+".config", info.ID, errs)
			}
		}
	}
}

// entryPositions finds where each guardrail entry and its use key are, by stage.
func entryPositions(root *yaml.Node) [][]entryPos {
	out := make([][]entryPos, len(warden.Stages)+1)
	g := valueOf(root, "guardrails")
	for _, s := range warden.Stages {
		seq := valueOf(g, s.String())
		if seq == nil {
			continue
		}
		for _, item := range seq.Content {
			p := entryPos{line: item.Line, col: item.Column, useLine: item.Line, useCol: item.Column}
			if u := valueOf(item, "use"); u != nil {
				p.useLine, p.useCol = u.Line, u.Column
			}
			out[s] = append(out[s], p)
		}
	}
	return out
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func keyPos(m *yaml.Node, key string) (int, int) {
	if m == nil || m.Kind != yaml.MappingNode {
		return 0, 0
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i].Line, m.Content[i].Column
		}
	}
	return 0, 0
}

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema of the config file format, as `warden config schema` prints it.
func Schema() []byte { return bytes.Clone(schemaJSON) }
