package shell

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// What a program does with its words is data (programs/programs.yaml, reviewed by hand, over the option
// grammars generated from the Fig autocomplete specs into programs/fig.json); the analyzer interprets it.

//go:embed programs/programs.yaml
var programsYAML []byte

//go:embed programs/fig.json
var figJSON []byte

// Program is what one program (or one subcommand of it) does with its words.
type Program struct {
	// Valued lists the options that take a value: "-n" (also -n5 and last in a bundle, -qn 5), "--lines"
	// (also --lines=5), or a whole word when Words is set ("-name").
	Valued []string `yaml:"valued"`
	// Words: options are whole words (find -name, terraform -destroy), never bundles of letters.
	Words bool `yaml:"words"`
	// DashlessBundle: a first word without a dash is a bundle of options (tar czf out.tgz dir).
	DashlessBundle bool `yaml:"dashless_bundle"`
	// Command is the index of the operand from which the words are a command the program runs
	// (nice CMD: 0; timeout 5 CMD: 1). Options end at the first operand.
	Command *int `yaml:"command"`
	// Line is the index of the operand from which the words, joined, are a command line run by a shell
	// (watch, ssh host CMD, eval).
	Line *int `yaml:"line"`
	// NoRun are options with which the program does not run its command (command -v looks it up).
	NoRun []string `yaml:"no_run"`
	// CommandOptions are options whose value is a command line (su -c, env -S, rsync -e, find's -exec is Exec).
	CommandOptions []string `yaml:"command_options"`
	// CommandAfter are options after which the remaining words are a command (gdb --args).
	CommandAfter []string `yaml:"command_after"`
	// Exec are options whose following words, up to ";" or "+", are a command (find -exec). Its {} stands
	// for what the program finds under its roots: the operands before the first option (find), or after the
	// first (ExecRoots "rest": fd's pattern comes first). ExecAppends: with no {}, the items are appended
	// (fd -x).
	Exec        []string `yaml:"exec"`
	ExecRoots   string   `yaml:"exec_roots"`
	ExecAppends bool     `yaml:"exec_appends"`
	// Pairs are options that take two values (bwrap --bind SRC DEST).
	Pairs []string `yaml:"pairs"`
	// PreOptions are options that come before the operands an expression works on (find -L ~ -delete):
	// they do not end the leading operands.
	PreOptions []string `yaml:"pre_options"`
	// OptionCode maps an option to the keys of its KEY=VALUE values whose VALUE is a command line
	// (ssh -o ProxyCommand=…, git -c core.sshCommand=…); keys are globs matched without regard to case.
	OptionCode map[string][]string `yaml:"option_code"`
	// Aliases is the prefix of OptionCode values that define subcommand aliases (git -c alias.x=…).
	Aliases string `yaml:"aliases"`
	// StdinItems: the command it runs gets the items it reads from standard input as more operands (xargs,
	// parallel): what the stage before lists.
	StdinItems bool `yaml:"stdin_items"`
	// Assigns: NAME=value words before the command are environment settings (env).
	Assigns bool `yaml:"assigns"`
	// Chdir are options naming the directory the program runs in (git -C, env --chdir, make -C): its
	// operands, its option values and the command it runs are relative to it.
	Chdir []string `yaml:"chdir"`
	// OperandsIn are options naming the directory the program's operands are relative to while the rest
	// of its words are not (tar -C: the archive it writes stays where the line is).
	OperandsIn []string `yaml:"operands_in"`
	// Code is the code the program interprets.
	Code *CodeSpec `yaml:"code"`
	// Fetches: the program brings content from the network (for downloaded code reaching a shell).
	Fetches bool `yaml:"fetches"`
	// Effects are what the program does to files, the network and the system.
	Effects []EffectSpec `yaml:"effects"`
	// Verbs: an operand matching one of the destroying verbs destroys state of a class (cloud CLIs whose
	// subcommands are too many to list: aws ec2 terminate-instances, gcloud sql instances delete).
	Verbs *VerbSpec `yaml:"verbs"`
	// Subcommands are entries of their own, named by the first operand.
	Subcommands map[string]*Program `yaml:"subcommands"`
	// Modules are entries for the modules a program runs by its module option (python -m http.server).
	Modules map[string]*Program `yaml:"modules"`
	// ConfigOf names the parent's option whose OptionCode keys this subcommand sets for good (git config
	// sets what git -c sets once).
	ConfigOf string `yaml:"config_of"`
	// Alias names the entry this one is the same as ("sh", or "docker.compose" for a subcommand's).
	Alias string `yaml:"alias"`
	// ReadsInto names the variable a builtin fills with what it reads from standard input when no operand
	// names one (read: REPLY, mapfile: MAPFILE); its operands, and the value of -a, name the others.
	ReadsInto string `yaml:"reads_into"`
	// SetsRegistry are the configuration keys (globs) a program's "KEY VALUE" or "KEY=VALUE" operands set
	// the index its installs fetch from by (npm config set registry URL): one set to a host that is none of
	// the public registries makes every later install run code from it.
	SetsRegistry []string `yaml:"sets_registry"`
	// Installs: the program installs packages, whose install scripts run here; one named by a URL (an
	// operand), or fetched from an index one of Installs.Options names, on a host that is none of the
	// table's public registries is code from anywhere run unread.
	Installs *InstallsSpec `yaml:"installs"`
	// ConfigFiles are options naming a file of the program's own directives (curl -K): when the line
	// gives its text (on standard input, or a file it wrote), the text is read in Lang.
	ConfigFiles *ConfigFilesSpec `yaml:"config_files"`
	// Script: the entry is a script an interpreter runs (python manage.py, php artisan); an interpreter
	// given it as its program runs it with the words after it, as a wrapper runs a command.
	Script bool `yaml:"script"`

	valued map[string]bool
	longs  []string // every long option the entry names, for getopt abbreviations
	// figPath names a reviewed entry's twin in Fig's grammars ("docker compose"), whose subcommands it
	// gains where it lists none of that name.
	figPath string
}

