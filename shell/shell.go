// Package shell analyzes shell command lines without running them: it parses a command with a real bash
// parser (mvdan.cc/sh), reports every simple command it would run, whatever hides it (pipelines, lists,
// subshells, command and process substitution, strings run by shells, wrappers, absolute program paths,
// quoting and escapes), and reduces each command to its effects: what it runs, deletes, writes, reads and
// sends, and the system state and the state beyond files it changes (effects.go). What each program does
// with its words is data (programs/programs.yaml, reviewed; programs/fig.json, generated from the Fig
// autocomplete specs); inline code in other languages is scanned with programs/code.yaml. The line's state
// (working directory, variables, loop items, aliases, symlinks, files it wrote or downloaded) is followed
// from command to command. It also reports structural findings no single command shows: fork bombs, remote
// code, reverse shells, program names and code known only at run time. A line of plain commands joined by
// &&, || or ;, the usual case, is split without the parser, to the same analysis (plain.go).
//
// It never executes, expands or evaluates anything, and it never reads the environment: $HOME is taken to
// mean ~, $TMPDIR /tmp, a variable assigned earlier in the line its value, every other expansion "known
// only at run time". Policy lives elsewhere (policy/commands). The Analysis and Effect types are stable
// within a minor version; finding kinds, effect classes and table entries may be added.
package shell

