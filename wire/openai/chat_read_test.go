package openai

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/google/go-cmp/cmp"
)

// A response's message and tool calls are read member by member from the validated body; what that reads
// must be what json.Unmarshal reads, and it must fail where encoding/json fails.
func TestReadResponseMessageAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	checkReadRows(t, readMessageBytes, []readRow{
		{"a message with a tool call", true, `{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"bash","arguments":"{}"}}],"refusal":null}`},
		{"text and reasoning", true, `{"role":"assistant","content":"hi","reasoning_content":"because"}`},
		{"no members", true, `{}`},
		{"null members", true, `{"role":null,"content":null,"reasoning_content":null,"function_call":null}`},
		{"a role in another case", false, `{"Role":"assistant"}`},
		{"a role twice", false, `{"role":"a","role":"b"}`},
		{"a role with an escape", true, `{"role":"assist\u0061nt"}`},
		{"a role with invalid UTF-8", true, "{\"role\":\"a\xffb\"}"},
		{"a role that is not a string", false, `{"role":5}`},
		{"reasoning that is not a string", false, `{"reasoning_content":{"a":1}}`},
		{"content as parts", true, `{"content":[{"type":"text","text":"x"}]}`},
		{"a legacy function call", false, `{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}`},
		{"tool calls under the untagged field's name", false, `{"toolcalls":[{"id":"x"}]}`},
		{"tool calls under the field's own name", false, `{"ToolCalls":[{"id":"x"}]}`},
		{"a name whose long s folds to reasoning_content's s", false, "{\"rea\u017foning_content\":\"x\"}"},
		{"a name with a Kelvin sign beside the names read", true, "{\"tool_calls\":[],\"\u212a\":1}"},
	})
}

func TestReadToolCallAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	checkReadRows(t, readToolCall, []readRow{
		{"a function call", true, `{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}`},
		{"a custom call", true, `{"id":"c","type":"custom","custom":{"name":"patch","input":"*** Begin"}}`},
		{"null members", true, `{"id":null,"type":null,"function":null,"custom":null}`},
		{"a null call", false, `null`},
		{"a call that is a string", false, `"call"`},
		{"a function that is an array", false, `{"function":[]}`},
		{"a function name in another case", false, `{"function":{"Name":"bash"}}`},
		{"a function twice, merged by encoding/json", false, `{"function":{"name":"a"},"function":{"arguments":"{}"}}`},
		{"an id that is a number", false, `{"id":7}`},
		{"arguments that are an object", false, `{"function":{"name":"f","arguments":{"a":1}}}`},
		{"an id in capitals", false, `{"ID":"x"}`},
		{"a name whose long s folds to custom's s", false, "{\"type\":\"custom\",\"cu\u017ftom\":{\"name\":\"x\"}}"},
		{"arguments whose long s folds", false, "{\"function\":{\"name\":\"f\",\"argument\u017f\":\"{}\"}}"},
	})
}

func TestReadChatRequestMessageAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	checkReadRows(t, readRequestMessageBytes, []readRow{
		{"a user message", true, `{"role":"user","content":"hi"}`},
		{"an assistant message with tool calls", true, `{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`},
		{"a tool message", true, `{"role":"tool","tool_call_id":"call_1","content":"out","name":"bash"}`},
		{"a legacy function call", true, `{"role":"assistant","function_call":{"name":"f","arguments":"{\"a\":1}"}}`},
		{"null members", true, `{"role":null,"name":null,"tool_call_id":null,"tool_calls":null,"function_call":null}`},
		{"empty tool calls", true, `{"role":"assistant","tool_calls":[]}`},
		{"tool calls that are an object", false, `{"tool_calls":{}}`},
		{"a function call that is a string", false, `{"function_call":"f"}`},
		{"a function call's name in capitals", false, `{"function_call":{"NAME":"f"}}`},
		{"a function call's arguments an object", false, `{"function_call":{"name":"f","arguments":{}}}`},
		{"a role that is a number", false, `{"role":1}`},
		{"a role twice", false, `{"role":"user","role":"tool"}`},
		{"a tool_call_id in another case", false, `{"Tool_Call_ID":"x"}`},
	})
}

