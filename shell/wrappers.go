package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapper says how a program that runs another command takes its options.
type wrapper struct {
	// valued lists the options that take a value as the next word (short as "u", long as "user").
	valued string
	// positional is how many words after the options come before the command (timeout's duration,
	// chroot's new root, flock's file).
	positional int
	// assigns: NAME=value words before the command are environment settings (env).
	assigns bool
	// stringOpt names an option whose value is a whole command line (su -c, flock -c, env -S).
	stringOpt string
	// joined: the rest of the words form one command line run by a shell (watch).
	joined bool
}

var wrappers = map[string]wrapper{
	"sudo":         {valued: " u g h p C D r t T U R "},
	"doas":         {valued: " u C "},
	"run0":         {valued: " u g D "},
	"pkexec":       {valued: " user "},
	"env":          {valued: " u unset C chdir ", assigns: true, stringOpt: "S"},
	"nohup":        {},
	"exec":         {valued: " a "},
	"command":      {},
	"builtin":      {},
	"time":         {valued: " f o format output "},
	"nice":         {valued: " n adjustment "},
	"ionice":       {valued: " c n p P u class classdata "},
	"stdbuf":       {valued: " i o e input output error "},
	"timeout":      {valued: " s k signal kill-after ", positional: 1},
	"xargs":        {valued: " I L n P d E s a i l max-args max-procs delimiter eof max-chars arg-file replace max-lines "},
	"setsid":       {},
	"unbuffer":     {},
	"chroot":       {valued: " userspec groups ", positional: 1},
	"flock":        {valued: " w E timeout conflict-exit-code ", positional: 1, stringOpt: "c"},
	"strace":       {valued: " e o p s u E I b a X "},
	"ltrace":       {valued: " e o p s u n a "},
	"su":           {valued: " s g G shell group supp-group ", stringOpt: "c"},
	"runuser":      {valued: " u g G s user group supp-group shell ", stringOpt: "c"},
	"sg":           {positional: 1},
	"watch":        {valued: " n d interval differences ", joined: true},
	"busybox":      {},
	"catchsegv":    {},
	"proxychains":  {valued: " f "},
	"proxychains4": {valued: " f "},
	"torsocks":     {},
	"firejail":     {},
	"caffeinate":   {},
}

// shells run a command string given with -c (or read one from stdin); eval-likes join their arguments.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "yash": true,
	"posh": true, "rbash": true, "fish": true, "csh": true, "tcsh": true,
}

// unwrap returns the command a wrapper runs, or the command string a shell or eval runs.
func unwrap(prog string, args []Word) (inner []Word, shellString *Word, ok bool) {
	if shells[prog] {
		return nil, shellCommandString(args), false
	}
	if prog == "eval" {
		return nil, joinWords(args), false
	}
	if prog == "command" && len(args) > 0 && (args[0].Value == "-v" || args[0].Value == "-V") {
		return nil, nil, false // a lookup, not a run
	}
	w, isWrapper := wrappers[prog]
	if !isWrapper {
		return nil, nil, false
	}
	i := 0
	for i < len(args) {
		a := args[i].Value
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		long := strings.HasPrefix(a, "--")
		if !long && len(name) > 1 {
			// a bundle of short options: only its last letter can take a value (-nu user)
			for _, c := range name[:len(name)-1] {
				if w.stringOpt == string(c) {
					return nil, ptr(joinRest(name[len(name)-1:], args[i+1:])), false
				}
			}
			name = name[len(name)-1:]
			if !strings.Contains(w.valued, " "+name+" ") && w.stringOpt != name {
				// the rest of the bundle may be the value itself (-n10)
				name = string(strings.TrimLeft(a, "-")[0])
			}
		}
		if w.stringOpt != "" && name == w.stringOpt {
			if hasValue {
				return nil, &Word{Value: value, Literal: args[i].Literal}, false
			}
			if i+1 < len(args) {
				return nil, &args[i+1], false
			}
			return nil, nil, false
		}
		if strings.Contains(w.valued, " "+name+" ") && !hasValue {
			i++ // the option's value
		}
		i++
	}
	if w.assigns {
		for i < len(args) && strings.Contains(args[i].Value, "=") && !strings.HasPrefix(args[i].Value, "=") {
			i++
		}
	}
	i += w.positional
	if i >= len(args) {
		return nil, nil, false
	}
	if w.joined {
		return nil, joinWords(args[i:]), false
	}
	return args[i:], nil, true
}

func ptr(w Word) *Word { return &w }

func joinRest(_ string, args []Word) Word {
	if len(args) == 0 {
		return Word{Literal: true}
	}
	return args[0]
}