import (
	"errors"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one shell word, resolved as far as it can be without running anything.
type Word struct {
	// Value is the word with quotes and escapes removed and $HOME / ${HOME} written as ~. A part known only
	// at run time (another variable, a command substitution, arithmetic) is written as Unknown.
	Value string
	// Literal is false when part of the word is known only at run time.
	Literal bool
	// Glob is true when the word has unquoted glob characters or a brace expansion.
	Glob bool
	// Split is true when the word holds an unquoted expansion known only at run time, or an array's
	// elements ("${a[@]}"): it may be several words, options among them.
	Split bool
}

// Unknown stands in a Word's Value for a part known only at run time.
const Unknown = "\uFFFD"

// Command is one simple command a command line would run.
type Command struct {
	// Program is the base name of the program ("rm" for "/bin/rm"); empty for a bare assignment.
	Program string
	// Args are the words after the program.
	Args []Word
	// Assigns are the variable assignments of the command (FOO=bar cmd, export FOO=bar), as NAME=value.
	Assigns []string
	// Via names the wrappers and shells the command runs inside, outermost first ("sudo", "bash -c").
	Via []string
}

// FindingKind names a structural finding.
type FindingKind string

// Finding kinds.
const (
	// ForkBomb: a function that calls itself in a pipeline or in the background.
	ForkBomb FindingKind = "fork_bomb"
	// RemoteCode: downloaded content reaches a shell or interpreter (curl … | sh, bash <(curl …), sh -c "$(wget …)").
	RemoteCode FindingKind = "remote_code"
	// ReverseShell: a redirection to /dev/tcp or /dev/udp, nc -e, socat exec:, an interpreter opening a socket to a shell.
	ReverseShell FindingKind = "reverse_shell"
	// DynamicProgram: a program name known only at run time ($(echo rm), ${X}, r{m,}), or a shell string
	// (bash -c, eval) that is not a literal.
	DynamicProgram FindingKind = "dynamic_program"
	// TooDeep: shells nested inside shells beyond what is analyzed.
	TooDeep FindingKind = "too_deep"
	// DynamicCode: code run by a shell or an interpreter that is known only at run time: decoded, computed,
	// or produced by another program (base64 -d | sh, python -c "exec(…)", eval of a variable).
	DynamicCode FindingKind = "dynamic_code"
	// TooComplex: the line is longer, nests deeper or costs more to analyze than its Limits allow. Nothing
	// else of the analysis is kept: a line analyzed in part must not read as one that runs only that part.
	TooComplex FindingKind = "too_complex"
)

// Finding is a structural fact about a command line.
type Finding struct {
	Kind FindingKind
	// Detail says what was found in general terms; it never quotes the command.
	Detail string
}

// Analysis is what a command line would do.
type Analysis struct {
	Commands []Command
	// Writes are files the command line writes: write redirections and the destinations of writing
	// programs (tee, cp, mv, install, ln, dd of=, sed -i, touch, truncate, curl -o, wget -O).
	Writes []Word
	// Reads are files read through input redirections.
	Reads []Word
	// Effects are what the line does, command by command: what it runs, deletes, writes, reads and sends,
	// and the system state and the state beyond files it changes.
	Effects  []Effect
	Findings []Finding
	// Scripts are the files the line wrote literal text into (echo '…' > x.sh, cat > x.py <<EOF), with
	// that text: a later call may run one by its name alone.
	Scripts []Script
	// Err is set when the command line does not parse; nothing else can then be trusted.
	Err error
}

// Script is a file a command line wrote literal text into, and the text.
type Script struct {
	Path, Text string
}

// Has reports whether the analysis has a finding of a kind.
func (a *Analysis) Has(k FindingKind) bool {
	for _, f := range a.Findings {
		if f.Kind == k {
			return true
		}
	}
	return false
}

// MaxDepth bounds how many shells inside shells are parsed (bash -c "sh -c '…'").
const MaxDepth = 8

var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// Analyze parses a command line and reports what it would run, within the default Limits. It is safe for
// concurrent use.
func Analyze(src string) *Analysis { return AnalyzeLimited(src, Limits{}) }

// AnalyzeLimited is Analyze within the given limits: a line over one of them is analyzed no further and
// has a TooComplex finding.
func AnalyzeLimited(src string, l Limits) *Analysis {
	l = l.withDefaults()
	if len(src) > l.MaxBytes {
		z := newAnalyzer(l)
		z.tooComplex(bytesDetail(len(src), l.MaxBytes))
		return z.a
	}
	if d := windowsDialect(src); d != Bash {
		return analyzeEither(src, []Dialect{d}, l)
	}
	if cmds, ok := splitPlain(src); ok {
		return analyzePlain(cmds, l)
	}
	a := analyzeWithParser(src, l)
	if a.Err != nil && !strings.Contains(strings.TrimSpace(src), "\n") && !a.Has(TooComplex) && windowsSyntax(src) {
		// bash runs nothing of a line it cannot parse; PowerShell or cmd may run one written in their
		// syntax (IEX (iwr …).Content, & 'rm' -r ~, r`m, for %i in (…) do …)
		return analyzeEither(src, []Dialect{PowerShell, Cmd}, l)
	}
	return a
}

// analyzeEither reads a line written like a Windows shell's, given to a tool whose shell is not known, as
// bash would and as that shell would: it is judged by what either would do. A line bash cannot parse
// runs nothing in bash when it is one line; a script of several lines runs those before the error, so
// the parse error stands.
func analyzeEither(src string, ds []Dialect, l Limits) *Analysis {
	z := newAnalyzer(l)
	z.windowsLike = ds[0]
	if cmds, ok := splitPlain(src); ok {
		analyzePlainWith(z, cmds)
	} else {
		z.parse(src, nil, 0)
	}
	bashErr := z.a.Err
	z.a.Err = nil
	z.windowsLike = Bash
	written := z.state.written // the scripts the bash reading saw written stand beside the others
	for _, d := range ds {
		z.state = lineState{}
		z.windowsLine(src, d, nil, 0)
	}
	if len(written) > 0 {
		if z.state.written == nil {
			z.state.written = map[string]string{}
		}
		for p, t := range written {
			if _, ok := z.state.written[p]; !ok {
				z.state.written[p] = t
			}
		}
	}
	if bashErr != nil && strings.Contains(strings.TrimSpace(src), "\n") {
		z.a.Err = bashErr
	}
	return z.done()
}

func newAnalyzer(l Limits) *analyzer {
	z := &analyzer{a: &Analysis{}, limits: l, own: budget{left: l.MaxSteps}, base: -1}
	z.budget = &z.own
	return z
}

// analyzePlain analyzes a plain line's commands as the walk analyzes their calls, then its pipelines, as
// parse checks them once the walk is done.
func analyzePlain(cmds []plainCommand, l Limits) *Analysis {
	return analyzePlainWith(newAnalyzer(l), cmds).done()
}

func analyzePlainWith(z *analyzer, cmds []plainCommand) *analyzer {
	var small [8][2]int
	ranges := small[:0] // each command's commands in Analysis.Commands, wrappers and shell strings included
	var prev *feed      // the feed of the stage before, for a chain of filters (ls | grep x | xargs rm)
	for k, c := range cmds {
		first := len(z.a.Commands)
		z.feed = nil
		if k > 0 && cmds[k-1].pipes {
			z.feed = &feed{from: ranges[k-1][0], to: ranges[k-1][1], prev: prev}
		}
		prev = z.feed
		z.command(c.words, nil, nil, 0)
		z.scripts(nil, first) // a plain line has no redirections, but tee may write a script
		ranges = append(ranges, [2]int{first, len(z.a.Commands)})
	}
	z.feed = nil
	for i := 0; i < len(cmds); {
		j := i
		for cmds[j].pipes {
			j++
		}
		if j > i {
			stages := ranges[i : j+1]
			z.piping(len(stages), func(k int, pred func(Command) bool) bool {
				return anyOf(z.a.Commands[stages[k][0]:stages[k][1]], pred)
			})
		}
		i = j + 1
	}
	return z
}

// analyzeWithParser is Analyze without the plain-line reading (plain.go).
func analyzeWithParser(src string, l Limits) *Analysis {
	z := newAnalyzer(l)
	z.parse(src, nil, 0)
	return z.done()
}

// done ends an analysis: one that ran out of its budget is too complex.
func (z *analyzer) done() *Analysis {
	for _, p := range slices.Sorted(maps.Keys(z.state.written)) {
		z.a.Scripts = append(z.a.Scripts, Script{Path: p, Text: z.state.written[p]})
	}
	if z.budget.spent && !z.a.Has(TooComplex) {
		z.tooComplex("analyzing the command line takes more than " + strconv.Itoa(z.limits.MaxSteps) + " steps")
	}
	return z.a
}

type analyzer struct {
	// windowsLike: the bash reading of a line written like a Windows shell's, whose own words bash does
	// not run as that shell means them (see command).
	windowsLike Dialect
	// movedDir: the command being recorded runs in a directory one of its options names (git -C).
	movedDir bool
	// fedInto maps a file a piped-into command wrote to what the stage before piped in (env | tee f).
	fedInto map[string][]Word
	// argVars are the variables the call being analyzed expands unresolved in its words ($GITHUB_TOKEN);
	// cmdVars keeps them by command, for the stage a pipe feeds (echo $TOKEN | nc host).
	argVars []string
	cmdVars map[int][]string
	a       *Analysis
	limits  Limits
	// budget is shared with the analyzers of nested checks (inside), so that the whole line's work
	// counts; the first analyzer's is its own.
	budget *budget
	own    budget
	// base is the stack depth where the first parse began (-1 before it), so that a shell string parsed
	// inside the walk counts its recursion from the same place as the line it came from.
	base int
	// piped holds the inner nodes of pipelines already checked, so a | b | c is checked once.
	piped map[*syntax.BinaryCmd]bool
	// byCall locates each call's commands in Analysis.Commands, for the pipeline checks after a walk.
	byCall map[*syntax.CallExpr][2]int
	// state is what the line has set up so far: working directory, variables, symlinks, aliases.
	state lineState
	// feed is the pipeline stage before the command being analyzed, body the heredoc or here-string it
	// reads, stdinFiles the files redirected into it.
	feed       *feed
	body       *Word
	stdinFiles []Word
	// feeds maps a pipeline stage's command to the stage before it; stmtStart is where each such stage's
	// commands begin in Analysis.Commands; bodies and inputs are each command's heredoc and input files.
	feeds     map[syntax.Command]*syntax.Stmt
	stmtStart map[*syntax.Stmt]int
	pending   map[syntax.Command]*feed
	bodies    map[syntax.Command]*Word
	inputs    map[syntax.Command][]Word
	outputs   map[syntax.Command][]Word
	redirs    map[syntax.Command][]*syntax.Redirect // each command's statement's redirections
}

func (z *analyzer) finding(k FindingKind, detail string) {
	for _, f := range z.a.Findings {
		if f.Kind == k && f.Detail == detail {
			return
		}
	}
	z.a.Findings = append(z.a.Findings, Finding{Kind: k, Detail: detail})
}

func (z *analyzer) parse(src string, via []string, depth int) {
	if depth > MaxDepth {
		z.finding(TooDeep, "shells nested more than "+strconv.Itoa(MaxDepth)+" deep")
		return
	}
	if z.budget.spent {
		return
	}
	r := &depthReader{src: src, maxDepth: z.limits.MaxDepth, base: z.base}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(r, "")
	parsers.Put(p)
	if z.base < 0 {
		z.base = r.base
	}
	if errors.Is(err, errTooDeep) {
		z.tooComplex("the command line nests deeper than the parser's limit of " + strconv.Itoa(z.limits.MaxDepth) + " frames")
		z.budget.spent = true // nothing after this is kept
		return
	}
	if err != nil {
		if z.a.Err == nil {
			z.a.Err = err
		}
		return
	}
	// Pipelines are checked after the walk, once every call's commands are recorded. The list is this
	// parse's own: a nested parse (bash -c) runs in the middle of the walk.
	var pipes []*syntax.BinaryCmd
	z.walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			z.statement(n)
		case *syntax.CallExpr:
			z.call(n, via, depth)
		case *syntax.DeclClause:
			c := Command{Program: n.Variant.Value, Via: via}
			for _, as := range n.Args {
				c.Assigns = append(c.Assigns, z.assign(as))
			}
			z.a.Commands = append(z.a.Commands, c)
			for _, as := range c.Assigns {
				z.envCode(len(z.a.Commands)-1, as, c.Program, via, depth)
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				z.loopVar(wi.Name.Value, wi.Items)
			}
		case *syntax.FuncDecl:
			z.funcDecl(n)
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				pipes = append(pipes, n)
				if z.feeds == nil {
					z.feeds = map[syntax.Command]*syntax.Stmt{}
				}
				src := lastStage(n.X)
				z.feeds[firstStage(n.Y).Cmd] = src
				if z.stmtStart == nil {
					z.stmtStart = map[*syntax.Stmt]int{}
				}
				z.stmtStart[src] = 0 // noted here, set when the walk reaches it (it comes after this node)
			}
		}
		return true
	})
	for _, n := range pipes {
		if !z.piped[n] {
			z.pipeline(n)
		}
	}
}

