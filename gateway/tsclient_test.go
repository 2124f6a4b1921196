package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/pipeline"
)

// The official TypeScript SDKs (openai, @anthropic-ai/sdk, @google/genai, @openai/agents; pinned in
// testdata/tsclient/package-lock.json and installed there by .ci/run) read every answer the gateway gives:
// each SDK's high-level helper, stream and whole, on every answer Warden rewrites, must read it without
// throwing, its raw events must be consistent, and no denied call may reach the client.

// tsResult is what testdata/tsclient/client.mjs prints.
type tsResult struct {
	OK        bool              `json:"ok"`
	Error     string            `json:"error"`
	Status    int               `json:"status"`
	ErrorType string            `json:"errorType"`
	Text      string            `json:"text"`
	Calls     []string          `json:"calls"`
	Finish    string            `json:"finish"`
	Headers   map[string]string `json:"headers"`
	Problems  []string          `json:"problems"`
}

// tsClients returns the suite's directory, or skips the test when node or the installed SDKs are missing
// outside CI; under CI=true they must be there.
func tsClients(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "tsclient"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, modErr := os.Stat(filepath.Join(dir, "node_modules", "openai"))
	if nodeErr != nil || modErr != nil {
		msg := "the TypeScript client suite needs node and `npm ci --prefix gateway/testdata/tsclient` (.ci/run does both)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// runTS runs one case through client.mjs against the gateway at baseURL.
func runTS(t *testing.T, dir, format string, stream bool, baseURL string) tsResult {
	t.Helper()
	arg, _ := json.Marshal(map[string]any{"format": format, "stream": stream, "baseURL": baseURL})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "client.mjs"), string(arg))
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var r tsResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("client.mjs printed %q: %v", out, err)
	}
	return r
}

func openAIError(status int) []byte {
	return []byte(fmt.Sprintf(`{"error":{"message":"upstream says %d","type":"server_error","code":null}}`, status))
}

func anthropicError(status int) []byte {
	typ := "api_error"
	if status == 429 {
		typ = "rate_limit_error"
	}
	return []byte(fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":"upstream says %d"}}`, typ, status))
}

func geminiError(status int) []byte {
	st := "INTERNAL"
	if status == 429 {
		st = "RESOURCE_EXHAUSTED"
	}
	return []byte(fmt.Sprintf(`{"error":{"code":%d,"message":"upstream says %d","status":%q}}`, status, status, st))
}

// roundIDs gives the ids of a recorded answer a round's own suffix, as a provider gives every response,
// item and call ids of its own: the same recording answering round after round would repeat them.
func roundIDs(b []byte, round int) []byte {
	if round == 0 {
		return b
	}
	for _, prefix := range []string{`"msg_`, `"fc_`, `"resp_`, `"call_`, `"toolu_`, `"rs_`, `"chatcmpl-`} {
		b = bytes.ReplaceAll(b, []byte(prefix), []byte(fmt.Sprintf("%sr%d", prefix, round)))
	}
	return b
}

// chatRoleInCall is a Chat stream whose only chunk before the finish carries the role and a denied call
// together, as OpenAI streams an answer that is only a tool call.
var chatRoleInCall = []byte(`data: {"id":"chatcmpl-R1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_r","type":"function","function":{"name":"bash","arguments":"{\"command\":\"rm -rf ~/\"}"}}]},"logprobs":null,"finish_reason":null}]}

data: {"id":"chatcmpl-R1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}

data: [DONE]

`)

// geminiBareSafety is a Gemini safety stop whose only content is a function call and an empty text part.
func geminiBareSafety(stream bool) reply {
	body := `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"bash","args":{"command":"ls"}}},{"text":""}],"role":"model"},"finishReason":"SAFETY","index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r9"}`
	if stream {
		return reply{contentType: "text/event-stream", body: []byte("data: " + body + "\r\n\r\n")}
	}
	return reply{body: []byte(body)}
}

// onlyDenied makes the allowed call of a recorded answer with a denied one (ls) denied too, so that no
// call of the turn is left.
func onlyDenied(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`\"ls\"`), []byte(`\"rm -rf /\"`))
	return bytes.ReplaceAll(b, []byte(`"command":"ls"`), []byte(`"command":"rm -rf /"`))
}

