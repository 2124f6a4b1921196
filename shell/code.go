package shell

import (
	"bytes"
	_ "embed"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Inline code is read for what it does, not run: each language's calls that delete, write, execute, open
// connections or run code known only at run time are patterns (programs/code.yaml), and the paths the
// code names are what those calls touch. It is a scan, not a parse: a call named anywhere counts, so
// code is judged by the worst it can do.

//go:embed programs/code.yaml
var codeYAML []byte

type codeLang struct {
	Deletes          []string `yaml:"deletes"`
	RecursiveDeletes []string `yaml:"recursive_deletes"`
	RecursiveFlag    []string `yaml:"recursive_flag"`
	Executes         []string `yaml:"executes"`
	Lines            []string `yaml:"lines"`
	Dynamic          []string `yaml:"dynamic"`
	Network          []string `yaml:"network"`
	Writes           []string `yaml:"writes"`
	Home             []string `yaml:"home"`
	// Environment are expressions of the whole environment (os.environ, process.env, ENV): code that
	// holds one reads what env prints, /proc/self/environ, where tokens live.
	Environment []string            `yaml:"environment"`
	Walks       []string            `yaml:"walks"`
	Destroys    map[string][]string `yaml:"destroys"`
	// Uploads are patterns whose first group is a local file the code sends (ftp's put).
	Uploads []string `yaml:"uploads"`
	// BackslashPaths: a backslash is a path separator, not an escape (PowerShell's C:\Users).
	BackslashPaths bool `yaml:"backslash_paths"`
	// InertQuotes are the quotes whose strings are data, not statements (SQL's '…'): their text is blanked
	// before the patterns read the code, so WHERE name = 'drop table' drops nothing.
	InertQuotes string `yaml:"inert_quotes"`
	// Renames are patterns that bind a module or a function under another name (import os as o, from os
	// import system, f = os.system, getattr(os, 'system')); the code is read with the names they stand for.
	Renames []string `yaml:"renames"`

	deletes, recursive, recursiveFlag, executes, lines, dynamic, network, writes, home, walks, environment, uploads, renames []*regexp.Regexp
	destroys                                                                                                                 []classPatterns
}

type classPatterns struct {
	class    string
	patterns []*regexp.Regexp
}

var codeLangs = sync.OnceValue(func() map[string]*codeLang {
	langs, err := loadCodeLangs(codeYAML)
	if err != nil {
		panic("shell: embedded code patterns: " + err.Error())
	}
	return langs
})

func loadCodeLangs(data []byte) (map[string]*codeLang, error) {
	var f struct {
		Languages map[string]*codeLang `yaml:"languages"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	for name, l := range f.Languages {
		var err error
		compile := func(key string, ps []string) []*regexp.Regexp {
			out := make([]*regexp.Regexp, 0, len(ps))
			for _, p := range ps {
				re, e := regexp.Compile(p)
				if e != nil && err == nil {
					err = fmt.Errorf("%s: %s: %v", name, key, e)
				}
				out = append(out, re)
			}
			return out
		}
		l.deletes, l.recursive, l.recursiveFlag = compile("deletes", l.Deletes), compile("recursive_deletes", l.RecursiveDeletes), compile("recursive_flag", l.RecursiveFlag)
		l.executes, l.lines, l.dynamic = compile("executes", l.Executes), compile("lines", l.Lines), compile("dynamic", l.Dynamic)
		l.network, l.writes, l.home = compile("network", l.Network), compile("writes", l.Writes), compile("home", l.Home)
		l.environment = compile("environment", l.Environment)
		l.walks = compile("walks", l.Walks)
		l.uploads = compile("uploads", l.Uploads)
		l.renames = compile("renames", l.Renames)
		for i, re := range l.renames {
			if re != nil && re.SubexpIndex("module") < 0 && re.SubexpIndex("name") < 0 && err == nil {
				err = fmt.Errorf("%s: renames[%d]: no module or name group", name, i)
			}
		}
		classes := make([]string, 0, len(l.Destroys))
		for c := range l.Destroys {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			l.destroys = append(l.destroys, classPatterns{class: c, patterns: compile("destroys", l.Destroys[c])})
		}
		if err != nil {
			return nil, err
		}
	}
	return f.Languages, nil
}

// blankQuoted blanks the text of strings in the given quotes (a doubled quote inside one is part of it).
func blankQuoted(src, quotes string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		q := b[i]
		if strings.IndexByte(quotes, q) < 0 {
			continue
		}
		j := i + 1
		for j < len(b) {
			if b[j] == q {
				if j+1 < len(b) && b[j+1] == q {
					b[j], b[j+1] = ' ', ' '
					j += 2
					continue
				}
				break
			}
			b[j] = ' '
			j++
		}
		i = j
	}
	return string(b)
}

// mayAct reports whether code may do anything the language's patterns read: delete, write, run, connect,
// destroy, or run code known only at run time.
func (l *codeLang) mayAct(src string) bool {
	for _, res := range [][]*regexp.Regexp{l.deletes, l.recursive, l.executes, l.lines, l.dynamic, l.network, l.writes} {
		if anyMatch(res, src) {
			return true
		}
	}
	for _, cp := range l.destroys {
		if anyMatch(cp.patterns, src) {
			return true
		}
	}
	return false
}

func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// code follows the code a program interprets: by option, as an operand, or from standard input.
func (z *analyzer) code(ci int, spec *Program, pa *parsedArgs, prog string, via []string, depth int) {
	cs := spec.Code
	if len(cs.Encoded) > 0 && pa.has(cs.Encoded) {
		z.finding(DynamicCode, prog+" runs encoded code")
		z.effect(Effect{Kind: Executes, Program: prog, Class: cs.Lang, Dynamic: true, Command: ci})
		return
	}
	var texts []Word
	stdin := false // code read from standard input: made by the stage before, not written in the line
	texts = append(texts, pa.values(cs.Options)...)
	if len(texts) == 0 && len(cs.After) > 0 && len(pa.after) > 0 {
		texts = append(texts, *joinWords(pa.after)) // cmd -c …, as the cmd reading writes its switches
	}
	if len(texts) == 0 && len(cs.After) > 0 {
		// cmd /c …: the words after the switch are the command line
		for i, op := range pa.operands {
			if matchFold(cs.After, op.Value) {
				if w := joinWords(pa.operands[i+1:]); w != nil {
					texts = append(texts, *w)
				}
				break
			}
		}
	}
	switch {
	case len(texts) > 0:
	case len(cs.Flags) > 0 && pa.has(cs.Flags):
		if len(pa.operands) > 0 {
			texts = append(texts, pa.operands[0])
		}
	case len(cs.Files) > 0 && pa.has(cs.Files):
		if slices.ContainsFunc(pa.values(cs.Files), func(w Word) bool { return isStdinPath(w.Value) }) {
			texts = z.stdinCode(ci, prog, via, depth)
			stdin = true
			break
		}
		return // a script file or a module
	case cs.Operand != nil && len(pa.operands) > *cs.Operand:
		op := pa.operands[*cs.Operand]
		if cs.File {
			if !isStdinPath(op.Value) {
				z.runsFile(ci, op, prog, via, depth)
				return
			}
			texts = z.stdinCode(ci, prog, via, depth)
			stdin = true
			break
		}
		if cs.Rest {
			texts = append(texts, *joinWords(pa.operands[*cs.Operand:]))
		} else {
			texts = append(texts, op)
		}
	case cs.Stdin && (len(pa.operands) == 0 || cs.StdinAlways || isStdinPath(pa.operands[0].Value) || len(cs.Flags) > 0 && pa.has([]string{"-s"})):
		texts = z.stdinCode(ci, prog, via, depth)
		stdin = true
	default:
		if len(pa.operands) > 0 {
			z.runsFile(ci, pa.operands[0], prog, via, depth)
		}
		return
	}
	for _, t := range texts {
		if stdin && !t.Literal {
			z.finding(DynamicCode, prog+" runs code another program produces")
			z.effect(Effect{Kind: Executes, Program: prog, Class: cs.Lang, Dynamic: true, Command: ci})
			continue
		}
		z.codeText(ci, cs.Lang, t, prog, via, depth)
	}
}

// isStdinPath says whether a script path is standard input.
func isStdinPath(p string) bool {
	switch p {
	case "-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0":
		return true
	}
	return false
}

// runsFile notes a script file run: one downloaded earlier in the line is remote code; one the line wrote
// text into is that text, analyzed as the program's language (shell for a file run as a program).
func (z *analyzer) runsFile(ci int, f Word, prog string, via []string, depth int) {
	r := z.resolvePath(f)
	if z.state.fetched[path.Clean(r.Value)] || z.state.fetched[path.Clean(f.Value)] {
		z.finding(RemoteCode, "a file downloaded earlier in the line is run")
	}
	z.effect(Effect{Kind: Executes, Program: prog, Class: "file", Targets: []Word{r}, Command: ci})
	if text, ok := z.state.written[path.Clean(r.Value)]; ok {
		lang := "shell"
		if p := programs().lookup(prog); p != nil && p.Code != nil {
			lang = p.Code.Lang
		}
		z.codeText(ci, lang, Word{Value: text, Literal: true}, prog, via, depth)
	}
}

// scripts notes the literal text a call writes into files: echo or printf redirected into one, tee or
// cat given a heredoc or here-string. Text of another origin makes the file's content unknown again.
func (z *analyzer) scripts(outputs []Word, first int) {
	if first >= len(z.a.Commands) {
		return
	}
	c := z.a.Commands[first]
	text, isPrinter := printed(c)
	if !isPrinter && (c.Program == "cat" || c.Program == "tee") {
		text = z.body
		if text == nil {
			text = z.fedText() // echo … | tee x.sh
		}
	}
	targets := outputs // the call's output redirections
	if c.Program == "tee" {
		targets = append(targets, z.resolveAll(parseArgs(nil, c.Args, false).operands)...)
	}
	for _, t := range targets {
		if z.state.written == nil {
			z.state.written = map[string]string{}
		}
		key := path.Clean(t.Value)
		if text == nil || !text.Literal {
			delete(z.state.written, key)
			continue
		}
		z.state.written[key] += text.Value + "\n"
	}
}

// codeText analyzes one piece of code: shell code is parsed again, other languages are scanned.
func (z *analyzer) codeText(ci int, lang string, t Word, prog string, via []string, depth int) {
	if !t.Literal {
		if lang == "shell" {
			z.finding(DynamicProgram, prog+" runs a command string known only at run time")
		} else {
			z.finding(DynamicCode, prog+" runs code known only at run time")
		}
		z.effect(Effect{Kind: Executes, Program: prog, Class: lang, Dynamic: true, Command: ci})
		return
	}
	if lang == "shell" {
		z.effect(Effect{Kind: Executes, Program: prog, Class: lang, Targets: []Word{t}, Command: ci})
		saved := z.feed
		z.feed = nil
		z.parse(t.Value, appendVia(via, prog+" -c"), depth+1)
		z.feed = saved
		return
	}
	z.effect(Effect{Kind: Executes, Program: prog, Class: lang, Targets: []Word{t}, Command: ci})
	if d := dialectOf(lang); d != Bash {
		// PowerShell's and cmd's commands are read as those shells read them (windows.go)
		saved := z.feed
		z.feed = nil
		z.windowsLine(t.Value, d, appendVia(via, prog+" -c"), depth+1)
		z.feed = saved
	}
	z.scanCode(ci, lang, t.Value, prog, via, depth)
}

// dialectOf is the Windows shell a code language is the command lines of, or Bash for none.
func dialectOf(lang string) Dialect {
	switch lang {
	case "powershell":
		return PowerShell
	case "cmd":
		return Cmd
	}
	return Bash
}

// scanCode reads code of a language other than shell for what it does.
func (z *analyzer) scanCode(ci int, lang, src, prog string, via []string, depth int) {
	l := codeLangs()[lang]
	if l == nil {
		return
	}
	src = l.unalias(src)
	if l.BackslashPaths {
		src = strings.ReplaceAll(src, `\`, "/")
	}
	if l.InertQuotes != "" {
		src = blankQuoted(src, l.InertQuotes)
	}
	if anyMatch(l.dynamic, src) {
		z.finding(DynamicCode, prog+" runs code known only at run time")
	}
	commandsBefore := len(z.a.Commands)
	for _, cp := range l.destroys {
		if anyMatch(cp.patterns, src) {
			z.effect(Effect{Kind: Destroys, Program: prog, Class: cp.class, Command: ci})
		}
	}
	for _, re := range l.lines {
		for _, m := range re.FindAllStringSubmatch(src, 16) {
			for _, g := range m[1:] {
				if g != "" {
					z.line(ci, Word{Value: g, Literal: true}, prog, via, depth)
					break
				}
			}
		}
	}
	for _, re := range l.executes {
		for _, loc := range re.FindAllStringIndex(src, 16) {
			z.executesCall(ci, l, src[loc[1]:], prog, via, depth)
		}
	}
	if anyMatch(l.network, src) && slices.ContainsFunc(z.a.Commands[commandsBefore:], readsCodeFromStdin) {
		// A shell or interpreter started with no program of its own, by code that opens a connection:
		// whatever drives its input (the connection, in a reverse shell) is what it runs.
		z.finding(ReverseShell, prog+" opens a connection and starts a shell that reads its commands from outside the line")
	}
	var uploads []Word
	for _, re := range l.uploads {
		for _, m := range re.FindAllStringSubmatch(src, 64) {
			uploads = append(uploads, z.resolvePath(Word{Value: strings.Trim(m[1], `"`), Literal: true}))
		}
	}
	if len(uploads) > 0 {
		z.effect(Effect{Kind: Sends, Program: prog, Data: uploads, Command: ci})
	}
	paths := codePaths(src, anyMatch(l.home, src))
	targets := make([]Word, 0, len(paths)+1)
	for _, p := range paths {
		targets = append(targets, z.resolvePath(Word{Value: p, Literal: true}))
	}
	if anyMatch(l.environment, src) {
		targets = append(targets, Word{Value: "/proc/self/environ", Literal: true})
	}
	recursive := anyMatch(l.recursive, src)
	if recursive || anyMatch(l.deletes, src) {
		del := z.deleteTargets(l, src)
		recursive = recursive || anyMatch(l.recursiveFlag, src) || anyMatch(l.walks, src)
		z.effect(Effect{Kind: Deletes, Program: prog, Targets: del, Command: ci, Recursive: recursive})
	}
	if anyMatch(l.writes, src) && len(targets) > 0 {
		z.effect(Effect{Kind: Writes, Program: prog, Targets: targets, Command: ci})
	}
	if len(targets) > 0 {
		z.effect(Effect{Kind: Reads, Program: prog, Targets: targets, Command: ci})
	}
	if anyMatch(l.network, src) {
		if codeTokenSentAway(src) {
			// A known service's credential, named in code that calls another host: the environment goes.
			targets = append(targets, Word{Value: "/proc/self/environ", Literal: true})
		}
		z.effect(Effect{Kind: Sends, Program: prog, Data: targets, Command: ci})
	}
}