// InstallsSpec names the options that give a package installer its index or its packages' source.
type InstallsSpec struct {
	Options []string `yaml:"options"`
}

// ConfigFilesSpec names the options that give a program a file of its directives, and their language.
type ConfigFilesSpec struct {
	Lang    string   `yaml:"lang"`
	Options []string `yaml:"options"`
}

// CodeSpec says where a program takes the code it interprets.
type CodeSpec struct {
	// Lang names the language: shell, or one of code.yaml's.
	Lang string `yaml:"lang"`
	// Options are options whose value is code (python -c, node -e).
	Options []string `yaml:"options"`
	// Flags are options that make the first operand code (sh -c 'cmd').
	Flags []string `yaml:"flags"`
	// Operand is the index of the operand that is code when no code option or file option is given (awk's
	// program, trap's action); Rest joins the operands from it on (redis-cli FLUSHALL, sqlite3 db SQL).
	Operand *int `yaml:"operand"`
	Rest    bool `yaml:"rest"`
	// File: the operand names a file of code rather than being code ("-" and /dev/stdin are stdin).
	File bool `yaml:"file"`
	// Encoded are options whose value is encoded code (pwsh -EncodedCommand): code known only at run time.
	Encoded []string `yaml:"encoded"`
	// Files are options naming a script file, or a module (python -m): then no operand or stdin is code.
	Files []string `yaml:"files"`
	// Stdin: without code or a script, the program reads its code from standard input; StdinAlways: even
	// with operands, which are not scripts (psql's and mysql's database names).
	Stdin       bool `yaml:"stdin"`
	StdinAlways bool `yaml:"stdin_always"`
	// After are words after the first of which the operands, joined, are code (cmd /c …).
	After []string `yaml:"after"`
}

// EffectSpec is one effect of a program, on the targets its words name.
type EffectSpec struct {
	Kind EffectKind `yaml:"kind"`
	// Target picks the operands: operands (default), first, last, butlast, rest, leading (before the first
	// option: find's paths), urls (every operand), remote (operands of the form host:path), none.
	Target string `yaml:"target"`
	// Options are options whose values are targets too; one ending in "=" is an operand prefix (dd of=).
	Options []string `yaml:"options"`
	// Recursive: a delete takes whole trees; RecursiveWhen: it does when one of these options is given.
	Recursive     bool     `yaml:"recursive"`
	RecursiveWhen []string `yaml:"recursive_when"`
	// When: one of these options or operand words (globs) is present. Unless: none of these is.
	When   []string `yaml:"when"`
	Unless []string `yaml:"unless"`
	// WhenAll: from every group, one of its options or operand words is present.
	WhenAll [][]string `yaml:"when_all"`
	// Value: one of When's options has one of these values (curl -X DELETE), compared without case.
	Value []string `yaml:"value"`
	// MatchesAny: an operand, read as the regular expression the program takes it for (pkill's pattern),
	// matches one of these names: pkill -f . signals sshd and systemd as surely as pkill sshd does.
	MatchesAny []string `yaml:"matches_any"`
	// Class is the kind of state a system or destroys effect changes.
	Class string `yaml:"class"`
	// Paths are targets the effect always has (env reads the environment, /proc/self/environ).
	Paths []string `yaml:"paths"`
	// Data are options whose values are files sent (curl -T); DataAt options whose values send a file
	// when written @file or name=@file (curl -d @f, -F x=@f); "operands" there means the operands do.
	Data   []string `yaml:"data"`
	DataAt []string `yaml:"data_at"`
	// DataTarget picks operands, as Target does, whose content a sends effect sends (a server's directory).
	DataTarget string `yaml:"data_target"`
	// Tree: the targets are directories the effect reaches into at any depth (an archive extracted into
	// one writes what it holds wherever under it the archive says).
	Tree bool `yaml:"tree"`
}

