package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/internal/jsontest"
	"github.com/google/go-cmp/cmp"
)

// The request, message and stream event readers answer as json.Unmarshal into their structs does: the same values, and an error
// exactly when encoding/json has one, with its words.
func TestScanReadersAgreeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ desc, data string }{
		{"a text block", `{"type":"text","text":"hello"}`},
		{"a thinking block", `{"type":"thinking","thinking":"hmm","signature":"s"}`},
		{"a tool_use block", `{"type":"tool_use","id":"toolu_1","name":"bash","input":{"command":"ls"}}`},
		{"a tool_result block", `{"type":"tool_result","tool_use_id":"toolu_1","content":"out","is_error":true}`},
		{"a tool_result block, is_error null", `{"type":"tool_result","tool_use_id":"t","is_error":null}`},
		{"an image block", `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}`},
		{"a text block with escapes", `{"type":"text","text":"a \"quote\" \u00e9 and \n"}`},
		{"a text block with invalid UTF-8", "{\"type\":\"text\",\"text\":\"a\xffb\"}"},
		{"a key in another case", `{"Type":"text","text":"x"}`},
		{"a key twice", `{"type":"text","type":"image"}`},
		{"a string where a bool goes", `{"type":"tool_result","is_error":"yes"}`},
		{"a number where a string goes", `{"type":5,"text":"x"}`},
		{"text of the wrong type after the type", `{"type":"text","text":5}`},
		{"input null", `{"type":"tool_use","input":null}`},
		{"input a string", `{"type":"tool_use","input":"x"}`},
		{"not an object", `["text"]`},
		{"null", `null`},
		{"a string", `"text"`},
		{"a message", `{"role":"user","content":[{"type":"text","text":"hi"}]}`},
		{"a message with string content", `{"role":"assistant","content":"hi"}`},
		{"a message with null content", `{"role":"user","content":null}`},
		{"a message without a role", `{"content":"hi"}`},
		{"a message whose role is a number", `{"role":1,"content":"hi"}`},
		{"a message whose role is named in another case", `{"ROLE":"user","content":"hi"}`},
		{"a request head", `{"model":"claude-sonnet-4-5","stream":true,"tools":[{"name":"bash","input_schema":{}},{"type":"web_search_20250305","name":"web_search"}]}`},
		{"a request head without tools", `{"model":"m","stream":false,"max_tokens":5}`},
		{"a request head with null tools and stream", `{"model":null,"stream":null,"tools":null}`},
		{"a request head with empty tools", `{"model":"m","tools":[]}`},
		{"a request head with a null tool", `{"tools":[null,{"name":"x"}]}`},
		{"a request head with a tool that is not an object", `{"tools":["bash"]}`},
		{"a request head with a tool's name in another case", `{"tools":[{"NAME":"x"}]}`},
		{"a request head with stream a string", `{"stream":"true"}`},
		{"a request head with tools an object", `{"tools":{"name":"x"}}`},
		{"a request head with the model twice", `{"model":"a","model":"b"}`},
		{"a request head with the model in another case", `{"Model":"a","model":"b"}`},
		{"a message body", `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t","name":"bash","input":{}}],"stop_reason":"tool_use","usage":{}}`},
		{"a message body with null content and stop reason", `{"type":"message","content":null,"stop_reason":null}`},
		{"a message body with empty content", `{"type":"message","content":[]}`},
		{"a message body whose content is a string", `{"type":"message","content":"hi"}`},
		{"a message body whose stop reason is a number", `{"type":"message","stop_reason":1}`},
		{"a message body with the stop reason in another case", `{"type":"message","Stop_Reason":"end_turn"}`},
		{"a server tool block", `{"type":"server_tool_use","id":"s","name":"web_search","input":{"query":"q"}}`},
		{"a message_start event", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"usage":{"input_tokens":5}}}`},
		{"a content_block_start event of text", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		{"a content_block_start event of a tool call", `{"type":"content_block_start","index":12,"content_block":{"type":"tool_use","id":"toolu_1","name":"bash","input":{}}}`},
		{"an input_json_delta event", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\":"}}`},
		{"a signature_delta event", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}`},
		{"a message_delta event", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`},
		{"a message_delta event with a null stop reason", `{"type":"message_delta","delta":{"stop_reason":null}}`},
		{"an event whose index is negative", `{"type":"content_block_stop","index":-3}`},
		{"an event whose index has a leading zero", `{"type":"content_block_stop","index":007}`},
		{"an event whose index is a fraction", `{"type":"content_block_stop","index":1.5}`},
		{"an event whose index has an exponent", `{"type":"content_block_stop","index":1e2}`},
		{"an event whose index is too large for an int", `{"type":"content_block_stop","index":99999999999999999999}`},
		{"an event whose index is null", `{"type":"content_block_stop","index":null}`},
		{"an event whose index is a string", `{"type":"content_block_stop","index":"1"}`},
		{"an event whose content block is null", `{"type":"content_block_start","index":0,"content_block":null}`},
		{"an event whose content block is a string", `{"type":"content_block_start","content_block":"text"}`},
		{"an event whose content block's input is null", `{"type":"content_block_start","content_block":{"type":"tool_use","input":null}}`},
		{"an event whose delta's type is named in another case", `{"type":"content_block_delta","delta":{"TYPE":"text_delta","text":"x"}}`},
		{"an event whose stop reason is a number", `{"type":"message_delta","delta":{"stop_reason":5}}`},
		{"an event named twice", `{"type":"ping","type":"message_stop"}`},
		{"an event that is not JSON", `{"type":"ping"`},
		{"an event that is empty", ``},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			checkScanReaders(t, []byte(tt.data))
		})
	}
}

