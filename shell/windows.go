package shell

import (
	"bytes"
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Agents on Windows run their commands in PowerShell or cmd.exe, through tools named like any shell tool.
// A line in either is read as that shell reads it, into the same commands and words the bash reading
// makes, and the same program table says what each does: PowerShell's cmdlets under their own names
// (remove-item), its aliases and cmd's built-ins by the entries they lead to (programs/dialects.yaml). The
// readings are tokenizers, not full parsers: what they cannot follow (a .NET call, a hashtable) is a value
// known only at run time, and the PowerShell code patterns of code.yaml still read the whole line.

// Dialect names the shell a command line is written for.
type Dialect int

// Dialects.
const (
	// Bash: POSIX shells (the default).
	Bash Dialect = iota
	// PowerShell: Windows PowerShell 5.1 and PowerShell 7.
	PowerShell
	// Cmd: cmd.exe.
	Cmd
)

//go:embed programs/dialects.yaml
var dialectsYAML []byte

type dialectTable struct {
	PowerShell struct {
		Aliases       map[string]string `yaml:"aliases"`
		WebAliases    []string          `yaml:"web_aliases"`
		WebParameters []string          `yaml:"web_parameters"`
		SignalAliases []string          `yaml:"signal_aliases"`
		Variables     map[string]string `yaml:"variables"`
	} `yaml:"powershell"`
	Cmd struct {
		Aliases   map[string]string `yaml:"aliases"`
		Variables map[string]string `yaml:"variables"`
	} `yaml:"cmd"`
}

var dialects = sync.OnceValue(func() *dialectTable {
	var t dialectTable
	dec := yaml.NewDecoder(bytes.NewReader(dialectsYAML))
	dec.KnownFields(true)
	if err := dec.Decode(&t); err != nil {
		panic("shell: embedded dialect table: " + err.Error())
	}
	return &t
})

// AnalyzeDialect analyzes a command line written for a dialect, within the limits. A line for bash is
// Analyze's; a PowerShell or cmd line is read as that shell reads it, and also as bash reads it when bash
// can: a line that parses in both is judged by what either reading would do.
func AnalyzeDialect(src string, d Dialect, l Limits) *Analysis {
	if d == Bash {
		return AnalyzeLimited(src, l)
	}
	l = l.withDefaults()
	z := newAnalyzer(l)
	if len(src) > l.MaxBytes {
		z.tooComplex(bytesDetail(len(src), l.MaxBytes))
		return z.a
	}
	z.windowsLine(src, d, nil, 0)
	return z.done()
}

// windowsLine reads a line in a Windows shell's dialect.
func (z *analyzer) windowsLine(src string, d Dialect, via []string, depth int) {
	if depth > MaxDepth {
		z.finding(TooDeep, "shells nested more than 8 deep")
		return
	}
	// The Windows shell's own commands are no artifacts of a bash reading the line may sit in.
	saved := z.windowsLike
	z.windowsLike = Bash
	defer func() { z.windowsLike = saved }()
	r := &winReader{z: z, dialect: d, via: via, depth: depth}
	r.statements(src)
	if d == PowerShell && depth == 0 {
		// What the reading does not follow (.NET calls, method calls on values) the code patterns read.
		if l := codeLangs()["powershell"]; l != nil && l.mayAct(src) {
			ci := len(z.a.Commands)
			z.a.Commands = append(z.a.Commands, Command{Program: "powershell", Via: via})
			z.scanCode(ci, "powershell", src, "powershell", via, depth)
		}
	}
}

// windowsDialect says which Windows shell a line given to a shell tool is written for, when it shows: a
// PowerShell cmdlet (Verb-Noun) where a command starts, $env:, a .NET call ([Type]::…); a cmd built-in
// with a /switch, or a %VARIABLE%. Bash is the answer for everything else; a line in neither reads as bash.
func windowsDialect(src string) Dialect {
	if strings.Contains(src, "$env:") || strings.Contains(src, "]::") || strings.Contains(src, "$PROFILE") {
		return PowerShell
	}
	cmdSwitch := false
	for start := 0; start < len(src); {
		i := start
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '@' || src[i] == '&') {
			i++
		}
		j := i
		var name []byte
		for j < len(src) && (isNameByte(src[j]) || src[j] == '-' || src[j] == '.' || src[j] == '^' || src[j] == '`') {
			switch src[j] {
			case '^':
				cmdSwitch = true // cmd's escape inside a command's name: r^d
			case '`':
				return PowerShell // PowerShell's: r`m
			default:
				name = append(name, src[j])
			}
			j++
		}
		word := asciiLower(string(name))
		if verb, noun, ok := strings.Cut(word, "-"); ok && noun != "" && psVerbs[verb] && !strings.Contains(noun, "-") {
			return PowerShell
		}
		if slices.Contains(dialects().PowerShell.SignalAliases, word) {
			return PowerShell // an alias only PowerShell has (ri, gci, iwr, iex)
		}
		rest := src[j:min(len(src), j+64)]
		if cmdBuiltins[strings.TrimSuffix(word, ".exe")] && (strings.Contains(rest, " /") || strings.Contains(rest, "\\")) {
			cmdSwitch = true
		}
		k := strings.IndexAny(src[j:], ";|&\n({")
		if k < 0 {
			break
		}
		start = j + k + 1
	}
	if cmdSwitch || hasCmdVariable(src) {
		return Cmd
	}
	return Bash
}

