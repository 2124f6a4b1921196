package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/textdiff"
	"github.com/agentwarden/warden/wire/sse"
)

// finish decides on the response the terminal event carries, releases the held calls it keeps, sends the
// text it added as a new message item, and sends the terminal event with its response rewritten.
func (g *responsesStreamGuard) finish(ev sse.Event, rawResp json.RawMessage) error {
	g.decided = true
	came := rawResp
	id := responseID(rawResp)
	renamed := false // the terminal response goes out with the id the client's stream announced
	switch {
	case !g.follows:
		g.c.opened = id
	case g.c.opened != "" && id != g.c.opened:
		g.c.stored, renamed = id, true
	}
	rest := ""
	if g.gate != nil {
		var err error
		if rawResp, err = g.releasedResponse(rawResp); err != nil {
			return fmt.Errorf("%s: %v", ev.Type, err)
		}
		if ev, err = withResponse(ev, rawResp); err != nil {
			return err
		}
		// Text of a part whose done event never came: it goes out with the text decide adds.
		if rest, err = g.gate.Finish(warden.Part{Kind: warden.PartFinish}); err != nil {
			return err
		}
	}
	r, err := decodeValidResponse(rawResp) // the event's, or one releasedResponse wrote
	if err != nil {
		return fmt.Errorf("%s: %v", ev.Type, err)
	}
	before := r.Response(0)
	if rest != "" {
		before.Message.Content = append(append([]warden.ContentPart(nil), before.Message.Content...), warden.ContentPart{Kind: warden.ContentText, Text: rest})
	}
	after, err := g.decide(before)
	if err != nil {
		g.keepSent(r) // a follow-up's terminal response lists them
		g.c.body = came
		return err
	}
	keep := map[string]warden.ToolCall{}
	for _, c := range after.Message.ToolCalls {
		keep[c.ID] = c
	}
	original := map[string]warden.ToolCall{}
	for _, c := range before.Message.ToolCalls {
		original[c.ID] = c
	}
	changed := map[string]warden.ToolCall{} // kept calls whose arguments decide changed
	for _, c := range after.Message.ToolCalls {
		if o, ok := original[c.ID]; ok && string(o.Arguments) != string(c.Arguments) {
			changed[c.ID] = c
		}
	}
	for _, idx := range g.order {
		si := g.items[idx]
		if !si.call {
			continue
		}
		if _, ok := keep[si.callID]; !ok {
			si.held = nil
			continue
		}
		c, isChanged := changed[si.callID]
		if isChanged && !c.Complete {
			return errors.New("a guardrail changed the arguments of a " + si.typ + " item to something that is not JSON, so the stream ends here")
		}
		si.out = g.next
		g.next++
		firstDelta := true
		for _, raw := range si.held {
			if isChanged {
				nb, keepEvent, err := withArguments(raw, si.typ, c, &firstDelta)
				if err != nil {
					return err
				}
				if !keepEvent {
					continue
				}
				raw = nb
			}
			if si.out == idx && !isChanged {
				if err := g.write(raw); err != nil {
					return err
				}
			} else if err := g.writeRenumbered(raw, si.out); err != nil {
				return err
			}
		}
		si.held = nil
	}
	appended, _ := textdiff.Of(r.Response(0).Message, after.Message)
	final, rewritten := rawResp, false
	if len(after.Message.ToolCalls) != len(before.Message.ToolCalls) || len(appended) > 0 || g.moved || len(changed) > 0 {
		g.reorder(r)
		id := ""
		if len(appended) > 0 {
			id = "msg_warden_" + fmt.Sprint(g.next)
			if err := g.writeMessageItem(id, g.next, strings.Join(appended, "")); err != nil {
				return err
			}
			g.next++
		}
		r.newItemID = id
		if err := r.Set(0, after); err != nil {
			return err
		}
		if final, err = r.Encode(); err != nil {
			return err
		}
		rewritten = true
	}
	if len(g.c.sent) > 0 {
		if final, err = withOutputBefore(final, g.c.sent); err != nil {
			return err
		}
		rewritten = true
	}
	if renamed {
		if final, err = withID(final, g.c.opened); err != nil {
			return err
		}
		rewritten = true
	}
	if !rewritten {
		return g.write(ev.Raw)
	}
	if ev, err = withResponse(ev, final); err != nil {
		return err
	}
	return g.write(ev.Raw)
}

// keepSent notes the output items of r, the terminal response of a round whose end the client will not
// get, that the client was sent: every item but the held calls, in the order the client received them.
func (g *responsesStreamGuard) keepSent(r *Response) {
	g.keptSent = true
	g.reorder(r)
	for _, it := range r.items {
		if it.kind != "call" {
			g.c.sent = append(g.c.sent, it.raw)
		}
	}
}

// keepDone notes the items the client received whole (their done event went out) in a round that ended
// before its terminal event, in the order the client received them, as their done events carried them.
func (g *responsesStreamGuard) keepDone() {
	done := make([]json.RawMessage, g.next)
	for _, si := range g.items {
		if si.doneItem == nil || si.out < 0 || si.out >= len(done) {
			continue
		}
		item := si.doneItem
		if g.gate != nil && si.typ == "message" {
			if released, _, err := g.releasedItem(item); err == nil {
				item = released
			}
		}
		done[si.out] = item
	}
	for _, item := range done {
		if item != nil {
			g.c.sent = append(g.c.sent, item)
		}
	}
}

// responseID is a response's id, or "" when it has none that is a string.
func responseID(resp json.RawMessage) string {
	var r struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(resp, &r) != nil {
		return ""
	}
	return r.ID
}

