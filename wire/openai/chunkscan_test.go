package openai

import (
	"encoding/json"
	"fmt"
	"testing"
)

// slowRead decodes a chunk with encoding/json: the reference the scanner must agree with.
func slowRead(data string) (fastChunk, bool) {
	var c struct {
		Choices []struct {
			Index        int `json:"index"`
			Delta        map[string]json.RawMessage
			FinishReason *string         `json:"finish_reason"`
			Logprobs     json.RawMessage `json:"logprobs"`
		} `json:"choices"`
	}
	// The stream guard's own slow-path type reads the tool calls, as it does.
	var calls chunk
	if err := json.Unmarshal([]byte(data), &c); err != nil || json.Unmarshal([]byte(data), &calls) != nil {
		return fastChunk{}, false
	}
	if len(c.Choices) == 0 {
		return fastChunk{index: -1}, true
	}
	ch := c.Choices[0]
	out := fastChunk{index: ch.Index, logprobs: len(ch.Logprobs) > 0 && string(ch.Logprobs) != "null"}
	if ch.FinishReason != nil {
		out.finishReason = *ch.FinishReason
	}
	if r, ok := ch.Delta["role"]; ok {
		_ = json.Unmarshal(r, &out.role)
	}
	if r, ok := ch.Delta["content"]; ok && string(r) != "null" {
		out.hasContent = json.Unmarshal(r, &out.content) == nil
	}
	switch tcs := calls.Choices[0].Delta.ToolCalls; len(tcs) {
	case 0:
	case 1:
		tc := tcs[0]
		out.call, out.hasCall = callDelta{index: tc.Index, id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments}, true
	default:
		return fastChunk{}, false // never read by the scanner: a difference will show
	}
	return out, true
}

// agree reports how a scanned chunk differs from encoding/json's reading, or "" when it does not: the
// same fields, the content's place holding exactly the content, and logprobs seen wherever they are set
// (the scanner may see them where they are not; that only costs the slow path).
func agree(data string, got, want fastChunk) string {
	if got.hasContent {
		var at string
		if err := json.Unmarshal([]byte(data[got.contentAt[0]:got.contentAt[1]]), &at); err != nil || at != got.content {
			return fmt.Sprintf("the content's place %v holds %q", got.contentAt, data[got.contentAt[0]:got.contentAt[1]])
		}
	}
	if want.logprobs && !got.logprobs {
		return "logprobs missed"
	}
	if got.argsAt[1] > 0 {
		var at string
		if err := json.Unmarshal([]byte(data[got.argsAt[0]:got.argsAt[1]]), &at); err != nil || at != got.call.args {
			return fmt.Sprintf("the arguments' place %v holds %q", got.argsAt, data[got.argsAt[0]:got.argsAt[1]])
		}
	}
	got.contentAt, got.argsAt, got.logprobs, want.logprobs = [2]int{}, [2]int{}, false, false
	if got != want {
		return fmt.Sprintf("scanned %+v, encoding/json reads %+v", got, want)
	}
	return ""
}

func TestScanChunk(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, in string
		ok       bool
	}{
		{"a content delta", `{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}`, true},
		{"the first chunk with a role", `{"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`, true},
		{"escapes are unescaped", `{"choices":[{"index":0,"delta":{"content":"a\n\"b\" \u00e9 \ud83d\ude00 \/"}}]}`, true},
		{"a finish", `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, true},
		{"a usage chunk", `{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`, true},
		{"a tool call's first delta", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":""}}]},"finish_reason":null}]}`, true},
		{"a piece of a tool call's arguments", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"command\":"}}]}}]}`, true},
		{"null members of a tool call", `{"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":"x"}}]}}]}`, true},
		{"empty tool calls", `{"choices":[{"index":0,"delta":{"tool_calls":[]}}]}`, true},
		{"two tool calls go to the slow path", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0},{"index":1}]}}]}`, false},
		{"a tool call without an index goes to the slow path", `{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"x"}}]}}]}`, false},
		{"a tool call's unknown member goes to the slow path", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"extra":1}]}}]}`, false},
		{"a tool call's repeated member goes to the slow path", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"a","arguments":"b"}}]}}]}`, false},
		{"a case variant of a tool call's member goes to the slow path", `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"ID":"x"}]}}]}`, false},
		{"two choices go to the slow path", `{"choices":[{"index":0,"delta":{}},{"index":1,"delta":{}}]}`, false},
		{"a repeated key goes to the slow path", `{"choices":[{"index":0,"index":1,"delta":{}}]}`, false},
		{"a lone surrogate goes to the slow path", `{"choices":[{"index":0,"delta":{"content":"\ud83d x"}}]}`, false},
		{"a refusal goes to the slow path", `{"choices":[{"index":0,"delta":{"refusal":"no"}}]}`, false},
		{"broken JSON is declined", `{"choices":[{"index":0,"delta":{"content":"x}]}`, false},
		{"trailing data is declined", `{"choices":[]} {}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, ok := scanChunk(tt.in)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			want, _ := slowRead(tt.in)
			if d := agree(tt.in, got, want); d != "" {
				t.Error(d)
			}
		})
	}
}

// FuzzScanChunk: whenever the scanner answers, encoding/json reads the same chunk the same way.
func FuzzScanChunk(f *testing.F) {
	for _, s := range []string{`{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}`,
		`{"id":"a","choices":[{"index":2,"delta":{"role":"assistant","content":"\u00e9\n"},"logprobs":{"x":[1,2.5e3,true]},"finish_reason":"length"}],"usage":null}`,
		`{"choices":[]}`, `{"choices":[{"delta":{"content":"\ud83d\ude00"}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"a\":"}}]},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"\u00e9"}}]},"finish_reason":"tool_calls"}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := scanChunk(in)
		if !ok {
			return
		}
		want, wok := slowRead(in)
		if !wok {
			t.Fatalf("the scanner read %q, which encoding/json rejects", in)
		}
		if d := agree(in, got, want); d != "" {
			t.Fatalf("%q: %s", in, d)
		}
	})
}