// windowsSyntax reports whether a line bash cannot parse shows PowerShell's or cmd's own syntax: an escape
// of theirs (` or ^), a backslash path, a %VARIABLE%, a subexpression, array or hashtable ($(…), @(…),
// @{…}), a member of one ((…).Content) or of a type ([…]::), or a call operator or variable to start.
func windowsSyntax(src string) bool {
	t := strings.TrimSpace(src)
	if t != "" && strings.IndexByte("&$[", t[0]) >= 0 {
		return true
	}
	for _, sig := range []string{"`", "\\", "%", "^", "$(", "@(", "@{", "]::", ")."} {
		if strings.Contains(src, sig) {
			return true
		}
	}
	return false
}

// psVerbs are PowerShell's approved verbs (Get-Verb) that start the cmdlets agents run.
var psVerbs = map[string]bool{"add": true, "clear": true, "close": true, "copy": true, "enter": true, "exit": true,
	"find": true, "format": true, "get": true, "hide": true, "join": true, "lock": true, "move": true, "new": true,
	"open": true, "optimize": true, "pop": true, "push": true, "redo": true, "remove": true, "rename": true,
	"reset": true, "resize": true, "search": true, "select": true, "set": true, "show": true, "skip": true,
	"split": true, "step": true, "switch": true, "undo": true, "unlock": true, "watch": true, "connect": true,
	"disconnect": true, "read": true, "receive": true, "send": true, "write": true, "backup": true,
	"checkpoint": true, "compare": true, "compress": true, "convert": true, "convertfrom": true, "convertto": true,
	"dismount": true, "edit": true, "expand": true, "export": true, "group": true, "import": true,
	"initialize": true, "limit": true, "merge": true, "mount": true, "out": true, "publish": true, "restore": true,
	"save": true, "sync": true, "unpublish": true, "update": true, "approve": true, "assert": true,
	"build": true, "complete": true, "confirm": true, "deny": true, "deploy": true, "disable": true, "enable": true,
	"install": true, "invoke": true, "register": true, "request": true, "restart": true, "resume": true,
	"start": true, "stop": true, "submit": true, "suspend": true, "uninstall": true, "unregister": true,
	"wait": true, "debug": true, "measure": true, "ping": true, "repair": true, "resolve": true, "test": true,
	"trace": true, "block": true, "grant": true, "protect": true, "revoke": true, "unblock": true,
	"unprotect": true, "use": true, "foreach": true, "where": true}

// cmdBuiltins are the commands whose /switches show a line is cmd's: its built-ins and the Windows
// programs whose options are written so.
var cmdBuiltins = map[string]bool{"rd": true, "rmdir": true, "del": true, "erase": true, "copy": true,
	"move": true, "xcopy": true, "robocopy": true, "format": true, "vssadmin": true, "wbadmin": true,
	"schtasks": true, "taskkill": true, "reg": true, "wmic": true, "bcdedit": true, "icacls": true,
	"takeown": true, "cipher": true, "net": true, "shutdown": true, "attrib": true, "dir": true, "type": true,
	"cmd": true}

// hasCmdVariable reports whether a line expands a cmd variable (%USERPROFILE%).
func hasCmdVariable(src string) bool {
	for i := strings.IndexByte(src, '%'); i >= 0 && i+1 < len(src); {
		j := strings.IndexByte(src[i+1:], '%')
		if j < 0 {
			return false
		}
		name := src[i+1 : i+1+j]
		if name != "" && strings.IndexFunc(name, func(r rune) bool { return !isNameByte(byte(r)) || r > 127 }) < 0 {
			return true
		}
		i += j + 1
	}
	return false
}

