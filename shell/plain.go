package shell

import "strings"

// Most command lines an agent runs are one program with plain arguments (go test ./..., git status,
// grep -rn 'some text' src), or a few such joined by |, &&, || or ; (cd src && go test ./... 2>&1 | tail).
// Such a line has no expansion, file redirection or keyword, so bash reads it as the words between its
// blanks and its operators; splitPlain reads it so without the bash parser, which is most of an analysis's time
// and, on the first request after a garbage collection, most of the code it touches. Anything else
// declines and goes to the parser. FuzzPlainMatchesParser holds the two readings to the same Analysis.

// plainByte marks the bytes that stand for themselves in an unquoted word: a byte outside the set may be
// an operator, a glob, an expansion, an escape or a comment, and the line goes to the parser.
var plainByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-_./:,@%+=~" {
		t[c] = true
	}
	return t
}()

// notPlainFirst are the words that mean more than a program name as a command's first word: reserved
// words and the builtins bash parses as clauses of their own.
var notPlainFirst = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true, "case": true,
	"esac": true, "while": true, "until": true, "for": true, "in": true, "function": true, "select": true,
	"time": true, "coproc": true, "declare": true, "local": true, "export": true, "readonly": true,
	"typeset": true, "nameref": true, "let": true,
}

// plainCommand is one simple command of a plain line.
type plainCommand struct {
	words []Word
	// pipes: the command's output goes into the next one's input (a | b).
	pipes bool
	// quoted marks the words that start with a quote, for the Windows readings (windows.go).
	quoted []bool
	// blocks are a PowerShell stage's script blocks (windows.go).
	blocks []string
}

// splitPlain returns the simple commands of a line of plain commands, in order, or false when the line
// needs the parser. A word is made of plain bytes, '…' strings of printable ASCII, and "…" strings of
// printable ASCII without $, `, \ or !; words are separated by spaces and tabs, commands by |, &&, || and
// ; (a last ; may end the line). A 2>&1 token, which records nothing, may stand among a command's words.
func splitPlain(src string) ([]plainCommand, bool) {
	var cmds []plainCommand
	var words []Word
	afterSemicolon := false
	for i := skipBlanks(src, 0); ; {
		if i == len(src) {
			switch {
			case len(words) > 0:
				return append(cmds, plainCommand{words: words}), true
			case afterSemicolon:
				return cmds, true // a ; may end a line; |, && and || may not
			}
			return nil, false // an empty line, or one ending in |, && or ||
		}
		if c := src[i]; c == '&' || c == '|' || c == ';' {
			op := src[i : i+1]
			if c != ';' && i+1 < len(src) && src[i+1] == c {
				op = src[i : i+2] // && or ||
			}
			switch {
			case op == "&":
				return nil, false // a background job
			case op == "|" && i+1 < len(src) && src[i+1] == '&':
				return nil, false // |&
			case len(words) == 0:
				return nil, false // an operator with no command before it
			}
			cmds, words, afterSemicolon = append(cmds, plainCommand{words: words, pipes: op == "|"}), nil, op == ";"
			i = skipBlanks(src, i+len(op))
			continue
		}
		if strings.HasPrefix(src[i:], "2>&1") && (i+4 == len(src) || endsWord(src[i+4])) {
			i = skipBlanks(src, i+4) // stderr to where stdout goes: no file written or read
			continue
		}
		end, quoted, ok := plainWord(src, i)
		if !ok {
			return nil, false
		}
		w := Word{Value: src[i:end], Literal: true}
		if quoted {
			w.Value = unquotePlain(src[i:end])
		}
		if len(words) == 0 {
			if strings.IndexByte(src[i:end], '=') >= 0 || notPlainFirst[w.Value] {
				return nil, false // an assignment (NAME=value), a keyword or a clause, not a program
			}
			words = make([]Word, 0, 8) // most commands have fewer words: one allocation
		}
		words = append(words, w)
		i = skipBlanks(src, end)
	}
}

// endsWord says whether c ends an unquoted word: a blank or an operator.
func endsWord(c byte) bool { return c == ' ' || c == '\t' || c == '&' || c == '|' || c == ';' }

// skipBlanks returns the index of the first byte from i on that is not a space or a tab.
func skipBlanks(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// plainWord returns where the word starting at i ends and whether it has quotes; false when it is not plain.
func plainWord(src string, i int) (end int, quoted, ok bool) {
	for i < len(src) {
		switch c := src[i]; {
		case plainByte[c]:
			i++
		case endsWord(c):
			return i, quoted, true
		case c == '\'' || c == '"':
			quoted = true
			j := i + 1
			for j < len(src) && src[j] != c && ' ' <= src[j] && src[j] <= '~' &&
				(c == '\'' || (src[j] != '$' && src[j] != '`' && src[j] != '\\' && src[j] != '!')) {
				j++
			}
			if j == len(src) || src[j] != c {
				return 0, false, false
			}
			i = j + 1
		default:
			return 0, false, false
		}
	}
	return i, quoted, true
}

// unquotePlain removes the quotes of a plain word; inside them nothing is special.
func unquotePlain(w string) string {
	var b strings.Builder
	b.Grow(len(w))
	for i := 0; i < len(w); i++ {
		if c := w[i]; c == '\'' || c == '"' {
			j := i + 1 + strings.IndexByte(w[i+1:], c)
			b.WriteString(w[i+1 : j])
			i = j
			continue
		}
		b.WriteByte(w[i])
	}
	return b.String()
}