func (z *analyzer) assign(as *syntax.Assign) string {
	name := ""
	if as.Name != nil {
		name = as.Name.Value
	}
	if as.Value == nil {
		z.assignVar(name, "", as.Array == nil && !as.Append)
		return name + "="
	}
	w := z.resolve(as.Value)
	z.assignVar(name, w.Value, w.Literal && !as.Append && as.Index == nil)
	z.carryInto(name, as.Value, as.Append)
	return name + "=" + w.Value
}

// carryInto notes the files a variable's value was read from (c=$(cat .env), or another such variable's
// value): a sender given "$c" sends them.
func (z *analyzer) carryInto(name string, value *syntax.Word, appending bool) {
	st := &z.state
	var data []Word
	if appending {
		data = st.varData[name]
	}
	if hasSubstitution(&syntax.CallExpr{Args: []*syntax.Word{value}}) {
		data = append(data, z.substitutionData([]*syntax.Word{value})...)
	}
	for _, v := range expandedVars([]*syntax.Word{value}) {
		data = append(data, st.varData[v]...)
	}
	if len(data) == 0 {
		delete(st.varData, name)
		return
	}
	if st.varData == nil {
		st.varData = map[string][]Word{}
	}
	st.varData[name] = data
}

// statement notes what a statement gives the command in it: the stage before it in a pipeline, a heredoc
// or here-string, files redirected into it; then its redirections.
func (z *analyzer) statement(st *syntax.Stmt) {
	if _, feeds := z.stmtStart[st]; feeds {
		z.stmtStart[st] = len(z.a.Commands) // a stage that feeds the next: where its commands begin
	}
	if st.Cmd != nil {
		if len(st.Redirs) > 0 {
			if z.redirs == nil {
				z.redirs = map[syntax.Command][]*syntax.Redirect{}
			}
			z.redirs[st.Cmd] = st.Redirs
		}
		if src, ok := z.feeds[st.Cmd]; ok {
			if z.pending == nil {
				z.pending = map[syntax.Command]*feed{}
			}
			f := &feed{from: z.stmtStart[src], to: len(z.a.Commands), prev: z.pending[src.Cmd]}
			if ce, ok := src.Cmd.(*syntax.CallExpr); ok {
				f.body = z.bodies[ce]
			}
			z.pending[st.Cmd] = f
		}
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
				body := r.Hdoc // a heredoc's body; a here-string's word
				if r.Op == syntax.WordHdoc {
					body = r.Word
				}
				if body != nil {
					w := z.resolve(body)
					if z.bodies == nil {
						z.bodies = map[syntax.Command]*Word{}
					}
					z.bodies[st.Cmd] = &w
				}
			case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob:
				if r.Word != nil {
					if z.outputs == nil {
						z.outputs = map[syntax.Command][]Word{}
					}
					z.outputs[st.Cmd] = append(z.outputs[st.Cmd], z.resolvePath(z.resolve(r.Word)))
				}
			case syntax.RdrIn:
				if r.Word != nil {
					if z.inputs == nil {
						z.inputs = map[syntax.Command][]Word{}
					}
					z.inputs[st.Cmd] = append(z.inputs[st.Cmd], z.resolvePath(z.resolve(r.Word)))
				}
			}
		}
	}
	z.redirects(st.Redirs)
}