// winReader reads a PowerShell or cmd line into the analyzer's commands.
type winReader struct {
	z       *analyzer
	dialect Dialect
	via     []string
	depth   int
	// subs are the ranges of Analysis.Commands recorded by the subexpressions of the command being read:
	// what they read flows into what it sends; a download among them is code it may run.
	subs [][2]int
	// callOp: the statement starts with PowerShell's call operator (& $cmd): its command is a program.
	callOp bool
	// quotedFirst: the statement's first word is a string: PowerShell outputs it, it runs nothing.
	quotedFirst bool
	// used are the variables the statement's words expand that hold what files held ($c, after
	// $c = Get-Content .env): its commands get their content.
	used []string
	// blocks are the script blocks of the stage being read; item is what $_ stands for in a block run
	// on a pipeline's items (what the stage before lists), when it is known.
	blocks []string
	item   *Word
}

// statements reads a sequence of pipelines: separated by ;, newlines, && and || (and cmd's &).
func (r *winReader) statements(s string) {
	var stages []plainCommand
	var words []Word
	var quoted []bool // which words start with a quote: a quoted -x is a string, not a parameter
	var redirs []Word
	assignTo := "" // the variable a statement assigns ($x = …)
	flush := func(pipes bool) {
		if len(words) > 0 || len(r.blocks) > 0 {
			stages = append(stages, plainCommand{words: words, pipes: pipes, quoted: quoted, blocks: r.blocks})
		}
		words, quoted, r.blocks = nil, nil, nil
	}
	run := func() {
		flush(false)
		switch {
		case assignTo != "" && len(stages) == 1 && len(stages[0].words) == 1 && !r.isCommand(stages[0].words[0]):
			r.z.assignVar("ps:"+assignTo, stages[0].words[0].Value, stages[0].words[0].Literal)
		case len(stages) > 0:
			if assignTo != "" {
				r.z.assignVar("ps:"+assignTo, "", false)
			}
			firstEffect := len(r.z.a.Effects)
			r.pipeline(stages, redirs)
			if assignTo != "" {
				// $c = Get-Content .env: the variable holds what the pipeline read
				var data []Word
				for _, e := range r.z.a.Effects[firstEffect:] {
					if e.Kind == Reads {
						data = append(data, e.Targets...)
					}
				}
				st := &r.z.state
				if len(data) > 0 {
					if st.varData == nil {
						st.varData = map[string][]Word{}
					}
					st.varData["ps:"+assignTo] = data
				} else {
					delete(st.varData, "ps:"+assignTo)
				}
			}
		}
		r.used = nil
		stages, redirs, assignTo, r.callOp, r.quotedFirst = nil, nil, "", false, false
	}
	for i := 0; i < len(s) && !r.z.budget.spent; {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n' || c == ';' && r.dialect == PowerShell:
			run()
			i++
		case c == '&' && i+1 < len(s) && s[i+1] == '&', c == '|' && i+1 < len(s) && s[i+1] == '|':
			run()
			i += 2
		case c == '&' && r.dialect == Cmd:
			run()
			i++
		case c == '&' && len(words) == 0:
			r.callOp = true // PowerShell's call operator: the next word is the command, whatever it is
			i++
		case c == '$' && r.dialect == PowerShell && len(words) == 0 && len(stages) == 0 && assignTo == "" && assignment(s[i:]) > 0:
			n := assignment(s[i:])
			assignTo = asciiLower(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[i+1:i+n]), "=+-*/")))
			i += n
		case c == '|':
			flush(true)
			i++
		case c == '#' && r.dialect == PowerShell:
			// a comment: # where a word would start, to the end of the line
			if end := strings.IndexByte(s[i:], '\n'); end >= 0 {
				i += end
			} else {
				i = len(s)
			}
		case c == '<' && r.dialect == PowerShell && strings.HasPrefix(s[i:], "<#"):
			end := strings.Index(s[i:], "#>")
			if end < 0 {
				return
			}
			i += end + 2
		case c == '>' || (c >= '0' && c <= '9' || c == '*') && i+1 < len(s) && s[i+1] == '>':
			// a redirection: > f, >> f, 2> f, 2>&1, *> f, >$null, >nul
			j := i
			for j < len(s) && s[j] != '>' {
				j++
			}
			for j < len(s) && s[j] == '>' {
				j++
			}
			if j < len(s) && s[j] == '&' {
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				i = j
				continue
			}
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			w, n := r.word(s[j:], false)
			i = j + n
			if v := asciiLower(w.Value); v != "$null" && v != "nul" && w.Value != "" {
				redirs = append(redirs, w)
			}
		case c == ')' || c == '}':
			i++ // one left over by a construct the reader does not follow
		default:
			isQuoted := c == '"' || c == '\'' && r.dialect == PowerShell
			if len(words) == 0 {
				r.quotedFirst = isQuoted
			}
			w, n := r.word(s[i:], len(words) == 0)
			if n == 0 {
				i++
				continue
			}
			words = append(words, w)
			quoted = append(quoted, isQuoted)
			i += n
		}
	}
	run()
}

