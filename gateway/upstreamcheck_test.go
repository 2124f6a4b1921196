package gateway_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The fake upstream refuses what a real provider refuses in a conversation Warden sends it (a follow-up, a
// continuation): a tool call without its result, a result without its call, and a Gemini function call
// without the thought signature the provider gave it. A request that does not parse is left to the tests
// that send it on purpose.

// refusal returns the status and body the provider would answer a request with, or ok when it would take it.
func (u *upstream) refusal(path string, body []byte) (status int, answer []byte, ok bool) {
	var problem string
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		problem = chatProblem(body)
	case strings.HasSuffix(path, "/responses"):
		problem = responsesProblem(body)
	case strings.HasSuffix(path, "/messages"):
		problem = anthropicProblem(body)
	case strings.Contains(path, ":generateContent") || strings.Contains(path, ":streamGenerateContent"):
		problem = u.geminiProblem(body)
	}
	if problem == "" {
		return 0, nil, true
	}
	switch {
	case strings.HasSuffix(path, "/messages"):
		return http.StatusBadRequest, []byte(fmt.Sprintf(`{"type":"error","error":{"type":"invalid_request_error","message":%q}}`, problem)), false
	case strings.Contains(path, "generateContent"):
		return http.StatusBadRequest, []byte(fmt.Sprintf(`{"error":{"code":400,"message":%q,"status":"INVALID_ARGUMENT"}}`, problem)), false
	}
	return http.StatusBadRequest, []byte(fmt.Sprintf(`{"error":{"message":%q,"type":"invalid_request_error","param":null,"code":null}}`, problem)), false
}

// pairing checks that every call has a result after it and every result a call before it.
type pairing struct {
	open map[string]bool
	seen map[string]bool
}

func newPairing() *pairing { return &pairing{open: map[string]bool{}, seen: map[string]bool{}} }

func (p *pairing) call(id string) { p.open[id], p.seen[id] = true, true }

func (p *pairing) result(id string) string {
	if !p.seen[id] {
		return fmt.Sprintf("a tool result for call %q, which no earlier message made", id)
	}
	delete(p.open, id)
	return ""
}

func (p *pairing) unanswered() string {
	for id := range p.open {
		return fmt.Sprintf("tool call %q has no result", id)
	}
	return ""
}

func chatProblem(body []byte) string {
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	p := newPairing()
	for _, m := range req.Messages {
		if m.Role != "tool" {
			if msg := p.unanswered(); msg != "" {
				return "an assistant message with 'tool_calls' must be followed by tool messages: " + msg
			}
		}
		for _, c := range m.ToolCalls {
			p.call(c.ID)
		}
		if m.Role == "tool" {
			if msg := p.result(m.ToolCallID); msg != "" {
				return msg
			}
		}
	}
	return p.unanswered()
}

func responsesProblem(body []byte) string {
	var req struct {
		Input    json.RawMessage `json:"input"`
		Previous string          `json:"previous_response_id"`
	}
	if json.Unmarshal(body, &req) != nil || req.Previous != "" {
		return "" // a stored conversation: its calls are the provider's to pair
	}
	var items []struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
	}
	if json.Unmarshal(req.Input, &items) != nil {
		return "" // a string input
	}
	p := newPairing()
	for _, it := range items {
		switch it.Type {
		case "function_call", "custom_tool_call":
			p.call(it.CallID)
		case "function_call_output", "custom_tool_call_output":
			if msg := p.result(it.CallID); msg != "" {
				return msg
			}
		}
	}
	if msg := p.unanswered(); msg != "" {
		return "No tool output found for function call: " + msg
	}
	return ""
}

func anthropicProblem(body []byte) string {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	p := newPairing()
	for i, m := range req.Messages {
		var blocks []struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			ToolUseID string `json:"tool_use_id"`
		}
		_ = json.Unmarshal(m.Content, &blocks) // a string content has none
		for _, b := range blocks {
			switch b.Type {
			case "tool_use":
				p.call(b.ID)
			case "tool_result":
				if msg := p.result(b.ToolUseID); msg != "" {
					return fmt.Sprintf("messages.%d: unexpected tool_result block: %s", i, msg)
				}
			}
		}
		if m.Role == "assistant" && i+1 < len(req.Messages) {
			continue // its tool uses are answered by the next message
		}
		if m.Role == "user" {
			if msg := p.unanswered(); msg != "" {
				return fmt.Sprintf("messages.%d: tool_use ids were found without tool_result blocks immediately after: %s", i, msg)
			}
		}
	}
	return ""
}

