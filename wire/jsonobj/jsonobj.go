// Package jsonobj edits JSON objects without disturbing what it does not touch: members keep their order
// and their values keep their bytes, so a provider body Warden changes in one place is re-encoded with
// every other field exactly as it came. It is not a general JSON library.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Object is a JSON object as an ordered list of members with raw values.
type Object struct {
	members []member
}

type member struct {
	key   string
	value json.RawMessage
}

// Parse reads a JSON object. Duplicate keys are kept as they came; Get returns the last.
func Parse(data []byte) (*Object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &Object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key is %T", tok)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.members = append(o.members, member{key: key, value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("data after the object")
	}
	return o, nil
}

// Get returns a member's raw value.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return o.members[i].value, true
		}
	}
	return nil, false
}

// Keys returns the member names in order.
func (o *Object) Keys() []string {
	out := make([]string, len(o.members))
	for i, m := range o.members {
		out[i] = m.key
	}
	return out
}

// Set replaces a member's value in place, or appends the member.
func (o *Object) Set(key string, value json.RawMessage) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			o.members[i].value = value
			return
		}
	}
	o.members = append(o.members, member{key: key, value: value})
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
		if m.key != key {
			out = append(out, m)
		}
	}
	o.members = out
}

// MarshalJSON writes the members in order, values as they are.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