// firstStage and lastStage are the first and last simple stages of a pipeline.
func firstStage(s *syntax.Stmt) *syntax.Stmt { return pipeEnd(s, true) }

func lastStage(s *syntax.Stmt) *syntax.Stmt { return pipeEnd(s, false) }

func pipeEnd(s *syntax.Stmt, first bool) *syntax.Stmt {
	for {
		bc, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll {
			return s
		}
		if first {
			s = bc.X
		} else {
			s = bc.Y
		}
	}
}

// ifs is the characters an unquoted expansion splits on: $IFS as the line set it, blanks by default. An
// IFS the analysis cannot know splits on blanks and on the punctuation a line would choose instead.
func (z *analyzer) ifs() string {
	v, ok := z.state.vars["IFS"]
	switch {
	case !ok:
		return " \t\n"
	case v == Unknown:
		return " \t\n,;:|+=%@#^~"
	}
	return v
}

// splitOn splits an unquoted expansion's value into words at any of the characters of ifs.
func splitOn(s, ifs string) []Word {
	var out []Word
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(ifs, r) }) {
		out = append(out, Word{Value: f, Literal: true})
	}
	return out
}

// call records a simple command, then looks inside it: wrappers, shell strings, findings.
func (z *analyzer) call(ce *syntax.CallExpr, via []string, depth int) {
	if name, alts := z.loopVarOf(ce); len(alts) > 0 {
		// a loop variable takes each of its items in turn: the command runs once with each
		saved := z.state.vars[name]
		for _, alt := range alts {
			z.state.vars[name] = alt
			z.callOnce(ce, via, depth)
		}
		z.state.vars[name] = saved
		return
	}
	z.callOnce(ce, via, depth)
}

