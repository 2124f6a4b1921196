package reqtext_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

func TestReplace(t *testing.T) {
	t.Parallel()
	typed := reqtext.TypedPart(map[string]string{"text": "text"}, []string{"tool_use"})
	stringOrParts := reqtext.Content{Member: "content", StringForm: true, Classify: typed, NewPart: reqtext.TypedTextPart("text")}
	partsOnly := reqtext.Content{Member: "parts", Classify: typed, NewPart: reqtext.TypedTextPart("text")}
	tests := []struct {
		desc string
		c    reqtext.Content
		in   string
		text string
		want string
	}{
		{"a string is replaced", stringOrParts, `{"content":"a","x":1}`, "b", `{"content":"b","x":1}`},
		{"an absent content becomes a string where strings are allowed", stringOrParts, `{"role":"assistant"}`, "b", `{"role":"assistant","content":"b"}`},
		{"a null content becomes one part where only parts are allowed", partsOnly, `{"parts":null}`, "b", `{"parts":[{"type":"text","text":"b"}]}`},
		{"parts without text get the text appended after the others", partsOnly, `{"parts":[{"type":"tool_use","id":"t"}]}`, "b",
			`{"parts":[{"type":"tool_use","id":"t"},{"type":"text","text":"b"}]}`},
		{"the text is written without HTML escapes", stringOrParts, `{"content":"a"}`, "<b> & c", `{"content":"<b> & c"}`},
		{"later text parts are removed, media kept in place", partsOnly, `{"parts":[{"type":"image"},{"type":"text","text":"1"},{"type":"text","text":"2"}]}`, "12",
			`{"parts":[{"type":"image"},{"type":"text","text":"12"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, err := tt.c.Replace(json.RawMessage(tt.in), tt.text)
			if err != nil || string(got) != tt.want {
				t.Errorf("Replace = %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TypedPart reads an element as json.Unmarshal into a map[string]json.RawMessage did, for any valid JSON.
func FuzzTypedPart(f *testing.F) {
	for _, s := range []string{`{"type":"text","text":"a"}`, `{"type":"refusal","refusal":"no"}`, `{"type":"image_url","image_url":{}}`,
		`{"type":"tool_use"}`, `{"type":"text","type":"image"}`, `{"Type":"text","text":"a"}`, `{"type":5}`, `{"type":"text","text":5}`,
		`{"t\u0079pe":"text","text":"\u00e9"}`, `"text"`, `null`, `[{"type":"text"}]`, "{\"type\":\"text\",\"text\":\"a\xffb\"}"} {
		f.Add([]byte(s))
	}
	typed := reqtext.TypedPart(map[string]string{"text": "text", "refusal": "refusal"}, []string{"tool_use"})
	f.Fuzz(func(t *testing.T, elem []byte) {
		if !json.Valid(elem) {
			return // the elements SplitArray returns
		}
		if got, want := typed(elem), typedWithAMap(elem); got != want {
			t.Fatalf("%q: TypedPart %+v, read as a map %+v", elem, got, want)
		}
	})
}

// typedWithAMap is TypedPart's reading before it used jsonobj: the element decoded into a map.
func typedWithAMap(elem json.RawMessage) reqtext.Part {
	textKeys := map[string]string{"text": "text", "refusal": "refusal"}
	var p map[string]json.RawMessage
	_ = json.Unmarshal(elem, &p)
	var typ string
	_ = json.Unmarshal(p["type"], &typ)
	if key, ok := textKeys[typ]; ok {
		var text string
		_ = json.Unmarshal(p[key], &text)
		return reqtext.Part{Kind: warden.ContentText, Text: text, Key: key}
	}
	if typ == "tool_use" {
		return reqtext.Part{}
	}
	return reqtext.Part{Kind: warden.ContentMedia, MediaType: typ}
}
