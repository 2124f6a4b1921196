package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// ChatFollowUp returns the chat request req continued by a tool round the client never sees: the model's
// assistant message, then a tool message for each of its calls carrying results[i]. A retry after a denied
// call sends it, so that the model reads why and chooses another way. The assistant message is the first
// choice of the whole response body resp as the provider wrote it (less the members a request does not
// take), or, for a stream (resp nil), msg written in the request's shape.
func ChatFollowUp(req, resp []byte, msg warden.Message, results []string) ([]byte, error) {
	if err := reqtext.CheckResults(msg, results); err != nil {
		return nil, err
	}
	assistant, err := chatAssistant(resp, msg)
	if err != nil {
		return nil, err
	}
	elems := []json.RawMessage{assistant}
	for i, c := range msg.ToolCalls {
		b, err := json.Marshal(struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		}{"tool", c.ID, results[i]})
		if err != nil {
			return nil, err
		}
		elems = append(elems, b)
	}
	return reqtext.Append(req, "messages", elems...)
}

func chatAssistant(resp []byte, msg warden.Message) (json.RawMessage, error) {
	if resp != nil {
		var body struct {
			Choices []struct {
				Message json.RawMessage `json:"message"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(resp, &body); err != nil {
			return nil, err
		}
		if len(body.Choices) == 0 || len(body.Choices[0].Message) == 0 {
			return nil, errors.New("follow-up: the response has no message")
		}
		o, err := jsonobj.Parse(body.Choices[0].Message)
		if err != nil {
			return nil, err
		}
		// Members of a response message that a request's assistant message does not take.
		o.Delete("annotations")
		if v, ok := o.Get("audio"); ok && string(v) == "null" {
			o.Delete("audio")
		}
		return o.MarshalJSON()
	}
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type call struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	m := struct {
		Role      string  `json:"role"`
		Content   *string `json:"content"`
		ToolCalls []call  `json:"tool_calls"`
	}{Role: "assistant"}
	if text := msg.Text(); text != "" {
		m.Content = &text
	}
	for _, c := range msg.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, call{ID: c.ID, Type: "function", Function: function{c.Name, string(reqtext.CallArguments(c))}})
	}
	return json.Marshal(m)
}

// ResponsesFollowUp returns the Responses request req continued by a tool round the client never sees: the
// model's output items, then an output item for each of its calls carrying results[i]. The items are those
// of the whole response body resp as the provider wrote them (reasoning included, which reasoning models
// need back; a reasoning item the provider did not store and did not encrypt is left out, as nothing could
// resolve it), or, for a stream (resp nil), msg written as a message item and function_call items. A string
// input becomes a user message item first. Calls of built-in tools cannot be answered this way and fail.
func ResponsesFollowUp(req, resp []byte, msg warden.Message, results []string) ([]byte, error) {
	if err := reqtext.CheckResults(msg, results); err != nil {
		return nil, err
	}
	req, err := inputAsItems(req)
	if err != nil {
		return nil, err
	}
	items, kinds, err := responsesItems(req, resp, msg)
	if err != nil {
		return nil, err
	}
	for i, c := range msg.ToolCalls {
		var out string
		switch kinds[c.ID] {
		case "function_call":
			out = "function_call_output"
		case "custom_tool_call":
			out = "custom_tool_call_output"
		default:
			return nil, fmt.Errorf("follow-up: call %q is not of a function or custom tool, which a follow-up cannot answer", c.Name)
		}
		b, err := json.Marshal(struct {
			Type   string `json:"type"`
			CallID string `json:"call_id"`
			Output string `json:"output"`
		}{out, c.ID, results[i]})
		if err != nil {
			return nil, err
		}
		items = append(items, b)
	}
	return reqtext.Append(req, "input", items...)
}

// responsesItems returns the model's output items and the item type of each call, by call id.
func responsesItems(req, resp []byte, msg warden.Message) ([]json.RawMessage, map[string]string, error) {
	kinds := map[string]string{}
	if resp == nil {
		// A stream's calls say nothing of their item type; the request's tools do. A name it does not
		// declare is taken as a function's (a client may leave its tools to a stored prompt), unless it is
		// a built-in tool's, which a follow-up cannot answer.
		var head struct {
			Tools []struct{ Type, Name string } `json:"tools"`
		}
		_ = json.Unmarshal(req, &head)
		function := map[string]bool{}
		for _, b := range builtinCalls {
			function[b.name] = false
		}
		for _, t := range head.Tools {
			function[t.Name] = t.Type == "function"
		}
		var items []json.RawMessage
		if text := msg.Text(); text != "" {
			b, _ := json.Marshal(map[string]any{"type": "message", "role": "assistant",
				"content": []map[string]string{{"type": "output_text", "text": text}}})
			items = append(items, b)
		}
		for _, c := range msg.ToolCalls {
			b, _ := json.Marshal(map[string]string{"type": "function_call", "call_id": c.ID, "name": c.Name,
				"arguments": string(reqtext.CallArguments(c))})
			items = append(items, b)
			if isFunction, declared := function[c.Name]; isFunction || !declared {
				kinds[c.ID] = "function_call"
			}
		}
		return items, kinds, nil
	}
	var body struct {
		Store  *bool             `json:"store"`
		Output []json.RawMessage `json:"output"`
	}
	if err := json.Unmarshal(resp, &body); err != nil {
		return nil, nil, err
	}
	stored := body.Store == nil || *body.Store
	var items []json.RawMessage
	for _, raw := range body.Output {
		var it struct {
			Type             string          `json:"type"`
			CallID           string          `json:"call_id"`
			EncryptedContent json.RawMessage `json:"encrypted_content"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			return nil, nil, err
		}
		if it.Type == "reasoning" && !stored && (len(it.EncryptedContent) == 0 || string(it.EncryptedContent) == "null") {
			continue
		}
		if it.CallID != "" {
			kinds[it.CallID] = it.Type
		}
		items = append(items, raw)
	}
	return items, kinds, nil
}

// ChatContinue returns the Chat Completions request req continued from partial, the assistant's message so
// far (text the client has, ending with a stream guardrail's feedback), as the last message, for a
// self-correction: the model answers after reading it.
func ChatContinue(req []byte, partial string) ([]byte, error) {
	if strings.TrimSpace(partial) == "" {
		return nil, errors.New("continue: no partial message to continue from")
	}
	m, err := json.Marshal(map[string]string{"role": "assistant", "content": partial})
	if err != nil {
		return nil, err
	}
	return reqtext.Append(req, "messages", m)
}

// ResponsesContinue returns the Responses request req continued from partial as an assistant message item,
// last, for a self-correction; a string input becomes a user message item first.
func ResponsesContinue(req []byte, partial string) ([]byte, error) {
	if strings.TrimSpace(partial) == "" {
		return nil, errors.New("continue: no partial message to continue from")
	}
	req, err := inputAsItems(req)
	if err != nil {
		return nil, err
	}
	m, err := json.Marshal(map[string]any{"type": "message", "role": "assistant",
		"content": []map[string]string{{"type": "output_text", "text": partial}}})
	if err != nil {
		return nil, err
	}
	return reqtext.Append(req, "input", m)
}

// inputAsItems returns a Responses request whose string input is a user message item, so that items can
// follow it.
func inputAsItems(req []byte) ([]byte, error) {
	obj, err := jsonobj.Parse(req)
	if err != nil {
		return nil, err
	}
	in, ok := obj.Get("input")
	if !ok || len(in) == 0 || in[0] != '"' {
		return req, nil
	}
	var s string
	if err := json.Unmarshal(in, &s); err != nil {
		return nil, fmt.Errorf("input: %v", err)
	}
	b, _ := json.Marshal(map[string]string{"role": "user", "content": s})
	obj.Set("input", jsonobj.JoinArray([]json.RawMessage{b}))
	return obj.MarshalJSON()
}