// codeURLHost finds the hosts of the URLs code writes out.
var codeURLHost = regexp.MustCompile(`(?i)\bhttps?://([a-z0-9.-]+)`)

// codeTokenSentAway reports whether code that opens connections names a known service's credential
// variable (programs/tokens.yaml) and writes out a URL of a host that service does not answer at.
func codeTokenSentAway(src string) bool {
	var named [][]string
	for name, domains := range tokenHosts() {
		if i := strings.Index(src, name); i >= 0 && (i == 0 || !isNameByte(src[i-1])) && (i+len(name) == len(src) || !isNameByte(src[i+len(name)])) {
			named = append(named, domains)
		}
	}
	if named == nil {
		return false
	}
	for _, m := range codeURLHost.FindAllStringSubmatch(src, 16) {
		h := strings.ToLower(strings.TrimSuffix(m[1], "."))
		for _, domains := range named {
			if !servedAt(h, domains) {
				return true
			}
		}
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// deleteTargets returns what the deleting calls of code delete: the paths written in their arguments
// (~ for an expression of the home directory), or a path known only at run time for a call whose
// argument is computed.
func (z *analyzer) deleteTargets(l *codeLang, src string) []Word {
	var out []Word
	for _, res := range [][]*regexp.Regexp{l.recursive, l.deletes} {
		for _, re := range res {
			for _, loc := range re.FindAllStringIndex(src, 16) {
				start := loc[1]
				if start > 0 && src[start-1] == '(' {
					start-- // the pattern took the call's parenthesis
				}
				args, _ := callArguments(src[start:])
				home := anyMatch(l.home, args)
				paths := codePaths(args, home)
				if len(paths) == 0 {
					out = append(out, Word{Value: Unknown})
				}
				for _, p := range paths {
					out = append(out, z.resolvePath(Word{Value: p, Literal: true}))
				}
			}
		}
	}
	return out
}

// executesCall reads the arguments of a call that runs a command: the string literals up to the call's
// closing parenthesis. An array of strings is one argv; a string alone is a command line; no string at all
// is a command known only at run time.
func (z *analyzer) executesCall(ci int, l *codeLang, rest, prog string, via []string, depth int) {
	args, ok := callArguments(rest)
	lits := stringLiterals(args)
	if !ok || len(lits) == 0 {
		if strings.HasPrefix(strings.TrimSpace(rest), "`") || strings.Contains(args, "`") {
			return // a template or backtick string is read by the literal scan of the whole text
		}
		z.finding(DynamicCode, prog+" runs a command known only at run time")
		z.effect(Effect{Kind: Executes, Program: prog, Class: "shell", Dynamic: true, Command: ci})
		return
	}
	trimmed := strings.TrimLeft(args, " \t\n(")
	if strings.HasPrefix(trimmed, "[") || strings.HasPrefix(trimmed, "%w") || len(lits) > 1 && !strings.Contains(lits[0], " ") {
		// an argv: quote each part so that the line runs that one command
		parts := argv(trimmed, l)
		if len(parts) == 0 || !strings.HasPrefix(parts[0], "'") {
			// the program itself is no string literal (Start-Process rm -ArgumentList '-rf','~'): the
			// literals alone are read, as they stand
			parts = make([]string, len(lits))
			for i, s := range lits {
				parts[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
			}
		}
		z.line(ci, Word{Value: strings.Join(parts, " "), Literal: true}, prog, via, depth)
		return
	}
	line := lits[0]
	if openEnded(args) {
		// "rm -rf " + home, 'rm -rf ' . $ENV{HOME}, "rm -rf %s" % d, f"rm -rf {d}": the line goes on with a
		// value known only at run time, which may be any word.
		line += ` "$WARDEN_RUNTIME_VALUE"`
	}
	z.line(ci, Word{Value: line, Literal: true}, prog, via, depth)
}

// argv writes a call's argv, a list of strings (['rm', '-rf', d]) or the call's arguments one by one
// (system("rm", "-rf", $ENV{HOME})), as shell words: a string literal is itself, an expression of the home
// directory is ~, and any other expression is a value known only at run time, which may be any word. It
// returns nil for a form it does not read (Ruby's %w[…]).
func argv(args string, l *codeLang) []string {
	if strings.HasPrefix(args, "%w") {
		return nil
	}
	list := args
	if strings.HasPrefix(args, "[") {
		i := closingBracket(args)
		if i < 0 {
			return nil
		}
		list = args[1:i] // the list up to its closing bracket
	}
	var out []string
	for _, el := range splitTopLevel(list) {
		el = strings.TrimSpace(el)
		if el == "" {
			continue
		}
		if isAssignmentArg(el) || strings.HasPrefix(el, "{") {
			continue // a keyword argument (shell=True) or an options object ({stdio: 'inherit'})
		}
		if strings.HasPrefix(el, "[") {
			out = append(out, argv(el, l)...) // spawn("rm", ["-rf", d]): the arguments' list
			continue
		}
		if lits := stringLiterals(el); len(lits) == 1 && isOneLiteral(el) {
			out = append(out, "'"+strings.ReplaceAll(lits[0], "'", `'\''`)+"'")
			continue
		}
		if anyMatch(l.home, el) {
			out = append(out, "~")
			continue
		}
		out = append(out, `"$WARDEN_RUNTIME_VALUE"`)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// closingBracket returns the index of the bracket that closes the one s starts with, or -1.
func closingBracket(s string) int {
	at := -1
	walkBrackets(s, '\\', "'\"`", func(i int, c byte, depth int) bool {
		if depth == 0 && strings.IndexByte(")]}", c) >= 0 {
			at = i
			return false
		}
		return true
	})
	return at
}

// splitTopLevel splits a list of arguments at the commas outside strings and brackets.
func splitTopLevel(s string) []string {
	var out []string
	start := 0
	walkBrackets(s, '\\', "'\"`", func(i int, c byte, depth int) bool {
		if c == ',' && depth == 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	return append(out, s[start:])
}

// walkBrackets calls f with each byte of s outside its quoted strings (quotes, with esc escaping the
// next byte inside one) and the depth of brackets after the byte; f returns false to stop the walk.
func walkBrackets(s string, esc byte, quotes string, f func(i int, c byte, depth int) bool) {
	d := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == esc {
				i++
			} else if c == quote {
				quote = 0
			}
			continue
		case strings.IndexByte(quotes, c) >= 0:
			quote = c
			continue
		case c == '[' || c == '(' || c == '{':
			d++
		case c == ']' || c == ')' || c == '}':
			d--
		}
		if !f(i, c, d) {
			return
		}
	}
}

// isOneLiteral says whether an argument is one string literal and nothing else (a prefix such as r or b
// aside): "rm" is, "rm" + x is not.
func isOneLiteral(el string) bool {
	el = strings.TrimLeft(el, "rbuRBU")
	if len(el) < 2 || !strings.ContainsRune(`'"`, rune(el[0])) {
		return false
	}
	q := el[0]
	for j := 1; j < len(el); j++ {
		if el[j] == '\\' {
			j++
			continue
		}
		if el[j] == q {
			return j == len(el)-1
		}
	}
	return false
}

// isAssignmentArg says whether a call argument is a keyword argument (name=value, name: value).
func isAssignmentArg(el string) bool {
	i := strings.IndexAny(el, "=:")
	if i <= 0 || i+1 < len(el) && el[i+1] == '=' || strings.ContainsAny(el[:i], `'"([{ `) {
		return false
	}
	return true
}

// unalias rewrites code with the names its renames bind written as what they stand for: after "import os
// as o", o.system is os.system; after "from os import system", system is os.system; getattr(os, 'system')
// is os.system.
func (l *codeLang) unalias(src string) string {
	for _, re := range l.renames {
		if !re.MatchString(src) {
			continue
		}
		type binding struct{ alias, canonical string }
		var bindings []binding
		var whole []string // matches that are an expression for a name: replaced where they are
		for _, m := range re.FindAllStringSubmatch(src, 16) {
			group := func(name string) string {
				if i := re.SubexpIndex(name); i >= 0 {
					return m[i]
				}
				return ""
			}
			module, name, alias, names := group("module"), group("name"), group("alias"), group("names")
			canonical := module
			if name != "" {
				canonical = strings.Trim(module+"."+name, ".")
			}
			switch {
			case names != "":
				for _, item := range strings.Split(names, ",") {
					f := strings.Fields(item)
					switch {
					case len(f) == 1:
						bindings = append(bindings, binding{f[0], module + "." + f[0]})
					case len(f) == 3 && f[1] == "as":
						bindings = append(bindings, binding{f[2], module + "." + f[0]})
					}
				}
			case alias != "":
				if alias != canonical {
					bindings = append(bindings, binding{alias, canonical})
				}
			default:
				whole = append(whole, m[0], canonical)
			}
		}
		if len(whole) > 0 {
			src = strings.NewReplacer(whole...).Replace(src)
		}
		for _, b := range bindings {
			word, err := regexp.Compile(`(^|[^\w.$])` + regexp.QuoteMeta(b.alias) + `\b`)
			if err != nil {
				continue
			}
			src = word.ReplaceAllString(src, "${1}"+strings.ReplaceAll(b.canonical, "$", "$$"))
		}
	}
	return src
}

// openEnded says whether the first string literal of a call's arguments is completed at run time: joined
// to another value (+, ., ..), formatted (%, .format, .replace), or an f-string with a {placeholder}.
func openEnded(args string) bool {
	i := strings.IndexAny(args, "'\"")
	if i < 0 {
		return false
	}
	fString := i > 0 && (args[i-1] == 'f' || args[i-1] == 'F')
	q := args[i]
	j := i + 1
	for ; j < len(args) && args[j] != q; j++ {
		if args[j] == '\\' {
			j++
		}
	}
	if j >= len(args) {
		return false
	}
	if fString && strings.Contains(args[i+1:j], "{") {
		return true
	}
	rest := strings.TrimLeft(args[j+1:], " \t\n")
	return rest != "" && strings.ContainsRune("+.%", rune(rest[0]))
}

// callArguments returns the text of a call's arguments: from after the name to the parenthesis that
// closes it (or, for a call without parentheses, the end of the line).
func callArguments(s string) (string, bool) {
	t := strings.TrimLeft(s, " \t")
	if strings.HasPrefix(t, "`") {
		end := strings.IndexByte(t[1:], '`')
		if end < 0 {
			return t, false
		}
		return t[:end+2], true
	}
	if !strings.HasPrefix(t, "(") {
		if i := strings.IndexAny(t, "\n;"); i >= 0 {
			t = t[:i]
		}
		return t, true
	}
	d := 0
	var quote byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			d++
		case c == ')':
			d--
			if d == 0 {
				return t[1:i], true
			}
		}
	}
	return t, true
}

// stringLiterals returns the string literals of code text, with simple escapes decoded; an interpolated
// part (${…}, #{…}) stops being a literal.
func stringLiterals(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\'' && c != '"' && c != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		dynamic := false
		for ; j < len(s) && s[j] != c; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(s[j])
				}
				continue
			}
			if (s[j] == '$' || s[j] == '#') && j+1 < len(s) && s[j+1] == '{' && c != '\'' {
				dynamic = true
			}
			b.WriteByte(s[j])
		}
		if j < len(s) && !dynamic {
			out = append(out, b.String())
		}
		i = j
	}
	return out
}