func FuzzScanReaders(f *testing.F) {
	for _, s := range []string{`{"type":"text","text":"a"}`, `{"type":"tool_use","id":"i","name":"n","input":{}}`,
		`{"type":"tool_result","tool_use_id":"t","is_error":false,"content":[]}`, `{"role":"user","content":"x"}`,
		`{"model":"m","stream":true,"tools":[{"name":"a"},{"type":"b"},null]}`, `{"Text":"x","text":"y"}`, `[]`, `null`,
		`{"type":"message","role":"assistant","content":[{"type":"text","text":"a"}],"stop_reason":"end_turn"}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, `{"index":-0}`, `{"type":"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScanReaders(t, data)
	})
}

func checkScanReaders(t *testing.T, data []byte) {
	t.Helper()
	event, err := readStreamEvent(data) // a stream event's data is read unvalidated
	jsontest.ReadsAsUnmarshal(t, "readStreamEvent", data, event, err)
	if !json.Valid(data) {
		return // the others read elements jsonobj validated
	}

	var wantText textFields
	_ = json.Unmarshal(data, &wantText)
	if diff := cmp.Diff(wantText, readTextFields(data)); diff != "" {
		t.Errorf("%q: readTextFields (-encoding/json +read):\n%s", data, diff)
	}

	call, obj, err := readCallBlock(data)
	jsontest.ReadsAsUnmarshal(t, "readCallBlock", data, call, err)
	if err == nil && call.Type == "tool_result" && obj == nil {
		t.Errorf("%q: a tool_result block without its object", data)
	}
	block, err := readContentBlock(data)
	jsontest.ReadsAsUnmarshal(t, "readContentBlock", data, block, err)

	obj, err = jsonobj.ParseTrusted(data)
	if err != nil {
		return // the message and the request are objects, which the caller parsed
	}
	msg, err := readMessage(obj, data)
	jsontest.ReadsAsUnmarshal(t, "readMessage", data, msg, err)
	msgHead, err := readMessageHead(obj, data)
	jsontest.ReadsAsUnmarshal(t, "readMessageHead", data, msgHead, err)
	head, err := readHead(obj)
	jsontest.ReadsAsUnmarshal(t, "readHead", obj.Pick("model", "stream", "tools"), head, err)
}

// EndUser's reading without encoding/json answers as its reading with it: the same id, and an error exactly
// when encoding/json has one.
func FuzzEndUser(f *testing.F) {
	for _, s := range []string{`{"metadata":{"user_id":"u1"}}`, `{"metadata":null}`, `{"metadata":{"user_id":null}}`, `{}`,
		`{"Metadata":{"user_id":"u"}}`, `{"metadata":{"user_id":5}}`, `{"metadata":"x"}`, `null`, `[`, `{"metadata":{"USER_ID":"a","user_id":"b"}}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"metadata":{"user_id":"caf\u00e9"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req struct {
			Metadata *struct {
				UserID *string `json:"user_id"`
			} `json:"metadata"`
		}
		wantErr := json.Unmarshal(body, &req)
		var want string
		if req.Metadata != nil && req.Metadata.UserID != nil {
			want = *req.Metadata.UserID
		}
		got, err := EndUser(body)
		if (err == nil) != (wantErr == nil) || err == nil && got != want {
			t.Fatalf("%q: EndUser %q, %v; encoding/json %q, %v", body, got, err, want, wantErr)
		}
		if id, ok := plainEndUser(body); ok && (wantErr != nil || id != want) {
			t.Fatalf("%q: plainEndUser %q; encoding/json %q, %v", body, id, want, wantErr)
		}
	})
}