func (z *analyzer) callOnce(ce *syntax.CallExpr, via []string, depth int) {
	var assigns []string
	for _, as := range ce.Assigns {
		assigns = append(assigns, z.assign(as))
	}
	words := make([]Word, 0, len(ce.Args))
	ifs := z.ifs()
	for _, w := range ce.Args {
		r := z.resolve(w)
		if r.Literal && isBareExpansion(w) && strings.ContainsAny(r.Value, ifs) {
			words = append(words, splitOn(r.Value, ifs)...) // an unquoted variable splits on $IFS
			continue
		}
		words = append(words, r)
	}
	if len(words) == 0 {
		z.a.Commands = append(z.a.Commands, Command{Assigns: assigns, Via: via})
		for _, as := range assigns {
			z.envCode(len(z.a.Commands)-1, as, "", via, depth)
		}
		return
	}
	first := len(z.a.Commands)
	savedFeed, savedBody, savedInputs, savedVars := z.feed, z.body, z.stdinFiles, z.argVars
	z.feed, z.body, z.stdinFiles = z.pending[ce], z.bodies[ce], z.inputs[ce]
	z.argVars = append(z.argVars[:len(z.argVars):len(z.argVars)], expandedVars(ce.Args)...)
	z.command(words, assigns, via, depth)
	z.readInto(first)
	if len(z.argVars) > 0 {
		if z.cmdVars == nil {
			z.cmdVars = map[int][]string{}
		}
		for ci := first; ci < len(z.a.Commands); ci++ {
			z.cmdVars[ci] = z.argVars // what a later stage piped from these commands may carry
		}
	}
	z.argVars = savedVars
	z.scripts(z.outputs[ce], first)
	z.feed, z.body, z.stdinFiles = savedFeed, savedBody, savedInputs
	if z.byCall == nil {
		z.byCall = map[*syntax.CallExpr][2]int{}
	}
	z.byCall[ce] = [2]int{first, len(z.a.Commands)}
	if anyOf(z.a.Commands[first:], isCodeRunner) {
		z.substitutions(ce, via, depth)
	}
	if len(z.state.varData) > 0 && first < len(z.a.Commands) {
		// A variable holding what files held ("$x", where x=$(cat .env)) gives the command their content:
		// echo "$x" | nc … sends them.
		var data []Word
		for _, v := range expandedVars(ce.Args) {
			data = append(data, z.state.varData[v]...)
		}
		if len(data) > 0 {
			z.effect(Effect{Kind: Reads, Program: z.a.Commands[first].Program, Targets: data, Command: first})
		}
	}
	z.sendsSubstituted(ce, first)
}

