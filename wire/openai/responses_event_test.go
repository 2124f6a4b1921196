package openai

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
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

// outputItemFields.scan answers as json.Unmarshal does wherever it answers: the same fields, and only for
// items encoding/json reads without an error.
func TestOutputItemScanAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc     string
		data     string
		wantScan bool // the scan reads it itself
	}{
		{"a message item", `{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"Hi"}]}`, true},
		{"a message item added, no content yet", `{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}`, true},
		{"a function call", `{"id":"fc","type":"function_call","status":"completed","arguments":"{\"command\":\"ls\"}","call_id":"call_2","name":"bash"}`, true},
		{"a custom tool call", `{"type":"custom_tool_call","call_id":"c","name":"patch","input":"diff"}`, true},
		{"a built-in call's action", `{"type":"shell_call","call_id":"c","action":{"commands":["ls"]}}`, true},
		{"an id that is not a string, kept raw", `{"type":"message","id":5,"content":[]}`, true},
		{"null members", `{"type":null,"call_id":null,"arguments":null,"input":null,"action":null,"content":null}`, true},
		{"a null content part", `{"type":"message","content":[null,{"type":"output_text","text":"x"}]}`, true},
		{"a string with escapes", `{"type":"message","content":[{"type":"output_text","text":"a\nb \u00e9"}]}`, true},
		{"a key in another case", `{"Type":"function_call","name":"bash"}`, false},
		{"a repeated key", `{"type":"message","type":"function_call"}`, false},
		{"a part's key in another case", `{"type":"message","content":[{"TEXT":"x"}]}`, false},
		{"arguments that are not a string", `{"type":"function_call","arguments":{"a":1}}`, false},
		{"content that is not an array", `{"type":"message","content":"x"}`, false},
		{"a part that is not an object", `{"type":"message","content":[1]}`, false},
		{"a text that is not a string", `{"type":"message","content":[{"type":"output_text","text":5}]}`, false},
		{"null", `null`, false},
		{"not JSON", `{"type":`, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := checkOutputItem(t, []byte(tc.data)); got != tc.wantScan {
				t.Errorf("scanned = %v, want %v", got, tc.wantScan)
			}
		})
	}
}

func FuzzOutputItemScan(f *testing.F) {
	for _, s := range []string{`{"type":"message","content":[{"type":"output_text","text":"Hi"}]}`,
		`{"type":"function_call","arguments":"{}","call_id":"c","name":"n"}`, `{"type":"shell_call","action":null}`,
		`{"Type":"x"}`, `{"content":[null]}`, `{"type":"\u00e9","name":"\ud800"}`, `{"ſype":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkOutputItem(t, data) })
}

// checkOutputItem fails when the item scan reads data otherwise than encoding/json, and says whether it
// read it.
func checkOutputItem(t *testing.T, data []byte) bool {
	t.Helper()
	return checkScan(t, data, func(it *outputItemFields, data json.RawMessage) bool {
		obj, err := jsonobj.ParseShared(data)
		return err == nil && it.scan(obj)
	})
}

// checkScan fails when scan reads data into a T otherwise than json.Unmarshal does, or reads what
// json.Unmarshal refuses, and says whether it read it.
func checkScan[T any](t *testing.T, data []byte, scan func(*T, json.RawMessage) bool) bool {
	t.Helper()
	var got T
	if !scan(&got, data) {
		return false
	}
	var want T
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%q: scanned, and encoding/json fails: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%q (-encoding/json +scan):\n%s", data, diff)
	}
	return true
}

// responseHead.scan answers as json.Unmarshal does wherever it answers.
func TestResponseHeadScanAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc     string
		data     string
		wantScan bool
	}{
		{"a completed response", `{"id":"r","object":"response","status":"completed","output":[{"type":"message"},{"type":"function_call"}],"usage":null}`, true},
		{"an incomplete response", `{"object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}`, true},
		{"null members", `{"object":null,"status":null,"incomplete_details":null,"output":null}`, true},
		{"a reason in another case", `{"object":"response","incomplete_details":{"Reason":"x"}}`, false},
		{"a status that is not a string", `{"object":"response","status":1}`, false},
		{"output that is not an array", `{"object":"response","output":{}}`, false},
		{"incomplete details that are not an object", `{"object":"response","incomplete_details":"x"}`, false},
		{"a repeated key", `{"object":"response","status":"a","status":"b"}`, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := checkResponseHead(t, []byte(tc.data)); got != tc.wantScan {
				t.Errorf("scanned = %v, want %v", got, tc.wantScan)
			}
		})
	}
}

func FuzzResponseHeadScan(f *testing.F) {
	for _, s := range []string{`{"object":"response","status":"completed","output":[{"a":1}]}`,
		`{"incomplete_details":{"reason":"content_filter"}}`, `{"Status":"x"}`, `{"output":[null,1,"x"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkResponseHead(t, data) })
}

// checkResponseHead fails when the head scan reads data otherwise than encoding/json, and says whether it
// read it.
func checkResponseHead(t *testing.T, data []byte) bool {
	t.Helper()
	return checkScan(t, data, func(h *responseHead, data json.RawMessage) bool {
		obj, err := jsonobj.Parse(data)
		return err == nil && h.scan(obj)
	})
}
