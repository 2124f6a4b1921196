// Package bedrock is the codec of the Amazon Bedrock Converse wire format (JSON): it turns a Converse response
// body into the turn model and writes the turn model's changes back into the same body, keeping every content
// block and field it did not change byte for byte. A response Warden did not change is returned as the exact
// bytes it came as.
//
// Bedrock's own guardrails end a response with stopReason guardrail_intervened or content_filtered; the safety
// guardrail reads them from the stopReason signal.
//
// Per-request values: a Response is not safe for concurrent use.
package bedrock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/textdiff"
)

// Response is a decoded Converse response body.
type Response struct {
	raw     []byte
	obj     *jsonobj.Object // the body, parsed with output and output.message only when Set first writes
	blocks  []block
	resp    warden.Response
	changed bool
}

type block struct {
	raw  json.RawMessage
	kind string // text, reasoning, toolUse, or other (kept as it is)
	text string
	call warden.ToolCall
}

// DecodeResponse reads a Converse response body.
func DecodeResponse(body []byte) (*Response, error) {
	var head struct {
		Output *struct {
			Message *struct {
				Role    string            `json:"role"`
				Content []json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"output"`
		StopReason *string `json:"stopReason"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, fmt.Errorf("not a Converse response: %v", err)
	}
	if err := envelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous Converse response: %v", err)
	}
	if head.Output == nil {
		return nil, errors.New(`not a Converse response: no "output"`)
	}
	if head.Output.Message == nil {
		return nil, errors.New(`not a Converse response: no "output.message"`)
	}
	msg := head.Output.Message
	r := &Response{raw: body}
	r.resp.Message.Role = warden.Role(msg.Role)
	if head.StopReason != nil {
		r.resp.Signal = warden.Signal{Field: "stopReason", Value: *head.StopReason}
		r.resp.FinishReason = normalizeStop(*head.StopReason)
	}
	for i, rb := range msg.Content {
		b, err := decodeBlock(rb)
		if err != nil {
			return nil, fmt.Errorf("output.message.content[%d]: %v", i, err)
		}
		r.blocks = append(r.blocks, b)
		switch b.kind {
		case "text":
			r.resp.Message.Content = append(r.resp.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: b.text})
		case "reasoning":
			r.resp.Message.Content = append(r.resp.Message.Content, warden.ContentPart{Kind: warden.ContentReasoning, Text: b.text})
		case "toolUse":
			r.resp.Message.ToolCalls = append(r.resp.Message.ToolCalls, b.call)
		}
	}
	return r, nil
}

// decodeBlock reads one content block: a union with one member set.
func decodeBlock(raw json.RawMessage) (block, error) {
	var b struct {
		Text      *string `json:"text"`
		Reasoning *struct {
			ReasoningText *struct {
				Text string `json:"text"`
			} `json:"reasoningText"`
		} `json:"reasoningContent"`
		ToolUse *struct {
			ToolUseID string          `json:"toolUseId"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
		} `json:"toolUse"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return block{}, err
	}
	out := block{raw: raw, kind: "other"}
	switch {
	case b.ToolUse != nil:
		out.kind, out.call = "toolUse", warden.NewToolCall(b.ToolUse.ToolUseID, b.ToolUse.Name, b.ToolUse.Input)
	case b.Text != nil:
		out.kind, out.text = "text", *b.Text
	case b.Reasoning != nil && b.Reasoning.ReasoningText != nil:
		out.kind, out.text = "reasoning", b.Reasoning.ReasoningText.Text
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
	case "guardrail_intervened", "content_filtered":
		return warden.FinishSafety
	}
	// malformed_model_output and malformed_tool_use stay unknown: FinishError means an API-layer error here.
	return warden.FinishUnknown
}

// Len is 1: a Converse response has one message.
func (r *Response) Len() int { return 1 }

// Response returns the message in the turn model; the index is ignored.
func (r *Response) Response(int) warden.Response { return r.resp }

// Set writes a changed turn-model response back: toolUse blocks of removed calls are dropped, text added after
// the existing text becomes new text blocks at the end, and text changed in place replaces the text blocks
// with one; reasoning and other blocks stay as they came. When no tool call is left, a stopReason of tool_use
// becomes end_turn. The index is ignored.
func (r *Response) Set(_ int, resp warden.Response) error {
	if r.obj == nil {
		obj, err := jsonobj.Parse(r.raw)
		if err != nil {
			return err
		}
		r.obj = obj
	}
	keep := map[string]warden.ToolCall{}
	for _, c := range resp.Message.ToolCalls {
		keep[c.ID] = c
	}
	appended, inPlace := textdiff.Of(r.resp.Message, resp.Message)
	var blocks []json.RawMessage
	wroteText := false
	for _, b := range r.blocks {
		switch b.kind {
		case "toolUse":
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
			nb, err := setMember(b.raw, "toolUse", "input", c.Arguments)
			if err != nil {
				return err
			}
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
	outRaw, _ := r.obj.Get("output")
	output, err := jsonobj.Parse(outRaw)
	if err != nil {
		return fmt.Errorf("output: %v", err)
	}
	msgRaw, _ := output.Get("message")
	message, err := jsonobj.Parse(msgRaw)
	if err != nil {
		return fmt.Errorf("output.message: %v", err)
	}
	if err := message.SetJSON("content", blocks); err != nil {
		return err
	}
	mb, _ := message.MarshalJSON()
	output.Set("message", mb)
	ob, _ := output.MarshalJSON()
	r.obj.Set("output", ob)
	if len(resp.Message.ToolCalls) == 0 {
		if s, ok := r.obj.Get("stopReason"); ok && string(s) == `"tool_use"` {
			r.obj.Set("stopReason", json.RawMessage(`"end_turn"`))
		}
	}
	r.resp, r.changed = resp, true
	return nil
}

// setMember sets raw[member][key] = value, keeping every other field of both objects as it came.
func setMember(raw json.RawMessage, member, key string, value json.RawMessage) (json.RawMessage, error) {
	outer, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	inRaw, _ := outer.Get(member)
	inner, err := jsonobj.Parse(inRaw)
	if err != nil {
		return nil, err
	}
	inner.Set(key, value)
	ib, _ := inner.MarshalJSON()
	outer.Set(member, ib)
	return outer.MarshalJSON()
}

func textBlock(text string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Text string `json:"text"`
	}{text})
	return b
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *Response) Encode() ([]byte, error) {
	if !r.changed {
		return r.raw, nil
	}
	return r.obj.MarshalJSON()
}

// ErrorType is the x-amzn-ErrorType of the errors Warden answers itself: Bedrock names the error in that
// header and puts only the message in the body.
const ErrorType = "AccessDeniedException"

// ErrorBody returns an error body in Bedrock's shape, for errors Warden answers itself; send it with HTTP 403
// and the header x-amzn-ErrorType: ErrorType.
func ErrorBody(message string) []byte {
	b, _ := json.Marshal(map[string]string{"message": message})
	return b
}

// MessageBody returns a Converse response with one text block, for answers Warden gives itself.
func MessageBody(text, stopReason string) []byte {
	b, _ := json.Marshal(map[string]any{
		"output":     map[string]any{"message": map[string]any{"role": "assistant", "content": []json.RawMessage{textBlock(text)}}},
		"stopReason": stopReason,
		"usage":      map[string]int{"inputTokens": 0, "outputTokens": 0, "totalTokens": 0},
		"metrics":    map[string]int{"latencyMs": 0},
	})
	return b
}
