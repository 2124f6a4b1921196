// Package commands is the command policy: a tool-call guardrail that analyzes the shell commands agents run
// (with package shell: pipelines, substitutions, bash -c strings, wrappers, quoting, redirections) and the
// paths of file tools, and denies what its rules match. It ships an embedded default policy (docs/policy.md)
// that allows ordinary development work and blocks clearly destructive or exfiltrating operations.
//
// It fails closed: a command that does not parse, a program name known only at run time, and shells nested
// too deep are denied unless the policy opts out. It never runs anything.
package commands

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/hosts"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/internal/toolwords"
	"github.com/agentwarden/warden/shell"
	"go.yaml.in/yaml/v3"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.commands",
		New:     func() any { return new(Commands) },
		Summary: "shell-aware command policy: blocks destructive and exfiltrating commands and file accesses",
	})
}

// Reason codes of the command policy's own checks.
const (
	CodeUnparsable     = "warden.unparsable_command"
	CodeDynamic        = "warden.dynamic_command"
	CodeTooDeep        = "warden.command_too_deep"
	CodeTooComplex     = "warden.command_too_complex"
	CodeNotAllowed     = "oap.command_not_allowed"
	CodeMissingCommand = "warden.missing_command"
	// CodePrivateAddress: a URL-fetching tool pointed at this machine, its network or the cloud's metadata
	// service (server-side request forgery).
	CodePrivateAddress = "warden.private_address"
	// CodeAmbiguousArguments: the arguments carry the command (or the path) under more than one of its keys
	// with different values: `command` beside `cmd`, or `command` beside `Command`, which a Go tool reads as
	// the same field. The tool may run a value other than the one checked.
	CodeAmbiguousArguments = "warden.ambiguous_arguments"
)

// FileToolClass is the class of the effect a file tool's call has (a write or a read of its path), so that a
// rule's classes can single out file tools from shell commands.
const FileToolClass = "file_tool"

// Commands is the command policy's config and, once provisioned, the guardrail.
type Commands struct {
	// Defaults includes the embedded default rules after the policy's own rules. Default true.
	Defaults *bool `yaml:"defaults" json:"defaults"`
	// Disable lists default rules to leave out, by id.
	Disable []string `yaml:"disable" json:"disable"`
	// Rules are checked in order before the default rules; the first that matches decides.
	Rules []Rule `yaml:"rules" json:"rules"`
	// Classes adds or extends path classes: name → glob patterns (** for any number of directories; ~ is
	// the home directory).
	Classes map[string][]string `yaml:"classes" json:"classes"`
	// AllowedCommands, when not empty, lists the only programs commands may run, by exact base name,
	// wrappers and shells included ("*" allows any).
	AllowedCommands []string `yaml:"allowed_commands" json:"allowed_commands"`
	// AllowDynamic lets program names known only at run time through. Default false: they are denied.
	AllowDynamic bool `yaml:"allow_dynamic" json:"allow_dynamic"`
	// AllowUnparsable lets commands that do not parse through. Default false: they are denied.
	AllowUnparsable bool `yaml:"allow_unparsable" json:"allow_unparsable"`
	// Limits bound what analyzing one command line may cost; a line over a limit is denied with
	// warden.command_too_complex. A field left out (or 0) takes its default.
	Limits Limits `yaml:"limits" json:"limits"`
	// Workdir is the project directory: relative paths and absolute paths under it are inside the working
	// directory. Empty (default): every absolute path is outside it.
	Workdir string `yaml:"workdir" json:"workdir"`
	// ShellTools are the tools whose arguments carry a shell command; CommandKeys the argument names that
	// hold it (the first present is used): a string is a command line, an array of strings an argv run
	// without a shell (OpenAI's local_shell). CommandListKeys hold several command lines, each checked
	// (OpenAI's shell tool).
	ShellTools []string `yaml:"shell_tools" json:"shell_tools"`
	// PowerShellTools and CmdTools are shell tools whose shell is PowerShell or cmd.exe: their command
	// lines are read as that shell reads them, and only so. A shell tool's line written like one of theirs
	// is read both ways.
	PowerShellTools []string `yaml:"powershell_tools" json:"powershell_tools"`
	CmdTools        []string `yaml:"cmd_tools" json:"cmd_tools"`
	CommandKeys     []string `yaml:"command_keys" json:"command_keys"`
	CommandListKeys []string `yaml:"command_list_keys" json:"command_list_keys"`
	// TerminalInputTools type what they are given into a terminal, ScreenInputTools onto a screen
	// (computer-use tools), each under KeystrokeKeys (every one present is read): what they type is judged
	// as the command lines it would be; on a screen, only a text that reads as a terminal session (every
	// line a command line) is.
	TerminalInputTools []string `yaml:"terminal_input_tools" json:"terminal_input_tools"`
	ScreenInputTools   []string `yaml:"screen_input_tools" json:"screen_input_tools"`
	KeystrokeKeys      []string `yaml:"keystroke_keys" json:"keystroke_keys"`
	// FetchTools fetch a URL, held in the first of URLKeys present: a URL whose host is this machine, its
	// network or a cloud metadata service is denied (warden.private_address) unless AllowPrivateURLs.
	FetchTools       []string `yaml:"fetch_tools" json:"fetch_tools"`
	URLKeys          []string `yaml:"url_keys" json:"url_keys"`
	AllowPrivateURLs bool     `yaml:"allow_private_urls" json:"allow_private_urls"`
	// WriteTools, ReadTools and DeleteTools are file tools; PathKeys the argument names that hold their
	// path. A delete tool deletes its path as a tree, as rm -r does, when its name says it takes
	// directories (delete_directory, rmdir, trash) or the path has no extension ("/home", "build");
	// otherwise as rm does.
	WriteTools  []string `yaml:"write_tools" json:"write_tools"`
	ReadTools   []string `yaml:"read_tools" json:"read_tools"`
	DeleteTools []string `yaml:"delete_tools" json:"delete_tools"`
	// MoveTools move the path under one of SourceKeys to the one under DestinationKeys: the source is
	// deleted (as a tree) and the destination written.
	MoveTools       []string `yaml:"move_tools" json:"move_tools"`
	SourceKeys      []string `yaml:"source_keys" json:"source_keys"`
	DestinationKeys []string `yaml:"destination_keys" json:"destination_keys"`
	PathKeys        []string `yaml:"path_keys" json:"path_keys"`

	other      otherTools
	limits     shell.Limits
	rules      []Rule
	programs   programIndex
	classes    pathClasses
	allowed    map[string]bool
	kind       map[string]toolKind
	code       codeTools
	keystrokes keystrokeTools
	version    string
	allowID    string // an allow's policy id
}