// isBareExpansion says whether a word is one unquoted parameter expansion ($X, ${X}), which the shell
// splits on blanks.
func isBareExpansion(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	_, ok := w.Parts[0].(*syntax.ParamExp)
	return ok
}

// loopVar records a for loop's variable: the items, when each is written out (16 at most), else a value
// known only at run time.
func (z *analyzer) loopVar(name string, items []*syntax.Word) {
	vals := make([]string, 0, len(items))
	for _, it := range items {
		w := z.resolve(it)
		if !w.Literal || len(items) > maxLoopItems || strings.Contains(w.Value, loopSep) {
			z.assignVar(name, "", false)
			return
		}
		vals = append(vals, w.Value)
	}
	if len(vals) == 0 {
		z.assignVar(name, "", false) // for x; do …: the positional parameters
		return
	}
	if z.state.vars == nil {
		z.state.vars = map[string]string{}
	}
	z.state.vars[name] = strings.Join(vals, loopSep)
}

const (
	loopSep      = "\x1f"
	maxLoopItems = 16
)

// loopVarOf returns a loop variable a call's words use, with its items.
func (z *analyzer) loopVarOf(ce *syntax.CallExpr) (string, []string) {
	if len(z.state.vars) == 0 {
		return "", nil
	}
	name := ""
	z.walk(ce, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil && name == "" {
			if strings.Contains(z.state.vars[pe.Param.Value], loopSep) {
				name = pe.Param.Value
			}
		}
		return name == ""
	})
	if name == "" {
		return "", nil
	}
	return name, strings.Split(z.state.vars[name], loopSep)
}

// anyRecorded reports whether pred holds for a command the walk recorded for the calls inside a node. It
// looks at them where they are, without a copy: a node is looked at once for each pipeline around it.
func (z *analyzer) anyRecorded(n syntax.Node, pred func(Command) bool) bool {
	if st, ok := n.(*syntax.Stmt); ok {
		if ce, ok := st.Cmd.(*syntax.CallExpr); ok && !hasSubstitution(ce) {
			if r, ok := z.byCall[ce]; ok {
				return anyOf(z.a.Commands[r[0]:r[1]], pred) // the usual stage: one simple command, no walk needed
			}
		}
	}
	found := false
	z.walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok {
			if r, ok := z.byCall[ce]; ok && z.budget.take(r[1]-r[0]) {
				found = anyOf(z.a.Commands[r[0]:r[1]], pred)
			}
		}
		return !found
	})
	return found
}

