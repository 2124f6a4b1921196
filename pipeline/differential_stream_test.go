package pipeline_test

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/pipeline"
	"github.com/agentwarden/warden/wire/sse"
)

// The same promise for streams: whatever a stream guard lets through to its end, a client that reads the
// events with exact-case names reads the text, the tool calls and the finish that the guard gave decide.
// (Bedrock's binary event stream is read by the AWS SDK's own decoder, in its package's tests.)

// exactStreamReaders read a stream of each SSE format as an exact-case client does.
var exactStreamReaders = map[string]func(events []map[string]any) seen{
	"openai-chat": func(evs []map[string]any) seen {
		var s seen
		type call struct{ name, args string }
		calls := map[float64]*call{}
		for _, e := range evs {
			for _, c := range list(e["choices"]) {
				c := obj(c)
				d := obj(c["delta"])
				s.Text += str(d["content"])
				for _, tc := range list(d["tool_calls"]) {
					tc := obj(tc)
					i, _ := tc["index"].(float64)
					if calls[i] == nil {
						calls[i] = &call{}
					}
					fn := obj(tc["function"])
					calls[i].name += str(fn["name"])
					calls[i].args += str(fn["arguments"])
				}
				if f := str(c["finish_reason"]); f != "" {
					s.Finish = f
				}
			}
		}
		var idx []float64
		for i := range calls {
			idx = append(idx, i)
		}
		sort.Float64s(idx)
		for _, i := range idx {
			s.Calls = append(s.Calls, calls[i].name, canonicalArgs(calls[i].args))
		}
		return s
	},
	"anthropic": func(evs []map[string]any) seen {
		var s seen
		type block struct {
			kind, name, json string
			input            any
		}
		blocks := map[float64]*block{}
		var order []float64
		for _, e := range evs {
			i, _ := e["index"].(float64)
			switch str(e["type"]) {
			case "content_block_start":
				cb := obj(e["content_block"])
				blocks[i] = &block{kind: str(cb["type"]), name: str(cb["name"]), input: cb["input"]}
				order = append(order, i)
			case "content_block_delta":
				d := obj(e["delta"])
				if b := blocks[i]; b != nil {
					switch str(d["type"]) {
					case "text_delta":
						s.Text += str(d["text"])
					case "input_json_delta":
						b.json += str(d["partial_json"])
					}
				}
			case "message_delta":
				if r := str(obj(e["delta"])["stop_reason"]); r != "" {
					s.Finish = r
				}
			}
		}
		for _, i := range order {
			if b := blocks[i]; b.kind == "tool_use" {
				args := b.json
				if args == "" && b.input != nil {
					args = canonicalValue(b.input)
				}
				s.Calls = append(s.Calls, b.name, canonicalArgs(args))
			}
		}
		return s
	},
	"openai-responses": func(evs []map[string]any) seen {
		// The SDK's final response is the terminal event's; its text and calls are what an agent acts on.
		for _, e := range evs {
			switch str(e["type"]) {
			case "response.completed", "response.incomplete", "response.failed":
				return exactReaders["openai-responses"](obj(e["response"]))[0]
			}
		}
		return seen{}
	},
	"gemini": func(evs []map[string]any) seen {
		var s seen
		for _, e := range evs {
			for _, c := range list(e["candidates"]) {
				c := obj(c)
				for _, p := range list(obj(c["content"])["parts"]) {
					p := obj(p)
					if t, ok := p["text"].(string); ok && p["thought"] != true {
						s.Text += t
					}
					if fc := obj(p["functionCall"]); fc != nil {
						s.Calls = append(s.Calls, str(fc["name"]), member(fc, "args"))
					}
				}
				if f := str(c["finishReason"]); f != "" {
					s.Finish = f
				}
			}
		}
		return s
	},
}

// checkStreamReadings guards stream in format with a decide that lets everything through (or, with
// rewrite, removes every call and appends a deny message), and fails when the guard finished cleanly but
// an exact-case reader of its output reads other than what decide returned. It reports whether it
// compared the two (the guard accepted the stream, of one choice).
func checkStreamReadings(t *testing.T, format string, stream []byte, rewrite ...bool) bool {
	f, err := pipeline.Lookup(format)
	if err != nil {
		t.Fatal(err)
	}
	var decided []warden.Response
	decide := func(r warden.Response) (warden.Response, error) {
		if len(rewrite) > 0 && rewrite[0] {
			r = pipelinetest.DenyAllCalls(r)
		}
		decided = append(decided, r)
		return r, nil
	}
	var out bytes.Buffer
	if err := f.GuardStream(bytes.NewReader(stream), &out, nil, decide, nil); err != nil {
		return false // the client's stream ends with the error event: nothing to act on
	}
	if len(decided) != 1 {
		return false // several choices, or none decided; only one-choice streams are compared
	}
	var events []map[string]any
	rd := sse.NewReader(&out)
	for {
		ev, err := rd.Next()
		if err != nil {
			break
		}
		var m map[string]any
		if ev.HasData && json.Unmarshal([]byte(ev.Data), &m) == nil {
			events = append(events, m)
		}
	}
	got := exactStreamReaders[format](events)
	want := wardenSeen(responseOf(decided[0]), format)[0]
	want.Finish = decided[0].Signal.Value
	if format == "openai-responses" {
		got.Finish, want.Finish = "", "" // read from status and incomplete_details, not a signal (as for whole bodies)
	}
	if len(want.Calls) == 0 && (want.Finish == "tool_use" || want.Finish == "tool_calls") {
		got.Finish = want.Finish // a tool-use finish with no call left is one Warden rewrites on purpose
	}
	if !equalSeen(got, want) {
		t.Fatalf("Warden decided on and an exact-case client reads different things in %s:\n warden %+v\n client %+v\nstream %s", format, want, got, stream)
	}
	return true
}

