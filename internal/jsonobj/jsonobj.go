// Package jsonobj edits JSON objects without disturbing what it does not touch: members keep their order
// and their values keep their bytes, so a provider body Warden changes in one place is re-encoded with
// every other field exactly as it came; and it reads the members of a body it has validated once without
// decoding the rest. The wire codecs use it for provider bodies, the policies for tool-call arguments. It
// is not a general JSON library, and it is internal: its API changes with its users.
package jsonobj

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
)

// Object is a JSON object as an ordered list of members with raw values.
type Object struct {
	members []member
}

// An object with a few members is allocated together with their array, sized to the count (a tool call's
// function has two members, its arguments often one), so that a parse allocates once and little.
type (
	withTwo struct {
		Object
		m [2]member
	}
	withFour struct {
		Object
		m [4]member
	}
	withEight struct {
		Object
		m [8]member
	}
)

// newObject returns an object holding a copy of members.
func newObject(members []member) *Object {
	switch n := len(members); {
	case n <= 2:
		w := &withTwo{}
		w.members = w.m[:copy(w.m[:], members)]
		return &w.Object
	case n <= 4:
		w := &withFour{}
		w.members = w.m[:copy(w.m[:], members)]
		return &w.Object
	case n <= 8:
		w := &withEight{}
		w.members = w.m[:copy(w.m[:], members)]
		return &w.Object
	}
	return &Object{members: append([]member(nil), members...)}
}

type member struct {
	// name is the member's name: most often the bytes inside its JSON string, when they are its text (no
	// escapes, valid UTF-8), so that parsing copies no name and comparing one converts nothing.
	name  []byte
	value json.RawMessage
}

// is says whether the member's name is key.
func (m *member) is(key string) bool { return string(m.name) == key }

// Parse reads a JSON object. Duplicate keys are kept as they came; Get returns the last. The object keeps a
// copy of data, so the caller may reuse data afterwards.
func Parse(data []byte) (*Object, error) {
	// Validating first lets the scan below assume well-formed JSON: it only has to find where each member's
	// value ends, which is several times faster than decoding token by token.
	if !Valid(data) {
		var v any
		err := json.Unmarshal(data, &v) // for the position and reason of the error
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	return parseValid(bytes.Clone(data))
}

// ParseShared is Parse without the copy: the object keeps data, which must not change afterwards. It is
// for bytes no one else holds (a string just converted) or that the caller keeps unchanged for the
// object's life (a decoded response that keeps its body).
func ParseShared(data []byte) (*Object, error) {
	if !Valid(data) {
		return Parse(data) // for Parse's error
	}
	return parseValid(data)
}

// ParseTrusted reads a JSON object from bytes already known to be valid JSON — a value an Object or
// SplitArray returned — without validating them again or copying them: a decoder descending into nested
// objects would otherwise validate the innermost bytes once per level. data must not change afterwards.
func ParseTrusted(data []byte) (*Object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("not a JSON object")
	}
	return parseValid(data)
}

// parseValid scans the members of the valid JSON value data.
func parseValid(data []byte) (*Object, error) {
	i := skipSpace(data, 0)
	if data[i] != '{' {
		return nil, errors.New("not a JSON object")
	}
	o, _, err := parseMembers(data, i)
	return o, err
}

// parseMembers scans the members of the valid JSON object that starts at data[i], and returns the index
// just after it.
func parseMembers(data []byte, i int) (*Object, int, error) {
	var buf [16]member // on the stack: the members are counted before the object is allocated
	members := buf[:0]
	i = skipSpace(data, i+1)
	if data[i] == '}' {
		return &Object{}, i + 1, nil
	}
	for {
		end := skipString(data, i)
		name, err := unquoteName(data[i:end])
		if err != nil {
			return nil, 0, err
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // past ':'
		vend := skipValue(data, i)
		members = append(members, member{name: name, value: json.RawMessage(data[i:vend:vend])})
		i = skipSpace(data, vend)
		if data[i] == '}' {
			return newObject(members), i + 1, nil
		}
		i = skipSpace(data, i+1) // past ','
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the valid string that starts at data[i]. Its quote and
// backslash are found eight bytes at a time.
func skipString(data []byte, i int) int {
	for i++; ; i++ {
		for len(data)-i >= 8 {
			x := binary.LittleEndian.Uint64(data[i:])
			if n := bits.TrailingZeros64(zeroByte(x^'"'*ones)|zeroByte(x^'\\'*ones)) / 8; n < 8 {
				i += n
				break
			}
			i += 8
		}
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
}

// structural marks the bytes a scan over a valid container stops at: strings and nesting.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// skipValue returns the index just after the valid JSON value that starts at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			for !structural[data[i]] {
				i++
			}
			switch data[i] {
			case '"':
				i = skipString(data, i) - 1
			case '{', '[':
				depth++
			default:
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
	}
	for i < len(data) && !isDelim(data[i]) {
		i++
	}
	return i
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// Get returns a member's raw value.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].is(key) {
			return o.members[i].value, true
		}
	}
	return nil, false
}

