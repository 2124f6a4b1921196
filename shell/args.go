package shell

import "strings"

// option is one option a command was given, as its program's grammar reads it.
type option struct {
	// name is the option as spelled in the table: "-x", "--name" (an abbreviation completed), "-name".
	name  string
	value *Word
}

// parsedArgs are a command's words read with its program's grammar.
type parsedArgs struct {
	opts     []option
	operands []Word
	// firstOperand is the index in the words of the first operand (len(words) when none), where a
	// program that runs its operands starts reading them.
	firstOperand int
	// rest are the words after the first operand, for programs whose options end there.
	rest []Word
	// exec are the commands of find -exec style options; after the words after a gdb --args style option.
	exec  [][]Word
	after []Word
	// leading are the operands before the first option (find's starting points).
	leading []Word
	// unknown: a word may be several words known only at run time ($X unquoted), options among them.
	unknown bool
}

func (pa *parsedArgs) has(names []string) bool {
	for _, o := range pa.opts {
		if matchWord(names, o.name) {
			return true
		}
	}
	return false
}

// values returns the values of the options named.
func (pa *parsedArgs) values(names []string) []Word {
	var out []Word
	for _, o := range pa.opts {
		if o.value != nil && matchWord(names, o.name) {
			out = append(out, *o.value)
		}
	}
	return out
}

// parseArgs reads words with a program's grammar; p nil reads them with none (every option a flag).
// With stop set, options end at the first operand (a program that runs its operands as a command, or
// names a subcommand with them).
func parseArgs(p *Program, words []Word, stop bool) parsedArgs {
	pa := parsedArgs{firstOperand: len(words)}
	seenOption := false
	for i := 0; i < len(words); i++ {
		v := words[i].Value
		if words[i].Split && !words[i].Literal {
			pa.unknown = true
		}
		operand := func() bool {
			if pa.firstOperand == len(words) {
				pa.firstOperand = i
			}
			pa.operands = append(pa.operands, words[i])
			if !seenOption {
				pa.leading = append(pa.leading, words[i])
			}
			if stop {
				pa.rest = words[i+1:]
				return true
			}
			return false
		}
		if p != nil && i == 0 && p.DashlessBundle && v != "" && !strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "/.") {
			i += pa.bundle(p, v, words[i+1:])
			seenOption = true
			continue
		}
		if v == "--" {
			for j := i + 1; j < len(words); j++ {
				if pa.firstOperand == len(words) {
					pa.firstOperand = j
					if stop {
						pa.rest = words[j+1:]
					}
				}
				pa.operands = append(pa.operands, words[j])
			}
			pa.opts = append(pa.opts, option{name: "--"})
			return pa
		}
		isOpt := len(v) > 1 && v[0] == '-' || p != nil && len(v) > 1 && v[0] == '+' && p.valued[v]
		if !isOpt || !words[i].Literal && !strings.HasPrefix(v, "-") {
			if operand() {
				return pa
			}
			continue
		}
		if p == nil || !contains(p.PreOptions, v) {
			seenOption = true
		}
		if p != nil && (contains(p.Exec, v)) {
			j := i + 1
			for j < len(words) && words[j].Value != ";" && words[j].Value != "+" {
				j++
			}
			pa.exec = append(pa.exec, words[i+1:j])
			pa.opts = append(pa.opts, option{name: v})
			i = j
			continue
		}
		if p != nil && contains(p.CommandAfter, v) {
			pa.opts = append(pa.opts, option{name: v})
			pa.after = words[i+1:]
			return pa
		}
		if p != nil && contains(p.Pairs, v) {
			o := option{name: v}
			if i+2 < len(words) {
				o.value = &words[i+2] // the second value: a destination
			}
			pa.opts = append(pa.opts, o)
			i += 2
			continue
		}
		switch {
		case strings.HasPrefix(v, "--") || p != nil && p.Words || p != nil && p.valued[v]:
			name, val, hasVal := strings.Cut(v, "=")
			if p != nil {
				name = p.complete(name)
			}
			o := option{name: name}
			if hasVal {
				o.value = &Word{Value: val, Literal: words[i].Literal, Glob: words[i].Glob}
			} else if p != nil && p.valued[name] && i+1 < len(words) {
				i++
				o.value = &words[i]
			}
			pa.opts = append(pa.opts, o)
		default:
			i += pa.bundle(p, v[1:], words[i+1:])
		}
	}
	return pa
}

// bundle reads a bundle of short options (the letters after "-", or tar's dashless first word): a letter
// that takes a value takes the rest of the bundle, or else the next word; tar's dashless bundle gives each
// such letter the next word in turn. It returns how many of the next words it took.
func (pa *parsedArgs) bundle(p *Program, letters string, next []Word) int {
	took := 0
	dashless := p != nil && p.DashlessBundle && len(pa.opts) == 0 && !strings.HasPrefix(letters, "-")
	for j := 0; j < len(letters); j++ {
		name := "-" + letters[j:j+1]
		o := option{name: name}
		if p != nil && p.valued[name] {
			switch {
			case j+1 < len(letters) && !dashless:
				o.value = &Word{Value: letters[j+1:], Literal: true}
				pa.opts = append(pa.opts, o)
				return took
			case took < len(next):
				o.value = &next[took]
				took++
			}
		}
		pa.opts = append(pa.opts, o)
	}
	return took
}

// complete returns the long option a getopt abbreviation stands for (--rec for --recursive), when the
// entry names exactly one it can stand for; an abbreviation that ends where the longer option has a hyphen
// is an option of its own (--export is not --export-secret-keys).
func (p *Program) complete(name string) string {
	if !strings.HasPrefix(name, "--") || p.valued[name] {
		return name
	}
	found := ""
	for _, l := range p.longs {
		if l == name {
			return name
		}
		if strings.HasPrefix(l, name) && l[len(name)] != '-' {
			if found != "" && found != l {
				return name
			}
			found = l
		}
	}
	if found == "" {
		return name
	}
	return found
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
