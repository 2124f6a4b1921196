package jsonobj_test

import (
	"testing"

	"github.com/agentwarden/warden/wire/jsonobj"
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
