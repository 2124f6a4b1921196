package jsonobj_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
)

func TestValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		data string
		want bool
	}{
		{"accepts an object of every kind of value", ` {"s":"x","n":-1.5e+3,"t":true,"f":false,"z":null,"a":[1,{}],"o":{"p":[]}} `, true},
		{"accepts a scalar on its own", `"just a string"`, true},
		{"accepts every escape", `"\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00"`, true},
		{"accepts bytes above 0x7f in a string, valid UTF-8 or not", "\"caf\xc3\xa9 \xff\"", true},
		{"accepts a long plain string read a word at a time", `"` + strings.Repeat("abcdefgh", 20) + `"`, true},
		{"refuses nothing", ``, false},
		{"refuses only spaces", " \n\t ", false},
		{"refuses a second value", `{} {}`, false},
		{"refuses a trailing comma in an object", `{"a":1,}`, false},
		{"refuses a trailing comma in an array", `[1,]`, false},
		{"refuses a member name that is not a string", `{a:1}`, false},
		{"refuses a member without a colon", `{"a" 1}`, false},
		{"refuses an array closed as an object", `[1}`, false},
		{"refuses an object closed as an array", `{"a":1]`, false},
		{"refuses an unclosed object", `{"a":1`, false},
		{"refuses an unclosed string", `"abc`, false},
		{"refuses a control character in a string", "\"a\tb\"", false},
		{"refuses a control character after a long plain run", `"` + strings.Repeat("abcdefgh", 3) + "\x01\"", false},
		{"refuses an unknown escape", `"\x"`, false},
		{"refuses a single-quote escape", `"\'"`, false},
		{"refuses a short unicode escape", `"\u12"`, false},
		{"refuses a unicode escape with a letter that is not hex", `"\u12g4"`, false},
		{"refuses a leading zero", `01`, false},
		{"refuses a bare minus", `-`, false},
		{"refuses a fraction without digits", `1.`, false},
		{"refuses an exponent without digits", `1e+`, false},
		{"refuses a leading plus", `+1`, false},
		{"refuses a misspelt literal", `nul`, false},
		{"refuses a literal run on", `truex`, false},
		{"accepts nesting at encoding/json's limit", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), true},
		{"refuses nesting past encoding/json's limit", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), false},
		{"refuses an empty object past encoding/json's limit", strings.Repeat(`{"a":`, 10000) + "{}" + strings.Repeat("}", 10000), false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := jsonobj.Valid([]byte(tc.data)); got != tc.want {
				t.Errorf("Valid = %v, want %v", got, tc.want)
			}
			if ref := json.Valid([]byte(tc.data)); ref != tc.want {
				t.Errorf("the row is wrong: encoding/json.Valid = %v", ref)
			}
		})
	}
}

// FuzzValid holds Valid to encoding/json.Valid on every input.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2.5e-3,"x\n",{"a":[true,false,null]}]`, `"\ud83d\ude00"`, `{"a":1,}`, `[01]`,
		"\"\x1f\"", `-0.0E+00`, `"abcdefgh\"ijklmnop"`, "\"abcdefg\xffhij\"", `{"a" :{ "b":[ ]}}`, `1 2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := jsonobj.Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
	})
}
