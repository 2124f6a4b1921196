// Package reqtext is what the request codecs share: a request's conversation in the turn model, and for each
// message a way to write a guardrail's new text back into the wire body, keeping every other byte.
//
// Input and tool-result guardrails change text (a redaction, an injection replaced by a notice); they never
// add, remove or reorder messages, so that is all a request codec has to write back.
package reqtext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

// Part is what a content element holds, as a Content's Classify reads it.
type Part struct {
	// Kind is text, reasoning or media; empty for an element that is not content (a tool call, a tool result).
	Kind warden.ContentKind
	Text string
	// MediaType names a media part's type.
	MediaType string
	// Key is the member that holds a text part's text, when the text can be set in place; empty when the part
	// is replaced whole (a JSON block, say).
	Key string
}

// Content says how a wire format holds a message's content in one member of an object.
type Content struct {
	// Member is the content's key: "content", "parts", "output".
	Member string
	// StringForm is true when the member may be a plain string, so a string is read and written as one text.
	StringForm bool
	// Classify reads one element of the content array.
	Classify func(elem json.RawMessage) Part
	// NewPart makes a text element.
	NewPart func(text string) json.RawMessage
}

// Parts reads the content member of obj (absent or null: none).
func (c Content) Parts(obj *jsonobj.Object) ([]warden.ContentPart, error) {
	raw, ok := obj.Get(c.Member)
	if !ok {
		return nil, nil
	}
	return c.PartsOf(raw)
}

// PartsOf reads a content value.
func (c Content) PartsOf(raw json.RawMessage) ([]warden.ContentPart, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' && c.StringForm {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%s: %v", c.Member, err)
		}
		return []warden.ContentPart{{Kind: warden.ContentText, Text: s}}, nil
	}
	elems, err := jsonobj.SplitArray(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", c.Member, err)
	}
	var out []warden.ContentPart
	for _, e := range elems {
		p := c.Classify(e)
		if p.Kind != "" {
			out = append(out, warden.ContentPart{Kind: p.Kind, Text: p.Text, MediaType: p.MediaType})
		}
	}
	return out, nil
}

// Replace returns the object obj with its content's text replaced by text. A string becomes the new string;
// in an array the first text element takes the new text, the other text elements go and every other element
// stays where it was; an absent content, or one without text, gets the text added.
func (c Content) Replace(obj json.RawMessage, text string) (json.RawMessage, error) {
	o, err := jsonobj.Parse(obj)
	if err != nil {
		return nil, err
	}
	if err := c.ReplaceIn(o, text); err != nil {
		return nil, err
	}
	return o.MarshalJSON()
}

// ReplaceIn is Replace on a parsed object, which it changes.
func (c Content) ReplaceIn(o *jsonobj.Object, text string) error {
	raw, _ := o.Get(c.Member)
	raw = bytes.TrimSpace(raw)
	str := Quote(text)
	switch {
	case c.StringForm && (len(raw) == 0 || raw[0] != '['):
		o.Set(c.Member, str)
		return nil
	case len(raw) == 0 || string(raw) == "null":
		o.Set(c.Member, jsonobj.JoinArray([]json.RawMessage{c.NewPart(text)}))
		return nil
	}
	elems, err := jsonobj.SplitArray(raw)
	if err != nil {
		return fmt.Errorf("%s: %v", c.Member, err)
	}
	out := make([]json.RawMessage, 0, len(elems)+1)
	wrote := false
	for _, e := range elems {
		p := c.Classify(e)
		if p.Kind != warden.ContentText {
			out = append(out, e)
			continue
		}
		if wrote {
			continue
		}
		wrote = true
		if p.Key == "" {
			out = append(out, c.NewPart(text))
			continue
		}
		ne, err := jsonobj.SetMember(e, p.Key, str)
		if err != nil {
			return err
		}
		out = append(out, ne)
	}
	if !wrote && text != "" {
		out = append(out, c.NewPart(text))
	}
	o.Set(c.Member, jsonobj.JoinArray(out))
	return nil
}