// pipeline records a pipeline's commands, as the bash reading records a plain line's.
func (r *winReader) pipeline(stages []plainCommand, redirs []Word) {
	z := r.z
	var prev *feed
	var ranges [][2]int
	for k, st := range stages {
		first := len(z.a.Commands)
		firstEffect := len(z.a.Effects)
		z.feed = nil
		if k > 0 && stages[k-1].pipes {
			z.feed = &feed{from: ranges[k-1][0], to: ranges[k-1][1], prev: prev}
		}
		prev = z.feed
		for _, b := range st.blocks {
			// A block runs on each item the stage before gives (ForEach-Object, Where-Object): $_ is
			// what that stage lists.
			var item *Word
			if z.feed != nil {
				if items := z.feedListing(); len(items) == 1 {
					item = &items[0]
				}
			}
			r.block(b, item)
		}
		words := r.command(st.words, st.quoted)
		if len(words) == 0 {
			ranges = append(ranges, [2]int{first, len(z.a.Commands)})
			continue
		}
		if k == len(stages)-1 {
			for _, w := range redirs {
				z.effect(Effect{Kind: Writes, Targets: []Word{z.resolvePath(w)}, Command: first})
			}
		}
		z.command(words, nil, r.via, r.depth)
		if first < len(z.a.Commands) {
			var data []Word
			for _, v := range r.used {
				data = append(data, z.state.varData[v]...)
			}
			if len(data) > 0 {
				z.effect(Effect{Kind: Reads, Program: z.a.Commands[first].Program, Targets: data, Command: first})
				for i := firstEffect; i < len(z.a.Effects); i++ {
					if z.a.Effects[i].Kind == Sends && z.a.Effects[i].Command >= first {
						z.a.Effects[i].Data = append(z.a.Effects[i].Data, data...)
					}
				}
			}
		}
		r.subData(first, firstEffect)
		ranges = append(ranges, [2]int{first, len(z.a.Commands)})
	}
	z.feed = nil
	z.piping(len(ranges), func(k int, pred func(Command) bool) bool {
		return anyOf(z.a.Commands[ranges[k][0]:ranges[k][1]], pred)
	})
	r.subs = nil
}

// subData adds what the subexpressions of a command read to what it sends (Invoke-WebRequest -Body
// (Get-Content ~/.aws/credentials)), and finds a download run as code (iex (iwr …)).
func (r *winReader) subData(first, firstEffect int) {
	z := r.z
	if len(r.subs) == 0 {
		return
	}
	var data []Word
	fetched := false
	for _, sub := range r.subs {
		for i := range z.a.Effects[:firstEffect] {
			e := &z.a.Effects[i]
			if e.Command >= sub[0] && e.Command < sub[1] && e.Kind == Reads {
				data = append(data, e.Targets...)
			}
		}
		fetched = fetched || anyOf(z.a.Commands[sub[0]:sub[1]], isFetcher)
	}
	for i := firstEffect; i < len(z.a.Effects); i++ {
		e := &z.a.Effects[i]
		if e.Kind == Sends && e.Command >= first {
			e.Data = append(e.Data, data...)
		}
		if e.Kind == Executes && e.Dynamic && fetched {
			z.finding(RemoteCode, "downloaded content is run as code")
			fetched = false
		}
	}
}