// walk is syntax.Walk counted against the budget: each node visited is a step, and once the budget is
// spent no walk goes further.
func (z *analyzer) walk(n syntax.Node, f func(syntax.Node) bool) {
	syntax.Walk(n, func(n syntax.Node) bool {
		if n == nil {
			return f(n)
		}
		return z.budget.take(1) && f(n)
	})
}

// command records words[0] as a program with its arguments, and follows wrappers into the command they run.
func (z *analyzer) command(words []Word, assigns []string, via []string, depth int) {
	// A directory an option runs the program in (git -C, env --chdir) holds for it and the command it
	// runs, not for the rest of the line.
	outerDir, moved := z.state.cwd, false
	defer func() {
		if moved {
			z.state.cwd = outerDir
		}
	}()
	for len(words) > 0 && z.budget.take(1) {
		w := words[0]
		if z.windowsArtifact(words) {
			return
		}
		if !w.Literal || w.Glob || w.Value == "" {
			z.finding(DynamicProgram, "a program name known only at run time")
			z.a.Commands = append(z.a.Commands, Command{Program: Unknown, Args: words[1:], Assigns: assigns, Via: via})
			return
		}
		if a, ok := z.state.aliases[w.Value]; ok {
			// an alias defined earlier in the line: its text stands for the name (once: an alias is not
			// expanded inside itself)
			delete(z.state.aliases, w.Value)
			rest := make([]string, 0, len(words)-1)
			for _, x := range words[1:] {
				rest = append(rest, "'"+strings.ReplaceAll(x.Value, "'", `'\''`)+"'")
			}
			z.parse(a+" "+strings.Join(rest, " "), appendVia(via, "alias "+w.Value), depth+1)
			return
		}
		prog := programs().knownName(path.Base(z.programPath(w)))
		args := words[1:]
		ci := len(z.a.Commands)
		z.a.Commands = append(z.a.Commands, Command{Program: prog, Args: args, Assigns: assigns, Via: via})
		for _, as := range assigns {
			z.envCode(ci, as, prog, via, depth)
		}
		z.reverseShell(prog, args)
		if strings.Contains(w.Value, "/") {
			z.runsFile(ci, w, prog, via, depth)
		}
		inner, wrapper := z.programEffects(ci, prog, args, via, depth)
		moved = moved || z.movedDir
		z.movedDir = false
		if len(inner) == 0 {
			return
		}
		via = appendVia(via, wrapper)
		words, assigns = inner, nil
		depth++
		if depth > MaxDepth {
			z.finding(TooDeep, "wrappers nested more than "+strconv.Itoa(MaxDepth)+" deep")
			return
		}
	}
}

// sendsSubstituted adds to the sends of a call the files its substitutions read: curl -H "$(cat .env)".
func (z *analyzer) sendsSubstituted(ce *syntax.CallExpr, first int) {
	var data []Word
	computed := false
	// The call's effects are the last ones recorded: commands are recorded in order.
	for i := len(z.a.Effects) - 1; i >= 0 && z.a.Effects[i].Command >= first; i-- {
		e := &z.a.Effects[i]
		if e.Kind != Sends {
			continue
		}
		if !computed {
			words := ce.Args
			for _, r := range z.redirs[ce] { // what its here-strings, heredocs and input files carry
				if r.Word != nil {
					words = append(words[:len(words):len(words)], r.Word)
				}
				if r.Hdoc != nil {
					words = append(words[:len(words):len(words)], r.Hdoc)
				}
			}
			data, computed = z.substitutionData(words), true
			for _, v := range expandedVars(words) {
				data = append(data, z.state.varData[v]...) // "$c", where c=$(cat .env)
			}
		}
		e.Data = append(e.Data, data...)
	}
}