func TestRewrittenStreamsReadAsDecided(t *testing.T) {
	t.Parallel()
	for format, files := range streamRecorded {
		for _, file := range files {
			t.Run(format+" "+file, func(t *testing.T) {
				t.Parallel()
				if !checkStreamReadings(t, format, streamFixture(t, file), true) {
					t.Fatal("the recorded stream was not accepted and compared")
				}
			})
		}
	}
}

// responseOf wraps one decided response as a body of one, for wardenSeen.
type oneResponse struct{ r warden.Response }

func (o oneResponse) Len() int                       { return 1 }
func (o oneResponse) Response(int) warden.Response   { return o.r }
func (o oneResponse) Set(int, warden.Response) error { return nil }
func (o oneResponse) Encode() ([]byte, error)        { return nil, nil }
func responseOf(r warden.Response) pipeline.Response { return oneResponse{r} }
func equalSeen(a, b seen) bool                       { return normalizeOne(a) == normalizeOne(b) }
func normalizeOne(s seen) string                     { b, _ := json.Marshal(normalize([]seen{s})); return string(b) }
func streamFixture(t testing.TB, rel string) []byte  { return readFixture(t, rel) }
func streamSeeds(format string) []string             { return streamRecorded[format] }
func trimEvents(s string) []string                   { return strings.SplitAfter(s, "\n\n") }

var streamRecorded = map[string][]string{
	"openai-chat":      {"openai/stream_tool_call.sse", "openai/stream_text.sse"},
	"openai-responses": {"openai/responses_stream_function_call.sse", "openai/responses_stream_text.sse"},
	"anthropic":        {"anthropic/stream_tool_use.sse", "anthropic/stream_text.sse"},
	"gemini":           {"gemini/stream_function_call.sse", "gemini/stream_text.sse"},
}

func TestAcceptedStreamsReadAsExactClientsReadThem(t *testing.T) {
	t.Parallel()
	for format, files := range streamRecorded {
		for _, file := range files {
			t.Run(format+" "+file, func(t *testing.T) {
				t.Parallel()
				stream := streamFixture(t, file)
				if !checkStreamReadings(t, format, stream) {
					t.Fatal("the recorded stream was not accepted and compared")
				}
				// And with each event's member names made ambiguous, one event at a time.
				events := trimEvents(string(stream))
				for i, ev := range events {
					at := strings.Index(ev, "data: {")
					if at < 0 {
						continue
					}
					data := strings.TrimSpace(ev[at+len("data: "):])
					var m map[string]any
					if json.Unmarshal([]byte(data), &m) != nil {
						continue
					}
					for _, name := range namesIn(m) {
						for _, amb := range ambiguous([]byte(data), name) {
							changed := strings.Join(events[:i], "") + ev[:at] + "data: " + string(amb) + "\n\n" + strings.Join(events[i+1:], "")
							checkStreamReadings(t, format, []byte(changed))
						}
					}
				}
			})
		}
	}
}

// foundStreams are streams the fuzzers found Warden and a client reading apart, kept as seeds.
var foundStreams = map[string][]string{
	"anthropic": {
		// a text delta in a block with no type: a client shows it, Warden read no text block
		"data:{\"type\":\"content_block_start\",\"content_block\":{}}\n\ndata:{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"0\"}}\n\ndata:{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n",
	},
	"gemini": {
		// a text chunk that is not JSON (a trailing comma): Warden read its text, a client's parser rejects it
		"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"000\"}],\"role\":\"model\"},\"index\":0}],} \n\r\ndata: {\"candidates\":[{\"finishReason\":\"STOP\"}]} \n\r\n",
	},
}

// namesIn lists the member names of a decoded value at every depth, each once.
func namesIn(v any) []string {
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[k] = true
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func fuzzStream(f *testing.F, format string) {
	for _, file := range streamSeeds(format) {
		f.Add(streamFixture(f, file))
	}
	for _, s := range foundStreams[format] {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		_ = checkStreamReadings(t, format, stream)
		_ = checkStreamReadings(t, format, stream, true)
	})
}

func FuzzStreamReadingsOpenAIChat(f *testing.F)      { fuzzStream(f, "openai-chat") }
func FuzzStreamReadingsOpenAIResponses(f *testing.F) { fuzzStream(f, "openai-responses") }
func FuzzStreamReadingsAnthropic(f *testing.F)       { fuzzStream(f, "anthropic") }
func FuzzStreamReadingsGemini(f *testing.F)          { fuzzStream(f, "gemini") }
