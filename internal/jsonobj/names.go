package jsonobj

import (
	"bytes"
	"errors"
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
func NameConflict(data []byte, kinds Conflict) Conflict { return nameConflict(data, kinds, nil) }

// Format is what Envelope knows of a wire format: the member names it defines, which a name may not
// spell in another case, and the members whose values are not its envelope. It is immutable once made
// and safe for concurrent use.
type Format struct {
	defined map[string]string // fold key → the name as the format spells it
	opaque  []string
}

// NewFormat describes a format: defined lists the member names its codec reads (a member whose name folds
// to one of them but is spelled otherwise is read by encoding/json as that member and by exact readers as
// another, even alone); opaque names members whose values hold the model's or the user's own keys (a
// tool's input, a JSON schema), which Envelope does not look into: the tool-call stage judges a tool's
// input on its own.
func NewFormat(defined, opaque []string) *Format {
	f := &Format{defined: make(map[string]string, len(defined)), opaque: opaque}
	for _, k := range defined {
		f.defined[foldKey([]byte(k))] = k
	}
	return f
}

// Defines says whether the format defines a member name, spelled exactly so.
func (f *Format) Defines(name string) bool { return f.defined[foldKey([]byte(name))] == name }

// Envelope checks that a provider's JSON body or event, which must be valid JSON (see Valid), reads as one
// value to every reader: no object in it has a member named twice or two names that fold together, and
// no name spells one of the format's own in another case. The error says which kind of problem, never
// what the body holds.
func (f *Format) Envelope(data []byte) error {
	switch nameConflict(data, AnyConflict, f) {
	case Duplicate:
		return errors.New("an object names a member twice, which JSON readers read differently")
	case CaseVariant:
		return errors.New("a member name differs only by case from another or from one the format defines, which Go's encoding/json reads as that member and other readers do not")
	}
	return nil
}

func nameConflict(data []byte, kinds Conflict, format *Format) Conflict {
	var opaque []string
	if format != nil {
		opaque = format.opaque
	}
	// names holds the names of every open object, decoded, innermost last; an object's own begin at its
	// from. An object compares a new name with each of its own, which for the few members an object has is
	// cheaper than hashing; one with many keeps them by fold key as well.
	type open struct {
		object bool
		from   int
		byFold map[string][][]byte
	}
	var stackBuf [16]open
	var namesBuf [32][]byte
	stack, names := stackBuf[:0], namesBuf[:0]
	i := skipSpace(data, 0)
	// opaqueNext: the name just read is opaque, and its value, when a container, is passed over whole.
	expectName, opaqueNext := false, false
	for i < len(data) {
		c := data[i]
		if opaqueNext && (c == '{' || c == '[') {
			i = skipValue(data, i)
			opaqueNext = false
			continue
		}
		switch {
		case c == '{':
			stack = append(stack, open{object: true, from: len(names)})
			expectName = true
			i++
		case c == '[':
			stack = append(stack, open{from: len(names)})
			expectName = false
			i++
		case c == '}' || c == ']':
			names = names[:stack[len(stack)-1].from]
			stack = stack[:len(stack)-1]
			i++
		case c == ',':
			expectName = len(stack) > 0 && stack[len(stack)-1].object
			i++
		case c == ':':
			expectName = false
			i = skipSpace(data, i+1)
		case c == '"':
			end := skipString(data, i)
			if expectName {
				name, err := unquoteName(data[i:end])
				if err != nil {
					return Duplicate // not reached on valid input; fail towards refusal
				}
				if format != nil && kinds&CaseVariant != 0 && format.misspells(name) {
					return CaseVariant
				}
				top := &stack[len(stack)-1]
				own := names[top.from:]
				if len(own) >= 16 && top.byFold == nil {
					top.byFold = make(map[string][][]byte, 2*len(own))
					for _, n := range own {
						k := foldKey(n)
						top.byFold[k] = append(top.byFold[k], n)
					}
				}
				if top.byFold != nil {
					k := foldKey(name)
					own = top.byFold[k]
					top.byFold[k] = append(own, name)
				}
				if c := collide(own, name, kinds); c != NoConflict {
					return c
				}
				names = append(names, name)
				expectName = false
				opaqueNext = slicesContains(opaque, name)
			} else {
				opaqueNext = false
			}
			i = end
		default:
			opaqueNext = false
			i++ // numbers, literals, blanks
		}
	}
	return NoConflict
}

// collide reports the first conflict of the kinds asked for between name and the names before it.
func collide(before [][]byte, name []byte, kinds Conflict) Conflict {
	for _, n := range before {
		switch {
		case bytes.Equal(n, name):
			if kinds&Duplicate != 0 {
				return Duplicate
			}
		case kinds&CaseVariant != 0 && bytes.EqualFold(n, name):
			return CaseVariant
		}
	}
	return NoConflict
}

// misspells says whether name folds to a name the format defines but is not spelled so.
func (f *Format) misspells(name []byte) bool {
	var buf [64]byte
	if len(name) <= len(buf) && isASCII(name) {
		for i, c := range name {
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			buf[i] = c
		}
		own, ok := f.defined[string(buf[:len(name)])] // a lookup by string(bytes) does not allocate
		return ok && own != string(name)
	}
	own, ok := f.defined[foldKey(name)]
	return ok && own != string(name)
}

func slicesContains(names []string, name []byte) bool {
	for _, n := range names {
		if n == string(name) {
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