// readInto notes the files a read or mapfile call fills its variables from (read -r x < .env): their
// content is what the variables hold, as after x=$(cat .env).
func (z *analyzer) readInto(ci int) {
	if ci >= len(z.a.Commands) {
		return
	}
	c := z.a.Commands[ci]
	spec := programs().lookup(c.Program)
	if spec == nil || spec.ReadsInto == "" {
		return
	}
	var data []Word
	for i := range z.a.Effects {
		if e := &z.a.Effects[i]; e.Kind == Reads && e.Command == ci {
			data = append(data, e.Targets...) // its input redirection
		}
	}
	data = append(data, z.feedData()...)
	if len(data) == 0 {
		return
	}
	pa := parseArgs(spec, c.Args, false)
	names := append(pa.values([]string{"-a"}), pa.operands...)
	if len(names) == 0 {
		names = []Word{{Value: spec.ReadsInto, Literal: true}}
	}
	st := &z.state
	if st.varData == nil {
		st.varData = map[string][]Word{}
	}
	for _, n := range names {
		if n.Literal {
			st.varData[n.Value] = data
		}
	}
}

// windowsArtifact says whether the bash reading of a line written like a Windows shell's meets words that
// bash would not run as that shell means them, which the Windows reading reads: a PowerShell assignment
// ($x = …, whose variable bash knows only at run time) and cmd's built-ins (rd, del, erase, copy, …),
// which are no programs of bash's.
func (z *analyzer) windowsArtifact(words []Word) bool {
	switch z.windowsLike {
	case PowerShell:
		if len(words) > 1 && !words[0].Literal && strings.HasPrefix(words[0].Value, Unknown) {
			switch words[1].Value {
			case "=", "+=", "-=", "*=", "/=":
				return true
			}
		}
	case Cmd:
		name := asciiLower(path.Base(words[0].Value))
		return words[0].Literal && cmdBuiltins[name] && name != "cmd"
	}
	return false
}

func appendVia(via []string, s string) []string {
	out := make([]string, len(via), len(via)+1)
	copy(out, via)
	return append(out, s)
}

var writeOps = map[syntax.RedirOperator]bool{
	syntax.RdrOut: true, syntax.AppOut: true, syntax.RdrClob: true, syntax.AppClob: true, syntax.RdrAll: true,
	syntax.RdrAllClob: true, syntax.AppAll: true, syntax.AppAllClob: true, syntax.RdrInOut: true,
}

func (z *analyzer) redirects(rs []*syntax.Redirect) {
	for _, r := range rs {
		if r.Word == nil {
			continue
		}
		w := z.resolvePath(z.resolve(r.Word))
		if strings.HasPrefix(w.Value, "/dev/tcp/") || strings.HasPrefix(w.Value, "/dev/udp/") {
			z.finding(ReverseShell, "a redirection to a network socket (/dev/tcp or /dev/udp)")
		}
		switch {
		case writeOps[r.Op]:
			z.effect(Effect{Kind: Writes, Program: "", Targets: []Word{w}, Command: len(z.a.Commands)})
		case r.Op == syntax.DplOut && !isFD(w.Value):
			z.effect(Effect{Kind: Writes, Targets: []Word{w}, Command: len(z.a.Commands)}) // >&file writes the file
		case r.Op == syntax.RdrIn:
			z.a.Reads = append(z.a.Reads, w)
			z.effect(Effect{Kind: Reads, Targets: []Word{w}, Command: len(z.a.Commands)})
		}
	}
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// hasSubstitution reports whether a call's words hold command or process substitutions (calls of their own).
func hasSubstitution(ce *syntax.CallExpr) bool {
	for _, w := range ce.Args {
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				return true
			case *syntax.DblQuoted:
				for _, q := range p.Parts {
					if _, ok := q.(*syntax.CmdSubst); ok {
						return true
					}
				}
			}
		}
	}
	for _, as := range ce.Assigns {
		if as.Value != nil && hasSubstitution(&syntax.CallExpr{Args: []*syntax.Word{as.Value}}) {
			return true
		}
	}
	return false
}

// expandedVars are the names of the variables the words expand ($X, ${X}, "…$X…").
func expandedVars(words []*syntax.Word) []string {
	var out []string
	for _, w := range words {
		syntax.Walk(w, func(n syntax.Node) bool {
			if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
				out = append(out, pe.Param.Value)
			}
			return true
		})
	}
	return out
}