// geminiProblem refuses a function call in the conversation without its function response, and one sent
// back without the thought signature the upstream gave it.
func (u *upstream) geminiProblem(body []byte) string {
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				FunctionCall *struct {
					Name string          `json:"name"`
					Args json.RawMessage `json:"args"`
				} `json:"functionCall"`
				FunctionResponse *struct {
					Name string `json:"name"`
				} `json:"functionResponse"`
				ThoughtSignature string `json:"thoughtSignature"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	open := 0
	for _, c := range req.Contents {
		for _, part := range c.Parts {
			if fc := part.FunctionCall; fc != nil {
				open++
				if part.ThoughtSignature == "" && u.signed(fc.Name, fc.Args) {
					return fmt.Sprintf("Function call %q is missing a thought_signature", fc.Name)
				}
			}
			if part.FunctionResponse != nil {
				open--
			}
		}
	}
	if open > 0 {
		return "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
	}
	return ""
}

// signed reports whether an answer the upstream gave carried this function call with a thought signature.
func (u *upstream) signed(name string, args json.RawMessage) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	compact := func(b []byte) string {
		var buf bytes.Buffer
		if json.Compact(&buf, b) != nil {
			return string(b)
		}
		return buf.String()
	}
	want := fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s},"thoughtSignature":`, name, compact(args))
	for _, b := range u.served {
		if bytes.Contains(b, []byte(want)) {
			return true
		}
	}
	return false
}

// The fake upstream's refusals are what the tests of follow-ups rely on: each must refuse its case and
// take the well-formed one.
func TestFakeUpstreamRefusesWhatProvidersRefuse(t *testing.T) {
	t.Parallel()
	u := newUpstream(t)
	u.answer(reply{body: []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"bash","args":{"command":"ls"}},"thoughtSignature":"U0lH"}],"role":"model"}}]}`)})
	// serve the signed call once, as a provider would have given it
	if resp, err := http.Post(u.srv.URL+"/v1beta/models/m:generateContent", "application/json", strings.NewReader(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)); err == nil {
		resp.Body.Close()
	}
	tests := []struct {
		desc, path, body string
		wantOK           bool
	}{
		{"chat: a call without its result", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1"}]},{"role":"user","content":"y"}]}`, false},
		{"chat: a result without its call", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c9"}]}`, false},
		{"chat: a call and its result", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c1"}]},{"role":"tool","tool_call_id":"c1"}]}`, true},
		{"responses: a call without its output", "/v1/responses", `{"input":[{"type":"function_call","call_id":"c1"}]}`, false},
		{"responses: a call and its output", "/v1/responses", `{"input":[{"type":"function_call","call_id":"c1"},{"type":"function_call_output","call_id":"c1"}]}`, true},
		{"anthropic: a tool use without its result", "/v1/messages", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"t1"}]},{"role":"user","content":"y"}]}`, false},
		{"anthropic: a tool use and its result", "/v1/messages", `{"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"t1"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"}]}]}`, true},
		{"gemini: a signed call sent back without its signature", "/v1beta/models/m:generateContent", `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"bash","args":{"command":"ls"}}}]},{"role":"user","parts":[{"functionResponse":{"name":"bash"}}]}]}`, false},
		{"gemini: a call without its response", "/v1beta/models/m:generateContent", `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"x","args":{}}}]}]}`, false},
		{"gemini: a signed call with its signature and response", "/v1beta/models/m:generateContent", `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"bash","args":{"command":"ls"}},"thoughtSignature":"U0lH"}]},{"role":"user","parts":[{"functionResponse":{"name":"bash"}}]}]}`, true},
	}
	for _, tc := range tests {
		_, _, ok := u.refusal(tc.path, []byte(tc.body))
		if ok != tc.wantOK {
			t.Errorf("%s: taken %v, want %v", tc.desc, ok, tc.wantOK)
		}
	}
}