// withID returns the response with another id.
func withID(resp json.RawMessage, id string) (json.RawMessage, error) {
	o, err := jsonobj.Parse(resp)
	if err != nil {
		return nil, err
	}
	if err := o.SetJSON("id", id); err != nil {
		return nil, err
	}
	return o.MarshalJSON()
}

// withOutputBefore returns a response whose output lists items before its own.
func withOutputBefore(resp json.RawMessage, items []json.RawMessage) (json.RawMessage, error) {
	o, err := jsonobj.Parse(resp)
	if err != nil {
		return nil, err
	}
	var own []json.RawMessage
	if raw, ok := o.Get("output"); ok {
		if err := json.Unmarshal(raw, &own); err != nil {
			return nil, fmt.Errorf("the terminal response's output is not a list: %v", err)
		}
	}
	if err := o.SetJSON("output", append(append([]json.RawMessage(nil), items...), own...)); err != nil {
		return nil, err
	}
	return o.MarshalJSON()
}

// withArguments rewrites a held event of a call item whose arguments a guardrail changed. A function_call's
// first arguments delta carries the new arguments whole and later ones are dropped (keep false), and its
// done events carry them; a custom_tool_call's input deltas and done events likewise; a built-in call's
// action (or operation) is replaced in the item of its added and done events. Other events are kept as
// they came.
func withArguments(raw []byte, itemType string, c warden.ToolCall, firstDelta *bool) (out []byte, keep bool, err error) {
	ev, err := sse.ParseEvent(raw)
	if err != nil {
		return nil, false, err
	}
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return nil, false, err
	}
	var typ string
	if t, ok := obj.Get("type"); ok {
		_ = json.Unmarshal(t, &typ)
	}
	text := string(c.Arguments) // what a function_call's deltas carry
	if itemType == "custom_tool_call" {
		if err := json.Unmarshal(c.Arguments, &text); err != nil {
			return nil, false, errors.New("a modified custom tool call's input is not a JSON string")
		}
	}
	_, builtin := builtinCalls[itemType]
	switch typ {
	case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
		if !*firstDelta {
			return nil, false, nil
		}
		*firstDelta = false
		_ = obj.SetJSON("delta", text)
	case "response.function_call_arguments.done":
		_ = obj.SetJSON("arguments", text)
	case "response.custom_tool_call_input.done":
		_ = obj.SetJSON("input", text)
	case "response.output_item.done", "response.output_item.added":
		if typ == "response.output_item.added" && !builtin {
			return raw, true, nil // a streamed call's added item carries no arguments yet
		}
		item, _ := obj.Get("item")
		ni, err := setCallArguments(item, c)
		if err != nil {
			return nil, false, err
		}
		obj.Set("item", ni)
	default:
		return raw, true, nil
	}
	b, _ := obj.MarshalJSON()
	return sse.Named(ev.Type, string(b)).Encode(), true, nil
}

// reorder puts the terminal response's output items in the order the client received them, when the
// response lists exactly the items streamed (item i being the one streamed at output index i).
func (g *responsesStreamGuard) reorder(r *Response) {
	if len(r.items) != len(g.order) {
		return
	}
	pos := make([]int, len(r.items)) // where the client saw item i; removed items go last
	for i := range r.items {
		si := g.items[i]
		if si == nil {
			return
		}
		pos[i] = si.out
		if si.out < 0 {
			pos[i] = len(r.items) + i
		}
	}
	perm := make([]int, len(r.items))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return pos[perm[a]] < pos[perm[b]] })
	items := make([]outputItem, len(r.items))
	for i, p := range perm {
		items[i] = r.items[p]
	}
	r.items = items
}

// writeMessageItem sends text as a new assistant message item, with the events a Responses stream uses.
func (g *responsesStreamGuard) writeMessageItem(id string, idx int, text string) error {
	part := json.RawMessage(outputTextPart(text))
	empty := json.RawMessage(`{"type":"output_text","text":"","annotations":[]}`)
	inProgress := json.RawMessage(fmt.Sprintf(`{"type":"message","id":%q,"status":"in_progress","role":"assistant","content":[]}`, id))
	done := messageItem(id, []string{text})
	// Each carries a sequence_number, last as the provider writes it, which write sets to the client's own.
	type itemEvent struct {
		Type        string          `json:"type"`
		OutputIndex int             `json:"output_index"`
		Item        json.RawMessage `json:"item"`
		Seq         int             `json:"sequence_number"`
	}
	type partEvent struct {
		Type         string          `json:"type"`
		ItemID       string          `json:"item_id"`
		OutputIndex  int             `json:"output_index"`
		ContentIndex int             `json:"content_index"`
		Part         json.RawMessage `json:"part,omitempty"`
		Delta        *string         `json:"delta,omitempty"`
		Text         *string         `json:"text,omitempty"`
		Seq          int             `json:"sequence_number"`
	}
	events := []struct {
		name string
		v    any
	}{
		{"response.output_item.added", itemEvent{"response.output_item.added", idx, inProgress, 0}},
		{"response.content_part.added", partEvent{Type: "response.content_part.added", ItemID: id, OutputIndex: idx, Part: empty}},
		{"response.output_text.delta", partEvent{Type: "response.output_text.delta", ItemID: id, OutputIndex: idx, Delta: &text}},
		{"response.output_text.done", partEvent{Type: "response.output_text.done", ItemID: id, OutputIndex: idx, Text: &text}},
		{"response.content_part.done", partEvent{Type: "response.content_part.done", ItemID: id, OutputIndex: idx, Part: part}},
		{"response.output_item.done", itemEvent{"response.output_item.done", idx, done, 0}},
	}
	for _, e := range events {
		b, _ := json.Marshal(e.v)
		if err := g.write(sse.Named(e.name, string(b)).Encode()); err != nil {
			return err
		}
	}
	return nil
}
