package pipeline_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/pipeline"
)

// What a client acts on must be what Warden checked. The official Python and TypeScript SDKs read a body
// with exact-case member names, the last of a repeated name winning; encoding/json into a map reads it the
// same way, so it stands for them here. Warden's reading (case-insensitive, as encoding/json into a
// struct) must agree with it on every body Warden accepts, on the fields a client acts on: each response's
// text, its tool calls (names and arguments) and the finish signal. A body on which the two would disagree
// must be refused.

// seen is what a reader takes from one response (choice, candidate) of a body.
type seen struct {
	Text   string
	Calls  []string // name, then the arguments as an exact reader decodes them
	Finish string
}

// exactReaders read a body of each format as an exact-case reader does.
var exactReaders = map[string]func(body map[string]any) []seen{
	"openai-chat": func(b map[string]any) []seen {
		var out []seen
		for _, c := range list(b["choices"]) {
			c := obj(c)
			m := obj(c["message"])
			s := seen{Finish: str(c["finish_reason"])}
			switch content := m["content"].(type) {
			case string:
				s.Text = content
			case []any:
				for _, p := range content {
					if p := obj(p); str(p["type"]) == "text" {
						s.Text += str(p["text"])
					}
				}
			}
			for _, tc := range list(m["tool_calls"]) {
				fn := obj(obj(tc)["function"])
				s.Calls = append(s.Calls, str(fn["name"]), canonicalArgs(str(fn["arguments"])))
			}
			out = append(out, s)
		}
		return out
	},
	"openai-responses": func(b map[string]any) []seen {
		s := seen{Finish: str(b["status"])}
		if d := obj(b["incomplete_details"]); d != nil {
			s.Finish += "/" + str(d["reason"])
		}
		for _, it := range list(b["output"]) {
			it := obj(it)
			switch str(it["type"]) {
			case "message":
				for _, p := range list(it["content"]) {
					if p := obj(p); str(p["type"]) == "output_text" {
						s.Text += str(p["text"])
					}
				}
			case "function_call":
				s.Calls = append(s.Calls, str(it["name"]), canonicalArgs(str(it["arguments"])))
			}
		}
		return []seen{s}
	},
	"anthropic": func(b map[string]any) []seen {
		s := seen{Finish: str(b["stop_reason"])}
		for _, c := range list(b["content"]) {
			c := obj(c)
			switch str(c["type"]) {
			case "text":
				s.Text += str(c["text"])
			case "tool_use":
				s.Calls = append(s.Calls, str(c["name"]), member(c, "input"))
			}
		}
		return []seen{s}
	},
	"gemini": func(b map[string]any) []seen {
		var out []seen
		for _, c := range list(b["candidates"]) {
			c := obj(c)
			s := seen{Finish: str(c["finishReason"])}
			for _, p := range list(obj(c["content"])["parts"]) {
				p := obj(p)
				if t, ok := p["text"].(string); ok && p["thought"] != true {
					s.Text += t
				}
				if fc := obj(p["functionCall"]); fc != nil {
					s.Calls = append(s.Calls, str(fc["name"]), member(fc, "args"))
				}
			}
			out = append(out, s)
		}
		return out
	},
	"bedrock": func(b map[string]any) []seen {
		s := seen{Finish: str(b["stopReason"])}
		for _, c := range list(obj(obj(b["output"])["message"])["content"]) {
			c := obj(c)
			if t, ok := c["text"].(string); ok {
				s.Text += t
			}
			if tu := obj(c["toolUse"]); tu != nil {
				s.Calls = append(s.Calls, str(tu["name"]), member(tu, "input"))
			}
		}
		return []seen{s}
	},
}

func list(v any) []any            { l, _ := v.([]any); return l }
func obj(v any) map[string]any    { m, _ := v.(map[string]any); return m }
func str(v any) string            { s, _ := v.(string); return s }
func canonicalValue(v any) string { b, _ := json.Marshal(v); return string(b) }

// member is a tool's input as an exact reader has it, re-encoded: "" when the call has none.
func member(m map[string]any, key string) string {
	v, ok := m[key]
	if !ok {
		return ""
	}
	return canonicalValue(v)
}

// canonicalArgs is a tool call's arguments string as an exact reader decodes it, re-encoded.
func canonicalArgs(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	return canonicalValue(v)
}

// wardenSeen is what Warden's reading of a body gives a client to act on.
func wardenSeen(r pipeline.Response, format string) []seen {
	var out []seen
	for i := range r.Len() {
		resp := r.Response(i)
		s := seen{Text: resp.Message.Text(), Finish: resp.Signal.Value}
		if format == "openai-responses" {
			s.Finish = "" // the status, read separately below
		}
		for _, c := range resp.Message.ToolCalls {
			s.Calls = append(s.Calls, c.Name, canonicalArgs(string(c.Arguments)))
		}
		out = append(out, s)
	}
	return out
}

