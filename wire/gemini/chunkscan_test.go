package gemini

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestScanTextChunk(t *testing.T) {
	t.Parallel()
	const usage = `,"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2},"modelVersion":"gemini-2.5-flash"}`
	tests := []struct {
		desc, data string
		wantOK     bool
		wantText   string
	}{
		{desc: "a text chunk is read", data: `{"candidates":[{"content":{"parts":[{"text":"hi there"}],"role":"model"},"index":0}]` + usage, wantOK: true, wantText: "hi there"},
		{desc: "a text chunk without index is read", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}]}`, wantOK: true, wantText: "hi"},
		{desc: "a finish reason is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"finishReason":"STOP","index":0}]}`},
		{desc: "a second part is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi"},{"functionCall":{"name":"x"}}],"role":"model"},"index":0}]}`},
		{desc: "a later candidates key is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"Candidates":[]}`},
		{desc: "a prompt block is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"promptFeedback":{"blockReason":"SAFETY"}}`},
		{desc: "escapes are declined", data: `{"candidates":[{"content":{"parts":[{"text":"a\nb"}],"role":"model"},"index":0}]}`},
		{desc: "a thought signature is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi","thoughtSignature":"x"}],"role":"model"},"index":0}]}`},
		// The letters beyond ASCII are the characters themselves, not JSON escapes, which are declined anyway.
		{desc: "a later key that folds to candidates with a long s is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"candidate` + "\u017f" + `":[]}`},
		{desc: "a later key that folds to promptFeedback with a Kelvin sign is declined", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"promptFeedbac` + "\u212a" + `":{"blockReason":"SAFETY"}}`},
		{desc: "a member whose name is as long as a key but another word passes", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-pro","responseId":"r-1"}`, wantOK: true, wantText: "hi"},
		{desc: "a key named like one only in a value is declined too", data: `{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"note":"finishReason"}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			text, ok := scanTextChunk(tt.data)
			if ok != tt.wantOK || text != tt.wantText {
				t.Errorf("scanTextChunk = %q, %v; want %q, %v", text, ok, tt.wantText, tt.wantOK)
			}
		})
	}
}

// FuzzScanTextChunk: whatever the scanner reads, encoding/json reads the same way (one candidate, one text
// part, no finish, no call, no prompt block), unless encoding/json rejects the chunk outright — a malformed
// chunk goes to the client as it came.
func FuzzScanTextChunk(f *testing.F) {
	f.Add(`{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}],"usageMetadata":{"candidatesTokenCount":1}}`)
	f.Add(`{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}],"CANDIDATES":null}`)
	f.Add(`{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}],"candidate` + "\u017f" + `":[]}`)
	f.Add(`{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}],"promptFeedbac` + "\u212a" + `":{}}`)
	f.Fuzz(func(t *testing.T, data string) {
		text, ok := scanTextChunk(data)
		if !ok {
			return
		}
		var c streamChunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			return
		}
		if c.PromptFeedback != nil || len(c.Candidates) != 1 || c.Candidates[0].FinishReason != "" || c.Candidates[0].Content == nil {
			t.Fatalf("the scanner read text %q from %q; encoding/json reads %+v", text, data, c)
		}
		parts := c.Candidates[0].Content.Parts
		if len(parts) != 1 || parts[0].Text == nil || *parts[0].Text != text || parts[0].isCall() || parts[0].Thought {
			t.Fatalf("the scanner read text %q from %q; encoding/json reads parts %+v", text, data, parts)
		}
	})
}

func TestFoldsToKey(t *testing.T) {
	t.Parallel()
	long := strings.NewReplacer("s", "\u017f", "k", "\u212a") // every s and k as a letter beyond ASCII that folds to it
	for _, key := range []string{"candidates", "promptFeedback", "finishReason", "functionCall"} {
		tests := []struct {
			desc, name string
			want       bool
		}{
			{"the key itself", key, true},
			{"the key in capitals", strings.ToUpper(key), true},
			{"the key with every s and k beyond ASCII, its longest spelling", long.Replace(key), true},
			{"the key with a letter more", key + "x", false},
			{"the key less its last letter", key[:len(key)-1], false},
		}
		for _, tt := range tests {
			t.Run(key+"/"+tt.desc, func(t *testing.T) {
				t.Parallel()
				if got := foldsToKey(tt.name); got != tt.want {
					t.Errorf("foldsToKey(%q) = %v, want %v", tt.name, got, tt.want)
				}
				// encoding/json, as the client reads the chunk, agrees: a field named key takes the member.
				typ := reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.TypeFor[*int](), Tag: reflect.StructTag(`json:"` + key + `"`)}})
				v := reflect.New(typ)
				if err := json.Unmarshal([]byte(`{"`+tt.name+`":1}`), v.Interface()); err != nil {
					t.Fatal(err)
				}
				if got := !v.Elem().Field(0).IsNil(); got != tt.want {
					t.Errorf("encoding/json reads %q as %s: %v, want %v", tt.name, key, got, tt.want)
				}
			})
		}
	}
}