// denyWhole makes a recorded whole answer's tool call a denied one.
func denyWhole(b []byte) []byte {
	return bytes.Replace(b, []byte("go test ./..."), []byte("rm -rf ~/"), 1)
}

type tsFormat struct {
	name, provider                         string
	wholeText, wholeCall, wholeSafety      string
	streamText, streamDenied, streamSafety string
	errorBody                              func(int) []byte
	agents                                 string // the Agents SDK's format speaking it, or ""
}

var tsFormats = []tsFormat{
	{name: "chat", provider: "openai", wholeText: "healthy_text.json", wholeCall: "healthy_tool_calls.json", wholeSafety: "safety_stop_tool_calls.json",
		streamText: "stream_text.sse", streamDenied: "stream_denied_call.sse", streamSafety: "stream_safety_tool_call.sse", errorBody: openAIError, agents: "agents-chat"},
	{name: "responses", provider: "openai", wholeText: "responses_healthy_text.json", wholeCall: "responses_healthy_function_call.json", wholeSafety: "responses_content_filter_function_call.json",
		streamText: "responses_stream_text.sse", streamDenied: "responses_stream_denied_first_call.sse", streamSafety: "responses_stream_content_filter.sse", errorBody: openAIError, agents: "agents-responses"},
	{name: "anthropic", provider: "anthropic", wholeText: "healthy_text.json", wholeCall: "healthy_tool_use.json", wholeSafety: "refusal_tool_use.json",
		streamText: "stream_text.sse", streamDenied: "stream_denied_first_call.sse", streamSafety: "stream_refusal_tool_use.sse", errorBody: anthropicError},
	{name: "gemini", provider: "gemini", wholeText: "healthy_text.json", wholeCall: "healthy_function_call.json", wholeSafety: "safety_function_call.json",
		streamText: "stream_text.sse", streamDenied: "stream_denied_first_call.sse", streamSafety: "stream_safety_function_call.sse", errorBody: geminiError},
}

func (f tsFormat) answer(t *testing.T, stream bool, kind string) reply {
	if kind == "onlydenied" {
		r := f.answer(t, stream, "denied")
		r.body = onlyDenied(r.body)
		return r
	}
	name := map[string]string{"text": f.wholeText, "denied": f.wholeCall, "safety": f.wholeSafety}[kind]
	if stream {
		name = map[string]string{"text": f.streamText, "denied": f.streamDenied, "safety": f.streamSafety}[kind]
	}
	b := fixture(t, f.provider, name)
	if kind == "denied" && !stream {
		b = denyWhole(b)
	}
	r := reply{body: b}
	if stream {
		r.contentType = "text/event-stream"
	}
	return r
}

