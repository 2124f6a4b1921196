package reqtext_test

import (
	"encoding/json"
	"testing"

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