// codePaths returns the paths code names: string literals that look like paths, and, when the code
// computes the home directory, ~ and the relative literals under it.
func codePaths(src string, home bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] && len(out) < 64 {
			seen[p] = true
			out = append(out, p)
		}
	}
	if home {
		add("~")
	}
	for _, lit := range stringLiterals(src) {
		lit = strings.TrimSpace(lit)
		if lit == "" || strings.ContainsAny(lit, " \n\t<>|;&") || strings.Contains(lit, "://") {
			continue
		}
		switch {
		case strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, "~") || strings.HasPrefix(lit, "./") || strings.HasPrefix(lit, ".."):
			add(lit)
		case strings.HasPrefix(lit, ".") && len(lit) > 1 || strings.Contains(lit, "/"):
			add(lit)
			if home {
				add("~/" + lit)
			}
		case home:
			add("~/" + lit)
		default:
			add(lit) // a name in the working directory: build, dist
		}
	}
	return out
}

// stdinCode returns the code a shell or interpreter reads from standard input: a heredoc or here-string,
// or what the stage before it in a pipeline prints. Downloaded content is remote code (pipeline checks);
// content a decoder or another program makes is code known only at run time.
func (z *analyzer) stdinCode(ci int, prog string, via []string, depth int) []Word {
	if z.body != nil {
		return []Word{*z.body}
	}
	f := z.feed
	if f == nil || f.from >= f.to {
		return nil
	}
	cmds := z.a.Commands[f.from:f.to]
	first := cmds[0]
	switch {
	case anyOf(cmds, isFetcher):
		return nil // remote code, found by the pipeline checks
	case isPrinter(first) && len(cmds) == 1:
		if w := z.fedText(); w != nil {
			return []Word{*w}
		}
		return nil
	case (first.Program == "cat" || first.Program == "tee") && f.body != nil && len(cmds) == 1:
		return []Word{*f.body}
	case (first.Program == "cat") && len(cmds) == 1 && len(first.Args) > 0:
		z.runsFile(ci, first.Args[len(first.Args)-1], prog, via, depth)
		return nil // a script file, given through a pipe
	}
	return []Word{{Value: Unknown}}
}

