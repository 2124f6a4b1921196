package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// ResponsesRequest is a decoded Responses API request body. Its conversation in the turn model is the
// instructions (a system message), then the input: a string is one user message; in an item list, each
// message item is a message, each call item an assistant message with that call, and each call output a tool
// message. Reasoning items and item references are not part of the turn model and stay as they came.
type ResponsesRequest struct {
	raw     []byte
	obj     *jsonobj.Object
	input   []json.RawMessage // the input items; nil when the input is a string
	conv    reqtext.Conversation
	model   string
	stream  bool
	tools   []string
	changed bool
}

// responsesContent holds the content of a message item: a string, or parts of which input_text, output_text
// and refusal hold text.
func responsesContent(member, newType string) reqtext.Content {
	return reqtext.Content{
		Member:     member,
		StringForm: true,
		Classify:   reqtext.TypedPart(map[string]string{"input_text": "text", "output_text": "text", "refusal": "refusal", "text": "text"}, nil),
		NewPart:    reqtext.TypedTextPart(newType),
	}
}

// DecodeResponsesRequest reads a Responses API request body.
func DecodeResponsesRequest(body []byte) (*ResponsesRequest, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a responses request: %v", err)
	}
	if err := requestEnvelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous request: %v", err)
	}
	head, ok := readResponsesRequestHead(obj)
	if !ok {
		head = responsesRequestHead{}
		if err := json.Unmarshal(obj.Pick("model", "stream", "instructions", "tools"), &head); err != nil {
			return nil, fmt.Errorf("not a responses request: %v", err)
		}
	}
	r := &ResponsesRequest{raw: body, obj: obj, model: head.Model, stream: head.Stream}
	for _, t := range head.Tools {
		switch {
		case t.Name != "":
			r.tools = append(r.tools, t.Name)
		case t.ServerLabel != "":
			r.tools = append(r.tools, t.ServerLabel)
		default:
			r.tools = append(r.tools, t.Type)
		}
	}
	if head.Instructions != nil {
		r.conv.Add(warden.TextMessage(warden.RoleSystem, *head.Instructions), func(text string) error {
			return r.setTop("instructions", text)
		})
	}
	rawInput, ok := obj.Get("input")
	rawInput = bytes.TrimSpace(rawInput)
	switch {
	case !ok || string(rawInput) == "null":
		if head.Instructions == nil {
			return nil, errors.New(`not a responses request: no "input"`)
		}
	case rawInput[0] == '"':
		var s string
		if err := json.Unmarshal(rawInput, &s); err != nil {
			return nil, fmt.Errorf("input: %v", err)
		}
		r.conv.Add(warden.TextMessage(warden.RoleUser, s), func(text string) error { return r.setTop("input", text) })
	default:
		if r.input, err = jsonobj.SplitArray(rawInput); err != nil {
			return nil, fmt.Errorf("input: %v", err)
		}
		for i, raw := range r.input {
			if err := r.addItem(i, raw); err != nil {
				return nil, fmt.Errorf("input[%d]: %v", i, err)
			}
		}
	}
	r.conv.NameToolResults()
	return r, nil
}

func (r *ResponsesRequest) setTop(key, text string) error {
	r.obj.Set(key, reqtext.Quote(text))
	r.changed = true
	return nil
}

// setItem returns a setter that rewrites input item i's content member.
func (r *ResponsesRequest) setItem(i int, c reqtext.Content) func(string) error {
	return func(text string) error {
		ni, err := c.Replace(r.input[i], text)
		if err != nil {
			return err
		}
		r.input[i] = ni
		r.changed = true
		return nil
	}
}

// inputItemFields is what addItem reads of an input item beside its content.
type inputItemFields struct {
	Type   string `json:"type"`
	Role   string `json:"role"`
	CallID string `json:"call_id"`
	Name   string `json:"name"`
}

// responsesRequestHead is what a request says beside its input that Warden reads.
type responsesRequestHead struct {
	Model        string         `json:"model"`
	Stream       bool           `json:"stream"`
	Instructions *string        `json:"instructions"`
	Tools        []responseTool `json:"tools"`
}

// responseTool is an entry of a request's tools: a function or custom tool by name, an MCP server by
// label, a built-in tool by type.
type responseTool struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	ServerLabel string `json:"server_label"`
}

