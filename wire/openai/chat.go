// Package openai is the codec of OpenAI's wire formats: Chat Completions, which Azure OpenAI, DeepSeek, GLM,
// Kimi and most OpenAI-compatible endpoints speak too, and the Responses API. It turns a response body into
// the turn model and writes the turn model's changes back into the same body, keeping every field it did not
// change byte for byte. A response Warden did not change is returned as the exact bytes it came as.
//
// Per-request values: a ChatResponse or Response is not safe for concurrent use.
package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

// ChatResponse is a decoded chat.completion body.
type ChatResponse struct {
	raw     []byte
	obj     *jsonobj.Object
	choices []*chatChoice
	changed bool
}

type chatChoice struct {
	obj      *jsonobj.Object
	msg      *jsonobj.Object
	resp     warden.Response
	rawCalls []json.RawMessage // the message's tool_calls as they came, by position
	arrayed  bool              // content came as an array of parts
}

// DecodeChatResponse reads a chat.completion body. The body is validated once; what lies inside it is
// read from the validated bytes, member by member, and only what encoding/json would read differently
// (names differing only in case, a member repeated, escapes) is left to encoding/json, so that the answer
// is always json.Unmarshal's. A fuzz test holds the two to one reading. The response keeps body, which
// must not change afterwards.
func DecodeChatResponse(body []byte) (*ChatResponse, error) {
	obj, err := jsonobj.ParseShared(body)
	if err != nil {
		return nil, fmt.Errorf("not a chat completion: %v", err)
	}
	if err := envelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous chat completion: %v", err)
	}
	r := &ChatResponse{raw: body, obj: obj}
	rawChoices, ok := obj.Get("choices")
	if !ok {
		return nil, errors.New(`not a chat completion: no "choices"`)
	}
	choices, err := jsonobj.SplitArrayTrusted(rawChoices)
	if err != nil {
		var want []json.RawMessage
		return nil, fmt.Errorf("choices: %v", json.Unmarshal(rawChoices, &want)) // encoding/json's words for it
	}
	for i, rc := range choices {
		c, err := decodeChoice(rc)
		if err != nil {
			return nil, fmt.Errorf("choices[%d]: %v", i, err)
		}
		r.choices = append(r.choices, c)
	}
	return r, nil
}

func decodeChoice(raw json.RawMessage) (*chatChoice, error) {
	obj, err := jsonobj.ParseTrusted(raw) // an element of a validated body
	if err != nil {
		return nil, err
	}
	c := &chatChoice{obj: obj}
	var finish string
	if f, ok := obj.Get("finish_reason"); ok {
		finish, _ = jsonobj.DecodeString(f) // null or absent in some chunks; a non-string is no signal
	}
	c.resp.FinishReason = normalizeFinish(finish)
	if finish != "" {
		c.resp.Signal = warden.Signal{Field: "finish_reason", Value: finish}
	}
	rawMsg, ok := obj.Get("message")
	if !ok {
		return c, nil
	}
	if c.msg, err = jsonobj.ParseTrusted(rawMsg); err != nil {
		return nil, fmt.Errorf("message: %v", err)
	}
	m, ok := readResponseMessage(c.msg)
	if !ok {
		m = responseMessage{}
		if err := json.Unmarshal(rawMsg, &m); err != nil {
			return nil, fmt.Errorf("message: %v", err)
		}
	}
	if tc, ok := c.msg.Get("tool_calls"); ok {
		if calls, err := jsonobj.SplitArrayTrusted(tc); err == nil {
			m.ToolCalls = calls
		} // as json.Unmarshal into the slice, which leaves it as it was when tool_calls is not an array
	}
	c.resp.Message.Role = warden.Role(m.Role)
	if m.ReasoningContent != "" {
		c.resp.Message.Content = append(c.resp.Message.Content, warden.ContentPart{Kind: warden.ContentReasoning, Text: m.ReasoningContent})
	}
	parts, arrayed, err := decodeContent(m.Content)
	if err != nil {
		return nil, fmt.Errorf("message.content: %v", err)
	}
	c.arrayed = arrayed
	c.resp.Message.Content = append(c.resp.Message.Content, parts...)
	for i, rc := range m.ToolCalls {
		call, err := decodeToolCall(rc)
		if err != nil {
			return nil, fmt.Errorf("message.tool_calls[%d]: %v", i, err)
		}
		c.resp.Message.ToolCalls = append(c.resp.Message.ToolCalls, call)
		c.rawCalls = append(c.rawCalls, rc)
	}
	if m.FunctionCall != nil && len(m.ToolCalls) == 0 {
		c.resp.Message.ToolCalls = append(c.resp.Message.ToolCalls, warden.NewToolCall("", m.FunctionCall.Name, []byte(m.FunctionCall.Arguments)))
	}
	return c, nil
}

