package jsonobj_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
)

func TestObject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		in   string
		edit func(*jsonobj.Object)
		want string
	}{
		{"an untouched object keeps order and values", `{"z":1,"a":{"y":2, "b":[1, 2]},"m":"é\u00e9"}`, func(*jsonobj.Object) {},
			`{"z":1,"a":{"y":2, "b":[1, 2]},"m":"é\u00e9"}`},
		{"set replaces in place", `{"a":1,"b":2,"c":3}`, func(o *jsonobj.Object) { o.Set("b", []byte(`"x"`)) }, `{"a":1,"b":"x","c":3}`},
		{"set appends a new key", `{"a":1}`, func(o *jsonobj.Object) { _ = o.SetJSON("n", []int{1}) }, `{"a":1,"n":[1]}`},
		{"delete removes", `{"a":1,"b":2,"c":3}`, func(o *jsonobj.Object) { o.Delete("b") }, `{"a":1,"c":3}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			o, err := jsonobj.Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(o)
			got, _ := o.MarshalJSON()
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`[1]`, `"x"`, `{"a":1`, `{"a":1} {}`, `{1:2}`, ``} {
		if _, err := jsonobj.Parse([]byte(in)); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
}

func TestArrays(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		in   string
		edit func([]json.RawMessage) []json.RawMessage
		want string
	}{
		{"split and join keep every element's bytes", `[ {"a" : 1}, "<&>" ,[1, 2] ]`, func(e []json.RawMessage) []json.RawMessage { return e },
			`[{"a" : 1},"<&>",[1, 2]]`},
		{"a replaced element leaves the others as they came", `[{"a" : 1}, "x"]`,
			func(e []json.RawMessage) []json.RawMessage { e[1] = json.RawMessage(`"y"`); return e }, `[{"a" : 1},"y"]`},
		{"null is an empty array", `null`, func(e []json.RawMessage) []json.RawMessage { return e }, `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			elems, err := jsonobj.SplitArray([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonobj.JoinArray(tt.edit(elems)); string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	if _, err := jsonobj.SplitArray([]byte(`{"a":1}`)); err == nil {
		t.Error("an object split as an array")
	}
}

func TestSetMember(t *testing.T) {
	t.Parallel()
	got, err := jsonobj.SetMember([]byte(`{"a": [1, 2], "b":"x"}`), "b", json.RawMessage(`"y"`))
	if err != nil || string(got) != `{"a":[1, 2],"b":"y"}` {
		t.Errorf("got %s, %v", got, err)
	}
}

func TestPick(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, in string
		keys     []string
		want     string
	}{
		{"named members in the order asked, values as they came", `{"a":1,"big":[1, 2],"b":{"x": 2}}`, []string{"b", "a"}, `{"b":{"x": 2},"a":1}`},
		{"an absent key is left out", `{"a":1}`, []string{"a", "nope"}, `{"a":1}`},
		{"nothing named gives an empty object", `{"a":1}`, []string{"z"}, `{}`},
		{"a duplicate key gives its last value, as Get", `{"a":1,"a":2}`, []string{"a"}, `{"a":2}`},
		{"keys match exactly, not case-insensitively", `{"Model":"x"}`, []string{"model"}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			o, err := jsonobj.Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(o.Pick(tt.keys...)); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