// readResponsesRequestHead reads the members model, stream, instructions and tools of the request obj as
// json.Unmarshal of the object those members make does (see readChatRequestHead); ok is false when
// encoding/json must read them.
func readResponsesRequestHead(obj *jsonobj.Object) (h responsesRequestHead, ok bool) {
	if !obj.Strings(jsonobj.StringInto("model", &h.Model)) || !obj.Bool("stream", &h.Stream) {
		return h, false
	}
	if raw, has := obj.Get("instructions"); has && string(raw) != "null" {
		h.Instructions = new(string)
		if *h.Instructions, ok = jsonobj.DecodeString(raw); !ok {
			return h, false
		}
	}
	h.Tools, ok = jsonobj.Objects(obj, "tools", func(t *jsonobj.Object, tool *responseTool) bool {
		return t.Plain("type", "name", "server_label") && t.Strings(jsonobj.StringInto("type", &tool.Type),
			jsonobj.StringInto("name", &tool.Name), jsonobj.StringInto("server_label", &tool.ServerLabel))
	})
	return h, ok
}

// readInputItem reads an input item as json.Unmarshal into an inputItemFields would, member by member
// from validated bytes; ok is false when encoding/json must read it (see readResponseMessage).
func readInputItem(obj *jsonobj.Object) (it inputItemFields, ok bool) {
	ok = obj.Plain("type", "role", "call_id", "name") && obj.Strings(jsonobj.StringInto("type", &it.Type),
		jsonobj.StringInto("role", &it.Role), jsonobj.StringInto("call_id", &it.CallID), jsonobj.StringInto("name", &it.Name))
	return it, ok
}

func (r *ResponsesRequest) addItem(i int, raw json.RawMessage) error {
	obj, err := jsonobj.ParseTrusted(raw) // an element SplitArray validated
	if err != nil {
		return err
	}
	it, ok := readInputItem(obj)
	if !ok {
		it = inputItemFields{}
		if err := json.Unmarshal(raw, &it); err != nil {
			return err
		}
	}
	switch {
	case it.Role != "" && (it.Type == "" || it.Type == "message"):
		newType := "input_text"
		if it.Role == "assistant" {
			newType = "output_text"
		}
		c := responsesContent("content", newType)
		parts, err := c.Parts(obj)
		if err != nil {
			return err
		}
		r.conv.Add(warden.Message{Role: chatRole(it.Role), Content: parts}, r.setItem(i, c))
	case strings.HasSuffix(it.Type, "_call_output"):
		m := warden.Message{Role: warden.RoleTool, ToolCallID: it.CallID, Name: it.Name}
		out, _ := obj.Get("output")
		out = bytes.TrimSpace(out)
		if len(out) > 0 && out[0] == '{' { // a computer screenshot: not text
			r.conv.Add(warden.Message{Role: warden.RoleTool, ToolCallID: it.CallID, Name: it.Name,
				Content: []warden.ContentPart{{Kind: warden.ContentMedia, MediaType: it.Type}}}, nil)
			return nil
		}
		c := responsesContent("output", "input_text")
		if m.Content, err = c.Parts(obj); err != nil {
			return err
		}
		r.conv.Add(m, r.setItem(i, c))
	default:
		item, err := outputItemOf(raw, obj, nil)
		if err != nil {
			return err
		}
		if item.kind == "call" {
			r.conv.Add(warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{item.call}}, nil)
		}
	}
	return nil
}

// Model is the requested model.
func (r *ResponsesRequest) Model() string { return r.model }

// Stream reports whether the client asked for a stream.
func (r *ResponsesRequest) Stream() bool { return r.stream }

// Tools names the tools the request offers: function and custom tools by name, MCP servers by label,
// built-in tools by type.
func (r *ResponsesRequest) Tools() []string { return r.tools }

// Messages returns the conversation in the turn model. Do not modify it.
func (r *ResponsesRequest) Messages() []warden.Message { return r.conv.Messages() }

// SetText replaces the text of message i. A call output that is not text (a screenshot) cannot be rewritten.
func (r *ResponsesRequest) SetText(i int, text string) error {
	return r.conv.SetText(i, text)
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *ResponsesRequest) Encode() ([]byte, error) {
	if !r.changed {
		return r.raw, nil
	}
	if r.input != nil {
		r.obj.Set("input", jsonobj.JoinArray(r.input))
	}
	return r.obj.MarshalJSON()
}

// PreviousResponseID returns the id of the stored response a Responses request continues from
// (previous_response_id), or "" when it names none.
func PreviousResponseID(body []byte) string {
	var r struct {
		Previous *string `json:"previous_response_id"`
	}
	if json.Unmarshal(body, &r) != nil || r.Previous == nil {
		return ""
	}
	return *r.Previous
}

// WithPreviousResponseID returns the request continuing from the stored response id instead.
func WithPreviousResponseID(body []byte, id string) ([]byte, error) {
	o, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a request body: %v", err)
	}
	if err := o.SetJSON("previous_response_id", id); err != nil {
		return nil, err
	}
	return o.MarshalJSON()
}
