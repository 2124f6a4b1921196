package shell

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// resolve turns a word into its value as far as that is known without running anything.
func resolve(w *syntax.Word) Word { return resolveWith(w, nil, nil) }

// resolve is resolve with the variables the line has assigned so far, and the output of the command
// substitutions whose output is known (substitutionOutput).
func (z *analyzer) resolve(w *syntax.Word) Word {
	return resolveWith(w, z.state.vars, z.substitutionOutput)
}

// substitutionOutput is what a command substitution prints when that is known without running it: a
// temporary file or directory of mktemp (under /tmp, or the directory its -p names), pwd's working
// directory once the line has cd'd somewhere known, and the path of a program (which, command -v, type -P).
func (z *analyzer) substitutionOutput(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(cs.Stmts[0].Redirs) > 0 {
		return "", false
	}
	prog := resolve(ce.Args[0])
	if !prog.Literal {
		return "", false
	}
	args := make([]Word, 0, len(ce.Args)-1)
	for _, a := range ce.Args[1:] {
		args = append(args, resolve(a))
	}
	switch path.Base(prog.Value) {
	case "mktemp":
		dir := "/tmp"
		pa := parseArgs(&Program{valued: map[string]bool{"-p": true, "--tmpdir": true, "--suffix": true}}, args, false)
		for _, o := range pa.opts {
			if (o.name == "-p" || o.name == "--tmpdir") && o.value != nil {
				if !o.value.Literal || o.value.Value == "" {
					return "", false
				}
				dir = strings.TrimSuffix(o.value.Value, "/")
			}
		}
		return dir + "/tmp.XXXXXXXXXX", true
	case "which", "command", "type":
		// where a program is: which rm, command -v rm, type -P rm print its path, here taken to be under
		// /usr/bin; what runs there is the program of that name
		ops := parseArgs(nil, args, false)
		if prog.Value == "command" && !ops.has([]string{"-v"}) || prog.Value == "type" && !ops.has([]string{"-p", "-P"}) {
			return "", false
		}
		if len(ops.operands) == 1 && ops.operands[0].Literal && !strings.ContainsAny(ops.operands[0].Value, "/ ") {
			return "/usr/bin/" + ops.operands[0].Value, true
		}
	case "pwd":
		if cwd := z.state.cwd; cwd != "" && cwd != Unknown && (strings.HasPrefix(cwd, "/") || strings.HasPrefix(cwd, "~")) {
			return cwd, true
		}
	}
	return "", false
}

func resolveWith(w *syntax.Word, vars map[string]string, subst func(*syntax.CmdSubst) (string, bool)) Word {
	var b strings.Builder
	out := Word{Literal: true}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if hasGlob(p.Value) {
				out.Glob = true
			}
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				case *syntax.CmdSubst:
					if v, ok := substituted(subst, q); ok {
						b.WriteString(v)
						continue
					}
					out.Literal = false
					b.WriteString(Unknown)
				case *syntax.ParamExp:
					param(q, i == 0 && b.Len() == 0, vars, &b, &out)
					if q.Index != nil || q.Param != nil && (q.Param.Value == "@" || q.Param.Value == "*") {
						out.Split = true // "${a[@]}", "$@": an array's elements, each a word
					}
				default:
					out.Literal = false
					b.WriteString(Unknown)
				}
			}
		case *syntax.ParamExp:
			param(p, i == 0, vars, &b, &out)
			if !out.Literal {
				out.Split = true // unquoted: may be several words, options among them
			}
		case *syntax.ExtGlob:
			out.Glob = true
			b.WriteString(p.Op.String() + p.Pattern.Value + ")")
		case *syntax.BraceExp:
			out.Glob = true
			b.WriteString("{" + Unknown + "}")
		case *syntax.CmdSubst:
			if v, ok := substituted(subst, p); ok {
				b.WriteString(v)
				continue
			}
			out.Literal = false
			b.WriteString(Unknown)
		default: // process substitution, arithmetic
			out.Literal = false
			b.WriteString(Unknown)
		}
	}
	out.Value = b.String()
	return out
}

func substituted(subst func(*syntax.CmdSubst) (string, bool), cs *syntax.CmdSubst) (string, bool) {
	if subst == nil {
		return "", false
	}
	return subst(cs)
}

// param writes a parameter expansion: $HOME at the start of a word is ~, a variable the line assigned one
// literal value is that value; anything else is unknown.
func param(p *syntax.ParamExp, atStart bool, vars map[string]string, b *strings.Builder, out *Word) {
	simple := p.Param != nil && p.Exp == nil && p.Slice == nil && p.Repl == nil && p.Index == nil && !p.Length && !p.Excl && !p.Width
	if simple {
		if v, ok := vars[p.Param.Value]; ok && !strings.Contains(v, Unknown) && !strings.Contains(v, loopSep) {
			b.WriteString(v)
			return
		}
	}
	if simple && p.Param.Value == "HOME" { // "file=@$HOME/.npmrc" names a file under ~ too
		b.WriteString("~")
		return
	}
	if simple && atStart && p.Param.Value == "TMPDIR" {
		b.WriteString("/tmp") // the temporary directory: where it is matters less than that it is one
		return
	}
	out.Literal = false
	b.WriteString(Unknown)
}

// hasGlob reports unescaped glob characters or a brace expansion in an unquoted literal.
func hasGlob(s string) bool {
	brace := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.Contains(s[i+1:], "]") { // a lone [ is the test command, not a class
				return true
			}
		case '{':
			brace = true
		case ',':
			if brace {
				return true
			}
		case '.':
			if brace && i+1 < len(s) && s[i+1] == '.' {
				return true
			}
		}
	}
	return false
}

// unescape removes the backslashes of an unquoted literal: \x is x, and a backslash-newline disappears.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that are special inside double quotes.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the escapes of a $'…' string, as bash does.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteString(string(rune(v)))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		default: // \\ \' \" \? and unknown escapes
			b.WriteByte(c)
		}
	}
	if !utf8.ValidString(b.String()) {
		return strings.ToValidUTF8(b.String(), Unknown)
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