// FuzzScanChunkPair: a stream's scanner reads a chunk after another as it reads that chunk alone, however
// the two begin alike (the second read from where the first chunk's "choices" key was).
func FuzzScanChunkPair(f *testing.F) {
	const head = `{"id":"c","object":"chat.completion.chunk","created":17,"model":"m",`
	for _, s := range [][2]string{
		{head + `"choices":[{"index":0,"delta":{"content":"a"}}]}`, head + `"choices":[{"index":0,"delta":{"content":"b"}}]}`},
		{`{"created":17,"choices":[]}`, `{"created":170,"choices":[]}`},
		{`{"a":1, "choices":[]}`, `{"a":1,  "choices":[]}`},
		{`{"choices":[]}`, `{}`},
		{`{"choices":[]}`, `{"choices":[],"choices":[]}`},
		{head + `"choices":[]}`, head + `"Choices":[]}`},
		{head + `"choices":[]}`, head + `"usage":{},"choices":[{"index":1,"delta":{},"finish_reason":"stop"}]}`},
		{head + `"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`, head + `"choices":[{"index":0,"delta":{"content":"\u00e9\"b"},"finish_reason":null}]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"a"}}]} `},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":null}}]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"a"x}}]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"a\ud83d"}}]}`},
		{`{"choices":[{"index":0,"delta":{"refusal":"","content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"refusal":"","content":"\n"}}]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"obfuscation":"x1"}`, `{"choices":[{"index":0,"delta":{"content":"b"}}],"obfuscation":"y22"}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"o":"x"}`, `{"choices":[{"index":0,"delta":{"content":"b"}}],"choices":[]}`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}`, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a\u00e9"}}]}}]}`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}`, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":null}}]}}]}`},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{","arguments":"x"}}]}}]}`, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"y","arguments":"x"}}]}}]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a","tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}`, `{"choices":[{"index":0,"delta":{"content":"b","tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}],"o":"x"}`, `{"choices":[{"index":0,"delta":{"content":"b"}}],"CHOICES":[]}`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"b"}}]`},
		{`{"choices":[{"index":0,"delta":{"content":"a"}}]}`, `{"choices":[{"index":0,"delta":{"content":"b"}}],}`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, first, second string) {
		var cs chunkScanner
		cs.scan(first)
		got, ok := cs.scan(second)
		want, wok := scanChunk(second)
		if ok != wok || got != want {
			t.Fatalf("after %q, %q reads as %+v (ok %v); alone as %+v (ok %v)", first, second, got, ok, want, wok)
		}
	})
}

// TestPlainRun checks the 8-bytes-at-once test against the byte table: every byte value at every place in
// a plain word, and words whose every byte is special, so that a flag above a special byte never counts.
func TestPlainRun(t *testing.T) {
	t.Parallel()
	byTable := func(w string) int {
		n := 0
		for n < len(w) && plainASCII[w[n]] {
			n++
		}
		return n
	}
	for c := range 256 {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			if got, want := plainRun(string(w)), byTable(string(w)); got != want {
				t.Errorf("byte %#x at %d: plainRun says %d plain bytes, the table %d", c, at, got, want)
			}
			for _, after := range []byte{0x00, 0x1f, '"', '\\', 0x80, 0xff} {
				for i := at + 1; i < 8; i++ {
					w[i] = after
				}
				if got, want := plainRun(string(w)), byTable(string(w)); got != want {
					t.Errorf("%q: plainRun says %d plain bytes, the table %d", w, got, want)
				}
			}
		}
	}
}
