package gemini_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/golden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/gemini"
	"google.golang.org/genai"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func guarded(t *testing.T, body []byte) []byte {
	t.Helper()
	r, err := gemini.DecodeResponse(body)
	if err != nil {
		t.Fatal(err)
	}
	return pipelinetest.Safety(t, r)
}

func TestFixtures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture   string
		unchanged bool
		wantCalls int
		wantText  string
	}{
		{fixture: "healthy_function_call", unchanged: true, wantCalls: 1, wantText: "Running the tests."},
		{fixture: "safety_function_call", wantCalls: 0, wantText: "Here it comes\n\nThe model provider stopped this response with a safety-related signal (finishReason='SAFETY', detector='gemini_safety'). Any tool calls produced in this turn were suppressed"},
		{fixture: "prompt_blocked", wantCalls: 0, wantText: "(promptFeedback.blockReason='PROHIBITED_CONTENT', detector='gemini_prompt_block') and returned no content."},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(filepath.Join("testdata", tt.fixture+".json"))
			if err != nil {
				t.Fatal(err)
			}
			in = []byte(strings.TrimSpace(string(in)))
			got := guarded(t, in)
			if tt.unchanged && string(got) != string(in) {
				t.Errorf("an unchanged response was not passed through byte for byte:\n%s", got)
			}
			golden.JSON(t, filepath.Join("testdata", tt.fixture+".golden.json"), got, *update)
			var resp genai.GenerateContentResponse
			if err := json.Unmarshal(got, &resp); err != nil {
				t.Fatalf("go-genai cannot parse the output: %v", err)
			}
			if len(resp.Candidates) == 0 {
				t.Fatal("go-genai sees no candidate")
			}
			if n := len(resp.FunctionCalls()); n != tt.wantCalls || !strings.Contains(resp.Text(), tt.wantText) {
				t.Errorf("go-genai sees %d calls and text %q", n, resp.Text())
			}
		})
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, body string
		check      func(t *testing.T, r *gemini.Response)
		wantErr    string
	}{
		{desc: "calls without ids get stable ones", body: `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":{}}},{"functionCall":{"name":"b","args":{}}}]},"finishReason":"STOP"}]}`,
			check: func(t *testing.T, r *gemini.Response) {
				c := r.Response(0).Message.ToolCalls
				if len(c) != 2 || c[0].ID != "gemini-call-0-0" || c[1].ID != "gemini-call-0-1" || r.Response(0).FinishReason != warden.FinishToolCalls {
					t.Errorf("%+v", c)
				}
			}},
		{desc: "thought parts are reasoning", body: `{"candidates":[{"content":{"parts":[{"text":"hm","thought":true},{"text":"hi"}]},"finishReason":"STOP"}]}`,
			check: func(t *testing.T, r *gemini.Response) {
				if r.Response(0).Message.Text() != "hi" {
					t.Errorf("text %q", r.Response(0).Message.Text())
				}
			}},
		{desc: "a prompt block with candidates adds its signal to each", body: `{"candidates":[{"content":{"parts":[]},"finishReason":"OTHER"}],"promptFeedback":{"blockReason":"SAFETY"}}`,
			check: func(t *testing.T, r *gemini.Response) {
				if s := r.Response(0).Signals; len(s) != 1 || s[0].Value != "SAFETY" {
					t.Errorf("signals %+v", s)
				}
			}},
		{desc: "an error body is not a response", body: `{"error":{"code":400,"message":"x","status":"INVALID_ARGUMENT"}}`, wantErr: "not a generateContent response"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := gemini.DecodeResponse([]byte(tt.body))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

func TestSetKeepsThoughtSignatures(t *testing.T) {
	t.Parallel()
	const parallel = `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"bash","args":{"command":"rm -rf /"}},"thoughtSignature":"U0lHMQ=="},{"functionCall":{"name":"bash","args":{"command":"ls"}}}]},"finishReason":"STOP"}]}`
	const signedText = `{"candidates":[{"content":{"role":"model","parts":[{"text":"draft","thoughtSignature":"U0lHMg=="}]},"finishReason":"STOP"}]}`
	tests := []struct {
		desc, body string
		edit       func(r *warden.Response)
		want       []string // parts as the SDK reads them: "call:NAME:SIG" or "text:TEXT:SIG"
	}{
		{desc: "a denied first call hands its signature to the next call kept", body: parallel,
			edit: func(r *warden.Response) { r.Message.ToolCalls = r.Message.ToolCalls[1:] },
			want: []string{"call:bash:SIG1"}},
		{desc: "with no call left the signature goes to the text Warden adds", body: parallel,
			edit: func(r *warden.Response) {
				r.Message.ToolCalls = nil
				r.Message.Content = []warden.ContentPart{{Kind: warden.ContentText, Text: "denied"}}
			},
			want: []string{"text:denied:SIG1"}},
		{desc: "a denied second call leaves the first as it came", body: parallel,
			edit: func(r *warden.Response) { r.Message.ToolCalls = r.Message.ToolCalls[:1] },
			want: []string{"call:bash:SIG1"}},
		{desc: "text replaced in place keeps its signature", body: signedText,
			edit: func(r *warden.Response) {
				r.Message.Content = []warden.ContentPart{{Kind: warden.ContentText, Text: "redacted"}}
			},
			want: []string{"text:redacted:SIG2"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := gemini.DecodeResponse([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			resp := r.Response(0)
			tt.edit(&resp)
			if err := r.Set(0, resp); err != nil {
				t.Fatal(err)
			}
			out, err := r.Encode()
			if err != nil {
				t.Fatal(err)
			}
			var sdkResp genai.GenerateContentResponse
			if err := json.Unmarshal(out, &sdkResp); err != nil {
				t.Fatalf("go-genai cannot parse %s: %v", out, err)
			}
			var got []string
			for _, p := range sdkResp.Candidates[0].Content.Parts {
				switch {
				case p.FunctionCall != nil:
					got = append(got, "call:"+p.FunctionCall.Name+":"+string(p.ThoughtSignature))
				default:
					got = append(got, "text:"+p.Text+":"+string(p.ThoughtSignature))
				}
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("parts = %q, want %q\n%s", got, tt.want, out)
			}
		})
	}
}

func TestAnswerBodiesParseWithTheSDK(t *testing.T) {
	t.Parallel()
	var msg genai.GenerateContentResponse
	if err := json.Unmarshal(gemini.MessageBody("warden", "Stopped <here> & now.", "SAFETY"), &msg); err != nil {
		t.Fatalf("go-genai cannot parse MessageBody: %v", err)
	}
	if msg.Text() != "Stopped <here> & now." || len(msg.Candidates) != 1 || msg.Candidates[0].FinishReason != genai.FinishReasonSafety {
		t.Errorf("MessageBody reads as text %q, candidates %+v", msg.Text(), msg.Candidates)
	}
	var apiErr struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
			Status  string `json:"status"`
		} `json:"error"`
	}
	if err := json.Unmarshal(gemini.ErrorBody("no tools today"), &apiErr); err != nil {
		t.Fatal(err)
	}
	if apiErr.Error.Code != 403 || apiErr.Error.Status != "PERMISSION_DENIED" || apiErr.Error.Message != "no tools today" {
		t.Errorf("ErrorBody = %+v", apiErr.Error)
	}
}