// command turns a command's words as the shell wrote them into the words the analyzer reads: its name
// through the dialect's aliases, a cmdlet's -Parameter as --parameter, a cmd /switch as -switch, and
// Start-Process as the command it starts. Nil for a line that runs nothing (a keyword, an assignment).
func (r *winReader) command(words []Word, quoted []bool) []Word {
	if len(words) == 0 {
		return nil
	}
	name := asciiLower(strings.TrimPrefix(words[0].Value, "@"))
	name = strings.TrimSuffix(name, ".exe")
	if !words[0].Literal {
		if r.dialect == PowerShell && !r.callOp {
			return nil // an expression ($x, $f.Length), not a command; its method calls are the code scan's
		}
		return words // a program known only at run time: the analyzer says so
	}
	if r.dialect == PowerShell {
		if r.quotedFirst && !r.callOp {
			return nil // a string where a command would be: PowerShell outputs it
		}
		if psKeywords[name] {
			return nil // its parenthesized and braced parts were read as they were met
		}
	} else if name == "if" || name == "for" || name == "rem" || strings.HasPrefix(name, "::") {
		return r.cmdClause(name, words)
	}
	t := dialects()
	canonical := name
	switch r.dialect {
	case PowerShell:
		if a, ok := t.PowerShell.Aliases[name]; ok {
			canonical = a
		}
		if matchWord(t.PowerShell.WebAliases, name) && slices.ContainsFunc(words[1:], func(w Word) bool { return matchFold(t.PowerShell.WebParameters, w.Value) }) {
			canonical = "invoke-webrequest"
		}
	case Cmd:
		if a, ok := t.Cmd.Aliases[name]; ok {
			canonical = a
		}
	}
	out := make([]Word, 0, len(words))
	out = append(out, Word{Value: canonical, Literal: true})
	cmdlet := r.dialect == PowerShell && strings.Contains(canonical, "-")
	for k, w := range words[1:] {
		if k+1 < len(quoted) && quoted[k+1] {
			out = append(out, w) // a quoted '-rf' is a string, not a parameter
			continue
		}
		if r.dialect == PowerShell && cmdBuiltins[canonical] && w.Literal && isSwitch(w.Value) {
			w = Word{Value: "-" + asciiLower(w.Value[1:]), Literal: true} // schtasks /create
		}
		out = append(out, r.argument(w, cmdlet))
	}
	if canonical == "start-process" {
		return startedCommand(out)
	}
	return out
}

// psKeywords start PowerShell statements that are not commands.
var psKeywords = map[string]bool{"if": true, "elseif": true, "else": true, "foreach": true, "for": true,
	"while": true, "do": true, "until": true, "switch": true, "try": true, "catch": true, "finally": true,
	"function": true, "filter": true, "trap": true, "param": true, "begin": true, "process": true, "end": true,
	"return": true, "throw": true, "exit": true, "break": true, "continue": true, "class": true, "enum": true,
	"using": true}

