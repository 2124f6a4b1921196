package jsonobj_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/google/go-cmp/cmp"
)

// SplitArrayTrusted, DecodeString, DecodeBool and, for a member, Objects and Object.Bool read validated bytes as json.Unmarshal does: the same answer, and
// a failure exactly where encoding/json fails.
func TestTrustedReadsAgreeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		`[]`, ` [ ] `, `[1,"a",{"b":[2]},null,true]`, ` [ "x" , [ ] ] `, `null`, ` null `, `{}`, `"s"`, `5`,
		`"plain"`, `"with \"escapes\" and \u00e9"`, "\"invalid \xff UTF-8\"", `""`, `true`, `{"a":1}`, `-0.5`,
		`"\\ \/ \b \f \n \r \t \u0000"`, `"\ud83d\ude00 a pair"`, `"\ud83d a lone high half"`, `"\udc00 a lone low half"`,
		`"\ud83d\u0041 a high half before a letter"`, `"\ud83d\ud83d\ude00 two high halves, the second paired"`,
		"\"an escape \\n and \xc3 truncated UTF-8\"", `"a plain run of more than eight bytes\nthen an escape"`,
		`false`, ` true `, `0`, `"true"`, `[{"a":"x"},null,{}]`, `[{"A":"x"}]`, `[{"a":"x","a":"y"}]`, `[{"a":1}]`, `[[]]`,
		`[{"a":null,"b":2}]`,
	} {
		t.Run(data, func(t *testing.T) {
			t.Parallel()
			checkTrusted(t, []byte(data))
		})
	}
}

func FuzzTrustedReads(f *testing.F) {
	for _, s := range []string{`[1,[2,{"a":"]"}]]`, `null`, `"a\nb"`, `{"x":[]}`, `[ "é" ]`, `"\ud800\udc00"`, `"\ud800\n"`,
		"\"\\t\xe2\x82\"", `"\u00e9\u4e2d"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) { // they read validated bytes only
			checkTrusted(t, data)
		}
	})
}

func checkTrusted(t *testing.T, data []byte) {
	t.Helper()
	var wantElems []json.RawMessage
	wantErr := json.Unmarshal(data, &wantElems)
	elems, err := jsonobj.SplitArrayTrusted(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%q: SplitArrayTrusted error %v, encoding/json's %v", data, err, wantErr)
	}
	if diff := cmp.Diff(wantElems, elems); err == nil && diff != "" {
		t.Errorf("%q: elements (-encoding/json +trusted):\n%s", data, diff)
	}
	var wantS string
	wantErr = json.Unmarshal(data, &wantS)
	s, ok := jsonobj.DecodeString(data)
	if ok != (wantErr == nil) || s != wantS {
		t.Errorf("%q: DecodeString %q %v, encoding/json %q %v", data, s, ok, wantS, wantErr)
	}
	var wantB bool
	wantErr = json.Unmarshal(data, &wantB)
	b, ok := jsonobj.DecodeBool(data)
	if ok != (wantErr == nil) || b != wantB {
		t.Errorf("%q: DecodeBool %v %v, encoding/json %v %v", data, b, ok, wantB, wantErr)
	}
	checkMember(t, data)
}

func TestPlain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, data string
		keys       []string
		want       bool
	}{
		{"each key once, as spelled", `{"role":"a","content":"b","other":1}`, []string{"role", "content"}, true},
		{"a key absent", `{"role":"a"}`, []string{"role", "content"}, true},
		{"a key twice", `{"role":"a","role":"b"}`, []string{"role"}, false},
		{"a key in another case", `{"Role":"a"}`, []string{"role"}, false},
		{"a key in another case beside the exact one", `{"role":"a","ROLE":"b"}`, []string{"role"}, false},
		{"a name that folds to a key through a long s", "{\"\u017fize\":1}", []string{"size"}, false},
		{"a name that folds to a key through a Kelvin sign", "{\"\u212aey\":1}", []string{"key"}, false},
		{"names that only resemble a key", `{"roles":1,"rol":2}`, []string{"role"}, true},
		{"no keys asked", `{"a":1,"a":2}`, nil, true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			o, err := jsonobj.Parse([]byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			if got := o.Plain(tc.keys...); got != tc.want {
				t.Errorf("Plain(%q) = %v, want %v", tc.keys, got, tc.want)
			}
		})
	}
}

// checkMember reads data as an object's member k with Objects and Object.Bool, and holds them to
// json.Unmarshal into a struct with such a field.
func checkMember(t *testing.T, data []byte) {
	t.Helper()
	obj, err := jsonobj.ParseTrusted([]byte(`{"k":` + string(data) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	type elem struct {
		A string `json:"a"`
	}
	var wantElems struct{ K []elem }
	wantErr := json.Unmarshal([]byte(`{"K":`+string(data)+`}`), &wantElems)
	elems, ok := jsonobj.Objects(obj, "k", func(o *jsonobj.Object, e *elem) bool {
		return o.Plain("a") && o.Strings(jsonobj.StringInto("a", &e.A))
	})
	if ok && wantErr != nil {
		t.Errorf("%q: Objects read where encoding/json fails (%v)", data, wantErr)
	}
	if diff := cmp.Diff(wantElems.K, elems); ok && diff != "" {
		t.Errorf("%q: Objects (-encoding/json +read):\n%s", data, diff)
	}
	var wantB struct{ K bool }
	wantErr = json.Unmarshal([]byte(`{"K":`+string(data)+`}`), &wantB)
	var b bool
	if ok := obj.Bool("k", &b); ok != (wantErr == nil) || b != wantB.K {
		t.Errorf("%q: Bool %v %v, encoding/json %v %v", data, b, ok, wantB.K, wantErr)
	}
}