// Limits bound the cost of analyzing one command line (shell.Limits).
type Limits struct {
	// MaxBytes is the longest command line analyzed. Default 131072 (128 KiB).
	MaxBytes int `yaml:"max_bytes" json:"max_bytes"`
	// MaxDepth bounds the shell parser's recursion, in call frames; a level of nesting costs a few to about
	// ten of them, depending on the construct. Default 4000.
	MaxDepth int `yaml:"max_depth" json:"max_depth"`
	// MaxSteps bounds the analysis after the parse: syntax nodes visited and commands recorded. A 40 KiB
	// shell script takes about 10,000. Default 500000.
	MaxSteps int `yaml:"max_steps" json:"max_steps"`
}

func (l Limits) validate() error {
	for _, f := range []struct {
		key string
		v   int
	}{{"max_bytes", l.MaxBytes}, {"max_depth", l.MaxDepth}, {"max_steps", l.MaxSteps}} {
		if f.v < 0 {
			return fmt.Errorf("limits: %s: must not be negative (0 means the default)", f.key)
		}
	}
	return nil
}

type toolKind uint8

const (
	toolShell toolKind = iota + 1
	toolPowerShell
	toolCmd
	toolWrite
	toolRead
	toolDelete
	toolMove
	toolFetch
	toolTerminalInput // types into a terminal
	toolScreenInput   // types wherever a screen's focus is
)

var (
	_ warden.ToolCallGuardrail = (*Commands)(nil)
	_ warden.Provisioner       = (*Commands)(nil)
)

//go:embed default.yaml
var defaultPolicy []byte