// argument writes one argument: a cmdlet's parameter as a long option (-Recurse is --recurse, -Path:x is
// --path=x), a cmd switch as an option (/S is -s), anything else as it is.
func (r *winReader) argument(w Word, cmdlet bool) Word {
	v := w.Value
	if !w.Literal || len(v) < 2 {
		return w
	}
	switch {
	case cmdlet && v[0] == '-' && isLetter(v[1]):
		name, val, hasVal := strings.Cut(v[1:], ":")
		o := "--" + asciiLower(name)
		if hasVal {
			o += "=" + val
		}
		return Word{Value: o, Literal: true}
	}
	return w
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// startedCommand is the command Start-Process starts: its -FilePath (or first operand) with its
// -ArgumentList, under sudo when it asks for an administrator's rights (-Verb RunAs).
func startedCommand(words []Word) []Word {
	pa := parseArgs(programs().lookup("start-process"), words[1:], false)
	var prog []Word
	if v := pa.values([]string{"--filepath"}); len(v) > 0 {
		prog = v[:1]
	} else if len(pa.operands) > 0 {
		prog, pa.operands = pa.operands[:1], pa.operands[1:]
	}
	if len(prog) == 0 {
		return nil
	}
	out := []Word{}
	for _, v := range pa.values([]string{"--verb"}) {
		if strings.EqualFold(v.Value, "runas") || !v.Literal {
			out = append(out, Word{Value: "sudo", Literal: true})
		}
	}
	out = append(out, prog...)
	for _, v := range pa.values([]string{"--argumentlist"}) {
		if !v.Literal {
			out = append(out, Word{Value: Unknown, Split: true})
			continue
		}
		for _, a := range strings.Split(v.Value, ",") {
			for _, f := range strings.Fields(a) {
				out = append(out, Word{Value: f, Literal: true})
			}
		}
	}
	return append(out, pa.operands...)
}

// assignment returns the length of a PowerShell assignment's left side and operator ($x = , $env:X += ),
// or 0 when the statement is no assignment.
func assignment(s string) int {
	j := 1
	for j < len(s) && (isNameByte(s[j]) || s[j] == ':') {
		j++
	}
	if j == 1 {
		return 0
	}
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k < len(s) && strings.IndexByte("+-*/", s[k]) >= 0 {
		k++
	}
	if k >= len(s) || s[k] != '=' || k+1 < len(s) && s[k+1] == '=' {
		return 0
	}
	return k + 1
}

// isCommand says whether the one word on an assignment's right is a command to run ($x = Get-Date) rather
// than a value ($x = 'C:\\x'): a bare word that names a cmdlet, an alias or a program the table knows.
func (r *winReader) isCommand(w Word) bool {
	if !w.Literal {
		return false
	}
	name := asciiLower(w.Value)
	_, alias := dialects().PowerShell.Aliases[name]
	return alias || programs().lookup(name) != nil && !strings.ContainsAny(name, "/~.")
}

// cmdClause reads cmd's if and for: the command they run is read as one (if exist x rd /s /q x, for /d
// %i in (*) do rd /s /q %i). rem and :: are comments.
func (r *winReader) cmdClause(name string, words []Word) []Word {
	switch name {
	case "for":
		for i, w := range words {
			if strings.EqualFold(w.Value, "do") && i+1 < len(words) {
				return r.command(words[i+1:], nil)
			}
		}
	case "if":
		i := 1
		for i < len(words) && (strings.EqualFold(words[i].Value, "/i") || strings.EqualFold(words[i].Value, "not")) {
			i++
		}
		switch {
		case i < len(words) && (strings.EqualFold(words[i].Value, "exist") || strings.EqualFold(words[i].Value, "defined") || strings.EqualFold(words[i].Value, "errorlevel")):
			i += 2
		case i+2 < len(words) && words[i+1].Value == "==":
			i += 3
		default:
			i++
		}
		if i < len(words) {
			return r.command(words[i:], nil)
		}
	}
	return nil
}

// word reads one word of a line: quoted and bare parts joined, variables expanded, and the commands of
// subexpressions ((…), $(…), @(…)) and script blocks ({…}) read where they stand, their value known only
// at run time. It returns the word and the bytes it took.
func (r *winReader) word(s string, first bool) (Word, int) {
	var b strings.Builder
	w := Word{Literal: true}
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' && r.dialect == PowerShell || c == '|' || c == '&' ||
			c == ')' || c == '}' && r.dialect == PowerShell || c == '>' || c == '<' && r.dialect == Cmd:
			return r.finish(b.String(), w), i
		case c == '\'' && r.dialect == PowerShell:
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			i = j + 1
		case c == '"':
			i += r.doubleQuoted(s[i:], &b, &w)
		case c == '`' && r.dialect == PowerShell && i+1 < len(s):
			b.WriteByte(s[i+1]) // an escaped character is itself: r`m is rm
			i += 2
		case c == '^' && r.dialect == Cmd && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
		case c == '%' && r.dialect == Cmd:
			i += r.cmdVariable(s[i:], &b, &w)
		case c == '$' && r.dialect == PowerShell && i+1 < len(s) && s[i+1] == '(':
			i += 1 + r.sub(s[i+1:])
			w.Literal = false
		case c == '@' && r.dialect == PowerShell && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			if s[i+1] == '{' {
				i += 1 + matching(s[i+1:]) // a hashtable: its value is known only at run time
			} else {
				i += 1 + r.sub(s[i+1:])
			}
			w.Literal = false
		case c == '$' && r.dialect == PowerShell:
			i += r.variable(s[i:], &b, &w)
		case c == '(':
			if b.Len() > 0 && first {
				return r.finish(b.String(), w), i // iex(…), echo(: the name ends where its argument starts
			}
			if b.Len() > 0 && r.dialect == Cmd {
				b.WriteByte(c) // C:\x(1): in cmd, a parenthesis inside a word is the word's
				i++
				continue
			}
			i += r.sub(s[i:])
			w.Literal = false
		case c == '{' && r.dialect == PowerShell:
			n := matching(s[i:])
			if n > 1 {
				r.blocks = append(r.blocks, s[i+1:i+n-1]) // read where its command runs, its items known
			}
			i += n
			w.Literal = false
		case c == '[' && r.dialect == PowerShell && b.Len() == 0:
			i += matching(s[i:]) // a type ([IO.File]::…) or a cast: its value is known only at run time
			w.Literal = false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return r.finish(b.String(), w), i
}

// finish makes a word's text a path as the bash reading writes one: backslashes are separators, a UNC
// path (\\host\share) is a network destination, a registry path (HKCU:\…) is under /registry, and a cmd
// /switch is an option (-switch), as cmd's paths never start with a slash.
func (r *winReader) finish(text string, w Word) Word {
	if !w.Literal {
		w.Value = text + Unknown
		return w
	}
	if r.dialect == Cmd && isSwitch(text) {
		w.Value = "-" + asciiLower(text[1:])
		return w
	}
	v := strings.ReplaceAll(text, "\\", "/")
	lower := asciiLower(v)
	switch {
	case strings.HasPrefix(v, "//") && len(v) > 2:
		v = "smb:" + v
	case strings.HasPrefix(lower, "registry::"):
		v = registryPath(lower[len("registry::"):])
	case isRegistryKey(lower):
		v = registryPath(lower)
	}
	w.Value = v
	w.Glob = strings.ContainsAny(v, "*?")
	return w
}

// isSwitch says whether a word is a Windows program's /switch (/s, /IM, /grant:r, /?).
func isSwitch(v string) bool {
	if len(v) < 2 || v[0] != '/' || !isLetter(v[1]) && v[1] != '?' {
		return false
	}
	return !strings.ContainsAny(v[1:], `/\.`)
}

// isRegistryKey says whether a word names a registry key: a hive's drive (HKCU:\…) or its name (HKLM\…,
// HKEY_LOCAL_MACHINE\…), as PowerShell and reg.exe write them.
func isRegistryKey(lower string) bool {
	hive, _, _ := strings.Cut(lower, "/")
	hive = strings.TrimSuffix(hive, ":")
	switch hive {
	case "hklm", "hkcu", "hkcr", "hku", "hkcc", "hkey_local_machine", "hkey_current_user", "hkey_classes_root", "hkey_users":
		return strings.Contains(lower, "/")
	}
	return false
}

// registryPath writes a registry key as a path under /registry: hive short names (hklm, hkcu), lowercase,
// since the registry ignores case.
func registryPath(k string) string {
	hive, rest, _ := strings.Cut(strings.Replace(k, ":/", "/", 1), "/")
	switch hive {
	case "hkey_local_machine":
		hive = "hklm"
	case "hkey_current_user":
		hive = "hkcu"
	case "hkey_classes_root":
		hive = "hkcr"
	case "hkey_users":
		hive = "hku"
	}
	return "/registry/" + strings.TrimSuffix(hive+"/"+rest, "/")
}

// doubleQuoted reads a "…" string: PowerShell's with ` escapes, variables and $(…); cmd's with %VAR%.
func (r *winReader) doubleQuoted(s string, b *strings.Builder, w *Word) int {
	i := 1
	for i < len(s) && s[i] != '"' {
		c := s[i]
		switch {
		case c == '`' && r.dialect == PowerShell && i+1 < len(s):
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i+1])
			}
			i += 2
		case c == '$' && r.dialect == PowerShell && i+1 < len(s) && s[i+1] == '(':
			i += 1 + r.sub(s[i+1:])
			w.Literal = false
		case c == '$' && r.dialect == PowerShell:
			i += r.variable(s[i:], b, w)
		case c == '%' && r.dialect == Cmd:
			i += r.cmdVariable(s[i:], b, w)
		default:
			b.WriteByte(c)
			i++
		}
	}
	if i < len(s) {
		i++
	}
	return i
}

