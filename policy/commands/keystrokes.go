package commands

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/shell"
)

// keystrokeTools is what the policy knows of tools that type into a terminal or onto a screen (default.yaml,
// tools: terminal_input, screen_input, keystroke_keys, action_keys, typing_actions, enter_keys): a
// computer-use tool's type action, a write to a terminal session's input, tmux's send-keys. A terminal runs what is typed into it, and a guardrail cannot see which window has the focus,
// so what such a call types is judged as the command lines it would be.
type keystrokeTools struct {
	keys []string // the arguments that hold what is typed
	// actionKeys hold the action a computer-use call takes (Anthropic's action, OpenAI's type); when one
	// is present, only typingActions type: a click or a key press types nothing.
	actionKeys    []string
	typingActions map[string]bool
	// enterKeys name the Enter key in a list of keys to send (tmux's Enter and C-m).
	enterKeys map[string]bool
}

// typed returns what a call types, one text a member: a string, or a list of keys and strings sent one
// after another (an Enter key's name read as a line break). found is false when no member holds any or the
// call's action is not a typing one.
func (k keystrokeTools) typed(args *jsonobj.Object) (texts []string, found bool) {
	for _, v := range args.FoldMatches(k.actionKeys) {
		if a, ok := stringValue(v); ok && !k.typingActions[strings.ToLower(a)] {
			return nil, false
		}
	}
	for _, v := range args.FoldMatches(k.keys) {
		if s, ok := stringValue(v); ok {
			texts = append(texts, s)
		} else if keys, ok := stringsValue(v); ok {
			var b strings.Builder
			for _, key := range keys {
				if k.enterKeys[strings.ToLower(key)] {
					key = "\n"
				}
				b.WriteString(key)
			}
			texts = append(texts, b.String())
		}
	}
	return texts, len(texts) > 0
}

// checkTyped judges text typed into a terminal as the command lines it holds: the whole as a shell script,
// or, when it does not parse whole, each line that parses on its own, and, when it opens as SQL does, as a
// statement typed at a database's prompt. Text that is no command line (prose typed into a form) is
// typing, not a command, whatever the policy says of lines that do not parse. On a screen (onScreen), a
// text with a line that is no command line is a document being typed, not a terminal session.
func (c *Commands) checkTyped(texts []string, dialect shell.Dialect, onScreen bool) warden.Decision {
	for _, text := range texts {
		if d := c.checkTypedText(text, dialect, onScreen); d.Action != warden.ActionAllow {
			if len(d.Reasons) > 0 {
				d.Reasons[0].Message = "the text typed would run a command: " + d.Reasons[0].Message
			}
			return d
		}
	}
	return warden.Decision{Action: warden.ActionAllow, PolicyID: c.allowID}
}

func (c *Commands) checkTypedText(text string, dialect shell.Dialect, screen bool) warden.Decision {
	for _, l := range c.session(text, dialect, screen) {
		a := l.analysis
		if screen {
			a = asScreenTyping(a)
		}
		if d := c.CheckAnalysis(a); d.Action != warden.ActionAllow {
			return d
		}
	}
	// A database's prompt runs a statement when it ends with a semicolon (psql, mysql, sqlite3), which
	// also tells "truncate -s 0 app.log" typed at a shell's.
	if argv, ok := c.code.queryLanguages["sql"]; ok && opensAsSQL(text) && strings.Contains(text, ";") {
		if d := c.checkCommand(commandLine(argv, text)); d.Action != warden.ActionAllow && d.FirstReason().Code != CodeUnparsable {
			return d
		}
	}
	return warden.Allow()
}

// typedLine is a command line typed, with its analysis.
type typedLine struct {
	text     string
	analysis *shell.Analysis
}

// session returns the command lines a typed text holds: the whole, when it parses as a script; else each
// line that parses on its own, since a terminal runs each line as it is entered. On a screen, a text with a
// line that does not parse is a document being typed and holds none.
func (c *Commands) session(text string, dialect shell.Dialect, onScreen bool) []typedLine {
	parses := func(a *shell.Analysis) bool { return a.Err == nil || a.Has(shell.TooComplex) }
	if onScreen {
		text = withoutCommentLines(text)
	}
	if a := shell.AnalyzeDialect(text, dialect, c.limits); parses(a) {
		return []typedLine{{text, a}}
	}
	var out []typedLine
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		a := shell.AnalyzeDialect(line, dialect, c.limits)
		if !parses(a) {
			if onScreen {
				return nil
			}
			continue
		}
		out = append(out, typedLine{line, a})
	}
	return out
}