// VerbSpec names the operands that destroy state, for a class.
type VerbSpec struct {
	Class string   `yaml:"class"`
	Words []string `yaml:"words"`
}

// destroyingVerbs are the verbs cloud and platform CLIs name their destroying subcommands with.
var destroyingVerbs = []string{"delete", "delete-*", "*-delete", "*-delete-*", "*:delete", "*:destroy", "destroy", "destroy-*",
	"terminate", "terminate-*", "remove", "remove-*", "purge", "purge-*", "rb", "deregister-*", "drop", "drop-*", "wipe", "erase", "nuke"}

type programTable struct {
	// registries are the hosts packages are installed from in the usual way (programs.yaml).
	registries []string
	// byName holds the reviewed entries, compiled at load.
	byName map[string]*Program
	// folded names the reviewed entries whose names have capitals (Rscript) by their lowercase spelling.
	folded map[string]string
	env    environment
	// fig is fig.json as embedded (read-only data, not heap); figAt locates each program's entry in it.
	// An entry is decoded and compiled when first asked for and kept in figs: most of the 583 are never
	// asked for in a process, and decoded all at once they held 10 MB of heap.
	fig   []byte
	figAt map[string][2]int
	mu    sync.Mutex
	figs  map[string]*Program // decoded so far; nil for an entry that is not used (a reserved word)
}

// environment lists the variables programs read as command lines (Lines) or as code they load (Dynamic).
type environment struct {
	Lines   []string `yaml:"lines"`
	Dynamic []string `yaml:"dynamic"`
	// Registries are variables naming the index package installers fetch from (PIP_INDEX_URL).
	Registries []string `yaml:"registries"`
}

var programs = sync.OnceValue(func() *programTable {
	t, err := loadPrograms(programsYAML, figJSON)
	if err != nil {
		panic("shell: embedded program table: " + err.Error())
	}
	return t
})

// reservedWords are the shell's own words, which Fig describes as commands but the parser never gives as
// program names.
var reservedWords = map[string]bool{"if": true, "then": true, "elif": true, "else": true, "fi": true, "while": true,
	"until": true, "do": true, "done": true, "for": true, "case": true, "esac": true, "select": true, "function": true, "!": true}