// variable expands a PowerShell variable ($HOME, ${env:USERPROFILE}, $env:TEMP): a place the table names,
// a literal value assigned earlier in the line, or a value known only at run time.
func (r *winReader) variable(s string, b *strings.Builder, w *Word) int {
	var name string
	n := 1
	if strings.HasPrefix(s, "${") {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			w.Literal = false
			return len(s)
		}
		name, n = s[2:end], end+1
	} else {
		j := 1
		for j < len(s) && (isNameByte(s[j]) || s[j] == ':' && j+1 < len(s) && isNameByte(s[j+1]) && strings.EqualFold(s[1:j], "env")) {
			j++
		}
		name, n = s[1:j], j
		if name == "" {
			b.WriteByte('$')
			return 1
		}
	}
	lower := asciiLower(name)
	if (lower == "_" || lower == "psitem") && r.item != nil {
		b.WriteString(r.item.Value)
		w.Literal = w.Literal && r.item.Literal
		// a property of the item ($_.FullName, $_.Name) names it too
		if n < len(s) && s[n] == '.' {
			j := n + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			if j > n+1 && (j == len(s) || s[j] != '(') {
				n = j
			}
		}
		return n
	}
	if v, ok := dialects().PowerShell.Variables[lower]; ok {
		b.WriteString(v)
		return n
	}
	switch lower {
	case "null", "true", "false":
		b.WriteString("$" + lower)
		return n
	}
	if _, ok := r.z.state.varData["ps:"+lower]; ok {
		r.used = append(r.used, "ps:"+lower)
	}
	if v, ok := r.z.state.vars["ps:"+lower]; ok && v != Unknown {
		b.WriteString(v)
		return n
	}
	w.Literal = false
	return n
}