// shellCommandString finds the string a shell runs with -c (bash -c, sh -lc, bash -xc 'cmd').
func shellCommandString(args []Word) *Word {
	for i, a := range args {
		v := a.Value
		if v == "--" || !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
			return nil // a script file, or stdin: nothing given inline
		}
		if !strings.HasPrefix(v, "--") && strings.Contains(v, "c") {
			if i+1 < len(args) {
				return &args[i+1]
			}
			return nil
		}
		if v == "-o" || v == "+o" || v == "-O" || v == "+O" {
			// takes an option name; skip it on the next round by pretending it is a flag
			continue
		}
	}
	return nil
}

func joinWords(args []Word) *Word {
	if len(args) == 0 {
		return nil
	}
	w := Word{Literal: true}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Value
		w.Literal = w.Literal && a.Literal
	}
	w.Value = strings.Join(parts, " ")
	return &w
}

// fetchers bring content from the network; interpreters run what they are given.
var (
	fetchers = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true, "http": true, "https": true,
		"nc": true, "ncat": true, "netcat": true, "telnet": true, "socat": true, "openssl": true, "lwp-download": true, "lynx": true}
	interpreters = map[string]bool{"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true,
		"nodejs": true, "php": true, "lua": true, "Rscript": true, "pwsh": true, "powershell": true, "tclsh": true, "eval": true,
		"source": true, ".": true, "deno": true, "bun": true}
)

func runsCode(prog string) bool {
	return shells[prog] || interpreters[prog] || strings.HasPrefix(prog, "python")
}

// readsCodeFromStdin reports whether a shell or interpreter takes its program from standard input: no
// inline program (-c, -e, -m), no script operand, or an explicit - / -s. `python3 -m json.tool` does not.
func readsCodeFromStdin(c Command) bool {
	if !runsCode(c.Program) {
		return false
	}
	for _, a := range c.Args {
		v := a.Value
		switch {
		case v == "-" || v == "-s" && shells[c.Program]:
			return true
		case v == "--":
			return false
		case strings.HasPrefix(v, "--eval") || v == "--command":
			return false
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "cme"):
			return false
		case !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+"):
			return false // a script file
		}
	}
	return true
}

// commandsOf lists the commands a statement runs, wrappers followed.
func (z *analyzer) commandsOf(n syntax.Node) []Command {
	var out []Command
	z.walk(n, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			inner := &analyzer{a: &Analysis{}, limits: z.limits, budget: z.budget, base: z.base}
			words := make([]Word, len(ce.Args))
			for i, w := range ce.Args {
				words[i] = resolve(w)
			}
			inner.command(words, nil, nil, MaxDepth-2)
			out = append(out, inner.a.Commands...)
		}
		return true
	})
	return out
}

func anyOf(cmds []Command, pred func(Command) bool) bool {
	for _, c := range cmds {
		if pred(c) {
			return true
		}
	}
	return false
}

func isFetcher(c Command) bool { return fetchers[c.Program] }

func isCodeRunner(c Command) bool { return runsCode(c.Program) }

// pipeline finds downloaded content flowing into a shell or interpreter: curl … | sh.
func (z *analyzer) pipeline(b *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if bc, ok := s.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
			if z.piped == nil {
				z.piped = map[*syntax.BinaryCmd]bool{}
			}
			z.piped[bc] = true
			flatten(bc.X)
			flatten(bc.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(b.X)
	flatten(b.Y)
	z.piping(len(stages), func(i int, pred func(Command) bool) bool { return z.anyRecorded(stages[i], pred) })
}

// piping finds downloaded content flowing into a shell or interpreter along a pipeline's n stages;
// stage(i, pred) reports whether pred holds for a command of stage i.
func (z *analyzer) piping(n int, stage func(i int, pred func(Command) bool) bool) {
	fetched := false
	for i := range n {
		if fetched && stage(i, readsCodeFromStdin) {
			z.finding(RemoteCode, "downloaded content is piped into a shell or interpreter")
			return
		}
		if stage(i, isFetcher) {
			fetched = true
		}
	}
}

// substitutions finds a shell or interpreter given downloaded code through $(…) or <(…); the caller has
// found that the call runs one.
func (z *analyzer) substitutions(ce *syntax.CallExpr) {
	for _, w := range ce.Args[1:] {
		found := false
		z.walk(w, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst:
				found = found || anyOf(z.commandsOf(n), isFetcher)
			case *syntax.ProcSubst:
				found = found || anyOf(z.commandsOf(n), isFetcher)
			}
			return !found
		})
		if found {
			z.finding(RemoteCode, "a shell or interpreter runs downloaded content")
			return
		}
	}
}