func TestTypeScriptClientsReadEveryAnswer(t *testing.T) {
	t.Parallel()
	dir := tsClients(t)
	type scenario struct {
		desc       string
		kinds      []string // answers in turn: text, denied, safety, or an HTTP status
		onDeny     pipeline.OnDeny
		wantError  int // the SDK throws a server error with at least this status
		streamOnly bool
		// explained: the client must read text saying why (a removed call or a safety stop is explained).
		explained bool
		only      string // the one format the scenario is for ("" for all)
	}
	scenarios := []scenario{
		{desc: "a text answer passes", kinds: []string{"text"}},
		{desc: "a denied call retried into text", kinds: []string{"denied", "text"}},
		{desc: "a denied call out of retries is explained", kinds: []string{"denied", "denied", "denied", "denied"}},
		{desc: "a denied call explained", kinds: []string{"denied"}, onDeny: pipeline.DenyExplain},
		{desc: "a safety stop with a tool call", kinds: []string{"safety"}, explained: true},
		{desc: "a safety stop whose only content is a call and an empty text part", kinds: []string{"safetybare"}, explained: true, only: "gemini"},
		{desc: "a denied call whose chunk also carries the role, explained", kinds: []string{"roleincall"}, onDeny: pipeline.DenyExplain, explained: true, only: "chat", streamOnly: true},
		{desc: "a denied call whose chunk also carries the role, out of retries", kinds: []string{"roleincall", "roleincall", "roleincall", "roleincall"}, explained: true, only: "chat", streamOnly: true},
		{desc: "a turn whose only call is denied, explained", kinds: []string{"onlydenied"}, onDeny: pipeline.DenyExplain, explained: true},
		{desc: "a turn whose only call is denied, out of retries", kinds: []string{"onlydenied", "onlydenied", "onlydenied", "onlydenied"}, explained: true},
		{desc: "a follow-up refused after a denied call", kinds: []string{"denied", "429"}},
		{desc: "an upstream server error", kinds: []string{"500"}, wantError: 500},
		{desc: "an upstream stream broken midway", kinds: []string{"cut"}, wantError: 500, streamOnly: true},
	}
	for _, f := range tsFormats {
		for _, stream := range []bool{false, true} {
			for _, sc := range scenarios {
				if sc.streamOnly && !stream || sc.only != "" && sc.only != f.name {
					continue
				}
				mode := "whole"
				if stream {
					mode = "stream"
				}
				t.Run(f.name+"/"+mode+"/"+sc.desc, func(t *testing.T) {
					t.Parallel()
					var opts []harnessOption
					if sc.onDeny != "" {
						opts = append(opts, withOnDeny(sc.onDeny))
					}
					h := newHarness(t, "", opts...)
					var rs []reply
					for i, k := range sc.kinds {
						switch k {
						case "429", "500":
							status := map[string]int{"429": 429, "500": 500}[k]
							rs = append(rs, reply{status: status, body: f.errorBody(status)})
						case "safetybare":
							rs = append(rs, geminiBareSafety(stream))
						case "roleincall":
							rs = append(rs, reply{contentType: "text/event-stream", body: roundIDs(chatRoleInCall, i)})
						case "cut":
							r := f.answer(t, true, "text")
							r.cutAfter = len(r.body) / 2
							rs = append(rs, r)
						default:
							r := f.answer(t, stream, k)
							r.body = roundIDs(r.body, i)
							rs = append(rs, r)
						}
					}
					h.up.answer(rs...)
					r := runTS(t, dir, f.name, stream, h.url)
					checkTS(t, r, sc.wantError)
					if sc.explained && r.OK && strings.TrimSpace(r.Text) == "" {
						t.Error("the client read no text saying why the answer has no call")
					}
				})
			}
		}
	}
}

// The OpenAI Agents SDK's run, streamed and not: a denied call never reaches the agent's tool.
func TestTypeScriptAgentsNeverRunADeniedCall(t *testing.T) {
	t.Parallel()
	dir := tsClients(t)
	for _, f := range tsFormats {
		if f.agents == "" {
			continue
		}
		for _, stream := range []bool{false, true} {
			// An upstream that answers every follow-up with the denied call again would loop the agent to its
			// turn limit, and a safety stop in Responses is an incomplete response the Agents SDK throws on
			// with or without Warden (ModelBehaviorError): neither is a case of Warden's rewriting.
			for _, kinds := range [][]string{{"text"}, {"denied", "text"}} {
				t.Run(fmt.Sprintf("%s/stream=%v/%s", f.agents, stream, strings.Join(kinds, ",")), func(t *testing.T) {
					t.Parallel()
					h := newHarness(t, "")
					var rs []reply
					for _, k := range kinds {
						rs = append(rs, f.answer(t, stream, k))
					}
					h.up.answer(rs...)
					checkTS(t, runTS(t, dir, f.agents, stream, h.url), 0)
				})
			}
		}
	}
}

// serverErrorTypes are the error types the formats give a server-side fault, which SDKs retry: not a
// permission or authentication error, which reads as a key problem.
var serverErrorTypes = map[string]bool{"server_error": true, "api_error": true, "overloaded_error": true,
	"INTERNAL": true, "UNAVAILABLE": true}

// checkTS holds a client's reading to what every answer must give it.
func checkTS(t *testing.T, r tsResult, wantError int) {
	t.Helper()
	for _, c := range r.Calls {
		if strings.Contains(c, "rm -rf") {
			t.Errorf("a denied call reached the client: %q", c)
		}
	}
	for _, p := range r.Problems {
		t.Errorf("raw events: %s", p)
	}
	switch {
	case wantError == 0 && !r.OK:
		t.Errorf("the SDK threw: %s (status %d)", r.Error, r.Status)
	case wantError > 0 && r.OK:
		t.Errorf("the SDK read an answer (%q), want a server error", r.Text)
	case wantError > 0 && r.Status < wantError && !serverErrorTypes[r.ErrorType]:
		t.Errorf("the SDK threw %s (status %d, type %q), want a retryable server error", r.Error, r.Status, r.ErrorType)
	}
}