// checkReadings fails when Warden accepts a body that an exact-case reader reads differently.
func checkReadings(t *testing.T, format string, body []byte) {
	f, err := pipeline.Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.DecodeResponse(body)
	if err != nil {
		return // refused: nothing is forwarded
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("Warden accepted a body an exact reader cannot read: %v\n%s", err, body)
	}
	want := exactReaders[format](m)
	got := wardenSeen(r, format)
	if format == "openai-responses" {
		for i := range want {
			want[i].Finish = "" // Warden reads status and incomplete_details into its finish reason, not a signal
		}
	}
	if format != "openai-chat" && format != "gemini" && len(got) == 1 && len(want) == 1 {
		// one response a body
	}
	if !reflect.DeepEqual(normalize(got), normalize(want)) {
		t.Fatalf("Warden and an exact-case reader disagree on %s:\n warden %+v\n  exact %+v\nbody %s", format, got, want, body)
	}
}

func normalize(s []seen) []seen {
	out := make([]seen, 0, len(s))
	for _, x := range s {
		if x.Calls == nil {
			x.Calls = []string{}
		}
		out = append(out, x)
	}
	return out
}

// ambiguities are the ways a body's envelope can read two ways, each applied to a member name of a
// recorded body: repeated with another value, or spelled in another case beside itself.
func ambiguous(body []byte, name string) [][]byte {
	s := string(body)
	q := `"` + name + `":`
	i := strings.Index(s, q)
	if i < 0 {
		return nil
	}
	variant := strings.ToUpper(name[:1]) + name[1:]
	if variant == name {
		variant = strings.ToLower(name[:1]) + name[1:]
	}
	out := [][]byte{
		[]byte(s[:i] + `"` + variant + `":null,` + s[i:]),              // a case variant before
		[]byte(s[:i] + q + `null,` + s[i:]),                            // the name twice
		[]byte(s[:i] + `"` + strings.ToUpper(name) + `":"x",` + s[i:]), // upper case
	}
	for _, v := range []string{`"tool_calls"`, `"rm -rf ~"`, `[]`, `{}`} {
		out = append(out, insertAfter(body, name, variant, v), insertAfter(body, name, name, v))
	}
	return out
}

// insertAfter re-encodes body with a member (as, value) placed right after the first member named name,
// where a reader that keeps the last of two names it takes for one reads the inserted value.
func insertAfter(body []byte, name, as, value string) []byte {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var b strings.Builder
	type open struct{ object, first bool }
	var stack []open
	expectName, pending, done := false, false, false
	depth := 0 // of the object holding the member named name
	sep := func() {
		if top := &stack[len(stack)-1]; top.first {
			top.first = false
		} else {
			b.WriteByte(',')
		}
	}
	afterValue := func() {
		if pending && len(stack) == depth {
			pending, done = false, true
			b.WriteString(`,` + quote(as) + `:` + value)
		}
		expectName = len(stack) > 0 && stack[len(stack)-1].object
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return []byte(b.String())
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			b.WriteByte(byte(d))
			stack = stack[:len(stack)-1]
			afterValue()
			continue
		}
		if expectName {
			sep()
			k := tok.(string)
			b.WriteString(quote(k) + ":")
			expectName = false
			if k == name && !done && !pending {
				pending, depth = true, len(stack)
			}
			continue
		}
		if len(stack) > 0 && !stack[len(stack)-1].object {
			sep()
		}
		if d, ok := tok.(json.Delim); ok {
			b.WriteByte(byte(d))
			stack = append(stack, open{object: d == '{', first: true})
			expectName = d == '{'
			continue
		}
		v, _ := json.Marshal(tok)
		b.Write(v)
		afterValue()
	}
}

func quote(s string) string { q, _ := json.Marshal(s); return string(q) }

var recorded = map[string][]string{
	"openai-chat":      {"openai/healthy_tool_calls.json", "openai/healthy_text.json", "openai/safety_stop_tool_calls.json"},
	"openai-responses": {"openai/responses_healthy_function_call.json", "openai/responses_healthy_text.json"},
	"anthropic":        {"anthropic/healthy_tool_use.json", "anthropic/healthy_text.json", "anthropic/refusal_tool_use.json"},
	"gemini":           {"gemini/healthy_function_call.json", "gemini/healthy_text.json", "gemini/safety_function_call.json"},
	"bedrock":          {"bedrock/healthy_tool_use.json", "bedrock/guardrail_tool_use.json"},
}

// envelopeNames are the member names of each format a client acts on.
var envelopeNames = map[string][]string{
	"openai-chat":      {"choices", "message", "content", "tool_calls", "function", "name", "arguments", "finish_reason", "type"},
	"openai-responses": {"output", "type", "content", "text", "name", "arguments", "status", "call_id"},
	"anthropic":        {"content", "type", "text", "name", "input", "stop_reason"},
	"gemini":           {"candidates", "content", "parts", "text", "functionCall", "name", "args", "finishReason"},
	"bedrock":          {"output", "message", "content", "toolUse", "name", "input", "stopReason", "text"},
}

