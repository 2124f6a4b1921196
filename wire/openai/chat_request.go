package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// ChatRequest is a decoded chat completion request body: its conversation in the turn model, one message per
// wire message. Input and tool-result guardrails rewrite message text through SetText; every other byte
// stays as the client sent it.
type ChatRequest struct {
	raw      []byte
	obj      *jsonobj.Object
	messages reqtext.Array
	conv     reqtext.Conversation
	model    string
	stream   bool
	tools    []string
}

// chatContent is how Chat Completions holds message content: a string, or parts of which "text" (and an
// assistant's "refusal") hold text.
var chatContent = reqtext.Content{
	Member:     "content",
	StringForm: true,
	Classify:   reqtext.TypedPart(map[string]string{"text": "text", "refusal": "refusal"}, nil),
	NewPart:    reqtext.TypedTextPart("text"),
}

// DecodeChatRequest reads a chat completion request body.
func DecodeChatRequest(body []byte) (*ChatRequest, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a chat completion request: %v", err)
	}
	if err := requestEnvelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous request: %v", err)
	}
	head, ok := readChatRequestHead(obj)
	if !ok {
		head = chatRequestHead{}
		if err := json.Unmarshal(obj.Pick("model", "stream", "tools"), &head); err != nil {
			return nil, fmt.Errorf("not a chat completion request: %v", err)
		}
	}
	rawMsgs, ok := obj.Get("messages")
	if !ok {
		return nil, errors.New(`not a chat completion request: no "messages"`)
	}
	r := &ChatRequest{raw: body, obj: obj, model: head.Model, stream: head.Stream}
	for _, t := range head.Tools {
		r.tools = append(r.tools, t.name())
	}
	if r.messages.Elems, err = jsonobj.SplitArray(rawMsgs); err != nil {
		return nil, fmt.Errorf("messages: %v", err)
	}
	for i, raw := range r.messages.Elems {
		m, err := decodeChatMessage(raw)
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %v", i, err)
		}
		r.conv.Add(m, r.messages.Setter(i, chatContent.Replace))
	}
	r.conv.NameToolResults()
	return r, nil
}

// chatRequestHead is what a request says beside its messages that Warden reads.
type chatRequestHead struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Tools  []chatToolEntry `json:"tools"`
}

// chatToolEntry is one entry of a request's tools: a function or a custom tool.
type chatToolEntry struct {
	Type     string   `json:"type"`
	Function toolName `json:"function"`
	Custom   toolName `json:"custom"`
}

func (t chatToolEntry) name() string {
	if t.Type == "custom" {
		return t.Custom.Name
	}
	return t.Function.Name
}

// toolName is a function's or a custom tool's definition, of which Warden reads the name.
type toolName struct {
	Name string `json:"name"`
}

// readChatRequestHead reads the members model, stream and tools of the request obj as json.Unmarshal of
// the object those members make (obj.Pick: exact names, the last of duplicates) does, from the validated
// bytes: a request's tools carry every function's schema, which encoding/json would scan twice more. ok is
// false when encoding/json must read them (a member of another type, a tool's member named in another case
// or twice), so that the answer and the error are always json.Unmarshal's.
func readChatRequestHead(obj *jsonobj.Object) (h chatRequestHead, ok bool) {
	if !obj.Strings(jsonobj.StringInto("model", &h.Model)) || !obj.Bool("stream", &h.Stream) {
		return h, false
	}
	h.Tools, ok = jsonobj.Objects(obj, "tools", func(t *jsonobj.Object, tool *chatToolEntry) bool {
		return t.Plain("type", "function", "custom") && t.Strings(jsonobj.StringInto("type", &tool.Type)) &&
			readToolName(t, "function", &tool.Function) && readToolName(t, "custom", &tool.Custom)
	})
	return h, ok
}

// readToolName reads member key of obj, if it has one, into n as json.Unmarshal does; false when
// encoding/json must read it.
func readToolName(obj *jsonobj.Object, key string, n *toolName) bool {
	raw, has := obj.Get(key)
	if !has || string(raw) == "null" {
		return true
	}
	o, err := jsonobj.ParseTrusted(raw)
	return err == nil && o.Plain("name") && o.Strings(jsonobj.StringInto("name", &n.Name))
}