// responseMessage is what the codec reads of a response's message. ToolCalls has no tag: json.Unmarshal
// fills it from a member named "toolcalls" in any case, and tool_calls, read after, replaces it.
type responseMessage struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	ToolCalls        []json.RawMessage
	FunctionCall     *struct{ Name, Arguments string } `json:"function_call"`
}

var responseMessageKeys = [...]string{"role", "content", "reasoning_content", "ToolCalls", "function_call"}

// readResponseMessage reads a message as json.Unmarshal into a responseMessage would, member by member
// from validated bytes; ok is false when encoding/json must read it: names it would match differently, a
// member of the wrong type, a string with escapes, a legacy function_call.
func readResponseMessage(msg *jsonobj.Object) (m responseMessage, ok bool) {
	if !msg.Plain(responseMessageKeys[:]...) {
		return m, false
	}
	if _, has := msg.Get("ToolCalls"); has {
		return m, false
	}
	if fc, has := msg.Get("function_call"); has && string(fc) != "null" {
		return m, false
	}
	m.Content, _ = msg.Get("content")
	return m, msg.Strings(jsonobj.StringInto("role", &m.Role), jsonobj.StringInto("reasoning_content", &m.ReasoningContent))
}

// decodeContent reads a message's content: a string, null, or an array of parts.
func decodeContent(raw json.RawMessage) ([]warden.ContentPart, bool, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false, nil
	}
	if raw[0] == '"' {
		s, ok := jsonobj.DecodeString(raw)
		if !ok {
			return nil, false, json.Unmarshal(raw, &s) // encoding/json's words for it
		}
		return []warden.ContentPart{{Kind: warden.ContentText, Text: s}}, false, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, false, err
	}
	var out []warden.ContentPart
	for _, p := range parts {
		if p.Type == "text" || p.Type == "output_text" {
			out = append(out, warden.ContentPart{Kind: warden.ContentText, Text: p.Text})
		} else {
			out = append(out, warden.ContentPart{Kind: warden.ContentMedia, MediaType: p.Type})
		}
	}
	return out, true, nil
}

