package openai

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
	"github.com/agentwarden/warden/wire/sse"
)

// textKey names a content part of a message item.
type textKey struct {
	item string
	part int
}

// gatedText is a content part's text as it came and as the gate released it.
type gatedText struct {
	came, released strings.Builder
}

func (t *gatedText) changed() bool { return t.came.String() != t.released.String() }

// gateEvent handles an event of a message item under the gate: text deltas go through it, the part's done
// event lets it see the rest and carries the released text, and the content part's and item's done events
// carry the released text too.
func (g *responsesStreamGuard) gateEvent(ev sse.Event, typ string, idx int, si *streamItem) error {
	switch typ {
	case "response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.output_item.done":
	default:
		return g.pass(ev, idx, si)
	}
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return err
	}
	var head struct {
		ItemID       string  `json:"item_id"`
		ContentIndex int     `json:"content_index"`
		Delta        *string `json:"delta"`
	}
	_ = json.Unmarshal([]byte(ev.Data), &head)
	key := textKey{head.ItemID, head.ContentIndex}
	switch typ {
	case "response.output_text.delta":
		if head.Delta == nil {
			return errors.New("response.output_text.delta without delta")
		}
		out, err := g.gateDelta(key, *head.Delta)
		if err != nil {
			return err
		}
		if out == *head.Delta {
			return g.pass(ev, idx, si)
		}
		if out == "" {
			return nil
		}
		_ = obj.SetJSON("delta", out)
		if _, ok := obj.Get("logprobs"); ok {
			obj.Set("logprobs", json.RawMessage("[]"))
		}
	case "response.output_text.done":
		t := g.text(key)
		rest, err := g.gate.Finish(warden.Part{Kind: warden.PartFinish})
		if err != nil {
			return err
		}
		if rest != "" {
			t.released.WriteString(rest)
			delta := &jsonobj.Object{}
			for _, k := range []string{"item_id", "output_index", "content_index"} {
				if v, ok := obj.Get(k); ok {
					delta.Set(k, v)
				}
			}
			_ = delta.SetJSON("type", "response.output_text.delta")
			_ = delta.SetJSON("delta", rest)
			delta.Set("logprobs", json.RawMessage("[]"))
			if err := g.writeAt(sse.Named("response.output_text.delta", string(encodeObject(delta))), idx, si); err != nil {
				return err
			}
		}
		if !t.changed() {
			return g.pass(ev, idx, si)
		}
		_ = obj.SetJSON("text", t.released.String())
		if _, ok := obj.Get("logprobs"); ok {
			obj.Set("logprobs", json.RawMessage("[]"))
		}
	case "response.content_part.done":
		t := g.texts[key]
		if t == nil || !t.changed() {
			return g.pass(ev, idx, si)
		}
		part, _ := obj.Get("part")
		np, err := withText(part, t.released.String())
		if err != nil {
			return err
		}
		obj.Set("part", np)
	case "response.output_item.done":
		item, _ := obj.Get("item")
		ni, changed, err := g.releasedItem(item)
		if err != nil {
			return err
		}
		if !changed {
			return g.pass(ev, idx, si)
		}
		obj.Set("item", ni)
	}
	return g.writeAt(sse.Named(ev.Type, string(encodeObject(obj))), idx, si)
}

// gateDelta passes a part's text delta through the gate and returns what it releases.
func (g *responsesStreamGuard) gateDelta(key textKey, delta string) (string, error) {
	out, err := g.gate.Text(delta)
	if err != nil {
		return "", err
	}
	t := g.text(key)
	t.came.WriteString(delta)
	t.released.WriteString(out)
	return out, nil
}

// gateScannedDelta is gateEvent's delta case for a delta scanOutputTextDelta read: the released text takes
// the place of the delta's string, every other byte kept.
func (g *responsesStreamGuard) gateScannedDelta(ev sse.Event, d textDelta, si *streamItem) error {
	out, err := g.gateDelta(textKey{d.item, d.contentIndex}, d.delta)
	switch {
	case err != nil:
		return err
	case out == d.delta:
		return g.pass(ev, d.outputIndex, si)
	case out == "":
		return nil
	}
	return g.writeAt(sse.Named(ev.Type, ev.Data[:d.at[0]]+string(reqtext.Quote(out))+ev.Data[d.at[1]:]), d.outputIndex, si)
}

func encodeObject(o *jsonobj.Object) []byte {
	b, _ := o.MarshalJSON()
	return b
}

// writeAt writes an event Warden rewrote for an item, at the output index the client sees it.
func (g *responsesStreamGuard) writeAt(ev sse.Event, idx int, si *streamItem) error {
	ev.Raw = ev.Encode()
	return g.pass(ev, idx, si)
}

func (g *responsesStreamGuard) text(k textKey) *gatedText {
	t := g.texts[k]
	if t == nil {
		t = &gatedText{}
		g.texts[k] = t
	}
	return t
}

// withText returns an output_text content part with its text (and logprobs) replaced.
func withText(part json.RawMessage, text string) (json.RawMessage, error) {
	p, err := jsonobj.Parse(part)
	if err != nil {
		return nil, err
	}
	_ = p.SetJSON("text", text)
	if _, ok := p.Get("logprobs"); ok {
		p.Set("logprobs", json.RawMessage("[]"))
	}
	return p.MarshalJSON()
}

// releasedItem returns a message item with the released text in every content part the gate changed.
func (g *responsesStreamGuard) releasedItem(item json.RawMessage) (json.RawMessage, bool, error) {
	var head struct {
		ID      string            `json:"id"`
		Type    string            `json:"type"`
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(item, &head); err != nil || head.Type != "message" {
		return item, false, nil
	}
	changed := false
	for k, part := range head.Content {
		t := g.texts[textKey{head.ID, k}]
		if t == nil || !t.changed() {
			continue
		}
		np, err := withText(part, t.released.String())
		if err != nil {
			return nil, false, err
		}
		head.Content[k], changed = np, true
	}
	if !changed {
		return item, false, nil
	}
	o, err := jsonobj.Parse(item)
	if err != nil {
		return nil, false, err
	}
	if err := o.SetJSON("content", head.Content); err != nil {
		return nil, false, err
	}
	b, err := o.MarshalJSON()
	return b, true, err
}

// releasedResponse returns the terminal event's response with the released text in its message items.
func (g *responsesStreamGuard) releasedResponse(resp json.RawMessage) (json.RawMessage, error) {
	o, err := jsonobj.Parse(resp)
	if err != nil {
		return nil, err
	}
	rawOut, _ := o.Get("output")
	var items []json.RawMessage
	if err := json.Unmarshal(rawOut, &items); err != nil {
		return resp, nil // DecodeResponse reports it
	}
	changed := false
	for i, it := range items {
		ni, c, err := g.releasedItem(it)
		if err != nil {
			return nil, err
		}
		items[i], changed = ni, changed || c
	}
	if !changed {
		return resp, nil
	}
	if err := o.SetJSON("output", items); err != nil {
		return nil, err
	}
	return o.MarshalJSON()
}

// withResponse returns a terminal event carrying resp.
func withResponse(ev sse.Event, resp json.RawMessage) (sse.Event, error) {
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return ev, err
	}
	if old, _ := obj.Get("response"); string(old) == string(resp) {
		return ev, nil
	}
	obj.Set("response", resp)
	out := sse.Named(ev.Type, string(encodeObject(obj)))
	out.Raw = out.Encode()
	return out, nil
}
