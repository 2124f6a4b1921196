package jsonobj

import (
	"unicode"
	"unicode/utf8"
)

// Mainstream JSON readers agree on an object whose member names are all distinct, and only then: with a
// name twice, Python's json, JavaScript's JSON.parse and Go's encoding/json keep the last, but other
// readers keep the first or fail; and Go matches a name to a struct field case-insensitively (Unicode
// simple folding: "Command", "COMMAND" and "commanD" are all the field "command", as is "ſcript" the field
// "script"), where the others match exactly. An object with two names that fold together is therefore read
// as two different values by two readers, and a check made on one reading says nothing of the other.

// Conflict is how two member names of one object collide; the kinds are bits, so that a set of them
// says which to look for.
type Conflict uint8

const (
	// NoConflict: every object's member names are distinct under case folding.
	NoConflict Conflict = 0
	// Duplicate: a name appears twice (after its escapes are decoded: "a" and "\u0061" are one name).
	Duplicate Conflict = 1 << iota
	// CaseVariant: two names differ but fold to one (Go's encoding/json reads both into one field).
	CaseVariant
	// AnyConflict looks for both.
	AnyConflict = Duplicate | CaseVariant
)

func (c Conflict) String() string {
	switch c {
	case Duplicate:
		return "duplicate"
	case CaseVariant:
		return "case_variant"
	}
	return "none"
}

// NameConflict reports the first conflict of one of the kinds asked for between member names of any
// object in the valid JSON value data (see Valid), at any depth, objects inside arrays included. Names are
// compared decoded, as encoding/json decodes them (escapes resolved, an unpaired surrogate or invalid UTF-8
// read as U+FFFD). It walks the value once, without recursion, and its cost is linear in the value's size.
func NameConflict(data []byte, kinds Conflict) Conflict {
	type open struct {
		object bool
		names  map[string][]string // fold key → the distinct names, decoded, that fold to it
	}
	var stack []open
	i := skipSpace(data, 0)
	expectName := false
	for i < len(data) {
		c := data[i]
		switch {
		case c == '{':
			stack = append(stack, open{object: true})
			expectName = true
			i++
		case c == '[':
			stack = append(stack, open{})
			expectName = false
			i++
		case c == '}' || c == ']':
			stack = stack[:len(stack)-1]
			i++
		case c == ',':
			expectName = len(stack) > 0 && stack[len(stack)-1].object
			i++
		case c == ':':
			expectName = false
			i++
		case c == '"':
			end := skipString(data, i)
			if expectName {
				name, err := unquoteName(data[i:end])
				if err != nil {
					return Duplicate // not reached on valid input; fail towards refusal
				}
				top := &stack[len(stack)-1]
				if top.names == nil {
					top.names = make(map[string][]string, 4)
				}
				key := foldKey(name)
				seen := top.names[key]
				if len(seen) > 0 {
					if slicesContains(seen, string(name)) {
						if kinds&Duplicate != 0 {
							return Duplicate
						}
					} else {
						if kinds&CaseVariant != 0 {
							return CaseVariant
						}
						top.names[key] = append(seen, string(name))
					}
				} else {
					top.names[key] = []string{string(name)}
				}
				expectName = false
			}
			i = end
		default:
			i++ // numbers, literals, blanks
		}
	}
	return NoConflict
}

func slicesContains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// foldKey maps a name to one representative of everything strings.EqualFold takes for equal to it: each
// rune replaced by the least rune of its simple-folding orbit ('K', 'k' and U+212A KELVIN SIGN all become
// 'K').
func foldKey(name []byte) string {
	ascii := true
	for _, c := range name {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	out := make([]byte, 0, len(name))
	if ascii {
		for _, c := range name {
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
		}
		return string(out)
	}
	for len(name) > 0 {
		r, n := utf8.DecodeRune(name)
		name = name[n:]
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		out = utf8.AppendRune(out, least)
	}
	return string(out)
}