func readFixture(t testing.TB, rel string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "wire", filepath.Dir(rel), "testdata", filepath.Base(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAcceptedBodiesReadAsExactReadersReadThem(t *testing.T) {
	t.Parallel()
	for format, files := range recorded {
		for _, file := range files {
			body := readFixture(t, file)
			t.Run(format+" "+file+" as recorded", func(t *testing.T) {
				t.Parallel()
				f, _ := pipeline.Lookup(format)
				if _, err := f.DecodeResponse(body); err != nil {
					t.Fatalf("a recorded body is refused: %v", err)
				}
				checkReadings(t, format, body)
			})
			for _, name := range envelopeNames[format] {
				for k, amb := range ambiguous(body, name) {
					t.Run(format+" "+file+" "+name+" made ambiguous "+string(rune('a'+k)), func(t *testing.T) {
						t.Parallel()
						f, _ := pipeline.Lookup(format)
						if _, err := f.DecodeResponse(amb); err == nil && !opaqueHere(format, amb, name) {
							t.Errorf("an ambiguous body is accepted:\n%s", amb)
						}
						checkReadings(t, format, amb)
					})
				}
			}
		}
	}
}

// opaqueHere says whether the first occurrence of name in body lies inside a tool's input or args, where a
// conflict is the tool-call stage's to deny, not the envelope's.
func opaqueHere(format string, body []byte, name string) bool {
	s := string(body)
	i := strings.Index(strings.ToLower(s), `"`+strings.ToLower(name)+`":`)
	for _, o := range []string{`"input":{`, `"args":{`} {
		if j := strings.Index(s, o); j >= 0 && j < i && strings.Count(s[j:i], "{") > strings.Count(s[j:i], "}") {
			return true
		}
	}
	return false
}

func fuzzFormat(f *testing.F, format string) {
	for _, file := range recorded[format] {
		body := readFixture(f, file)
		f.Add(body)
		for _, name := range envelopeNames[format] {
			for _, amb := range ambiguous(body, name) {
				f.Add(amb)
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkReadings(t, format, body) })
}

func FuzzReadingsOpenAIChat(f *testing.F)      { fuzzFormat(f, "openai-chat") }
func FuzzReadingsOpenAIResponses(f *testing.F) { fuzzFormat(f, "openai-responses") }
func FuzzReadingsAnthropic(f *testing.F)       { fuzzFormat(f, "anthropic") }
func FuzzReadingsGemini(f *testing.F)          { fuzzFormat(f, "gemini") }
func FuzzReadingsBedrock(f *testing.F)         { fuzzFormat(f, "bedrock") }

var _ = warden.Allow

// What Warden forwards after it rewrote an answer is what it decided: a client reading the rewritten body
// with exact-case names reads the text and the calls Warden set, no more.
func checkRewrite(t *testing.T, format string, body []byte) {
	f, _ := pipeline.Lookup(format)
	r, err := f.DecodeResponse(body)
	if err != nil {
		return
	}
	var want []seen
	for i := range r.Len() {
		resp := r.Response(i)
		if len(resp.Message.ToolCalls) == 0 {
			want = append(want, wardenSeen(oneResponse{resp}, format)[0])
			continue
		}
		changed := pipelinetest.DenyAllCalls(resp)
		if err := r.Set(i, changed); err != nil {
			return // a shape Warden refuses to rewrite: it answers with an error instead
		}
		want = append(want, wardenSeen(oneResponse{changed}, format)[0])
	}
	out, err := r.Encode()
	if err != nil {
		return
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("the rewritten body is not JSON: %v\n%s", err, out)
	}
	got := exactReaders[format](m)
	for i := range got {
		got[i].Finish = ""
	}
	for i := range want {
		want[i].Finish = ""
	}
	if !reflect.DeepEqual(normalize(got), normalize(want)) {
		t.Fatalf("after a rewrite, Warden decided and a client reads different things in %s:\n warden %+v\n client %+v\nbody %s", format, want, got, out)
	}
}

func TestRewrittenBodiesReadAsDecided(t *testing.T) {
	t.Parallel()
	for format, files := range recorded {
		for _, file := range files {
			t.Run(format+" "+file, func(t *testing.T) {
				t.Parallel()
				checkRewrite(t, format, readFixture(t, file))
			})
		}
	}
}

func fuzzRewrite(f *testing.F, format string) {
	for _, file := range recorded[format] {
		f.Add(readFixture(f, file))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkRewrite(t, format, body) })
}

func FuzzRewriteOpenAIChat(f *testing.F)      { fuzzRewrite(f, "openai-chat") }
func FuzzRewriteOpenAIResponses(f *testing.F) { fuzzRewrite(f, "openai-responses") }
func FuzzRewriteAnthropic(f *testing.F)       { fuzzRewrite(f, "anthropic") }
func FuzzRewriteGemini(f *testing.F)          { fuzzRewrite(f, "gemini") }
func FuzzRewriteBedrock(f *testing.F)         { fuzzRewrite(f, "bedrock") }
