package anthropic

import (
	"encoding/json"
	"testing"
)

func TestScanTextDelta(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, data string
		wantOK     bool
		wantIndex  int
		wantText   string
	}{
		{desc: "a plain delta is read", data: `{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"hi there"}}`, wantOK: true, wantIndex: 3, wantText: "hi there"},
		{desc: "escapes are decoded", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\n\"b\" \u00e9"}}`, wantOK: true, wantText: "a\n\"b\" é"},
		{desc: "an empty text is read", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}`, wantOK: true},
		{desc: "other spacing is declined", data: `{"type": "content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`},
		{desc: "an input_json_delta is declined", data: `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"x"}}`},
		{desc: "a leading zero is declined", data: `{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}`},
		{desc: "a text that smuggles fields is declined", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}},"x":{"y":"b"}}`},
		{desc: "an extra field is declined", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","x":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			index, text, ok := scanTextDelta(tt.data)
			if ok != tt.wantOK || index != tt.wantIndex || text != tt.wantText {
				t.Errorf("scanTextDelta = %d, %q, %v; want %d, %q, %v", index, text, ok, tt.wantIndex, tt.wantText, tt.wantOK)
			}
		})
	}
}

// A paced stream's chunk is one text delta, and what the guard allocates for it is the allocator's code and
// data found cold: a plain delta is read without allocating.
// Not parallel: testing.AllocsPerRun refuses to run beside other tests.
func TestScanTextDeltaPlainAllocatesNothing(t *testing.T) {
	for _, tt := range []struct{ desc, data string }{
		{"a plain delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" token"}}`},
		{"a plain delta of a later block", `{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"more words"}}`},
		{"an empty delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}`},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, func() { scanTextDelta(tt.data) }); n != 0 {
				t.Errorf("scanTextDelta allocates %.0f times a call; want none", n)
			}
		})
	}
}

// FuzzScanTextDelta: whatever the scanner reads, encoding/json reads the same way.
func FuzzScanTextDelta(f *testing.F) {
	f.Add(`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"hi"}}`)
	f.Add(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\"}}"}}`)
	f.Add(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\ud800"}}`)
	f.Fuzz(func(t *testing.T, data string) {
		index, text, ok := scanTextDelta(data)
		if !ok {
			return
		}
		var e streamEvent
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("the scanner read %q, encoding/json rejects it: %v", data, err)
		}
		if e.Type != "content_block_delta" || e.Index != index || e.Delta == nil || e.Delta.Type != "text_delta" || e.Delta.Text != text {
			t.Fatalf("the scanner read %d %q, encoding/json %+v %+v", index, text, e, e.Delta)
		}
	})
}

func TestScanTextBlockStart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, data string
		wantOK     bool
		wantIndex  int
	}{
		{desc: "a text block's start is read", data: `{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}`, wantOK: true, wantIndex: 2},
		{desc: "a start with text in it is declined", data: `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"hi"}}`},
		{desc: "a tool_use block's start is declined", data: `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"bash","input":{}}}`},
		{desc: "a second type key after the block is declined", data: `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""},"type":"x"}`},
		{desc: "other spacing is declined", data: `{"type":"content_block_start", "index":0,"content_block":{"type":"text","text":""}}`},
		{desc: "a leading zero is declined", data: `{"type":"content_block_start","index":00,"content_block":{"type":"text","text":""}}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			index, ok := scanTextBlockStart(tt.data)
			if ok != tt.wantOK || index != tt.wantIndex {
				t.Errorf("scanTextBlockStart = %d, %v; want %d, %v", index, ok, tt.wantIndex, tt.wantOK)
			}
		})
	}
}

// FuzzScanTextBlockStart: whatever the scanner reads, encoding/json reads the same way.
func FuzzScanTextBlockStart(f *testing.F) {
	f.Add(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	f.Add(`{"type":"content_block_start","index":17,"content_block":{"type":"text","text":""}}`)
	f.Add(`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}} `)
	f.Fuzz(func(t *testing.T, data string) {
		index, ok := scanTextBlockStart(data)
		if !ok {
			return
		}
		var e streamEvent
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("the scanner read %q, encoding/json rejects it: %v", data, err)
		}
		if e.Type != "content_block_start" || e.Index != index || e.ContentBlock == nil || e.ContentBlock.Type != "text" ||
			e.ContentBlock.Text != "" || e.ContentBlock.ID != "" || e.ContentBlock.Name != "" || e.ContentBlock.Input != nil || e.Delta != nil {
			t.Fatalf("the scanner read %d, encoding/json %+v %+v", index, e, e.ContentBlock)
		}
	})
}