// cmdVariable expands a cmd variable (%USERPROFILE%); %%i and %i of a for loop, or a variable the table
// does not name, are known only at run time.
func (r *winReader) cmdVariable(s string, b *strings.Builder, w *Word) int {
	if strings.HasPrefix(s, "%%") && len(s) > 2 && isLetter(s[2]) {
		w.Literal = false // a for loop's variable in a batch file
		return 3
	}
	end := strings.IndexByte(s[1:], '%')
	if end < 0 || strings.IndexFunc(s[1:1+end], func(c rune) bool { return c > 127 || !isNameByte(byte(c)) }) >= 0 {
		if len(s) > 1 && isLetter(s[1]) {
			w.Literal = false // a for loop's variable: %i
			return 2
		}
		b.WriteByte('%')
		return 1
	}
	name := asciiLower(s[1 : 1+end])
	if v, ok := dialects().Cmd.Variables[name]; ok {
		b.WriteString(v)
		return end + 2
	}
	w.Literal = false
	if name == "" { // %%i
		return 2
	}
	return end + 2
}

// sub reads a parenthesized subexpression where it stands: its commands are recorded (and noted, so that
// what they read flows into what the command sends). It returns the bytes it took.
func (r *winReader) sub(s string) int {
	n := matching(s)
	if n > 1 {
		from := len(r.z.a.Commands)
		saved := r.subs
		inner := &winReader{z: r.z, dialect: r.dialect, via: r.via, depth: r.depth + 1}
		if r.depth+1 <= MaxDepth {
			inner.statements(s[1 : n-1])
		}
		r.subs = append(saved, [2]int{from, len(r.z.a.Commands)})
	}
	return n
}

// block reads a script block's commands where it stands: they may run (ForEach-Object, Invoke-Command).
func (r *winReader) block(s string, item *Word) {
	if r.depth+1 > MaxDepth {
		return
	}
	saved := r.z.feed
	r.z.feed = nil
	defer func() { r.z.feed = saved }()
	inner := &winReader{z: r.z, dialect: r.dialect, via: r.via, depth: r.depth + 1, item: item}
	if item == nil {
		inner.item = r.item // a block inside a block: the outer one's item
	}
	inner.statements(itemMethods.ReplaceAllStringFunc(s, itemMethod))
}

// itemMethods are the .NET methods a file or directory object is deleted, moved or copied by, called on
// a pipeline's item ($_.Delete(), $PSItem.MoveTo(…)).
var itemMethods = regexp.MustCompile(`(?i)\$(_|psitem)\.(delete|moveto|copyto)\s*\(([^)]*)\)`)

// itemMethod writes such a call as the cmdlet that does the same: Delete($true), which deletes a
// directory's tree, as Remove-Item -Recurse.
func itemMethod(call string) string {
	m := itemMethods.FindStringSubmatch(call)
	arg := strings.TrimSpace(m[3])
	switch asciiLower(m[2]) {
	case "delete":
		if strings.EqualFold(arg, "$true") {
			return "Remove-Item $_ -Recurse"
		}
		return "Remove-Item $_"
	case "moveto":
		return "Move-Item $_ " + arg
	}
	return "Copy-Item $_ " + arg
}

// matching returns the length of the bracketed text s starts with, through its closing bracket, quotes
// and nested brackets skipped; all of s when it does not close.
func matching(s string) int {
	n := len(s)
	walkBrackets(s, '`', "'\"", func(i int, c byte, depth int) bool {
		if depth == 0 && strings.IndexByte(")]}", c) >= 0 {
			n = i + 1
			return false
		}
		return true
	})
	return n
}

// asciiLower lowercases ASCII letters only: PowerShell's and cmd's names are ASCII, and a byte that is no
// UTF-8 must stay itself (strings.ToLower would make it U+FFFD, Unknown).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