// loadPrograms reads the reviewed table and locates the grammars generated from Fig's specs under it: a
// program the reviewed table lists keeps its entry, and gains from Fig only the subcommands it does not
// list (when it lists some).
func loadPrograms(reviewed, fig []byte) (*programTable, error) {
	var f struct {
		Environment environment         `yaml:"environment"`
		Registries  []string            `yaml:"registries"`
		Programs    map[string]*Program `yaml:"programs"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(reviewed))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	t := &programTable{byName: f.Programs, folded: map[string]string{}, env: f.Environment, registries: f.Registries, fig: fig, figs: map[string]*Program{}}
	for name := range f.Programs {
		if lower := strings.ToLower(name); lower != name {
			t.folded[lower] = name
		}
	}
	if fig != nil {
		at, err := locateFig(fig)
		if err != nil {
			return nil, fmt.Errorf("fig.json: %v", err)
		}
		t.figAt = at
	}
	for name, p := range f.Programs {
		if err := t.compile(name, p, 0); err != nil {
			return nil, err
		}
		if _, ok := t.figAt[name]; ok {
			setFigPath(p, name)
		}
	}
	return t, nil
}

// locateFig finds each program's entry in fig.json without decoding it.
func locateFig(fig []byte) (map[string][2]int, error) {
	dec := json.NewDecoder(bytes.NewReader(fig))
	expect := func(want json.Delim) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); !ok || d != want {
			return fmt.Errorf("want %v, found %v", want, tok)
		}
		return nil
	}
	if err := expect('{'); err != nil {
		return nil, err
	}
	at := map[string][2]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key := tok.(string); key {
		case "source", "version", "license":
			var s string
			if err := dec.Decode(&s); err != nil {
				return nil, fmt.Errorf("%s: %v", key, err)
			}
		case "programs":
			if err := expect('{'); err != nil {
				return nil, err
			}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return nil, err
				}
				name, _ := tok.(string)
				start := int(dec.InputOffset())
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return nil, fmt.Errorf("%s: %v", name, err)
				}
				end := int(dec.InputOffset())
				for start < end && (fig[start] == ':' || fig[start] == ' ' || fig[start] == '\n' || fig[start] == '\t' || fig[start] == '\r') {
					start++
				}
				at[name] = [2]int{start, end}
			}
			if err := expect('}'); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unknown key %q", key)
		}
	}
	return at, expect('}')
}

// setFigPath notes, on a reviewed entry and its subcommands, where their twins are in Fig's grammars.
func setFigPath(p *Program, path string) {
	if p == nil || p.Alias != "" || len(p.Subcommands) == 0 {
		return
	}
	p.figPath = path
	for name, sp := range p.Subcommands {
		setFigPath(sp, path+" "+name)
	}
}

// figProgram returns Fig's entry for a program, decoded and compiled on first use; nil when it has none.
func (t *programTable) figProgram(name string) *Program {
	if reservedWords[name] {
		return nil
	}
	span, ok := t.figAt[name]
	if !ok {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p, ok := t.figs[name]; ok {
		return p
	}
	p, err := t.decodeFig(name, span)
	if err != nil {
		p = nil // the embedded data is tested whole (TestEmbeddedTablesLoad); a failure reads as no entry
	}
	t.figs[name] = p
	return p
}

func (t *programTable) decodeFig(name string, span [2]int) (*Program, error) {
	p := new(Program)
	jd := json.NewDecoder(bytes.NewReader(t.fig[span[0]:span[1]]))
	jd.DisallowUnknownFields()
	if err := jd.Decode(p); err != nil {
		return nil, fmt.Errorf("fig.json: %s: %v", name, err)
	}
	dropOptionSubcommands(p)
	if err := t.compile(name, p, 0); err != nil {
		return nil, fmt.Errorf("fig.json: %v", err)
	}
	return p, nil
}

// decodeAllFig decodes every Fig entry, for the test that walks the tables: the first error, if any.
func (t *programTable) decodeAllFig() error {
	for name, span := range t.figAt {
		if _, err := t.decodeFig(name, span); err != nil {
			return err
		}
	}
	return nil
}

// figPathProgram returns the entry at a path of names ("docker compose") in Fig's grammars.
func (t *programTable) figPathProgram(path string) *Program {
	names := strings.Fields(path)
	if len(names) == 0 {
		return nil
	}
	p := t.figProgram(names[0])
	for _, n := range names[1:] {
		if p == nil {
			return nil
		}
		p = p.Subcommands[n]
	}
	return p
}

func (t *programTable) compile(name string, p *Program, depth int) error {
	if depth > 8 {
		return fmt.Errorf("%s: subcommands nest too deep", name)
	}
	if p.Alias != "" {
		target := t.resolveAlias(p.Alias)
		if target == nil {
			return fmt.Errorf("%s: alias %q names no entry", name, p.Alias)
		}
		if target.Alias != "" {
			return fmt.Errorf("%s: alias %q is itself an alias", name, p.Alias)
		}
		return nil
	}
	p.valued = map[string]bool{}
	for _, v := range p.Valued {
		p.valued[v] = true
	}
	names := append(append(append(append([]string{}, p.Valued...), p.CommandOptions...), p.Exec...), p.Pairs...)
	names = append(names, p.CommandAfter...)
	if p.Code != nil {
		names = append(append(append(names, p.Code.Options...), p.Code.Flags...), p.Code.Files...)
		for _, o := range p.Code.Options {
			p.valued[o] = true
		}
		for _, o := range append(append([]string{}, p.Code.Files...), p.Code.Encoded...) {
			p.valued[o] = true
		}
	}
	if p.Installs != nil {
		for _, o := range p.Installs.Options {
			p.valued[o] = true
		}
		names = append(names, p.Installs.Options...)
	}
	if p.ConfigFiles != nil {
		for _, o := range p.ConfigFiles.Options {
			p.valued[o] = true
		}
		names = append(names, p.ConfigFiles.Options...)
	}
	for _, o := range append(append(slices.Clone(p.CommandOptions), p.Chdir...), p.OperandsIn...) {
		p.valued[o] = true
	}
	names = append(append(names, p.Chdir...), p.OperandsIn...)
	for o := range p.OptionCode {
		p.valued[o] = true
		names = append(names, o)
	}
	for i := range p.Effects {
		e := &p.Effects[i]
		switch e.Kind {
		case Deletes, Writes, Reads, Sends, System, Destroys, "none":
		default:
			return fmt.Errorf("%s: effects[%d]: unknown kind %q", name, i, e.Kind)
		}
		switch e.Target {
		case "", "operands", "first", "last", "butlast", "rest", "leading", "urls", "remote", "stdin_items", "none":
		default:
			return fmt.Errorf("%s: effects[%d]: unknown target %q", name, i, e.Target)
		}
		if (e.Kind == System || e.Kind == Destroys) && e.Class == "" {
			return fmt.Errorf("%s: effects[%d]: a %s effect needs a class", name, i, e.Kind)
		}
		for _, o := range append(append([]string{}, e.Options...), e.Data...) {
			if !strings.HasSuffix(o, "=") {
				p.valued[o] = true
			}
		}
		for _, o := range e.DataAt {
			if o != "operands" {
				p.valued[o] = true
			}
		}
		names = append(append(append(append(names, e.Options...), e.When...), e.Unless...), e.RecursiveWhen...)
		for _, g := range e.WhenAll {
			names = append(names, g...)
		}
		names = append(append(names, e.Data...), e.DataAt...)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "--") && !strings.ContainsAny(n, "= *?[") {
			p.longs = append(p.longs, n)
		}
	}
	for mod, mp := range p.Modules {
		if err := t.compile(name+" -m "+mod, mp, depth+1); err != nil {
			return err
		}
	}
	for sub, sp := range p.Subcommands {
		if err := t.compile(name+"."+sub, sp, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// dropOptionSubcommands removes subcommands named like options (cmake -E): an option is never an operand.
func dropOptionSubcommands(p *Program) {
	for name, sub := range p.Subcommands {
		if strings.HasPrefix(name, "-") || strings.HasPrefix(name, "+") {
			delete(p.Subcommands, name)
			continue
		}
		dropOptionSubcommands(sub)
	}
}

// resolveAlias finds an entry by name, "prog.sub" naming a subcommand's.
func (t *programTable) resolveAlias(name string) *Program {
	if p, ok := t.byName[name]; ok {
		return p
	}
	prog, sub, ok := strings.Cut(name, ".")
	if !ok {
		return nil
	}
	p := t.byName[prog]
	if p == nil {
		return nil
	}
	return p.Subcommands[sub]
}

// knownName is the name a command's program is known by: its own, or the known name it spells in other
// capitals (RM, Curl, RSCRIPT) or with a Windows executable's extension (git.exe, RM.EXE, npm.cmd). The file
// systems macOS and Windows install on ignore case, so there RM runs rm, and Windows finds git.exe for git;
// a name no table knows in any of these spellings stays as written.
func (t *programTable) knownName(name string) string {
	if !strings.ContainsFunc(name, unicode.IsUpper) && !strings.Contains(name, ".") {
		return name
	}
	if _, ok := t.byName[name]; ok {
		return name
	}
	lower := strings.ToLower(name)
	for _, ext := range windowsExecutables {
		if base, ok := strings.CutSuffix(lower, ext); ok && base != "" {
			if known := t.knownName(base); t.lookup(known) != nil {
				return known
			}
		}
	}
	if lower == name {
		return name
	}
	if known, ok := t.folded[lower]; ok {
		return known
	}
	if t.lookup(lower) != nil {
		return lower
	}
	return name
}

// windowsExecutables are the extensions Windows runs a program by (PATHEXT's usual ones).
var windowsExecutables = []string{".exe", ".com", ".cmd", ".bat"}

// lookup returns a program's entry: the reviewed one by its name, its name without a version suffix
// (python3.12, php8.2, node18, pip-3) or without a variant's suffix (mkfs.ext4); else Fig's, the same way;
// or nil.
func (t *programTable) lookup(name string) *Program {
	if p := t.byName[name]; p != nil {
		return t.follow(p) // the usual case, without building the other spellings
	}
	names := []string{name}
	if base := unversioned(name); base != name {
		names = append(names, base)
	}
	if base, _, ok := strings.Cut(name, "."); ok && base != "" && base != name {
		names = append(names, base)
	}
	for _, n := range names {
		if p := t.byName[n]; p != nil {
			return t.follow(p)
		}
	}
	for _, n := range names {
		if p := t.figProgram(n); p != nil {
			return p
		}
	}
	return nil
}

// sub returns a subcommand's entry, aliases followed: the reviewed entry's own, else its Fig twin's.
func (t *programTable) sub(p *Program, name string) *Program {
	if p == nil {
		return nil
	}
	if sp := p.Subcommands[name]; sp != nil {
		return t.follow(sp)
	}
	if p.figPath != "" {
		if twin := t.figPathProgram(p.figPath); twin != nil {
			return twin.Subcommands[name]
		}
	}
	return nil
}

func (t *programTable) follow(p *Program) *Program {
	if p != nil && p.Alias != "" {
		return t.resolveAlias(p.Alias)
	}
	return p
}

// unversioned strips a trailing version from a program name: python3.12 → python, php8.2 → php,
// node18 → node, pip-3.11 → pip. A name made only of digits is left alone.
func unversioned(name string) string {
	i := len(name)
	for i > 0 && (name[i-1] >= '0' && name[i-1] <= '9' || name[i-1] == '.') {
		i--
	}
	if i > 0 && i < len(name) && name[i-1] == '-' {
		i--
	}
	if i == 0 || i == len(name) {
		return name
	}
	return name[:i]
}

// matchWord reports whether s matches one of patterns (globs whose * crosses /).
func matchWord(patterns []string, s string) bool {
	for _, p := range patterns {
		if p == s {
			return true
		}
		if strings.ContainsAny(p, "*?[") {
			if ok, _ := path.Match(strings.ReplaceAll(p, "/", "\x00"), strings.ReplaceAll(s, "/", "\x00")); ok {
				return true
			}
		}
	}
	return false
}

// IsWrapper reports whether a program runs another command given in its arguments (sudo, env, nohup,
// timeout, xargs, …); Analyze lists the wrapped command on its own, with the wrapper in its Via.
func IsWrapper(program string) bool {
	p := programs().lookup(program)
	return p != nil && (p.Command != nil || p.Line != nil)
}

// Invocations returns, for every program (and subcommand) the table knows to run a command — its operands
// as a command or a command line, or an option's value as a command line — a command line that runs inner
// through it: "nice rm -rf ~", "timeout x rm -rf ~", "watch rm -rf ~", "su -c 'rm -rf ~'". For tests
// that put a command through each, and for documentation.
func Invocations(inner string) []string {
	t := programs()
	quoted := "'" + strings.ReplaceAll(inner, "'", `'\''`) + "'"
	var out []string
	var walk func(prefix string, p *Program)
	walk = func(prefix string, p *Program) {
		if p == nil || p.Alias != "" {
			return
		}
		if p.Command != nil {
			out = append(out, prefix+strings.Repeat(" x", *p.Command)+" "+inner)
		}
		if p.Line != nil {
			out = append(out, prefix+strings.Repeat(" x", *p.Line)+" "+inner)
		}
		for _, o := range p.CommandOptions {
			if o != "--" {
				out = append(out, prefix+" "+o+" "+quoted)
			}
		}
		for sub, sp := range p.Subcommands {
			walk(prefix+" "+sub, sp)
		}
	}
	names := make([]string, 0, len(t.byName)+len(t.figAt))
	for name := range t.byName {
		names = append(names, name)
	}
	for name := range t.figAt {
		if _, reviewed := t.byName[name]; !reviewed {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if p := t.byName[name]; p != nil {
			walk(name, p)
		} else if p := t.lookup(name); p != nil && t.figAt != nil && p == t.figProgram(name) {
			walk(name, p) // Fig's own entry, not a versioned name of a reviewed program
		}
	}
	return out
}

// Prepare loads the embedded program and code tables (about 25 ms, once per process), so that a server
// pays for it when it starts rather than on its first command. Analyze loads them itself when needed.
func Prepare() {
	programs()
	codeLangs()
}