func FuzzReadChatRequestMessage(f *testing.F) {
	fuzzRead(f, readRequestMessageBytes, `{"role":"tool","tool_call_id":"c","content":"x"}`, `{"tool_calls":[{"id":"a"}],"function_call":{"name":"f"}}`,
		`{"Role":"a"}`, `{"function_call":null}`, `{"function_call":{"Arguments":"x"}}`, `null`)
}

// readRequestMessageBytes reads a request's message as decodeChatMessage does: a message that is not an
// object is reported before it is read, so it counts as not read.
func readRequestMessageBytes(data json.RawMessage) (chatRequestMessage, bool) {
	obj, err := jsonobj.ParseTrusted(data)
	if err != nil {
		return chatRequestMessage{}, false
	}
	return readChatRequestMessage(obj)
}

func TestReadInputItemAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	checkReadRows(t, readInputItemBytes, []readRow{
		{"a message", true, `{"role":"user","content":"hi"}`},
		{"a typed message", true, `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a"}]}`},
		{"a function call output", true, `{"type":"function_call_output","call_id":"call_1","output":"ok"}`},
		{"a function call", true, `{"type":"function_call","call_id":"c","name":"bash","arguments":"{}"}`},
		{"null members", true, `{"type":null,"role":null,"call_id":null,"name":null}`},
		{"a role that is a number", false, `{"role":1}`},
		{"a type twice", false, `{"type":"message","type":"function_call"}`},
		{"a call_id in capitals", false, `{"CALL_ID":"c"}`},
	})
}

func FuzzReadInputItem(f *testing.F) {
	fuzzRead(f, readInputItemBytes, `{"type":"function_call_output","call_id":"c","output":"x"}`, `{"role":"user","content":"x"}`,
		`{"Role":"a"}`, `{"name":5}`, `null`)
}

// readInputItemBytes reads an input item as addItem does: an item that is not an object is reported
// before it is read, so it counts as not read.
func readInputItemBytes(data json.RawMessage) (inputItemFields, bool) {
	obj, err := jsonobj.ParseTrusted(data)
	if err != nil {
		return inputItemFields{}, false
	}
	return readInputItem(obj)
}

func FuzzReadResponseMessage(f *testing.F) {
	fuzzRead(f, readMessageBytes, `{"role":"assistant","content":"x","tool_calls":[]}`, `{"Role":"a"}`, `{"role":"a","role":"b"}`,
		`{"function_call":{"name":"f"}}`, `{"reasoning_content":"\u00e9"}`, `{"content":[1]}`)
}

func FuzzReadToolCall(f *testing.F) {
	fuzzRead(f, readToolCall, `{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}`, `{"custom":{"input":"x"}}`,
		`{"function":{"name":"a"},"function":{"arguments":"b"}}`, `{"Id":1}`, `null`, `[]`)
}

// readMessageBytes reads a message as decodeChoice does: a message that is not an object is reported
// before it is read, so it counts as not read.
func readMessageBytes(data json.RawMessage) (responseMessage, bool) {
	obj, err := jsonobj.ParseTrusted(data)
	if err != nil {
		return responseMessage{}, false
	}
	return readResponseMessage(obj)
}

// readRow is validated bytes and whether the reader takes them member by member rather than leave them
// to encoding/json.
type readRow struct {
	desc string
	read bool
	data string
}

func checkReadRows[T any](t *testing.T, read func(json.RawMessage) (T, bool), rows []readRow) {
	for _, tc := range rows {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := agreesWithEncodingJSON(t, []byte(tc.data), read); got != tc.read {
				t.Errorf("read member by member: %v, want %v", got, tc.read)
			}
		})
	}
}

// fuzzRead holds read to encoding/json on valid JSON, the only bytes it is given.
func fuzzRead[T any](f *testing.F, read func(json.RawMessage) (T, bool), seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) {
			agreesWithEncodingJSON(t, data, read)
		}
	})
}

