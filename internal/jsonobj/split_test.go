package jsonobj_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/google/go-cmp/cmp"
)

// SplitArray answers as json.Unmarshal into a []json.RawMessage does, for any input: the same elements
// (nil for null, empty for []), and for what is not an array of valid JSON the same error, word for word,
// since a request codec puts it in the client's error.
func TestSplitArrayAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ desc, data string }{
		{"an array of every kind of value", `[1,"a",{"b":[2]},null,true,-0.5e3]`},
		{"spaces around and between elements", " \t[ \"x\" ,\n[ ] ] \r\n"},
		{"an empty array", `[]`},
		{"null", ` null `},
		{"an object", `{"a":1}`},
		{"a string", `"s"`},
		{"a number", `5`},
		{"nothing", ``},
		{"a trailing comma", `[1,]`},
		{"an unclosed array", `[1,2`},
		{"two values", `[1] [2]`},
		{"invalid UTF-8 in a string element", "[\"a\xffb\"]"},
		{"an element with escapes", `["\u00e9\n\"",{"k\u0041":"v"}]`},
		{"a leading zero", `[01]`},
		{"a control character in a string", "[\"a\x01\"]"},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			checkSplit(t, []byte(tt.data))
		})
	}
}

func FuzzSplitArray(f *testing.F) {
	for _, s := range []string{`[1,[2,{"a":"]"}]]`, `null`, `[]`, ` [ "é" , {} ] `, `{"x":[]}`, `[1,]`, `[`, `"\ud800"`, "[\"\xff\"]", `[1]x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkSplit(t, data) })
}

func checkSplit(t *testing.T, data []byte) {
	t.Helper()
	var want []json.RawMessage
	wantErr := json.Unmarshal(data, &want)
	got, err := jsonobj.SplitArray(data)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: SplitArray error %v, encoding/json's %v", data, err, wantErr)
	}
	if err != nil {
		return
	}
	if (got == nil) != (want == nil) {
		t.Errorf("%q: SplitArray nil %v, encoding/json's nil %v", data, got == nil, want == nil)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%q: elements (-encoding/json +SplitArray):\n%s", data, diff)
	}
}
