package gemini

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/google/go-cmp/cmp"
)

// The response readers answer as json.Unmarshal into their structs does: the same values, and an error
// exactly when encoding/json has one, with its words.
func TestScanReadersAgreeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ desc, data string }{
		{"a body", `{"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5},"modelVersion":"gemini-2.5-flash"}`},
		{"a blocked prompt", `{"promptFeedback":{"blockReason":"SAFETY","safetyRatings":[]}}`},
		{"null candidates and feedback", `{"candidates":null,"promptFeedback":null}`},
		{"empty candidates", `{"candidates":[]}`},
		{"candidates an object", `{"candidates":{"content":{}}}`},
		{"a block reason a number", `{"promptFeedback":{"blockReason":3}}`},
		{"a block reason in another case", `{"promptFeedback":{"BlockReason":"SAFETY"}}`},
		{"feedback a string", `{"promptFeedback":"SAFETY"}`},
		{"candidates named in another case", `{"Candidates":[],"candidates":[{}]}`},
		{"a content", `{"role":"model","parts":[{"text":"a"},{"functionCall":{"name":"f","args":{}}}]}`},
		{"a content without parts", `{"role":"model"}`},
		{"a content with null parts", `{"parts":null}`},
		{"a content whose parts are a string", `{"parts":"x"}`},
		{"a content with parts twice", `{"parts":[{"text":"a"}],"parts":[]}`},
		{"a text part", `{"text":"hello"}`},
		{"a thought", `{"text":"thinking","thought":true,"thoughtSignature":"c2ln"}`},
		{"a function call", `{"functionCall":{"id":"c1","name":"bash","args":{"command":"ls"}},"thoughtSignature":"c2ln"}`},
		{"a function call without args", `{"functionCall":{"name":"ping"}}`},
		{"a function call with null args", `{"functionCall":{"name":"ping","args":null}}`},
		{"a null function call", `{"functionCall":null,"text":"x"}`},
		{"a null text", `{"text":null}`},
		{"a null signature", `{"text":"a","thoughtSignature":null}`},
		{"a thought that is a string", `{"text":"a","thought":"yes"}`},
		{"a text that is a number", `{"text":1}`},
		{"a function call that is a string", `{"functionCall":"bash"}`},
		{"a function call's name in another case", `{"functionCall":{"NAME":"bash"}}`},
		{"text with escapes and invalid UTF-8", "{\"text\":\"a\\u00e9\\n\xff\"}"},
		{"inline data", `{"inlineData":{"mimeType":"image/png","data":"AAAA"}}`},
		{"not an object", `["text"]`},
		{"null", `null`},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			checkScanReaders(t, []byte(tt.data))
		})
	}
}

func FuzzScanReaders(f *testing.F) {
	for _, s := range []string{`{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}`, `{"promptFeedback":{"blockReason":"SAFETY"}}`,
		`{"functionCall":{"id":"i","name":"n","args":{}},"thoughtSignature":"s"}`, `{"text":"t","thought":true}`,
		`{"parts":[]}`, `{"Text":"a","text":"b"}`, `[]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) { // they read what jsonobj validated
			checkScanReaders(t, data)
		}
	})
}

func checkScanReaders(t *testing.T, data []byte) {
	t.Helper()
	sameError := func(what string, err, want error) {
		t.Helper()
		if fmt.Sprint(err) != fmt.Sprint(want) {
			t.Fatalf("%q: %s error %v, encoding/json's %v", data, what, err, want)
		}
	}

	var wantPart responsePart
	wantErr := json.Unmarshal(data, &wantPart)
	part, err := readResponsePart(data)
	sameError("readResponsePart", err, wantErr)
	if diff := cmp.Diff(wantPart, part); err == nil && diff != "" {
		t.Errorf("%q: readResponsePart (-encoding/json +read):\n%s", data, diff)
	}

	obj, err := jsonobj.ParseTrusted(data)
	if err != nil {
		return // a body and a content are objects, which the caller parsed
	}
	var wantHead responseHead
	wantErr = json.Unmarshal(data, &wantHead)
	head, err := readResponseHead(obj, data)
	sameError("readResponseHead", err, wantErr)
	if diff := cmp.Diff(wantHead, head); err == nil && diff != "" {
		t.Errorf("%q: readResponseHead (-encoding/json +read):\n%s", data, diff)
	}

	var wantContent struct {
		Parts []json.RawMessage `json:"parts"`
	}
	wantErr = json.Unmarshal(data, &wantContent)
	parts, err := readContentParts(obj, data)
	sameError("readContentParts", err, wantErr)
	if diff := cmp.Diff(wantContent.Parts, parts); err == nil && diff != "" {
		t.Errorf("%q: readContentParts (-encoding/json +read):\n%s", data, diff)
	}
}
