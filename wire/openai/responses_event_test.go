package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodeResponsesEvent answers as json.Unmarshal into a responsesEvent does: the same members, and an
// error exactly when encoding/json gives one.
func TestDecodeResponsesEventAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ desc, data string }{
		{"an item's done event", `{"type":"response.output_item.done","output_index":1,"item":{"id":"fc","type":"function_call","arguments":"{}"},"sequence_number":9}`},
		{"the terminal event", `{"type":"response.completed","response":{"id":"r","output":[]},"sequence_number":13}`},
		{"null members", `{"type":null,"output_index":null,"content_index":null,"item":null,"response":null}`},
		{"no members", `{}`},
		{"a duplicate key, the last wins", `{"type":"a","type":"b","output_index":1,"output_index":2}`},
		{"a key in another case", `{"Type":"response.completed","response":{}}`},
		{"a key in another case beside the exact one", `{"type":"a","TYPE":"b"}`},
		{"a key with an escape", `{"typ\u0065":"response.created"}`},
		{"a type that is not a string", `{"type":5}`},
		{"a fractional index", `{"type":"x","output_index":1.5}`},
		{"an index too large", `{"type":"x","output_index":99999999999999999999}`},
		{"an index as a string", `{"type":"x","output_index":"1"}`},
		{"an array", `[1,2]`},
		{"null", `null`},
		{"not JSON", `{"type":`},
		{"whitespace around members", " {\"type\" : \"x\" , \"item\" : {\"a\":1} } "},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			checkResponsesEvent(t, []byte(tc.data))
		})
	}
}

func FuzzDecodeResponsesEvent(f *testing.F) {
	for _, s := range []string{`{"type":"response.completed","response":{"output":[]}}`, `{"output_index":3,"item":{"x":1}}`,
		`{"Type":"x"}`, `{"type":null}`, `{"content_index":-1}`, `[]`, `{"type":"\u00e9"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkResponsesEvent(t, data) })
}

func checkResponsesEvent(t *testing.T, data []byte) {
	t.Helper()
	var want responsesEvent
	wantErr := json.Unmarshal(data, &want)
	got, err := decodeResponsesEvent(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%q: error %v, encoding/json's %v", data, err, wantErr)
	}
	if err != nil {
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%q (-encoding/json +ours):\n%s", data, diff)
	}
}