// agreesWithEncodingJSON fails when read reads data other than json.Unmarshal into a T does, or reads
// what encoding/json rejects; it says whether read took data rather than leave it to encoding/json.
func agreesWithEncodingJSON[T any](t *testing.T, data []byte, read func(json.RawMessage) (T, bool)) bool {
	t.Helper()
	var want T
	wantErr := json.Unmarshal(data, &want)
	got, ok := read(data)
	if !ok {
		return false
	}
	if wantErr != nil {
		t.Fatalf("%q: read where encoding/json fails (%v)", data, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%q (-encoding/json +ours):\n%s", data, diff)
	}
	return true
}

// A request's head (model, stream, tools and for Responses its instructions) reads as json.Unmarshal of
// the object those members make: exact names at the top, a tool's members as a struct's.
func TestReadRequestHeadsAgreeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc            string
		chat, responses bool // whether each reader takes the head rather than leave it to encoding/json
		data            string
	}{
		{"a chat request's tools", true, true, `{"model":"gpt-4.1","stream":true,"messages":[],"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object"}}},{"type":"custom","custom":{"name":"patch"}}]}`},
		{"a responses request's tools", true, true, `{"model":"gpt-4.1","instructions":"be brief","input":"hi","tools":[{"type":"function","name":"bash","parameters":{}},{"type":"mcp","server_label":"fs"},{"type":"web_search"}]}`},
		{"no head", true, true, `{}`},
		{"null members", true, true, `{"model":null,"stream":null,"instructions":null,"tools":null}`},
		{"empty tools", true, true, `{"tools":[]}`},
		{"a null tool", true, true, `{"tools":[null,{"type":"function"}]}`},
		{"a null function", true, true, `{"tools":[{"type":"function","function":null}]}`},
		{"a head member in another case, which the head does not read", true, true, `{"Model":"x","model":"y"}`},
		{"a model twice, the last read", true, true, `{"model":"a","model":"b"}`},
		{"a model that is a number", false, false, `{"model":4}`},
		{"a stream that is a string", false, false, `{"stream":"yes"}`},
		{"instructions that are an array", true, false, `{"instructions":["a"]}`},
		{"tools that are an object", false, false, `{"tools":{"type":"function"}}`},
		{"a tool that is a string", false, false, `{"tools":["bash"]}`},
		{"a tool's type in capitals", false, false, `{"tools":[{"TYPE":"function"}]}`},
		{"a tool's name twice", true, false, `{"tools":[{"name":"a","name":"b"}]}`},
		{"a function's name in another case", false, true, `{"tools":[{"function":{"Name":"bash"}}]}`},
		{"a function that is a string", false, true, `{"tools":[{"function":"bash"}]}`},
		{"a server label that is a number", true, false, `{"tools":[{"server_label":1}]}`},
		{"a name with an escape", true, true, `{"tools":[{"name":"b\u0061sh","function":{"name":"b\u0061sh"}}]}`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			chat := agreesOnHead(t, []byte(tc.data), readChatRequestHead, "model", "stream", "tools")
			responses := agreesOnHead(t, []byte(tc.data), readResponsesRequestHead, "model", "stream", "instructions", "tools")
			if chat != tc.chat || responses != tc.responses {
				t.Errorf("read member by member: chat %v, responses %v; want %v, %v", chat, responses, tc.chat, tc.responses)
			}
		})
	}
}

func FuzzReadRequestHeads(f *testing.F) {
	for _, s := range []string{`{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"f"}},{"type":"custom","custom":{"name":"c"}}]}`,
		`{"instructions":"x","tools":[{"type":"mcp","server_label":"s"},null]}`, `{"tools":[{"Name":"a"}]}`, `{"stream":1}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) {
			agreesOnHead(t, data, readChatRequestHead, "model", "stream", "tools")
			agreesOnHead(t, data, readResponsesRequestHead, "model", "stream", "instructions", "tools")
		}
	})
}

// agreesOnHead holds a request head's reader to json.Unmarshal of the object the head's keys make of
// the request data (jsonobj.Object.Pick), which the codec decodes when the reader does not take it.
func agreesOnHead[T any](t *testing.T, data []byte, read func(*jsonobj.Object) (T, bool), keys ...string) bool {
	t.Helper()
	obj, err := jsonobj.ParseTrusted(data)
	if err != nil {
		return false // a request that is not an object is refused before its head is read
	}
	return agreesWithEncodingJSON(t, obj.Pick(keys...), func(json.RawMessage) (T, bool) { return read(obj) })
}