// chatToolCall is what the codec reads of a tool call.
type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Custom struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"custom"`
}

// decodeToolCall reads a tool call of a validated body.
func decodeToolCall(raw json.RawMessage) (warden.ToolCall, error) {
	tc, ok := readToolCall(raw)
	if !ok {
		tc = chatToolCall{}
		if err := json.Unmarshal(raw, &tc); err != nil {
			return warden.ToolCall{}, err
		}
	}
	if tc.Type == "custom" {
		input, _ := json.Marshal(tc.Custom.Input)
		return warden.NewToolCall(tc.ID, tc.Custom.Name, input), nil
	}
	return warden.NewToolCall(tc.ID, tc.Function.Name, []byte(tc.Function.Arguments)), nil
}

// readToolCall reads a tool call as json.Unmarshal into a chatToolCall would, member by member from
// validated bytes; ok is false when encoding/json must read it (see readResponseMessage).
func readToolCall(raw json.RawMessage) (tc chatToolCall, ok bool) {
	obj, err := jsonobj.ParseTrusted(raw)
	if err != nil || !obj.Plain("id", "type", "function", "custom") {
		return tc, false
	}
	// function and custom: each an object of two strings, or null (which leaves it empty).
	pair := func(key, first, second string, a, b *string) bool {
		v, has := obj.Get(key)
		if !has || string(v) == "null" {
			return true
		}
		o, err := jsonobj.ParseTrusted(v)
		return err == nil && o.Plain(first, second) && o.Strings(jsonobj.StringInto(first, a), jsonobj.StringInto(second, b))
	}
	ok = obj.Strings(jsonobj.StringInto("id", &tc.ID), jsonobj.StringInto("type", &tc.Type)) &&
		pair("function", "name", "arguments", &tc.Function.Name, &tc.Function.Arguments) &&
		pair("custom", "name", "input", &tc.Custom.Name, &tc.Custom.Input)
	return tc, ok
}

func normalizeFinish(v string) warden.FinishReason {
	switch strings.ToLower(v) {
	case "stop":
		return warden.FinishStop
	case "length":
		return warden.FinishLength
	case "tool_calls", "function_call":
		return warden.FinishToolCalls
	case "content_filter":
		return warden.FinishSafety
	}
	return warden.FinishUnknown
}

// Len returns the number of choices.
func (r *ChatResponse) Len() int { return len(r.choices) }

// Response returns choice i in the turn model.
func (r *ChatResponse) Response(i int) warden.Response { return r.choices[i].resp }

// Set writes a changed turn-model response back into choice i: the content, the tool calls (removed ones
// dropped, kept ones in their original bytes unless their arguments changed) and, when no tool call is left,
// a finish_reason of tool_calls becomes stop. Everything else stays as it came.
func (r *ChatResponse) Set(i int, resp warden.Response) error {
	c := r.choices[i]
	if c.msg == nil {
		return fmt.Errorf("choices[%d] has no message to change", i)
	}
	old := c.resp
	if textOf(old.Message) != textOf(resp.Message) {
		if err := r.setContent(c, textOf(resp.Message)); err != nil {
			return err
		}
	}
	if !sameCalls(old.Message.ToolCalls, resp.Message.ToolCalls) {
		if err := setToolCalls(c, resp.Message.ToolCalls); err != nil {
			return err
		}
		if len(resp.Message.ToolCalls) == 0 {
			if f, ok := c.obj.Get("finish_reason"); ok && string(f) == `"tool_calls"` {
				c.obj.Set("finish_reason", json.RawMessage(`"stop"`))
			}
		}
	}
	msg, _ := c.msg.MarshalJSON()
	c.obj.Set("message", msg)
	c.resp = resp
	r.changed = true
	return nil
}

func (r *ChatResponse) setContent(c *chatChoice, text string) error {
	if c.arrayed {
		return c.msg.SetJSON("content", []map[string]string{{"type": "text", "text": text}})
	}
	return c.msg.SetJSON("content", text)
}

// textOf is a message's text parts joined, reasoning left out (reasoning_content is never rewritten).
func textOf(m warden.Message) string { return m.Text() }

func sameCalls(a, b []warden.ToolCall) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Name != b[i].Name || !bytes.Equal(a[i].Arguments, b[i].Arguments) {
			return false
		}
	}
	return true
}

func setToolCalls(c *chatChoice, calls []warden.ToolCall) error {
	c.msg.Delete("function_call")
	if len(calls) == 0 {
		c.msg.Delete("tool_calls")
		return nil
	}
	var out []json.RawMessage
	for _, call := range calls {
		kept := false
		for j, orig := range c.resp.Message.ToolCalls {
			if j < len(c.rawCalls) && orig.ID == call.ID && orig.Name == call.Name {
				if bytes.Equal(orig.Arguments, call.Arguments) {
					out = append(out, c.rawCalls[j])
				} else {
					obj, err := jsonobj.Parse(c.rawCalls[j])
					if err != nil {
						return err
					}
					fn, _ := obj.Get("function")
					fobj, err := jsonobj.Parse(fn)
					if err != nil {
						return err
					}
					_ = fobj.SetJSON("arguments", string(call.Arguments))
					fb, _ := fobj.MarshalJSON()
					obj.Set("function", fb)
					b, _ := obj.MarshalJSON()
					out = append(out, b)
				}
				kept = true
				break
			}
		}
		if !kept {
			b, err := json.Marshal(map[string]any{"id": call.ID, "type": "function",
				"function": map[string]string{"name": call.Name, "arguments": string(call.Arguments)}})
			if err != nil {
				return err
			}
			out = append(out, b)
		}
	}
	return c.msg.SetJSON("tool_calls", out)
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *ChatResponse) Encode() ([]byte, error) {
	if !r.changed {
		return r.raw, nil
	}
	choices := make([]json.RawMessage, len(r.choices))
	for i, c := range r.choices {
		b, err := c.obj.MarshalJSON()
		if err != nil {
			return nil, err
		}
		choices[i] = b
	}
	if err := r.obj.SetJSON("choices", choices); err != nil {
		return nil, err
	}
	return r.obj.MarshalJSON()
}

// ErrorBody returns an error body in OpenAI's shape, for errors Warden answers itself.
func ErrorBody(message, typ, code string) []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": typ, "param": nil, "code": code}})
	return b
}

// MessageBody returns a chat.completion whose one choice is an assistant message with text, for answers
// Warden gives itself (an API-layer safety error turned into a message).
func MessageBody(id, model, text, finish string) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": model,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text, "refusal": nil}, "logprobs": nil, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})
	return b
}