// Pick returns a JSON object of just the named members o has (the last of duplicates, as Get), so that a
// decoder reads a few small members without a pass over the large ones beside them.
func (o *Object) Pick(keys ...string) []byte {
	b := []byte{'{'}
	for _, k := range keys {
		v, ok := o.Get(k)
		if !ok {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(append(appendName(b, k), ':'), v...)
	}
	return append(b, '}')
}

// Len returns the number of members.
func (o *Object) Len() int { return len(o.members) }

// Keys returns the member names in order, each a new string: Len counts them without.
func (o *Object) Keys() []string {
	out := make([]string, len(o.members))
	for i, m := range o.members {
		out[i] = string(m.name)
	}
	return out
}

// FoldMatches returns the values of the members whose names match one of keys as encoding/json matches a
// name to a field (exactly, or case-insensitively), in order, repeats included: every value some reader
// may take for one of those keys.
func (o *Object) FoldMatches(keys []string) []json.RawMessage {
	var out []json.RawMessage
	for i := range o.members {
		for _, k := range keys {
			if equalFold(o.members[i].name, k) {
				out = append(out, o.members[i].value)
				break
			}
		}
	}
	return out
}

// Set replaces a member's value in place, or appends the member.
func (o *Object) Set(key string, value json.RawMessage) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].is(key) {
			o.members[i].value = value
			return
		}
	}
	o.members = append(o.members, member{name: []byte(key), value: value})
}

// SetJSON marshals v and sets it.
func (o *Object) SetJSON(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	o.Set(key, b)
	return nil
}

// Delete removes every member with the key.
func (o *Object) Delete(key string) {
	out := o.members[:0]
	for _, m := range o.members {
		if !m.is(key) {
			out = append(out, m)
		}
	}
	o.members = out
}

// MarshalJSON writes the members in order, values as they are.
func (o *Object) MarshalJSON() ([]byte, error) {
	n := 2
	for _, m := range o.members {
		n += len(m.name) + len(m.value) + 4 // quotes, colon, comma
	}
	b := append(make([]byte, 0, n), '{')
	for i, m := range o.members {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(appendName(b, m.name), ':'), m.value...)
	}
	return append(b, '}'), nil
}

// SplitArray returns the elements of a JSON array, each with the bytes it came with, as json.Unmarshal into
// a []json.RawMessage does: null is an empty array, and anything else that is not an array, or not JSON,
// gets encoding/json's error. The elements are slices of data, which must not change afterwards. Every
// request codec splits its messages and each message's content with it, so it validates with Valid and
// finds the elements with SplitArrayTrusted; only what fails goes through encoding/json, for its error.
func SplitArray(data []byte) ([]json.RawMessage, error) {
	if Valid(data) {
		if elems, err := SplitArrayTrusted(data); err == nil {
			return elems, nil
		}
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, err
	}
	return elems, nil
}

// SplitArrayTrusted is SplitArray for bytes already known to be valid JSON (a value an Object or
// SplitArrayTrusted returned): it finds the elements without validating them again or copying them, and
// answers as SplitArray does — null is an empty array, any other value not an array is an error.
func SplitArrayTrusted(data []byte) ([]json.RawMessage, error) {
	i := skipSpace(data, 0)
	switch {
	case i < len(data) && data[i] == '[':
	case bytes.Equal(bytes.TrimSpace(data), []byte("null")):
		return nil, nil
	default:
		return nil, errors.New("not a JSON array")
	}
	elems := []json.RawMessage{}
	i = skipSpace(data, i+1)
	if data[i] == ']' {
		return elems, nil
	}
	for {
		end := skipValue(data, i)
		elems = append(elems, json.RawMessage(data[i:end:end]))
		i = skipSpace(data, end)
		if data[i] == ']' {
			return elems, nil
		}
		i = skipSpace(data, i+1) // past ','
	}
}

// DecodeString reads a valid JSON value (one an Object or SplitArrayTrusted returned) as json.Unmarshal
// into a string does: a string's text, "" for null, and ok false for any other value. Only a string with
// escapes or invalid UTF-8 (which decoding replaces) goes through encoding/json.
func DecodeString(valid []byte) (s string, ok bool) {
	valid = bytes.TrimSpace(valid)
	switch {
	case string(valid) == "null":
		return "", true
	case len(valid) < 2 || valid[0] != '"':
		return "", false
	}
	s, err := unquote(valid)
	return s, err == nil
}