// funcDecl finds a fork bomb: a function that calls itself in a pipeline or in the background.
func (z *analyzer) funcDecl(fd *syntax.FuncDecl) {
	if fd.Name == nil || fd.Body == nil {
		return
	}
	name := fd.Name.Value
	calls, background := 0, false
	z.walk(fd.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && z.callsName(n, name) {
				background = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && resolve(n.Args[0]).Value == name {
				calls++
			}
		}
		return true
	})
	if calls >= 2 || background {
		z.finding(ForkBomb, "a function that starts copies of itself")
	}
}

func (z *analyzer) callsName(s *syntax.Stmt, name string) bool {
	found := false
	z.walk(s, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && resolve(ce.Args[0]).Value == name {
			found = true
		}
		return !found
	})
	return found
}

// reverseShell finds programs started to hand a shell to the network.
func (z *analyzer) reverseShell(prog string, args []Word) {
	switch prog {
	case "nc", "ncat", "netcat":
		for _, a := range args {
			v := a.Value
			if v == "--exec" || v == "--sh-exec" || strings.HasPrefix(v, "--exec=") || strings.HasPrefix(v, "--sh-exec=") ||
				strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "ec") {
				z.finding(ReverseShell, prog+" runs a program for the network peer")
				return
			}
		}
	case "socat":
		for _, a := range args {
			v := strings.ToLower(a.Value)
			if strings.Contains(v, "exec:") || strings.Contains(v, "system:") {
				z.finding(ReverseShell, "socat runs a program for the network peer")
				return
			}
		}
	default:
		if !interpreters[prog] && !strings.HasPrefix(prog, "python") {
			return
		}
		for _, a := range args {
			v := a.Value
			if strings.Contains(v, "socket") && (strings.Contains(v, "dup2") || strings.Contains(v, "pty") ||
				strings.Contains(v, "/bin/sh") || strings.Contains(v, "/bin/bash") || strings.Contains(v, "subprocess") || strings.Contains(v, "exec")) {
				z.finding(ReverseShell, prog+" opens a socket and hands it a shell")
				return
			}
		}
	}
}

// writes records the files a writing program writes.
func (z *analyzer) writes(prog string, args []Word) {
	ops := operands(args)
	switch prog {
	case "tee", "touch", "truncate", "shred":
		z.a.Writes = append(z.a.Writes, ops...)
	case "cp", "mv", "install", "ln", "rsync", "scp":
		for i, a := range args {
			if (a.Value == "-t" || a.Value == "--target-directory") && i+1 < len(args) {
				z.a.Writes = append(z.a.Writes, args[i+1])
				return
			}
			if v, ok := strings.CutPrefix(a.Value, "--target-directory="); ok {
				z.a.Writes = append(z.a.Writes, Word{Value: v, Literal: a.Literal})
				return
			}
		}
		if len(ops) >= 2 {
			z.a.Writes = append(z.a.Writes, ops[len(ops)-1])
		}
	case "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.Value, "of="); ok {
				z.a.Writes = append(z.a.Writes, Word{Value: v, Literal: a.Literal, Glob: a.Glob})
			}
		}
	case "sed":
		inPlace := false
		for _, a := range args {
			if a.Value == "--in-place" || strings.HasPrefix(a.Value, "--in-place=") || strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "--") && strings.Contains(a.Value, "i") {
				inPlace = true
			}
		}
		if inPlace && len(ops) > 1 {
			z.a.Writes = append(z.a.Writes, ops[1:]...) // the first operand is the script
		}
	case "curl", "wget":
		for i, a := range args {
			if (a.Value == "-o" || a.Value == "-O" && prog == "wget" || a.Value == "--output" || a.Value == "--output-document") && i+1 < len(args) {
				z.a.Writes = append(z.a.Writes, args[i+1])
			}
		}
	}
}

// operands returns the words that are not options (everything after "--", and words not starting with "-").
func operands(args []Word) []Word {
	var out []Word
	rest := false
	for _, a := range args {
		if rest || !strings.HasPrefix(a.Value, "-") || a.Value == "-" {
			out = append(out, a)
			continue
		}
		if a.Value == "--" {
			rest = true
		}
	}
	return out
}

// IsWrapper reports whether a program runs another command given in its arguments (sudo, env, nohup,
// timeout, xargs, …); Analyze lists the wrapped command on its own, with the wrapper in its Via.
func IsWrapper(program string) bool {
	_, ok := wrappers[program]
	return ok
}