// policyFile is the shape of the embedded default policy.
type policyFile struct {
	Version    string              `yaml:"version"`
	Provenance string              `yaml:"provenance"`
	Classes    map[string][]string `yaml:"classes"`
	Rules      []Rule              `yaml:"rules"`
	Tools      struct {
		Shell       []string `yaml:"shell"`
		PowerShell  []string `yaml:"powershell"`
		Cmd         []string `yaml:"cmd"`
		CommandKeys []string `yaml:"command_keys"`
		CommandList []string `yaml:"command_list_keys"`
		Write       []string `yaml:"write"`
		Read        []string `yaml:"read"`
		Delete      []string `yaml:"delete"`
		Move        []string `yaml:"move"`
		SourceKeys  []string `yaml:"source_keys"`
		DestKeys    []string `yaml:"destination_keys"`
		PathKeys    []string `yaml:"path_keys"`
		Fetch       []string `yaml:"fetch"`
		URLKeys     []string `yaml:"url_keys"`
		// Keystroke tools type what they are given into a terminal or onto a screen (keystrokeTools).
		TerminalInput []string `yaml:"terminal_input"`
		ScreenInput   []string `yaml:"screen_input"`
		KeystrokeKeys []string `yaml:"keystroke_keys"`
		ActionKeys    []string `yaml:"action_keys"`
		TypingActions []string `yaml:"typing_actions"`
		EnterKeys     []string `yaml:"enter_keys"`
		// OtherPathKeys name the arguments of any other tool that hold paths; SendWords are the words of a
		// tool's name that say it sends what it is given.
		OtherPathKeys []string `yaml:"other_path_keys"`
		SendWords     []string `yaml:"send_words"`
		DeleteWords   []string `yaml:"delete_words"`
		WriteWords    []string `yaml:"write_words"`
		// DestroyWords, ResourceKeys and Resources name the tools that destroy a resource of a class.
		DestroyWords []string            `yaml:"destroy_words"`
		ResourceKeys []string            `yaml:"resource_keys"`
		Resources    map[string][]string `yaml:"resources"`
		// QueryKeys hold a query tool's statement; QueryLanguages map a word of its name to the client
		// that runs it.
		QueryKeys      []string            `yaml:"query_keys"`
		QueryLanguages map[string][]string `yaml:"query_languages"`
		// ScriptExtensions name the language of a script a file tool writes; ContentKeys hold its text.
		ScriptExtensions map[string]string `yaml:"script_extensions"`
		ContentKeys      []string          `yaml:"content_keys"`
		// CodeKeys hold a code tool's code, LanguageKeys its language; Languages map a language's name
		// to the command line that runs code in it, the code its last argument.
		CodeKeys []string `yaml:"code_keys"`
		// CodeKeysWithLanguage hold code only when a language key stands beside them.
		CodeKeysWithLanguage []string            `yaml:"code_keys_with_language"`
		LanguageKeys         []string            `yaml:"language_keys"`
		Languages            map[string][]string `yaml:"languages"`
	} `yaml:"tools"`
}

func loadDefault() (*policyFile, error) {
	var f policyFile
	dec := yaml.NewDecoder(bytes.NewReader(defaultPolicy))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("embedded default policy: %v", err)
	}
	return &f, nil
}

// DefaultRules returns the embedded default rules, for documentation and tests.
func DefaultRules() ([]Rule, string, error) {
	f, err := loadDefault()
	if err != nil {
		return nil, "", err
	}
	return f.Rules, f.Version, nil
}

