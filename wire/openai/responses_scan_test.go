package openai

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScanResponsesItemEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, data string
		wantOK     bool
		wantIndex  int
	}{
		{desc: "a text delta is read", data: `{"type":"response.output_text.delta","item_id":"msg_1","output_index":3,"content_index":0,"delta":"hi \"there\"\n","logprobs":[],"sequence_number":9}`, wantOK: true, wantIndex: 3},
		{desc: "an arguments delta is read", data: `{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":1,"delta":"{\"a\"","sequence_number":2}`, wantOK: true, wantIndex: 1},
		{desc: "an item added event is declined", data: `{"type":"response.output_item.added","output_index":0,"item":{}}`},
		{desc: "a text done event is read", data: `{"type":"response.output_text.done","item_id":"msg_1","output_index":2,"content_index":0,"text":"all of it","sequence_number":9}`, wantOK: true, wantIndex: 2},
		{desc: "a part added event is read", data: `{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":""},"sequence_number":3}`, wantOK: true},
		{desc: "an item done event is declined, whatever it carries", data: `{"type":"response.output_item.done","item_id":"m","output_index":0,"item":{}}`},
		{desc: "a terminal event is declined, whatever it carries", data: `{"type":"response.completed","item_id":"m","output_index":0,"response":{}}`},
		{desc: "a later output_index in any case is declined", data: `{"type":"response.output_text.delta","item_id":"m","output_index":0,"Output_Index":5}`},
		{desc: "a later type is declined", data: `{"type":"response.output_text.delta","item_id":"m","output_index":0,"TYPE":"response.completed"}`},
		{desc: "an escaped key is declined", data: `{"type":"response.output_text.delta","item_id":"m","output_index":0,"\u0074ype":"x"}`},
		{desc: "a key-like string in a value is read", data: `{"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"\"type\": 1"}`, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			typ, index, ok := scanResponsesItemEvent(tt.data)
			if ok != tt.wantOK || index != tt.wantIndex || (ok && !strings.HasPrefix(tt.data, `{"type":"`+typ+`"`)) {
				t.Errorf("scanResponsesItemEvent = %q, %d, %v; want %d, %v", typ, index, ok, tt.wantIndex, tt.wantOK)
			}
		})
	}
}

func TestHasKeyFolding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, rest string
		topOnly    bool
		want       bool
	}{
		{desc: "a key as written is found", rest: `,"delta":"x","logprobs":[]}`, want: true},
		{desc: "a key in another case is found", rest: `,"LogProbs":[]}`, want: true},
		{desc: "a key spelled beyond ASCII is found", rest: `,"logprobſ":[]}`, want: true},
		{desc: "a name as long as a key but another is passed over", rest: `,"logprobz":[]}`},
		{desc: "a name with an escape counts as the key it could spell", rest: `,"\u006cogprobs":[]}`, want: true},
		{desc: "a string value spelling a key is passed over", rest: `,"delta":"\"logprobs\": [] and more than eight bytes","n":1}`},
		{desc: "an unterminated string counts as a key", rest: `,"delta":"no end`, want: true},
		{desc: "an unterminated string ending in an escape counts as a key", rest: `,"delta":"x\`, want: true},
		{desc: "a nested key is found when all depths count", rest: `,"part":{"logprobs":1}}`, want: true},
		{desc: "a nested key is passed over when only the top counts", rest: `,"part":{"logprobs":1}}`, topOnly: true},
		{desc: "a top-level key after a nested object is found", rest: `,"part":{"a":[1,{"b":2}]},"LOGPROBS":1}`, topOnly: true, want: true},
		{desc: "a nested string with an escaped quote does not end early", rest: `,"part":{"a":"x\"},\"type\":1"}}`, topOnly: true},
		{desc: "a nested string ending in an escaped backslash ends there", rest: `,"part":{"a":"x\\"},"Type":1}`, topOnly: true, want: true},
		{desc: "a nested string's escaped backslash before an escaped quote", rest: `,"part":["\\\"}],\"type\":"]}`, topOnly: true},
		{desc: "an unterminated nested string counts as a key", rest: `,"part":{"a":"x\"}`, topOnly: true, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := foldedKey(tt.rest, tt.topOnly, []string{"type", "logprobs"}); got != tt.want {
				t.Errorf("foldedKey(%q, %v) = %v, want %v", tt.rest, tt.topOnly, got, tt.want)
			}
		})
	}
}

