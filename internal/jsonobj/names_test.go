package jsonobj

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// referenceConflict reads the value token by token with encoding/json and compares every pair of names of
// each object with strings.EqualFold: the plain way NameConflict must agree with.
func referenceConflict(data []byte) Conflict {
	dec := json.NewDecoder(bytes.NewReader(data))
	type open struct {
		object bool
		names  []string
	}
	var stack []open
	expectName := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return NoConflict
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, open{object: true})
				expectName = true
				continue
			case '[':
				stack = append(stack, open{})
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if expectName {
				top := &stack[len(stack)-1]
				for _, n := range top.names {
					if n == t {
						return Duplicate
					}
					if strings.EqualFold(n, t) {
						return CaseVariant
					}
				}
				top.names = append(top.names, t)
				expectName = false
				continue
			}
		}
		expectName = len(stack) > 0 && stack[len(stack)-1].object
	}
}

func TestNameConflict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		json string
		want Conflict
	}{
		{"distinct names", `{"command":"ls","cwd":"/tmp"}`, NoConflict},
		{"a scalar", `"x"`, NoConflict},
		{"the same name in two objects", `[{"a":1},{"a":2}]`, NoConflict},
		{"the same name at two depths", `{"a":{"a":1}}`, NoConflict},
		{"a name equal to a value", `{"a":"a","b":"a"}`, NoConflict},
		{"a name twice", `{"command":"ls","command":"rm -rf /"}`, Duplicate},
		{"a name twice, once escaped", `{"command":"ls","comm\u0061nd":"rm"}`, Duplicate},
		{"a name in two cases", `{"command":"ls","Command":"rm"}`, CaseVariant},
		{"a name in upper case", `{"command":"ls","COMMAND":"rm"}`, CaseVariant},
		{"a long s folds to s", `{"script":"ls","ſcript":"rm"}`, CaseVariant},
		{"the Kelvin sign folds to k", `{"kill":"no","\u212aill":"yes"}`, CaseVariant},
		{"a conflict inside an array", `{"edits":[{"path":"a","Path":"b"}]}`, CaseVariant},
		{"a conflict deep inside", `{"a":{"b":[[{"c":{"d":1,"D":2}}]]}}`, CaseVariant},
		{"two unpaired surrogates read as one name", `{"\ud800":1,"\ud801":2}`, Duplicate},
		{"names that differ beyond folding", `{"command":"ls","commands":["rm"]}`, NoConflict},
		{"a value string with braces inside", `{"a":"{\"a\":1,\"a\":2}","b":1}`, NoConflict},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if !Valid([]byte(tt.json)) {
				t.Fatalf("test input is not valid JSON")
			}
			if got := NameConflict([]byte(tt.json), AnyConflict); got != tt.want {
				t.Errorf("NameConflict = %v, want %v", got, tt.want)
			}
			if ref := referenceConflict([]byte(tt.json)); ref != tt.want {
				t.Errorf("the reference reads %v, want %v", ref, tt.want)
			}
		})
	}
}

func TestNameConflictLooksForTheKindsAskedFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		json  string
		kinds Conflict
		want  Conflict
	}{
		{"a case variant after an ignored duplicate", `{"a":1,"a":2,"A":3}`, CaseVariant, CaseVariant},
		{"a duplicate after an ignored case variant", `{"a":1,"A":2,"A":3}`, Duplicate, Duplicate},
		{"only an ignored duplicate", `{"a":1,"a":2}`, CaseVariant, NoConflict},
		{"only an ignored case variant", `{"a":1,"A":2}`, Duplicate, NoConflict},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := NameConflict([]byte(tt.json), tt.kinds); got != tt.want {
				t.Errorf("NameConflict = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNameConflictIsLinearInWideObjects(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("{")
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(`":1`)
	}
	b.WriteString("}")
	// Many names collide here, so this finds one early; the point is it finishes, as the pairwise way would
	// not in reasonable time for 100,000 distinct names below.
	if got := NameConflict([]byte(b.String()), AnyConflict); got == NoConflict {
		t.Errorf("want a conflict among repeated names")
	}
	var d strings.Builder
	d.WriteString("{")
	for i := range 100_000 {
		if i > 0 {
			d.WriteString(",")
		}
		fmt.Fprintf(&d, `"n%06d":1`, i)
	}
	d.WriteString("}")
	if got := NameConflict([]byte(d.String()), AnyConflict); got != NoConflict {
		t.Errorf("100,000 distinct names: %v, want none", got)
	}
}

func FuzzNameConflict(f *testing.F) {
	for _, s := range []string{`{"a":1,"A":2}`, `{"a":1,"a":2}`, `[{"x":{"y":1,"Y":[1,{"z":2}]}}]`, `{"ſ":1,"s":2}`,
		`{"\u212a":1,"k":2}`, `{"\ud800":1,"\udc00":2}`, `{"a":"\"b\":1","b":2}`, `{}`, `[]`, `"s"`, `1`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !Valid(data) {
			return
		}
		got, want := NameConflict(data, AnyConflict), referenceConflict(data)
		if (got == NoConflict) != (want == NoConflict) {
			t.Fatalf("%q: NameConflict %v, reference %v", data, got, want)
		}
	})
}

func TestEnvelope(t *testing.T) {
	t.Parallel()
	format := NewFormat([]string{"content", "type", "text", "input", "stop_reason", "choices", "message", "tool_calls"}, []string{"input", "args"})
	tests := []struct {
		desc, json string
		wantErr    string
	}{
		{"a plain body", `{"content":[{"type":"tool_use","input":{"command":"ls"}}]}`, ""},
		{"a conflict inside an opaque member is left to the tool-call stage", `{"content":[{"type":"tool_use","input":{"command":"ls","Command":"rm"}}]}`, ""},
		{"a conflict inside an opaque array is left too", `{"args":[{"a":1,"a":2}]}`, ""},
		{"an opaque member's scalar value is passed", `{"input":"x","type":"a","type":"b"}`, "names a member twice"},
		{"the envelope after an opaque member is checked", `{"input":{"a":1},"stop_reason":"end_turn","Stop_reason":"tool_use"}`, "differs only by case"},
		{"a case-variant name of an opaque member is not opaque", `{"Input":{"a":1,"A":2}}`, "differs only by case"},
		{"an opaque name nested in the envelope", `{"x":{"input":{"a":1,"a":2}},"y":{"b":1,"B":2}}`, "differs only by case"},
		{"a lone name that spells a defined one in another case", `{"Content":[{"type":"text"}]}`, "differs only by case"},
		{"a lone name in capitals", `{"content":[{"TYPE":"text"}]}`, "differs only by case"},
		{"a name the format does not define, in any case", `{"Usage":{"Input_Tokens":1}}`, ""},
		{"a duplicate in the envelope", `{"content":[],"content":[{"type":"text"}]}`, "names a member twice"},
		{"a case variant in the envelope", `{"choices":[{"message":{"tool_calls":[],"Tool_calls":[{}]}}]}`, "differs only by case"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			err := format.Envelope([]byte(tt.json))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
