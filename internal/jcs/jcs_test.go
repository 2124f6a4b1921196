package jcs_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentwarden/warden/internal/jcs"
)

func TestCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, in, want string }{
		{"members are sorted and white space dropped", `{ "b": 1, "a": [true, null] }`, `{"a":[true,null],"b":1}`},
		{"numbers print as ECMAScript does", `[1.0, 2.50, 1e21, 1e-7, 100, -0.5, 123456789012]`, `[1,2.5,1e+21,1e-7,100,-0.5,123456789012]`},
		{"strings escape only what JSON requires", `["€<>&", "a\u0001b", "\n\t\"\\"]`, "[\"€<>&\",\"a\\u0001b\",\"\\n\\t\\\"\\\\\"]"},
		{"names sort by UTF-16 code units", `{"€": 1, "z": 2, "😀": 3, "a": 4}`, `{"a":4,"z":2,"€":1,"😀":3}`},
		{"nested objects are sorted too", `{"x": {"d": 1, "c": {"b": 2, "a": 1}}}`, `{"x":{"c":{"a":1,"b":2},"d":1}}`},
		{"escaped names are read as the names they spell", `{"\u0061": 1}`, `{"a":1}`},
		{"empty containers stay", `{"a": {}, "b": []}`, `{"a":{},"b":[]}`},
		{"a bare value is a document", ` "x" `, `"x"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, err := jcs.Canonical([]byte(tt.in))
			if err != nil || string(got) != tt.want {
				t.Errorf("got %s (%v)\nwant %s", got, err, tt.want)
			}
		})
	}
}

func TestCanonicalRefusesWhatIsNotIJSON(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, in string }{
		{"a member named twice", `{"cmd": "ls", "cmd": "rm -rf /"}`},
		{"a member named twice through an escape", `{"cmd": "ls", "\u0063md": "rm -rf /"}`},
		{"a member named twice in a nested object", `{"a": [{"x": 1, "x": 2}]}`},
		{"data after the document", `{"a": 1} {"a": 2}`},
		{"a number beyond float64", `[1e400]`},
		{"a truncated document", `{"a": [1, 2`},
		{"nothing", ``},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got, err := jcs.Canonical([]byte(tt.in)); err == nil {
				t.Errorf("Canonical(%s) = %s, want an error", tt.in, got)
			}
		})
	}
}

// FuzzCanonical holds the canonical form to its contract: it is valid JSON, it is its own canonical form,
// and it means what the input meant.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null]}`, `[1.0,1e21,-0.5]`, `{"€":1,"😀":{"x":"\n"}}`, `"a\u0001"`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := jcs.Canonical(in)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("canonical form of %q is not JSON: %q", in, out)
		}
		again, err := jcs.Canonical(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("canonical form is not stable: %q -> %q (%v)", out, again, err)
		}
		var a, b any
		if json.Unmarshal(in, &a) == nil && json.Unmarshal(out, &b) == nil {
			if !reflect.DeepEqual(a, b) { // == on floats: -0 (printed 0, as ECMAScript does) equals 0
				t.Fatalf("meaning changed: %s vs %s", marshal(a), marshal(b))
			}
		}
	})
}

func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