// fedText is the text the stage before a command prints when it is one echo or printf, else nil.
func (z *analyzer) fedText() *Word {
	f := z.feed
	if f == nil || f.to-f.from != 1 {
		return nil
	}
	w, _ := printed(z.a.Commands[f.from])
	return w
}

// feed is the stage before a command in a pipeline: the range of Analysis.Commands it recorded, and the
// heredoc or here-string it read.
type feed struct {
	from, to int
	body     *Word
	prev     *feed // the stage before this one, when it is in the pipeline too
}

// lineFilters pass on some of the lines they read, unchanged: what they list is what the stage before
// them lists.
var lineFilters = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "sort": true, "uniq": true,
	"head": true, "tail": true, "tac": true, "shuf": true, "cat": true, "tee": true}

// feedListing returns what the stage before an xargs lists: the paths it starts from, as globs of what is
// under them (find ~ | xargs rm), or a path known only at run time.
func (z *analyzer) feedListing() []Word {
	f := z.feed
	for f != nil && f.from < f.to && f.prev != nil && lineFilters[z.a.Commands[f.from].Program] && f.to-f.from == 1 {
		f = f.prev
	}
	if f == nil || f.from >= f.to {
		return []Word{{Value: Unknown}}
	}
	c := z.a.Commands[f.from]
	var roots []Word
	switch c.Program {
	case "find", "fd", "fdfind", "ls", "tree", "du", "get-childitem":
		pa := parseArgs(programs().lookup(c.Program), c.Args, false)
		roots = pa.leading
		if c.Program != "find" {
			roots = pa.operands
		}
		if c.Program == "get-childitem" {
			roots = append(pa.values([]string{"--path", "--literalpath"}), pa.operands...)
			if len(roots) == 0 {
				roots = []Word{{Value: ".", Literal: true}}
			}
			suffix := "/*"
			if pa.has([]string{"--recurse"}) {
				suffix = "/**"
			}
			out := make([]Word, 0, len(roots))
			for _, r := range roots {
				r = z.resolvePath(r)
				out = append(out, Word{Value: strings.TrimSuffix(r.Value, "/") + suffix, Literal: r.Literal, Glob: true})
			}
			return out
		}
		if len(roots) == 0 {
			roots = []Word{{Value: ".", Literal: true}}
		}
		if c.Program == "fd" || c.Program == "fdfind" {
			roots = append(pa.values([]string{"--search-path", "--base-directory"}), roots[min(1, len(roots)):]...)
			if len(roots) == 0 {
				roots = []Word{{Value: ".", Literal: true}}
			}
		}
	case "echo", "printf":
		return c.Args
	default:
		return []Word{{Value: Unknown}}
	}
	suffix := "/*" // a listing of what is in a directory
	if c.Program != "ls" {
		suffix = "/**" // a walk of the tree under it
	}
	out := make([]Word, 0, len(roots))
	for _, r := range roots {
		v := strings.TrimSuffix(r.Value, "/")
		out = append(out, Word{Value: v + suffix, Literal: r.Literal, Glob: true})
	}
	return out
}

// feedData returns the files the stages before a command read: their content flows into it, through
// every stage between (tar c ~/.ssh | base64 | curl -d @- …: base64 passes on what tar read).
func (z *analyzer) feedData() []Word {
	var out []Word
	for f := z.feed; f != nil; f = f.prev {
		for i := range z.a.Effects {
			e := &z.a.Effects[i]
			if e.Command >= f.from && e.Command < f.to {
				switch e.Kind {
				case Reads:
					out = append(out, e.Targets...)
				case Sends:
					out = append(out, e.Data...)
				}
			}
		}
	}
	return out
}