// Provision compiles the policy: default and own rules, path classes, tool names.
func (c *Commands) Provision(context.Context) error {
	shell.Prepare()
	def, err := loadDefault()
	if err != nil {
		return err
	}
	if err := c.Limits.validate(); err != nil {
		return err
	}
	c.limits = shell.Limits{MaxBytes: c.Limits.MaxBytes, MaxDepth: c.Limits.MaxDepth, MaxSteps: c.Limits.MaxSteps}
	c.version = def.Version
	c.allowID = "commands/" + def.Version
	c.classes.globs = map[string][]string{}
	for k, v := range def.Classes {
		c.classes.globs[k] = v
	}
	for k, v := range c.Classes {
		if isBuiltin(k) {
			return fmt.Errorf("classes: %q is a built-in class and cannot be redefined", k)
		}
		c.classes.globs[k] = append(c.classes.globs[k], v...)
	}
	if wd := c.Workdir; wd != "" {
		// ~/project and C:\Users\me\project are absolute already: normalize reads them as it reads paths.
		if !strings.HasPrefix(wd, "~") && !isDrivePath(wd) {
			abs, err := filepath.Abs(wd)
			if err != nil {
				return fmt.Errorf("workdir: %v", err)
			}
			wd = filepath.ToSlash(filepath.Clean(abs))
		}
		c.classes.workdir = normalize(wd)
	}
	c.classes.compile()
	var errs []error
	for i := range c.Rules {
		if err := c.Rules[i].validate(&c.classes); err != nil {
			errs = append(errs, fmt.Errorf("rules[%d]: %v", i, err))
		}
	}
	c.rules = append(c.rules, c.Rules...)
	if c.Defaults == nil || *c.Defaults {
		disabled := map[string]bool{}
		for _, id := range c.Disable {
			disabled[id] = true
		}
		known := map[string]bool{}
		for i := range def.Rules {
			r := def.Rules[i]
			known[r.ID] = true
			if disabled[r.ID] {
				continue
			}
			if err := r.validate(&c.classes); err != nil {
				errs = append(errs, fmt.Errorf("embedded default policy: %v", err))
			}
			c.rules = append(c.rules, r)
		}
		for _, id := range c.Disable {
			if !known[id] {
				errs = append(errs, fmt.Errorf("disable: no default rule %q", id))
			}
		}
	}
	c.programs = indexPrograms(c.rules)
	if len(c.AllowedCommands) > 0 {
		c.allowed = map[string]bool{}
		for _, p := range c.AllowedCommands {
			c.allowed[p] = true
		}
	}
	or := func(own, def []string) []string {
		if len(own) > 0 {
			return own
		}
		return def
	}
	c.ShellTools, c.CommandKeys = or(c.ShellTools, def.Tools.Shell), or(c.CommandKeys, def.Tools.CommandKeys)
	c.PowerShellTools, c.CmdTools = or(c.PowerShellTools, def.Tools.PowerShell), or(c.CmdTools, def.Tools.Cmd)
	c.CommandListKeys = or(c.CommandListKeys, def.Tools.CommandList)
	c.WriteTools, c.ReadTools, c.PathKeys = or(c.WriteTools, def.Tools.Write), or(c.ReadTools, def.Tools.Read), or(c.PathKeys, def.Tools.PathKeys)
	c.DeleteTools = or(c.DeleteTools, def.Tools.Delete)
	c.MoveTools, c.SourceKeys, c.DestinationKeys = or(c.MoveTools, def.Tools.Move), or(c.SourceKeys, def.Tools.SourceKeys), or(c.DestinationKeys, def.Tools.DestKeys)
	c.FetchTools, c.URLKeys = or(c.FetchTools, def.Tools.Fetch), or(c.URLKeys, def.Tools.URLKeys)
	c.code = codeTools{keys: def.Tools.CodeKeys, languageKeys: def.Tools.LanguageKeys, languages: def.Tools.Languages,
		withLanguage: def.Tools.CodeKeysWithLanguage}
	c.other = otherTools{pathKeys: setOfWords(append(slices.Clone(c.PathKeys), def.Tools.OtherPathKeys...)),
		sendWords: setOfWords(def.Tools.SendWords), deleteWords: setOfWords(def.Tools.DeleteWords), writeWords: setOfWords(def.Tools.WriteWords),
		destroyWords: setOfWords(def.Tools.DestroyWords), resourceKeys: def.Tools.ResourceKeys, resources: resourceClasses(def.Tools.Resources)}
	c.code.queryKeys, c.code.queryLanguages = def.Tools.QueryKeys, def.Tools.QueryLanguages
	c.code.scriptExtensions, c.code.contentKeys = def.Tools.ScriptExtensions, def.Tools.ContentKeys
	c.TerminalInputTools, c.ScreenInputTools = or(c.TerminalInputTools, def.Tools.TerminalInput), or(c.ScreenInputTools, def.Tools.ScreenInput)
	c.KeystrokeKeys = or(c.KeystrokeKeys, def.Tools.KeystrokeKeys)
	c.keystrokes = keystrokeTools{keys: c.KeystrokeKeys, actionKeys: def.Tools.ActionKeys,
		typingActions: setOfWords(def.Tools.TypingActions), enterKeys: setOfWords(def.Tools.EnterKeys)}
	c.kind = map[string]toolKind{}
	for _, t := range c.TerminalInputTools {
		c.kind[t] = toolTerminalInput
	}
	for _, t := range c.ScreenInputTools {
		c.kind[t] = toolScreenInput
	}
	for _, t := range c.FetchTools {
		c.kind[t] = toolFetch
	}
	for _, t := range c.ReadTools {
		c.kind[t] = toolRead
	}
	for _, t := range c.WriteTools {
		c.kind[t] = toolWrite
	}
	for _, t := range c.DeleteTools {
		c.kind[t] = toolDelete
	}
	for _, t := range c.MoveTools {
		c.kind[t] = toolMove
	}
	for _, t := range c.ShellTools {
		c.kind[t] = toolShell
	}
	for _, t := range c.PowerShellTools {
		c.kind[t] = toolPowerShell
	}
	for _, t := range c.CmdTools {
		c.kind[t] = toolCmd
	}
	return errors.Join(errs...)
}