func decodeChatMessage(raw json.RawMessage) (warden.Message, error) {
	obj, err := jsonobj.ParseTrusted(raw) // an element SplitArray validated
	if err != nil {
		return warden.Message{}, err
	}
	m, ok := readChatRequestMessage(obj)
	if !ok {
		m = chatRequestMessage{}
		if err := json.Unmarshal(raw, &m); err != nil {
			return warden.Message{}, err
		}
	}
	out := warden.Message{Role: chatRole(m.Role), Name: m.Name, ToolCallID: m.ToolCallID}
	if out.Content, err = chatContent.Parts(obj); err != nil {
		return warden.Message{}, err
	}
	for i, rc := range m.ToolCalls {
		call, err := decodeToolCall(rc)
		if err != nil {
			return warden.Message{}, fmt.Errorf("tool_calls[%d]: %v", i, err)
		}
		out.ToolCalls = append(out.ToolCalls, call)
	}
	if m.FunctionCall != nil && len(m.ToolCalls) == 0 {
		out.ToolCalls = append(out.ToolCalls, warden.NewToolCall("", m.FunctionCall.Name, []byte(m.FunctionCall.Arguments)))
	}
	if m.Role == "function" { // the legacy tool result names the function, not a call id
		out.ToolCallID = ""
	}
	return out, nil
}

// chatRequestMessage is what a request's message says beside its content.
type chatRequestMessage struct {
	Role         string            `json:"role"`
	Name         string            `json:"name"`
	ToolCallID   string            `json:"tool_call_id"`
	ToolCalls    []json.RawMessage `json:"tool_calls"`
	FunctionCall *legacyCall       `json:"function_call"`
}

// legacyCall is the function_call an assistant message made before tool calls.
type legacyCall struct{ Name, Arguments string }

// readChatRequestMessage reads a message as json.Unmarshal into a chatRequestMessage would, member by
// member from validated bytes; ok is false when encoding/json must read it (see readResponseMessage).
func readChatRequestMessage(obj *jsonobj.Object) (m chatRequestMessage, ok bool) {
	if !obj.Plain("role", "name", "tool_call_id", "tool_calls", "function_call") ||
		!obj.Strings(jsonobj.StringInto("role", &m.Role), jsonobj.StringInto("name", &m.Name), jsonobj.StringInto("tool_call_id", &m.ToolCallID)) {
		return m, false
	}
	if raw, has := obj.Get("tool_calls"); has {
		var err error
		if m.ToolCalls, err = jsonobj.SplitArrayTrusted(raw); err != nil {
			return m, false
		}
	}
	if raw, has := obj.Get("function_call"); has && string(raw) != "null" {
		f, err := jsonobj.ParseTrusted(raw)
		m.FunctionCall = &legacyCall{}
		if err != nil || !f.Plain("name", "arguments") ||
			!f.Strings(jsonobj.StringInto("name", &m.FunctionCall.Name), jsonobj.StringInto("arguments", &m.FunctionCall.Arguments)) {
			return m, false
		}
	}
	return m, true
}

// chatRole maps Chat Completions roles onto the turn model's: developer instructions are system messages,
// and a legacy function result is a tool message.
func chatRole(role string) warden.Role {
	switch role {
	case "developer":
		return warden.RoleSystem
	case "function":
		return warden.RoleTool
	}
	return warden.Role(role)
}

// Model is the requested model.
func (r *ChatRequest) Model() string { return r.model }

// Stream reports whether the client asked for a stream.
func (r *ChatRequest) Stream() bool { return r.stream }

// Tools names the tools the request offers the model, in order.
func (r *ChatRequest) Tools() []string { return r.tools }

// Messages returns the conversation in the turn model, one message per wire message. Do not modify it.
func (r *ChatRequest) Messages() []warden.Message { return r.conv.Messages() }

// SetText replaces the text of message i; see reqtext for what happens to its parts.
func (r *ChatRequest) SetText(i int, text string) error {
	return r.conv.SetText(i, text)
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *ChatRequest) Encode() ([]byte, error) {
	if !r.messages.Changed {
		return r.raw, nil
	}
	r.obj.Set("messages", jsonobj.JoinArray(r.messages.Elems))
	return r.obj.MarshalJSON()
}
