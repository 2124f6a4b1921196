package jsonwalk_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agentwarden/warden/internal/jsonwalk"
)

func TestStrings(t *testing.T) {
	t.Parallel()
	var v any
	if err := json.Unmarshal([]byte(`{"To":"a@b.c","Body":{"Parts":["x",{"Path":"/etc"}],"n":3},"flag":true}`), &v); err != nil {
		t.Fatal(err)
	}
	var got []string
	jsonwalk.Strings(v, func(key, s string) bool {
		got = append(got, key+"="+s)
		return true
	})
	slices.Sort(got)
	want := []string{"parts=x", "path=/etc", "to=a@b.c"}
	if !slices.Equal(got, want) {
		t.Errorf("visited %v, want %v (keys lower-cased, arrays under their member, numbers and booleans skipped)", got, want)
	}
	n := 0
	jsonwalk.Strings([]any{"a", "b", "c"}, func(string, string) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("visited %d strings after f returned false, want 2", n)
	}
}
