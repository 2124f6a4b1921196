package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// Request is a decoded Messages API request body. Its conversation in the turn model is the system prompt
// (a system message), then each wire message; a user message's tool_result blocks become tool messages of
// their own, in order, before the message's other content. Input and tool-result guardrails rewrite text
// through SetText; every other byte stays as the client sent it.
type Request struct {
	raw      []byte
	obj      *jsonobj.Object
	messages reqtext.Array
	conv     reqtext.Conversation
	model    string
	stream   bool
	tools    []string
}

// messageContent is a message's content: a string or blocks, of which text blocks hold text; tool calls and
// tool results are read separately, and thinking is reasoning.
var messageContent = reqtext.Content{
	Member:     "content",
	StringForm: true,
	Classify: func(elem json.RawMessage) reqtext.Part {
		b := readTextFields(elem) // a block that is not an object is media of no type
		switch b.Type {
		case "text":
			return reqtext.Part{Kind: warden.ContentText, Text: b.Text, Key: "text"}
		case "thinking":
			return reqtext.Part{Kind: warden.ContentReasoning, Text: b.Thinking}
		case "tool_use", "tool_result", "server_tool_use", "redacted_thinking":
			return reqtext.Part{}
		}
		return reqtext.Part{Kind: warden.ContentMedia, MediaType: b.Type}
	},
	NewPart: textBlock,
}

// systemContent is the system prompt: a string or text blocks.
var systemContent = reqtext.Content{Member: "system", StringForm: true, Classify: messageContent.Classify, NewPart: textBlock}

// DecodeRequest reads a Messages API request body.
func DecodeRequest(body []byte) (*Request, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a messages request: %v", err)
	}
	if err := requestEnvelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous request: %v", err)
	}
	head, err := readHead(obj)
	if err != nil {
		return nil, fmt.Errorf("not a messages request: %v", err)
	}
	rawMsgs, ok := obj.Get("messages")
	if !ok {
		return nil, errors.New(`not a messages request: no "messages"`)
	}
	r := &Request{raw: body, obj: obj, model: head.Model, stream: head.Stream}
	for _, t := range head.Tools {
		if t.Name != "" {
			r.tools = append(r.tools, t.Name)
		} else {
			r.tools = append(r.tools, t.Type)
		}
	}
	if sys, ok := obj.Get("system"); ok {
		parts, err := systemContent.PartsOf(sys)
		if err != nil {
			return nil, err
		}
		r.conv.Add(warden.Message{Role: warden.RoleSystem, Content: parts}, func(text string) error {
			r.messages.Changed = true
			return systemContent.ReplaceIn(r.obj, text)
		})
	}
	if r.messages.Elems, err = jsonobj.SplitArray(rawMsgs); err != nil {
		return nil, fmt.Errorf("messages: %v", err)
	}
	for i, raw := range r.messages.Elems {
		if err := r.addMessage(i, raw); err != nil {
			return nil, fmt.Errorf("messages[%d]: %v", i, err)
		}
	}
	r.conv.NameToolResults()
	return r, nil
}

// toolResultContent is a tool_result block's content: a string or text and image blocks.
var toolResultContent = reqtext.Content{Member: "content", StringForm: true, Classify: messageContent.Classify, NewPart: textBlock}

func (r *Request) addMessage(i int, raw json.RawMessage) error {
	obj, err := jsonobj.ParseTrusted(raw) // an element SplitArray validated
	if err != nil {
		return err
	}
	m, err := readMessage(obj, raw)
	if err != nil {
		return err
	}
	out := warden.Message{Role: warden.Role(m.Role)}
	if out.Content, err = messageContent.Parts(obj); err != nil {
		return err
	}
	results := 0
	if len(m.Content) > 0 && m.Content[0] == '[' {
		blocks, err := jsonobj.SplitArrayTrusted(m.Content)
		if err != nil {
			return fmt.Errorf("content: %v", err)
		}
		for j, rb := range blocks {
			b, bo, err := readCallBlock(rb)
			if err != nil {
				return fmt.Errorf("content[%d]: %v", j, err)
			}
			switch b.Type {
			case "tool_use":
				out.ToolCalls = append(out.ToolCalls, warden.NewToolCall(b.ID, b.Name, b.Input))
			case "tool_result":
				parts, err := toolResultContent.Parts(bo)
				if err != nil {
					return fmt.Errorf("content[%d]: %v", j, err)
				}
				r.conv.Add(warden.Message{Role: warden.RoleTool, ToolCallID: b.ToolUseID, Content: parts, IsError: b.IsError},
					r.setBlock(i, j))
				results++
			}
		}
	}
	// A user message made only of tool results adds no message of its own.
	if len(out.Content) > 0 || len(out.ToolCalls) > 0 || results == 0 {
		r.conv.Add(out, r.messages.Setter(i, messageContent.Replace))
	}
	return nil
}

// setBlock returns a setter that rewrites the content of block j of message i, a tool_result.
func (r *Request) setBlock(i, j int) func(string) error {
	return r.messages.ElementSetter(i, "content", j, toolResultContent.Replace)
}

// Model is the requested model.
func (r *Request) Model() string { return r.model }

// Stream reports whether the client asked for a stream.
func (r *Request) Stream() bool { return r.stream }

// Tools names the tools the request offers: client tools by name, server tools by name or type.
func (r *Request) Tools() []string { return r.tools }

// Messages returns the conversation in the turn model. Do not modify it.
func (r *Request) Messages() []warden.Message { return r.conv.Messages() }

// SetText replaces the text of message i (a tool message: its tool_result block's content).
func (r *Request) SetText(i int, text string) error {
	return r.conv.SetText(i, text)
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *Request) Encode() ([]byte, error) {
	if !r.messages.Changed {
		return r.raw, nil
	}
	r.obj.Set("messages", jsonobj.JoinArray(r.messages.Elems))
	return r.obj.MarshalJSON()
}
