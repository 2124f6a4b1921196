package bedrock

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// Request is a decoded Converse or ConverseStream request body (the model is in the URL). Its conversation in
// the turn model is the system blocks (a system message), then each message; a user message's toolResult
// blocks become tool messages of their own, in order, before its other content.
type Request struct {
	raw      []byte
	obj      *jsonobj.Object
	messages reqtext.Array
	conv     reqtext.Conversation
	tools    []string
}

// classifyBlock reads a content block. guardContent holds text too (text a Bedrock guardrail evaluates); it
// is read as text, and rewritten as a plain text block.
func classifyBlock(elem json.RawMessage) reqtext.Part {
	var b map[string]json.RawMessage
	_ = json.Unmarshal(elem, &b) // a block that is not an object is skipped
	if t, ok := b["text"]; ok {
		var text string
		_ = json.Unmarshal(t, &text)
		return reqtext.Part{Kind: warden.ContentText, Text: text, Key: "text"}
	}
	if g, ok := b["guardContent"]; ok {
		var gc struct{ Text struct{ Text string } }
		_ = json.Unmarshal(g, &gc)
		return reqtext.Part{Kind: warden.ContentText, Text: gc.Text.Text}
	}
	if rc, ok := b["reasoningContent"]; ok {
		var r struct{ ReasoningText struct{ Text string } }
		_ = json.Unmarshal(rc, &r)
		return reqtext.Part{Kind: warden.ContentReasoning, Text: r.ReasoningText.Text}
	}
	if j, ok := b["json"]; ok { // a tool result's JSON: text a guardrail reads, replaced whole
		return reqtext.Part{Kind: warden.ContentText, Text: string(j)}
	}
	for _, k := range []string{"image", "document", "video"} {
		if _, ok := b[k]; ok {
			return reqtext.Part{Kind: warden.ContentMedia, MediaType: k}
		}
	}
	return reqtext.Part{} // toolUse, toolResult, cachePoint, …
}

var (
	messageContent    = reqtext.Content{Member: "content", Classify: classifyBlock, NewPart: textBlock}
	systemContent     = reqtext.Content{Member: "system", Classify: classifyBlock, NewPart: textBlock}
	toolResultContent = reqtext.Content{Member: "content", Classify: classifyBlock, NewPart: textBlock}
)

// DecodeRequest reads a Converse request body.
func DecodeRequest(body []byte) (*Request, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a Converse request: %v", err)
	}
	if err := requestEnvelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous request: %v", err)
	}
	var head struct {
		ToolConfig struct {
			Tools []struct {
				ToolSpec struct{ Name string }
			}
		}
	}
	if err := json.Unmarshal(obj.Pick("toolConfig"), &head); err != nil {
		return nil, fmt.Errorf("not a Converse request: %v", err)
	}
	r := &Request{raw: body, obj: obj}
	for _, t := range head.ToolConfig.Tools {
		if t.ToolSpec.Name != "" {
			r.tools = append(r.tools, t.ToolSpec.Name)
		}
	}
	if _, ok := obj.Get("system"); ok {
		parts, err := systemContent.Parts(obj)
		if err != nil {
			return nil, err
		}
		r.conv.Add(warden.Message{Role: warden.RoleSystem, Content: parts}, func(text string) error {
			r.messages.Changed = true
			return systemContent.ReplaceIn(r.obj, text)
		})
	}
	rawMsgs, ok := obj.Get("messages")
	if !ok {
		return nil, errors.New(`not a Converse request: no "messages"`)
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

func (r *Request) addMessage(i int, raw json.RawMessage) error {
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return err
	}
	var m struct {
		Role    string                       `json:"role"`
		Content []map[string]json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	out := warden.Message{Role: warden.Role(m.Role)}
	if out.Content, err = messageContent.Parts(obj); err != nil {
		return err
	}
	results := 0
	for j, b := range m.Content {
		if tu, ok := b["toolUse"]; ok {
			var u struct {
				ToolUseID string          `json:"toolUseId"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
			}
			if err := json.Unmarshal(tu, &u); err != nil {
				return fmt.Errorf("content[%d]: toolUse: %v", j, err)
			}
			out.ToolCalls = append(out.ToolCalls, warden.NewToolCall(u.ToolUseID, u.Name, u.Input))
		}
		if tr, ok := b["toolResult"]; ok {
			var res struct {
				ToolUseID string `json:"toolUseId"`
				Status    string `json:"status"`
			}
			if err := json.Unmarshal(tr, &res); err != nil {
				return fmt.Errorf("content[%d]: toolResult: %v", j, err)
			}
			tro, err := jsonobj.Parse(tr)
			if err != nil {
				return fmt.Errorf("content[%d]: toolResult: %v", j, err)
			}
			parts, err := toolResultContent.Parts(tro)
			if err != nil {
				return fmt.Errorf("content[%d]: toolResult: %v", j, err)
			}
			r.conv.Add(warden.Message{Role: warden.RoleTool, ToolCallID: res.ToolUseID, Content: parts, IsError: res.Status == "error"},
				r.setToolResult(i, j))
			results++
		}
	}
	// A user message made only of tool results adds no message of its own.
	if len(out.Content) > 0 || len(out.ToolCalls) > 0 || results == 0 {
		r.conv.Add(out, r.messages.Setter(i, messageContent.Replace))
	}
	return nil
}

// setToolResult returns a setter for the toolResult in block j of message i.
func (r *Request) setToolResult(i, j int) func(string) error {
	return r.messages.ElementSetter(i, "content", j, func(b json.RawMessage, text string) (json.RawMessage, error) {
		bo, err := jsonobj.Parse(b)
		if err != nil {
			return nil, err
		}
		tr, _ := bo.Get("toolResult")
		ntr, err := toolResultContent.Replace(tr, text)
		if err != nil {
			return nil, err
		}
		bo.Set("toolResult", ntr)
		return bo.MarshalJSON()
	})
}

// Tools names the tools the request's toolConfig offers.
func (r *Request) Tools() []string { return r.tools }

// Messages returns the conversation in the turn model. Do not modify it.
func (r *Request) Messages() []warden.Message { return r.conv.Messages() }

// SetText replaces the text of message i (a tool message: its toolResult's content).
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
