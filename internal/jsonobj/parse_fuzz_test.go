package jsonobj_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// referenceParse is the obvious reading of an object, token by token with encoding/json: Parse must agree
// with it on every input.
func referenceParse(data []byte) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not a JSON object")
	}
	var keys []string
	var values []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, nil, errors.New("key is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, values = append(keys, key), append(values, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, nil, errors.New("data after the object")
	}
	return keys, values, nil
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, ` { "a" : 1 , "b":[1,{"c":"}"}] } `, `{"a\"b":"x\\"}`, `{"\u00e9":null,"a":true}`,
		`{"a":1} {}`, `{"a":1`, `[1]`, `{"a":"\xff"}`, "{\"\xff\":1}", `{"a":-1.5e3,"b":"]}"}`, `{"a":{}}`,
		`{"a<b&c>":1,"\u00e9\n":2,"":3}`, `{"a long member name past eight bytes":"a \"quoted\" value past eight bytes"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := jsonobj.Parse(data)
		keys, values, refErr := referenceParse(data)
		if (err == nil) != (refErr == nil) {
			t.Fatalf("Parse err %v, reference err %v", err, refErr)
		}
		shared, sharedErr := jsonobj.ParseShared(bytes.Clone(data))
		if fmt.Sprint(sharedErr) != fmt.Sprint(err) {
			t.Fatalf("ParseShared err %v, Parse err %v", sharedErr, err)
		}
		if err != nil {
			return
		}
		if got := o.Keys(); len(got) != len(keys) || o.Len() != len(keys) {
			t.Fatalf("keys %q (Len %d), reference %q", got, o.Len(), keys)
		}
		for i, k := range o.Keys() {
			if k != keys[i] {
				t.Fatalf("key %d = %q, reference %q", i, k, keys[i])
			}
		}
		// Values by position: re-encoding the object must give the members in order with their bytes.
		var want bytes.Buffer
		want.WriteByte('{')
		for i := range keys {
			if i > 0 {
				want.WriteByte(',')
			}
			kb, _ := json.Marshal(keys[i])
			want.Write(kb)
			want.WriteByte(':')
			want.Write(values[i])
		}
		want.WriteByte('}')
		got, err := o.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("encoded %s, reference %s", got, want.Bytes())
		}
		if sb, _ := shared.MarshalJSON(); !bytes.Equal(sb, got) {
			t.Fatalf("ParseShared encoded %s, Parse %s", sb, got)
		}
		// On valid JSON, ParseTrusted reads the same object without validating or copying.
		trusted, err := jsonobj.ParseTrusted(data)
		if err != nil {
			t.Fatalf("ParseTrusted: %v", err)
		}
		if tb, _ := trusted.MarshalJSON(); !bytes.Equal(tb, got) {
			t.Fatalf("ParseTrusted encoded %s, Parse %s", tb, got)
		}
	})
}