// StringField is a member a reader wants as a string, and where to put it.
type StringField struct {
	Key  string
	Into *string
}

// StringInto is the StringField of member key, read into into.
func StringInto(key string, into *string) StringField { return StringField{Key: key, Into: into} }

// Strings reads the member of each field that o has as json.Unmarshal into a string does (DecodeString),
// into the field; false when one is neither a string nor null, and the fields are then partly written. A
// reader checks Plain first.
func (o *Object) Strings(fields ...StringField) bool {
	for _, f := range fields {
		if raw, has := o.Get(f.Key); has {
			var ok bool
			if *f.Into, ok = DecodeString(raw); !ok {
				return false
			}
		}
	}
	return true
}

// Bool reads member key, if o has it, as json.Unmarshal into a bool does (DecodeBool), into into; false
// when it is neither a boolean nor null. A reader checks Plain first.
func (o *Object) Bool(key string, into *bool) bool {
	raw, has := o.Get(key)
	if !has {
		return true
	}
	var ok bool
	*into, ok = DecodeBool(raw)
	return ok
}

// Objects reads member key of o, if o has it, as json.Unmarshal into a slice of structs does, each
// element an object read by read (which checks Plain first) into a zero T: nil for null, a zero T for a
// null element, and false when the member is not an array, an element is neither an object nor null, or
// read says false. A codec reads its requests' tools with it.
func Objects[T any](o *Object, key string, read func(*Object, *T) bool) ([]T, bool) {
	raw, has := o.Get(key)
	if !has {
		return nil, true
	}
	// The elements are parsed as the array is walked, not split first: a request's tools carry schemas,
	// and each pass over them costs.
	i := skipSpace(raw, 0)
	switch {
	case i == len(raw):
		return nil, false
	case raw[i] == 'n':
		return nil, true // null: Get returned a valid value
	case raw[i] != '[':
		return nil, false
	}
	out := []T{}
	i = skipSpace(raw, i+1)
	if raw[i] == ']' {
		return out, true
	}
	var zero T
	for {
		out = append(out, zero) // read into its place: a T of its own would escape to read
		switch raw[i] {
		case 'n':
			i += len("null")
		case '{':
			obj, end, err := parseMembers(raw, i)
			if err != nil || !read(obj, &out[len(out)-1]) {
				return nil, false
			}
			i = end
		default:
			return nil, false
		}
		i = skipSpace(raw, i)
		if raw[i] == ']' {
			return out, true
		}
		i = skipSpace(raw, i+1) // past ','
	}
}

// DecodeBool reads a valid JSON value as json.Unmarshal into a bool does: null leaves it false, and ok
// is false for anything but true, false and null.
func DecodeBool(valid []byte) (v, ok bool) {
	switch string(bytes.TrimSpace(valid)) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	return false, false
}

// Plain says that for each of keys, Get gives the member json.Unmarshal would decode into a struct field
// of that name: no other member's name matches it in encoding/json's case-insensitive way, and it appears
// at most once (encoding/json would decode a repeated object member into the same struct twice, merging
// the two). A decoder that reads members one by one checks it first, and leaves any object that is not
// plain to encoding/json.
func (o *Object) Plain(keys ...string) bool {
	keysASCII := true
	for _, k := range keys {
		keysASCII = keysASCII && isASCII(k)
	}
	var seen uint64 // by index in keys
	for _, m := range o.members {
		// ASCII folds only to ASCII of the same length: such a name is compared only with keys as long.
		ascii := keysASCII && isASCII(m.name)
		for i, k := range keys {
			exact := m.is(k)
			if !exact && (ascii && len(m.name) != len(k) || !equalFold(m.name, k)) {
				continue
			}
			if !exact || i >= 64 || seen&(1<<i) != 0 {
				return false
			}
			seen |= 1 << i
		}
	}
	return true
}

// JoinArray writes elements as a JSON array, each as it is. Unlike json.Marshal, it neither compacts nor
// re-escapes the elements, so those a codec did not change keep their bytes.
func JoinArray(elems []json.RawMessage) json.RawMessage {
	n := 2
	for _, e := range elems {
		n += len(e) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

// SetMember returns the object data with one member's value replaced (or appended), every other member
// keeping its bytes.
func SetMember(data []byte, key string, value json.RawMessage) (json.RawMessage, error) {
	o, err := Parse(data)
	if err != nil {
		return nil, err
	}
	o.Set(key, value)
	return o.MarshalJSON()
}