// FuzzScanResponsesItemEvent: whatever the scanner reads, encoding/json reads the same type and output
// index, unless encoding/json rejects the event outright, and the type is none the guard reads more of.
func FuzzScanResponsesItemEvent(f *testing.F) {
	f.Add(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":3,"delta":"hi","sequence_number":9}`)
	f.Add(`{"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"\"output_index\":1"}`)
	f.Add(`{"type":"response.output_text.done","item_id":"m","output_index":1,"text":"x","sequence_number":5}`)
	f.Add(`{"type":"response.completed","item_id":"m","output_index":0}`)
	f.Fuzz(func(t *testing.T, data string) {
		typ, index, ok := scanResponsesItemEvent(data)
		if !ok {
			return
		}
		var e responsesEvent
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return
		}
		if e.OutputIndex == nil || *e.OutputIndex != index || e.Type != typ {
			t.Fatalf("the scanner read %q, index %d from %q; encoding/json reads %+v", typ, index, data, e)
		}
		switch typ {
		case "response.output_item.added", "response.output_item.done", "response.completed", "response.incomplete", "response.failed":
			t.Fatalf("the scanner read %q, which the guard must decode", data)
		}
	})
}

// FuzzScanResponseStateEvent: whatever the scanner takes, encoding/json reads as a state event without an
// output index, unless it rejects the event outright.
func FuzzScanResponseStateEvent(f *testing.F) {
	f.Add(`{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","output":[],"tools":[{"type":"function","name":"bash"}]},"sequence_number":0}`)
	f.Add(`{"type":"response.in_progress","response":{"type":"x","output_index":2},"sequence_number":1}`)
	f.Add(`{"type":"response.queued","Type":"response.output_text.delta","output_index":0}`)
	f.Add(`{"type":"response.created","output_index":0,"item":{}}`)
	f.Fuzz(func(t *testing.T, data string) {
		if !scanResponseStateEvent(data) {
			return
		}
		var e responsesEvent
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return
		}
		switch {
		case e.OutputIndex != nil:
			t.Fatalf("the scanner took %q, which encoding/json reads with output index %d", data, *e.OutputIndex)
		case e.Type != "response.created" && e.Type != "response.in_progress" && e.Type != "response.queued":
			t.Fatalf("the scanner took %q, which encoding/json reads as %q", data, e.Type)
		}
	})
}

// FuzzScanOutputTextDelta: whenever the scanner answers, encoding/json reads the same event the same way,
// and the place it names holds the delta.
func FuzzScanOutputTextDelta(f *testing.F) {
	f.Add(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"Running the tests.","logprobs":[],"sequence_number":4}`)
	f.Add(`{"type":"response.output_text.delta","item_id":"m","output_index":2,"content_index":1,"delta":"x","logprobs":[{"token":"x"}]}`)
	f.Add(`{"type":"response.output_text.delta","item_id":"m","output_index":2,"content_index":1,"delta":"x","Delta":"y"}`)
	f.Fuzz(func(t *testing.T, data string) {
		d, ok := scanOutputTextDelta(data)
		if !ok {
			return
		}
		var e struct {
			Type         string          `json:"type"`
			ItemID       string          `json:"item_id"`
			OutputIndex  int             `json:"output_index"`
			ContentIndex int             `json:"content_index"`
			Delta        string          `json:"delta"`
			Logprobs     json.RawMessage `json:"logprobs"`
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return
		}
		var at string
		_ = json.Unmarshal([]byte(data[d.at[0]:d.at[1]]), &at)
		lp := string(e.Logprobs)
		if e.Type != "response.output_text.delta" || e.ItemID != d.item || e.OutputIndex != d.outputIndex || e.ContentIndex != d.contentIndex ||
			e.Delta != d.delta || at != d.delta || (lp != "" && lp != "[]") {
			t.Fatalf("the scanner read %+v from %q; encoding/json reads %+v", d, data, e)
		}
	})
}