// Conversation is a request's messages in the turn model, each with the function that writes its new text
// into the wire body. It is not safe for concurrent use.
type Conversation struct {
	msgs []warden.Message
	set  []func(text string) error
}

// Add appends a message and its setter.
func (c *Conversation) Add(m warden.Message, set func(text string) error) {
	c.msgs = append(c.msgs, m)
	c.set = append(c.set, set)
}

// Messages returns the conversation in order. The slice is the conversation's own; do not modify it.
func (c *Conversation) Messages() []warden.Message { return c.msgs }

// ErrNotText is returned for a message whose text the wire format cannot hold as text.
var ErrNotText = errors.New("this message's content cannot be rewritten as text")

// SetText replaces message i's text: the first text part takes text and the other text parts go, as in the
// wire body. Text the message already holds, as its only text part, changes nothing.
func (c *Conversation) SetText(i int, text string) error {
	if i < 0 || i >= len(c.msgs) {
		return fmt.Errorf("message %d: out of range (the request has %d)", i, len(c.msgs))
	}
	m := c.msgs[i]
	if onlyText(m.Content, text) {
		return nil
	}
	if c.set[i] == nil {
		return fmt.Errorf("message %d: %w", i, ErrNotText)
	}
	if err := c.set[i](text); err != nil {
		return fmt.Errorf("message %d: %v", i, err)
	}
	parts := make([]warden.ContentPart, 0, len(m.Content)+1)
	wrote := false
	for _, p := range m.Content {
		if p.Kind != warden.ContentText {
			parts = append(parts, p)
		} else if !wrote {
			parts = append(parts, warden.ContentPart{Kind: warden.ContentText, Text: text})
			wrote = true
		}
	}
	if !wrote && text != "" {
		parts = append(parts, warden.ContentPart{Kind: warden.ContentText, Text: text})
	}
	m.Content = parts
	c.msgs[i] = m
	return nil
}

// onlyText reports whether the parts' text is already exactly one part holding text (or none, for "").
func onlyText(parts []warden.ContentPart, text string) bool {
	n := 0
	for _, p := range parts {
		if p.Kind == warden.ContentText {
			if n > 0 || p.Text != text {
				return false
			}
			n++
		}
	}
	return n == 1 || text == ""
}

// NameToolResults gives every tool message without a name the name of the call it answers, where an earlier
// assistant message holds that call: most formats name only the call id in a tool result.
func (c *Conversation) NameToolResults() {
	names := map[string]string{}
	for i, m := range c.msgs {
		for _, call := range m.ToolCalls {
			if call.ID != "" {
				names[call.ID] = call.Name
			}
		}
		if m.Role == warden.RoleTool && m.Name == "" {
			c.msgs[i].Name = names[m.ToolCallID]
		}
	}
}

// TypedPart classifies the {"type": ...} elements most formats use: textKeys maps each type that holds text
// to the member holding it ("text" for most, "refusal" for a refusal); every other typed element is media,
// except those listed as skip. An element is one SplitArray returned (valid JSON), read as json.Unmarshal
// reads it into a map[string]json.RawMessage: by exact key, the last of duplicates, which is how
// jsonobj.Object.Get reads it, without encoding/json's second pass over the bytes.
func TypedPart(textKeys map[string]string, skip []string) func(json.RawMessage) Part {
	return func(elem json.RawMessage) Part {
		p, err := jsonobj.ParseTrusted(elem)
		if err != nil {
			p = &jsonobj.Object{} // an element that is not an object is media of no type
		}
		raw, _ := p.Get("type")
		typ, _ := jsonobj.DecodeString(raw) // "" when it is not a string, as json.Unmarshal leaves it
		if key, ok := textKeys[typ]; ok {
			raw, _ := p.Get(key)
			text, _ := jsonobj.DecodeString(raw)
			return Part{Kind: warden.ContentText, Text: text, Key: key}
		}
		for _, t := range skip {
			if typ == t {
				return Part{}
			}
		}
		return Part{Kind: warden.ContentMedia, MediaType: typ}
	}
}