// CheckToolCall denies a shell command or a file access that the policy's rules match.
func (c *Commands) CheckToolCall(_ context.Context, call warden.ToolCallCheck) (warden.Decision, error) {
	kind := c.kindOf(call.Call.Name)
	args, ok := readArguments(call.Call.Arguments)
	if ok && c.typesKeys(call.Call.Name, args) {
		if texts, typed := c.keystrokes.typed(args); typed {
			return c.checkTyped(texts, dialectOf(kind), kind == toolScreenInput), nil
		}
	}
	if kind == toolTerminalInput || kind == toolScreenInput {
		return c.checkOther(call) // types nothing: a click, a key press, a screenshot
	}
	if ok && (kind == 0 || kind == toolShell) {
		// Code in a language, however the tool is called: judged as the language's interpreter runs it.
		if lines, isCode := c.code.commandLines(args, call.Call.Name, c.CommandKeys); isCode {
			for _, line := range lines {
				d := c.checkCommand(line)
				// Code in no language named is read by every interpreter: a shell's failure to parse
				// it says only that it is not shell.
				if d.Action != warden.ActionAllow && !(len(lines) > 1 && d.FirstReason().Code == CodeUnparsable) {
					return d, nil
				}
			}
			return warden.Decision{Action: warden.ActionAllow, PolicyID: c.allowID}, nil
		}
	}
	if kind == 0 {
		// A tool of another name is a shell tool when its arguments carry a command under a command key:
		// what runs a command line is known by what it is given, not only by what it is called.
		if !ok || len(args.FoldMatches(c.CommandKeys)) == 0 {
			return c.checkOther(call)
		}
		if cmds, _ := commandsOf(args, c.CommandKeys, nil); len(cmds) == 0 {
			return c.checkOther(call)
		}
		kind = toolShell
	}
	if !ok {
		return warden.Decision{}, fmt.Errorf("arguments are not a JSON object")
	}
	if kind == toolShell || kind == toolPowerShell || kind == toolCmd {
		dialect := dialectOf(kind)
		cmds, ok := commandsOf(args, c.CommandKeys, c.CommandListKeys)
		if !ok {
			return c.deny(CodeAmbiguousArguments, "the tool's arguments hold different commands under more than one command key ("+strings.Join(append(append([]string(nil), c.CommandKeys...), c.CommandListKeys...), ", ")+", in any case); send one", "checks"), nil
		}
		if len(cmds) == 0 {
			keys := append(append([]string(nil), c.CommandKeys...), c.CommandListKeys...)
			return c.deny(CodeMissingCommand, "no command in the tool's arguments (looked for "+strings.Join(keys, ", ")+")", "checks"), nil
		}
		d := warden.Allow()
		for _, cmd := range cmds {
			if d = c.CheckAnalysis(shell.AnalyzeDialect(cmd, dialect, c.limits)); d.Action != warden.ActionAllow {
				return d, nil
			}
		}
		return d, nil
	}
	if kind == toolFetch {
		d, err := c.checkFetch(args) // its only error: no URL, not applicable
		if err == nil && d.Action != warden.ActionAllow {
			return d, nil
		}
		// The request may carry local files (a body file, an attachment): those are sent.
		if pd, perr := c.checkPaths(call, true); perr == nil && pd.Action != warden.ActionAllow {
			return pd, nil
		}
		return d, err
	}
	if kind == toolMove {
		return c.checkMove(call.Call.Name, args)
	}
	p, found, ok := pathOf(args, c.PathKeys)
	if !ok {
		return c.deny(CodeAmbiguousArguments, "the tool's arguments hold different paths under more than one path key ("+strings.Join(c.PathKeys, ", ")+", in any case); send one", "checks"), nil
	}
	var written, deleted []shell.Word
	if kind == toolWrite && mayHoldPatch(call.Call.Arguments) {
		// An editing tool may be given a patch (apply_patch): it writes and deletes the files it names.
		var v any
		if json.Unmarshal(call.Call.Arguments, &v) == nil {
			written, deleted = patchPaths(v)
		}
	}
	if !found && len(written)+len(deleted) == 0 {
		return warden.Decision{}, warden.NotApplicable("no path in the tool's arguments")
	}
	w := shell.Word{Value: p, Literal: true}
	s := &subject{}
	switch {
	case !found:
		s.addPatch(call.Call.Name, written, deleted)
	case kind == toolWrite:
		s.writes = []shell.Word{w}
		s.effects = []shell.Effect{{Kind: shell.Writes, Program: call.Call.Name, Class: FileToolClass, Targets: s.writes}}
		s.addPatch(call.Call.Name, written, deleted)
		if d := c.checkScript(p, args); d.Action != warden.ActionAllow {
			return d, nil
		}
	case kind == toolDelete:
		s.effects = []shell.Effect{{Kind: shell.Deletes, Program: call.Call.Name, Class: FileToolClass, Targets: []shell.Word{w},
			Recursive: deletesTrees(call.Call.Name) || looksLikeDirectory(p)}}
	default:
		s.reads = []shell.Word{w}
		s.effects = []shell.Effect{{Kind: shell.Reads, Program: call.Call.Name, Class: FileToolClass, Targets: s.reads}}
	}
	return c.decide(s), nil
}

