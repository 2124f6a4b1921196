// Package anthropic is the codec of the Anthropic Messages wire format: it turns a message body into the
// turn model and writes the turn model's changes back into the same body, keeping every block and field it
// did not change byte for byte. A message Warden did not change is returned as the exact bytes it came as.
//
// Per-request values: a Message is not safe for concurrent use.
package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/textdiff"
)

// Message is a decoded Messages API response body.
type Message struct {
	raw     []byte
	obj     *jsonobj.Object
	blocks  []block
	resp    warden.Response
	changed bool
}

type block struct {
	raw  json.RawMessage
	kind string // text, thinking, tool_use, or another type kept as it is
	text string
	call warden.ToolCall
}

// DecodeMessage reads a message body.
func DecodeMessage(body []byte) (*Message, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a message: %v", err)
	}
	if err := envelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous message: %v", err)
	}
	head, err := readMessageHead(obj, body)
	if err != nil {
		return nil, fmt.Errorf("not a message: %v", err)
	}
	if head.Type != "message" {
		return nil, fmt.Errorf(`not a message: type is %q`, head.Type)
	}
	m := &Message{raw: body, obj: obj}
	m.resp.Message.Role = warden.Role(head.Role)
	if head.StopReason != nil {
		m.resp.Signal = warden.Signal{Field: "stop_reason", Value: *head.StopReason}
		m.resp.FinishReason = normalizeStop(*head.StopReason)
	}
	for i, rb := range head.Content {
		b, err := decodeBlock(rb)
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %v", i, err)
		}
		m.blocks = append(m.blocks, b)
		switch b.kind {
		case "text":
			m.resp.Message.Content = append(m.resp.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: b.text})
		case "thinking":
			m.resp.Message.Content = append(m.resp.Message.Content, warden.ContentPart{Kind: warden.ContentReasoning, Text: b.text})
		case "tool_use":
			m.resp.Message.ToolCalls = append(m.resp.Message.ToolCalls, b.call)
		}
	}
	return m, nil
}

func decodeBlock(raw json.RawMessage) (block, error) {
	b, err := readContentBlock(raw)
	if err != nil {
		return block{}, err
	}
	out := block{raw: raw, kind: b.Type}
	switch b.Type {
	case "text":
		out.text = b.Text
	case "thinking":
		out.text = b.Thinking
	case "tool_use", "server_tool_use":
		out.kind = "tool_use"
		out.call = warden.NewToolCall(b.ID, b.Name, b.Input)
	}
	return out, nil
}

func normalizeStop(v string) warden.FinishReason {
	switch v {
	case "end_turn", "stop_sequence":
		return warden.FinishStop
	case "max_tokens", "model_context_window_exceeded":
		return warden.FinishLength
	case "tool_use":
		return warden.FinishToolCalls
	case "refusal":
		return warden.FinishSafety
	}
	return warden.FinishUnknown
}

// Response returns the message in the turn model.
func (m *Message) Response() warden.Response { return m.resp }

// Set writes a changed turn-model response back: tool_use blocks of removed calls are dropped, text parts
// added after the existing ones become new text blocks at the end, and a text changed in place replaces
// the text blocks with one; thinking and other blocks stay as they came. When no tool call is left, a
// stop_reason of tool_use becomes end_turn.
func (m *Message) Set(resp warden.Response) error {
	old := m.resp
	keep := map[string]warden.ToolCall{}
	for _, c := range resp.Message.ToolCalls {
		keep[c.ID] = c
	}
	var blocks []json.RawMessage
	appended, inPlace := textdiff.Of(old.Message, resp.Message)
	wroteText := false
	for _, b := range m.blocks {
		switch b.kind {
		case "tool_use":
			c, ok := keep[b.call.ID]
			if !ok {
				continue
			}
			if bytes.Equal(c.Arguments, b.call.Arguments) {
				blocks = append(blocks, b.raw)
				continue
			}
			if !c.Complete {
				return errors.New("a modified tool call's arguments are not JSON")
			}
			obj, err := jsonobj.Parse(b.raw)
			if err != nil {
				return err
			}
			obj.Set("input", json.RawMessage(c.Arguments))
			nb, _ := obj.MarshalJSON()
			blocks = append(blocks, nb)
		case "text":
			if !inPlace {
				blocks = append(blocks, b.raw)
			} else if !wroteText {
				blocks = append(blocks, textBlock(resp.Message.Text()))
				wroteText = true
			}
		default:
			blocks = append(blocks, b.raw)
		}
	}
	if inPlace && !wroteText && resp.Message.Text() != "" {
		blocks = append(blocks, textBlock(resp.Message.Text()))
	}
	for _, t := range appended {
		blocks = append(blocks, textBlock(t))
	}
	if blocks == nil {
		blocks = []json.RawMessage{}
	}
	if err := m.obj.SetJSON("content", blocks); err != nil {
		return err
	}
	if len(resp.Message.ToolCalls) == 0 {
		if s, ok := m.obj.Get("stop_reason"); ok && string(s) == `"tool_use"` {
			m.obj.Set("stop_reason", json.RawMessage(`"end_turn"`))
		}
	}
	m.resp = resp
	m.changed = true
	return nil
}

func textBlock(text string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", text})
	return b
}

// Encode returns the body: the original bytes when nothing was changed.
func (m *Message) Encode() ([]byte, error) {
	if !m.changed {
		return m.raw, nil
	}
	return m.obj.MarshalJSON()
}

// ErrorBody returns an error body in Anthropic's shape, for errors Warden answers itself.
func ErrorBody(message, typ string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": message}})
	return b
}

// MessageBody returns a message with one text block, for answers Warden gives itself.
func MessageBody(id, model, text, stopReason string) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
		"content": []json.RawMessage{textBlock(text)}, "stop_reason": stopReason, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 0, "output_tokens": 0}})
	return b
}