// asScreenTyping drops from an analysis of text typed onto a screen what reads as typing rather than a command:
// the doubt of a program known only at run time where its arguments are words ("`shfmt` formats shell
// programs", a code span of a message), not the options and paths a command line is given ("$(echo rm)
// -rf /" keeps it) nor code run from a value (eval "$(…)"); and what a line "does" that is code typed
// into an editor, its program a directory ("//" opening a comment) or its first argument another
// language's assignment or comparison ("format := …", "shutdown = true"). A terminal runs all of it, so
// text typed into one is judged whole.
func asScreenTyping(a *shell.Analysis) *shell.Analysis {
	unknownCommand := func(cmd shell.Command) bool {
		return strings.Contains(cmd.Program, shell.Unknown) && slices.ContainsFunc(cmd.Args, func(w shell.Word) bool {
			return strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "/") || strings.HasPrefix(w.Value, "~") || strings.HasPrefix(w.Value, ".")
		})
	}
	typing := func(e shell.Effect) bool {
		if e.Program == "/" || e.Program == "." || e.Program == ".." {
			return true
		}
		if e.Command < 0 || e.Command >= len(a.Commands) {
			return false
		}
		args := a.Commands[e.Command].Args
		return len(args) > 0 && codeOperators[args[0].Value]
	}
	runsValue := func(e shell.Effect) bool { return e.Kind == shell.Executes && e.Dynamic }
	dropDynamic := a.Has(shell.DynamicProgram) && !slices.ContainsFunc(a.Effects, runsValue) && !slices.ContainsFunc(a.Commands, unknownCommand)
	if !dropDynamic && !slices.ContainsFunc(a.Effects, typing) {
		return a
	}
	out := *a
	if dropDynamic {
		out.Findings = slices.DeleteFunc(slices.Clone(a.Findings), func(f shell.Finding) bool { return f.Kind == shell.DynamicProgram })
	}
	out.Effects = slices.DeleteFunc(slices.Clone(a.Effects), typing)
	return &out
}

// withoutCommentLines blanks the lines of a text typed onto a screen that open as another language's
// comment or a list's item ("// …", "/* …", " * …", "<!-- …", "-- …", "* item"): a shell would read
// their first word as a program (a glob, a directory), where they are a document's lines.
func withoutCommentLines(text string) string {
	if !strings.ContainsAny(text, "/*<-") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		t := strings.TrimLeft(line, " \t")
		for _, open := range [...]string{"//", "/*", "*", "<!--", "-->", "-- "} {
			if strings.HasPrefix(t, open) {
				if strings.HasSuffix(line, "\n") { // keep the line break
					lines[i] = "\n"
				} else {
					lines[i] = ""
				}
				break
			}
		}
	}
	return strings.Join(lines, "")
}

// codeOperators are the assignment and comparison operators of programming languages that a shell reads
// as a word.
var codeOperators = map[string]bool{":=": true, "=": true, "+=": true, "-=": true, "*=": true, "/=": true, "|=": true,
	"==": true, "!=": true, "===": true, "<-": true, "=>": true, "->": true, "::": true}

// Typed returns the command lines a call to a tool that types into a terminal or onto a screen types,
// one a line, and whether it types any: what a trace's call ran by typing it. It is for readers of
// recorded calls (package detect); the policy judges each typed text itself.
func (c *Commands) Typed(name string, raw json.RawMessage) (string, bool) {
	args, ok := readArguments(raw)
	if !ok || !c.typesKeys(name, args) {
		return "", false
	}
	texts, _ := c.keystrokes.typed(args)
	kind := c.kindOf(name)
	var lines []string
	for _, text := range texts {
		for _, l := range c.session(text, dialectOf(kind), kind == toolScreenInput) {
			lines = append(lines, l.text)
		}
	}
	return strings.Join(lines, "\n"), len(lines) > 0
}

// typesKeys reports whether a call's tool types what it is given: a keystroke tool, or a shell tool given
// typed input and no command.
func (c *Commands) typesKeys(name string, args *jsonobj.Object) bool {
	switch c.kindOf(name) {
	case toolTerminalInput, toolScreenInput:
		return true
	case toolShell, toolPowerShell, toolCmd:
		return len(args.FoldMatches(slices.Concat(c.CommandKeys, c.CommandListKeys))) == 0
	}
	return false
}