// checkScript judges the script a file tool writes (cleanup.sh, setup.py, profile.ps1) by what it would
// definitely do when a later call runs it: see definitely.
func (c *Commands) checkScript(path string, args *jsonobj.Object) warden.Decision {
	content, ok := firstString(args, c.code.contentKeys)
	if !ok {
		return warden.Allow()
	}
	return c.checkScriptText(path, content)
}

// checkScriptText judges a script's text, written to path, by what it would definitely do when run.
func (c *Commands) checkScriptText(path, content string) warden.Decision {
	if strings.TrimSpace(content) == "" || len(content) > maxScriptBytes {
		return warden.Allow()
	}
	argv, ok := c.code.scriptInterpreter(path, content)
	if !ok {
		return warden.Allow()
	}
	d := c.CheckAnalysis(definitely(shell.AnalyzeLimited(commandLine(argv, content), c.limits)))
	if d.Action != warden.ActionAllow && len(d.Reasons) > 0 {
		d.Reasons[0].Message = "the script written would run it: " + d.Reasons[0].Message
	}
	return d
}

// maxScriptBytes bounds the scripts judged when written: a longer one is left to be judged as a file.
const maxScriptBytes = 1 << 16

// definitely keeps of an analysis what a script would do whatever it is run with: effects on paths the
// text names, and the programs it names. A path, a program or code known only at run time ("$1", $DIR,
// eval of a value), a line too long to read whole, and a text that is not the language's are dropped: a
// script may be run with harmless values, and a file that is not code runs nothing.
func definitely(a *shell.Analysis) *shell.Analysis {
	out := &shell.Analysis{Commands: a.Commands, Writes: known(a.Writes), Reads: known(a.Reads)}
	for _, f := range a.Findings {
		switch f.Kind {
		case shell.DynamicProgram, shell.DynamicCode, shell.TooComplex, shell.TooDeep:
			continue
		}
		out.Findings = append(out.Findings, f)
	}
	for _, e := range a.Effects {
		if e.Dynamic {
			continue
		}
		if len(e.Targets) > 0 {
			e.Targets = known(e.Targets)
			if len(e.Targets) == 0 {
				continue
			}
		}
		e.Data = known(e.Data)
		out.Effects = append(out.Effects, e)
	}
	return out
}

// known keeps the words known before a run: no part of them is left to run time.
func known(ws []shell.Word) []shell.Word {
	var out []shell.Word
	for _, w := range ws {
		if w.Literal && !strings.Contains(w.Value, shell.Unknown) {
			out = append(out, w)
		}
	}
	return out
}

// deletesTrees reports whether a delete tool's name says it deletes directories (delete_directory,
// remove_dir, rmdir, trash): such a delete is recursive, as rm -r is; delete_file is rm.
func deletesTrees(tool string) bool {
	for _, w := range toolwords.Split(tool) {
		switch w {
		case "dir", "directory", "directories", "folder", "folders", "tree", "rmdir", "trash", "recursive", "recursively":
			return true
		}
	}
	return false
}

// looksLikeDirectory reports whether a path's last element has no extension ("/home", "build", "~"): a
// delete tool given one may well take the tree, and the policy judges it as if it did. "a.go" and ".env"
// name files.
func looksLikeDirectory(p string) bool {
	p = strings.TrimRight(p, "/")
	base := p[strings.LastIndex(p, "/")+1:]
	return !strings.Contains(base, ".")
}

// checkMove judges a move: its source deleted, as a tree, and its destination written. Moving /etc away
// destroys it as surely as deleting it does.
func (c *Commands) checkMove(tool string, args *jsonobj.Object) (warden.Decision, error) {
	src, srcFound, ok1 := pathOf(args, c.SourceKeys)
	dst, dstFound, ok2 := pathOf(args, c.DestinationKeys)
	if !ok1 || !ok2 {
		return c.deny(CodeAmbiguousArguments, "the tool's arguments hold different paths under more than one source or destination key; send one of each", "checks"), nil
	}
	if !srcFound && !dstFound {
		return warden.Decision{}, warden.NotApplicable("no source or destination in the tool's arguments")
	}
	s := &subject{}
	if srcFound {
		s.effects = append(s.effects, shell.Effect{Kind: shell.Deletes, Program: tool, Class: FileToolClass, Targets: []shell.Word{{Value: src, Literal: true}}})
	}
	if dstFound {
		s.writes = []shell.Word{{Value: dst, Literal: true}}
		s.effects = append(s.effects, shell.Effect{Kind: shell.Writes, Program: tool, Class: FileToolClass, Targets: s.writes})
	}
	return c.decide(s), nil
}