// TypedTextPart makes a {"type": typ, "text": text} element.
func TypedTextPart(typ string) func(string) json.RawMessage {
	return func(text string) json.RawMessage {
		return json.RawMessage(`{"type":` + string(Quote(typ)) + `,"text":` + string(Quote(text)) + `}`)
	}
}

// Quote returns text as a JSON string, without the HTML escaping of json.Marshal: a guardrail's text goes to
// a model, not a browser, and "<" should stay "<".
func Quote(text string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(text) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}

// EditElement returns the object obj with element j of its array member rewritten by edit, every other
// byte kept: the shape of a tool result nested in a message (Anthropic and Bedrock content blocks, Gemini
// parts).
func EditElement(obj json.RawMessage, member string, j int, edit func(json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	o, err := jsonobj.Parse(obj)
	if err != nil {
		return nil, err
	}
	raw, _ := o.Get(member)
	elems, err := jsonobj.SplitArray(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", member, err)
	}
	if j < 0 || j >= len(elems) {
		return nil, fmt.Errorf("%s[%d]: out of range", member, j)
	}
	if elems[j], err = edit(elems[j]); err != nil {
		return nil, err
	}
	o.Set(member, jsonobj.JoinArray(elems))
	return o.MarshalJSON()
}

// Array is a request body's array of messages (Gemini's contents) kept as raw elements, which setters given
// to Conversation.Add rewrite one at a time. Changed says the body must be encoded anew: a setter changed an
// element, or its owner changed another member (a system prompt).
type Array struct {
	Elems   []json.RawMessage
	Changed bool
}

// Setter returns a setter that rewrites element i as edit does with the new text.
func (a *Array) Setter(i int, edit func(elem json.RawMessage, text string) (json.RawMessage, error)) func(string) error {
	return func(text string) error {
		ne, err := edit(a.Elems[i], text)
		if err != nil {
			return err
		}
		a.Elems[i], a.Changed = ne, true
		return nil
	}
}

// ElementSetter returns a setter that rewrites element j of the array member of element i as edit does
// with the new text: a tool result nested in a message (see EditElement).
func (a *Array) ElementSetter(i int, member string, j int, edit func(elem json.RawMessage, text string) (json.RawMessage, error)) func(string) error {
	return a.Setter(i, func(m json.RawMessage, text string) (json.RawMessage, error) {
		return EditElement(m, member, j, func(e json.RawMessage) (json.RawMessage, error) { return edit(e, text) })
	})
}

// Append returns the request body with elems added at the end of its array member (created when absent),
// every other byte kept: how a follow-up request carries a tool round the client never saw.
func Append(body []byte, member string, elems ...json.RawMessage) ([]byte, error) {
	o, err := jsonobj.Parse(body)
	if err != nil {
		return nil, err
	}
	var have []json.RawMessage
	if raw, ok := o.Get(member); ok {
		if have, err = jsonobj.SplitArray(raw); err != nil {
			return nil, fmt.Errorf("%s: %v", member, err)
		}
	}
	o.Set(member, jsonobj.JoinArray(append(have, elems...)))
	return o.MarshalJSON()
}

// CallArguments is a call's arguments as a follow-up request must carry them: the model's JSON, or an
// empty object when they were cut off or are not JSON, which no provider accepts back.
func CallArguments(c warden.ToolCall) json.RawMessage {
	if !c.Complete || len(bytes.TrimSpace(c.Arguments)) == 0 {
		return json.RawMessage("{}")
	}
	return c.Arguments
}

// CheckResults fails when a follow-up is asked for with a result count other than the message's calls.
func CheckResults(msg warden.Message, results []string) error {
	if len(results) != len(msg.ToolCalls) {
		return fmt.Errorf("follow-up: %d results for %d tool calls", len(results), len(msg.ToolCalls))
	}
	if len(results) == 0 {
		return errors.New("follow-up: the message has no tool calls to answer")
	}
	return nil
}
