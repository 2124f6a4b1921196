package gemini

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/internal/jsontest"
	"github.com/agentwarden/warden/wire/internal/reqtext"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The response and request readers answer as json.Unmarshal into their structs does: the same values, and an error
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
		{"a content with a call and a response", `{"role":"user","parts":[{"functionCall":{"id":"c","name":"f","args":{"a":1}}},{"functionResponse":{"name":"f","response":{"error":"x"}}}]}`},
		{"a content with a null part", `{"role":"model","parts":[null,{"text":"a"}]}`},
		{"a content whose part is a string", `{"parts":["a"]}`},
		{"a content whose role is a number", `{"role":1,"parts":[]}`},
		{"a content whose role is named in another case", `{"ROLE":"model","parts":[]}`},
		{"a part with a key twice", `{"text":"a","text":"b","thought":true}`},
		{"a part with a null call", `{"functionCall":null}`},
		{"a part with escaped keys", `{"te\u0078t":"a","\u0074hought":true}`},
		{"a call with null args and response", `{"id":"i","name":"n","args":null,"response":null}`},
		{"a call whose name is a number", `{"name":5}`},
		{"a call whose id is named in another case", `{"ID":"i","id":"j"}`},
		{"tools", `[{"functionDeclarations":[{"name":"bash","parameters":{"type":"object"}},{"name":"read"}]},{"googleSearch":{}}]`},
		{"tools in snake case", `[{"function_declarations":[{"name":"a"}]}]`},
		{"tools in both spellings", `[{"function_declarations":[{"name":"a"}],"functionDeclarations":[{"name":"b"}]}]`},
		{"null declarations beside snake-case ones", `[{"functionDeclarations":null,"function_declarations":[{"name":"a"}]}]`},
		{"a built-in tool with keys twice", `[{"googleSearch":{},"codeExecution":{},"googleSearch":null}]`},
		{"a null tool and a null declaration", `[null,{"functionDeclarations":[null,{"name":"x"}]}]`},
		{"a declaration's name in capitals", `[{"functionDeclarations":[{"NAME":"x"}]}]`},
		{"a declaration's name twice", `[{"functionDeclarations":[{"name":"x","name":"y"}]}]`},
		{"a declaration's name a number", `[{"functionDeclarations":[{"name":1}]}]`},
		{"declarations an object", `[{"functionDeclarations":{"name":"x"}}]`},
		{"a tool a string", `["googleSearch"]`},
		{"a finishing chunk", `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"totalTokenCount":9}}`},
		{"a chunk with a call", `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"bash","args":{"command":"ls"}},"thoughtSignature":"c2ln"}],"role":"model"}}]}`},
		{"a chunk with a thought", `{"candidates":[{"content":{"parts":[{"text":"hm","thought":true}],"role":"model"}}]}`},
		{"a chunk whose candidate is null", `{"candidates":[null,{"finishReason":"STOP"}]}`},
		{"a chunk whose content is null", `{"candidates":[{"content":null,"finishReason":"SAFETY"}]}`},
		{"a chunk whose content has no parts", `{"candidates":[{"content":{"role":"model"}}]}`},
		{"a chunk whose parts are empty", `{"candidates":[{"content":{"parts":[]}}]}`},
		{"a chunk whose part is null", `{"candidates":[{"content":{"parts":[null,{"text":"a"}]}}]}`},
		{"a chunk whose finish reason is a number", `{"candidates":[{"finishReason":1}]}`},
		{"a chunk whose finish reason is in another case", `{"candidates":[{"FinishReason":"STOP"}]}`},
		{"a chunk whose content is a string", `{"candidates":[{"content":"x"}]}`},
		{"a chunk whose call is a number", `{"candidates":[{"content":{"parts":[{"functionCall":5}]}}]}`},
		{"a chunk whose part names its text twice", `{"candidates":[{"content":{"parts":[{"text":"a","text":"b"}]}}]}`},
		{"a chunk whose part names its text again in capitals", `{"candidates":[{"content":{"parts":[{"text":"a","TEXT":"b"}]}}]}`},
		{"a chunk that names its candidates again in capitals", `{"candidates":[{"finishReason":"STOP"}],"CANDIDATES":null}`},
		{"a chunk whose content names its parts again in another case", `{"candidates":[{"content":{"parts":[{"text":"a"}],"Parts":[]}}]}`},
		{"a chunk whose thought is a string", `{"candidates":[{"content":{"parts":[{"text":"a","thought":"yes"}]}}]}`},
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
		`{"parts":[]}`, `{"Text":"a","text":"b"}`, `[]`, `null`, `{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"error":1}}},null]}`,
		`{"id":"i","name":"n","args":{},"response":null}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f"}},{"text":"a","thought":true}]},"finishReason":"STOP"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		chunk, err := readStreamChunk(data) // it validates what it reads: any bytes
		jsontest.ReadsAsUnmarshal(t, "readStreamChunk", data, chunk, err)
		if json.Valid(data) { // the others read what jsonobj validated
			checkScanReaders(t, data)
		}
	})
}

func checkScanReaders(t *testing.T, data []byte) {
	t.Helper()
	chunk, err := readStreamChunk(data)
	jsontest.ReadsAsUnmarshal(t, "readStreamChunk", data, chunk, err)
	sp, err := readStreamPart(data)
	jsontest.ReadsAsUnmarshal(t, "readStreamPart", data, sp, err)
	part, err := readResponsePart(data)
	jsontest.ReadsAsUnmarshal(t, "readResponsePart", data, part, err)
	call, err := readCall(data)
	jsontest.ReadsAsUnmarshal(t, "readCall", data, call, err)
	if diff := cmp.Diff(classifyWithAMap(data), partsContent.Classify(data)); diff != "" {
		t.Errorf("%q: Classify (-as a map +read):\n%s", data, diff)
	}

	checkToolNames(t, data)

	obj, err := jsonobj.ParseTrusted(data)
	if err != nil {
		return // a body and a content are objects, which the caller parsed
	}
	var wantContent struct {
		Role  string                       `json:"role"`
		Parts []map[string]json.RawMessage `json:"parts"`
	}
	wantErr := json.Unmarshal(data, &wantContent)
	content, err := readRequestContent(obj, data)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: readRequestContent error %v, encoding/json's %v", data, err, wantErr)
	}
	if err == nil {
		if content.role != wantContent.Role || len(content.parts) != len(wantContent.Parts) {
			t.Fatalf("%q: readRequestContent role %q, %d parts; encoding/json %q, %d", data, content.role, len(content.parts), wantContent.Role, len(wantContent.Parts))
		}
		for j, want := range wantContent.Parts {
			got := map[string]json.RawMessage(nil)
			if p := content.parts[j]; p != nil {
				got = map[string]json.RawMessage{}
				for _, k := range p.Keys() {
					got[k], _ = p.Get(k)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%q: part %d (-encoding/json +read):\n%s", data, j, diff)
			}
		}
	}

	head, err := readResponseHead(obj, data)
	jsontest.ReadsAsUnmarshal(t, "readResponseHead", data, head, err)
	// readContentParts leaves its error to json.Unmarshal into an unnamed struct, whose words name none.
	parts, err := readContentParts(obj, data)
	jsontest.ReadsAsUnmarshal(t, "readContentParts", data, struct {
		Parts []json.RawMessage `json:"parts"`
	}{parts}, err)
}

// classifyWithAMap is how a part was classified before the codec read parts with jsonobj: decoded into a
// map with encoding/json.
func classifyWithAMap(elem json.RawMessage) reqtext.Part {
	var p map[string]json.RawMessage
	_ = json.Unmarshal(elem, &p)
	if t, ok := p["text"]; ok {
		var text string
		_ = json.Unmarshal(t, &text)
		if string(p["thought"]) == "true" {
			return reqtext.Part{Kind: warden.ContentReasoning, Text: text}
		}
		return reqtext.Part{Kind: warden.ContentText, Text: text, Key: "text"}
	}
	for _, k := range mediaKeys {
		if _, ok := p[k]; ok {
			return reqtext.Part{Kind: warden.ContentMedia, MediaType: k}
		}
	}
	return reqtext.Part{}
}

// checkToolNames holds readTools' two readings to encoding/json's: readToolNames to decodeToolNames (the
// same names in the same order, and nothing read that encoding/json rejects), and decodeToolNames to the
// reading with maps it replaced (the same names, whose order a map's iteration made random, and an error
// exactly when that one has one).
func checkToolNames(t *testing.T, tools []byte) {
	t.Helper()
	want, wantErr := toolNamesWithMaps(tools)
	got, err := decodeToolNames(tools)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: decodeToolNames error %v, with maps %v", tools, err, wantErr)
	}
	if diff := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("%q: decodeToolNames (-with maps +decoded):\n%s", tools, diff)
	}
	read, ok := readToolNames(tools)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("%q: readToolNames read what encoding/json rejects (%v)", tools, err)
	}
	if diff := cmp.Diff(got, read); diff != "" {
		t.Errorf("%q: readToolNames (-decoded +read):\n%s", tools, diff)
	}
}

// toolNamesWithMaps is how a request's tools were read before readToolNames: each tool decoded into a map.
func toolNamesWithMaps(raw []byte) ([]string, error) {
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, fmt.Errorf("tools: %v", err)
	}
	var names []string
	for _, t := range tools {
		decls := t["functionDeclarations"]
		if decls == nil {
			decls = t["function_declarations"]
		}
		if decls == nil {
			for k := range t {
				names = append(names, k)
			}
			continue
		}
		var fns []functionDeclaration // named, as the codec's now is: encoding/json's errors name it
		if err := json.Unmarshal(decls, &fns); err != nil {
			return nil, fmt.Errorf("tools: functionDeclarations: %v", err)
		}
		for _, f := range fns {
			names = append(names, f.Name)
		}
	}
	return names, nil
}