// checkFetch denies a URL-fetching tool's call whose URL points inward: a host that is this machine, its
// network or a cloud metadata service (hosts.Private), or a file: URL.
func (c *Commands) checkFetch(args *jsonobj.Object) (warden.Decision, error) {
	raw, found, ok := pathOf(args, c.URLKeys)
	if !ok {
		return c.deny(CodeAmbiguousArguments, "the tool's arguments hold different URLs under more than one URL key ("+strings.Join(c.URLKeys, ", ")+", in any case); send one", "checks"), nil
	}
	if !found {
		return warden.Decision{}, warden.NotApplicable("no URL in the tool's arguments")
	}
	if c.AllowPrivateURLs {
		return warden.Decision{Action: warden.ActionAllow, PolicyID: c.allowID}, nil
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err == nil && u.Scheme == "" && u.Host == "" {
		u, err = url.Parse("http://" + strings.TrimSpace(raw)) // a bare host, as a browser reads it
	}
	switch {
	case err != nil:
		return c.deny(CodePrivateAddress, "the URL does not parse, so where it points cannot be checked", "fetch"), nil
	case strings.EqualFold(u.Scheme, "file"):
		return c.deny(CodePrivateAddress, "a file: URL reads this machine's files; use a file tool", "fetch"), nil
	case hosts.Private(u.Hostname()):
		return c.deny(CodePrivateAddress, "the URL points at this machine, its private network or a cloud metadata service", "fetch"), nil
	}
	return warden.Decision{Action: warden.ActionAllow, PolicyID: c.allowID}, nil
}

// dialectOf is the shell a tool of a kind runs its command lines with.
func dialectOf(kind toolKind) shell.Dialect {
	switch kind {
	case toolPowerShell:
		return shell.PowerShell
	case toolCmd:
		return shell.Cmd
	}
	return shell.Bash
}

// kindOf is the kind of a tool by its name: the name itself, or else its last segment after "__" or "."
// (an MCP tool mcp__<server>__bash, Goose's developer__shell, Codex's container.exec).
func (c *Commands) kindOf(name string) toolKind {
	if k := c.kind[name]; k != 0 {
		return k
	}
	if i := strings.LastIndex(name, "__"); i >= 0 {
		if k := c.kind[name[i+2:]]; k != 0 {
			return k
		}
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return c.kind[name[i+1:]]
	}
	return 0
}

// CheckCommand evaluates one command line against the policy, as a shell tool's call would be.
func (c *Commands) CheckCommand(cmd string) warden.Decision { return c.checkCommand(cmd) }

func (c *Commands) checkCommand(cmd string) warden.Decision {
	return c.CheckAnalysis(shell.AnalyzeLimited(cmd, c.limits))
}

// CheckAnalysis evaluates an analyzed command line against the policy, for callers that have parsed it
// already (the OAP evaluator).
func (c *Commands) CheckAnalysis(a *shell.Analysis) warden.Decision {
	if a.Has(shell.TooComplex) {
		return c.deny(CodeTooComplex, "the command is too long or too complex to analyze", "limits")
	}
	if a.Err != nil && !c.AllowUnparsable {
		return c.deny(CodeUnparsable, "the command does not parse as a shell command line", "checks")
	}
	if a.Has(shell.TooDeep) {
		return c.deny(CodeTooDeep, "shells are nested too deep to analyze", "checks")
	}
	if a.Has(shell.DynamicProgram) && !c.AllowDynamic {
		return c.deny(CodeDynamic, "a program name or command string is known only at run time", "checks")
	}
	if c.allowed != nil && !c.allowed["*"] {
		for _, cm := range a.Commands {
			if cm.Program != "" && cm.Program != shell.Unknown && !c.allowed[cm.Program] {
				return c.deny(CodeNotAllowed, "command '"+cm.Program+"' is not in the allowed list", "allowed_commands")
			}
		}
	}
	s := &subject{a: a, writes: a.Writes, effects: a.Effects}
	for i := range a.Effects {
		if a.Effects[i].Kind == shell.Reads {
			s.reads = append(s.reads, a.Effects[i].Targets...)
		}
	}
	d := c.decide(s)
	if d.Action != warden.ActionAllow {
		return d
	}
	// A script the line wrote (echo '…' > cleanup.sh) runs later, in a call that names only the file.
	for _, sc := range a.Scripts {
		if sd := c.checkScriptText(sc.Path, sc.Text); sd.Action != warden.ActionAllow {
			return sd
		}
	}
	return d
}

func (c *Commands) decide(s *subject) warden.Decision {
	var small [64]bool // on the stack for a policy of up to 64 rules
	play := small[:]
	if len(c.rules) > len(small) {
		play = make([]bool, len(c.rules))
	}
	c.programs.inPlay(c.rules, s.a, play)
	var asked *Rule // the first ask rule that matched: a later reject or halt still wins over it
	for i := range c.rules {
		r := &c.rules[i]
		if c.programs.named[i] && !play[i] {
			continue // it names programs and the line runs none of them
		}
		if r.matches(s, &c.classes) {
			if r.action == warden.ActionAsk {
				if asked == nil {
					asked = r
				}
				continue
			}
			return r.decision()
		}
	}
	if asked != nil {
		return asked.decision()
	}
	return warden.Decision{Action: warden.ActionAllow, PolicyID: c.allowID}
}

func (r *Rule) decision() warden.Decision {
	msg := r.Message
	if msg == "" {
		msg = "blocked by command policy rule " + r.ID
		if r.action == warden.ActionAsk {
			msg = "command policy rule " + r.ID + " asks for a person's approval"
		}
	}
	return warden.Decision{Action: r.action, Reasons: []warden.Reason{{Code: r.Code, Message: msg}}, PolicyID: "commands/" + r.ID}
}

func (c *Commands) deny(code, msg, id string) warden.Decision {
	return warden.Decision{Action: warden.ActionReject, Reasons: []warden.Reason{{Code: code, Message: msg}}, PolicyID: "commands/" + id}
}

// readArguments reads a call's arguments as the object whose members commandsOf and firstString look up:
// false when they are not a JSON object. null reads as an empty object, as json.Unmarshal into a map has
// it; the members are read as it reads them (the last of a repeated name, strings unescaped alike).
func readArguments(raw []byte) (*jsonobj.Object, bool) {
	if string(bytes.TrimSpace(raw)) == "null" {
		return &jsonobj.Object{}, true
	}
	o, err := jsonobj.ParseShared(raw) // the object lives only while the call is checked
	return o, err == nil
}

// commandsOf returns the command lines a shell tool's arguments carry: under a command key, a string is one
// command line and an array of strings an argv, quoted so that it reads as the one command it runs; under
// a command-list key, an array of command lines. A value of another shape is not a command, so a call with
// nothing else is denied as carrying none. Keys match as a tool written in Go matches them, case
// included ("Command" is "command"), and every member that matches is read: when two of them (`command`
// beside `cmd`, or beside `Command`, or twice) hold different values, a tool may run either, so ok is
// false.
func commandsOf(args *jsonobj.Object, keys, listKeys []string) (cmds []string, ok bool) {
	var found [][]string
	for _, v := range args.FoldMatches(keys) {
		if s, ok := stringValue(v); ok {
			found = append(found, []string{s})
		} else if argv, ok := stringsValue(v); ok && len(argv) > 0 {
			for i, a := range argv {
				argv[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
			found = append(found, []string{strings.Join(argv, " ")})
		} else if !isNull(v) {
			found = append(found, nil) // a value a tool may still read as a command some other way
		}
	}
	for _, v := range args.FoldMatches(listKeys) {
		if lines, ok := stringsValue(v); ok && len(lines) > 0 {
			found = append(found, lines)
		} else if !isNull(v) {
			found = append(found, nil)
		}
	}
	return agree(found)
}

// pathOf returns the path a file tool's arguments carry, read as commandsOf reads commands: found is false
// when no path key holds a string, ok false when path keys hold different values.
func pathOf(args *jsonobj.Object, keys []string) (p string, found, ok bool) {
	var paths [][]string
	for _, v := range args.FoldMatches(keys) {
		if s, ok := stringValue(v); ok {
			paths = append(paths, []string{s})
		} else if !isNull(v) {
			paths = append(paths, nil)
		}
	}
	vals, ok := agree(paths)
	if !ok || len(vals) == 0 {
		return "", false, ok
	}
	return vals[0], true, true
}

// agree returns the one value every reading found, or false when two differ. A reading of nil is a
// value of a shape that is not a command or a path, which agrees only with none beside it.
func agree(found [][]string) ([]string, bool) {
	var first []string
	for i, f := range found {
		if i == 0 {
			first = f
			continue
		}
		if f == nil || first == nil || !slices.Equal(f, first) {
			return nil, false
		}
	}
	return first, true
}

func isNull(v []byte) bool { return string(bytes.TrimSpace(v)) == "null" }

// stringValue reads a member's value when it is a JSON string (not null, which DecodeString also takes).
func stringValue(v []byte) (string, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	return jsonobj.DecodeString(v)
}

// stringsValue reads a member's value when it is a JSON array of strings only.
func stringsValue(v []byte) ([]string, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '[' {
		return nil, false
	}
	elems, err := jsonobj.SplitArrayTrusted(v)
	if err != nil {
		return nil, false
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		s, ok := stringValue(e)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func setOfWords(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[strings.ToLower(w)] = true
	}
	return m
}
