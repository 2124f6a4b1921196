package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/sse"
)

// ResponsesClientStream is the Responses event stream one client reads. It may carry more than one provider
// stream: under on_deny retry a follow-up's stream goes on where the stream whose tool call was denied
// stopped, before that stream's terminal event (which Guard does not write when decide fails); after a
// stream guardrail's retry, Correct's feedback and then a continuation's stream go on after the text the
// guardrail cut short. Every event it carries that has a sequence_number has the client's own, counting up
// by one in the order the client receives them from the first event's number, Warden's events included:
// the provider's are renumbered where Warden moved, dropped or added events, and after a round. The zero
// value is a stream nothing has been written to. Not safe for concurrent use.
type ResponsesClientStream struct {
	started  bool              // a round was guarded: the client has response.created
	items    int               // the output index the client expects for the next item
	seq      int               // the next event's sequence_number
	numbered bool              // an event with a sequence_number was written: seq counts on from it
	sent     []json.RawMessage // the output items the client was sent in earlier rounds, as they ended
	body     json.RawMessage   // the last round's terminal response as the provider wrote it, when decide failed
	// opened is the id of the response the client's stream announced (its first round's); stored is the
	// provider's id of the response a later round ended with, which the client is told is opened.
	opened, stored string
	// open is a message item the last round added and did not finish, with the released text of its parts.
	open  *streamItem
	texts map[textKey]*gatedText
}

// ResponseIDs returns the id of the response the client's stream announced and, when a later round ended
// the stream, the provider's id of that round's response, which the stream's terminal event gave the
// client as the announced one (SDKs require one id a stream). A client that continues the conversation
// from opened means stored.
func (c *ResponsesClientStream) ResponseIDs() (opened, stored string) { return c.opened, c.stored }

// Correct writes text the client reads after what it has of the response: a self-correction's feedback,
// before the continuation's stream. It ends the message item the last round left open (a guardrail asked
// for the correction in the middle of it) with the text at the end of its open part, or comes as a message
// item of its own; either way the item is one the continuation's terminal response lists.
func (c *ResponsesClientStream) Correct(out io.Writer, flush func(), text string) error {
	g := &responsesStreamGuard{out: out, c: c, next: c.items}
	g.flushes.Bind(nil, flush)
	defer func() {
		g.flushes.Flush()
		c.items = g.next
	}()
	si := c.open
	c.open = nil
	if si == nil || si.openPart < 0 {
		if si != nil {
			if err := c.endItem(g, si); err != nil {
				return err
			}
		}
		id := fmt.Sprintf("msg_warden_%d", g.next)
		if err := g.writeMessageItem(id, g.next, text); err != nil {
			return err
		}
		c.sent = append(c.sent, messageItem(id, []string{text}))
		g.next++
		return nil
	}
	t := c.text(textKey{si.id, si.openPart})
	if si.textDone {
		// The part's text is complete; the feedback cannot join it, so it ends the item as a part of its own.
		if err := c.endPart(g, si, t.released.String()); err != nil {
			return err
		}
		return c.addPart(g, si, text)
	}
	if err := c.writePartEvent(g, si, "response.output_text.delta", "delta", text); err != nil {
		return err
	}
	t.released.WriteString(text)
	if err := c.writePartEvent(g, si, "response.output_text.done", "text", t.released.String()); err != nil {
		return err
	}
	if err := c.endPart(g, si, t.released.String()); err != nil {
		return err
	}
	return c.endItem(g, si)
}

// text returns the released text of a part the client has, kept so that the part's done events and its
// item's carry what Correct adds to it.
func (c *ResponsesClientStream) text(k textKey) *gatedText {
	if c.texts == nil {
		c.texts = map[textKey]*gatedText{}
	}
	t := c.texts[k]
	if t == nil {
		t = &gatedText{}
		c.texts[k] = t
	}
	return t
}

// addPart adds text to an open item as one more content part and ends the item.
func (c *ResponsesClientStream) addPart(g *responsesStreamGuard, si *streamItem, text string) error {
	si.openPart = si.parts
	si.parts++
	c.text(textKey{si.id, si.openPart}).released.WriteString(text)
	for _, ev := range []struct{ typ, member string }{{"response.content_part.added", "part"}, {"response.output_text.delta", "delta"}, {"response.output_text.done", "text"}} {
		value := any(text)
		if ev.member == "part" {
			value = json.RawMessage(`{"type":"output_text","text":"","annotations":[]}`)
		}
		if err := c.writePartEvent(g, si, ev.typ, ev.member, value); err != nil {
			return err
		}
	}
	if err := c.endPart(g, si, text); err != nil {
		return err
	}
	return c.endItem(g, si)
}

// writePartEvent writes an event of the open part of item si carrying value as member.
func (c *ResponsesClientStream) writePartEvent(g *responsesStreamGuard, si *streamItem, typ, member string, value any) error {
	o := &jsonobj.Object{}
	_ = o.SetJSON("type", typ)
	_ = o.SetJSON("item_id", si.id)
	_ = o.SetJSON("output_index", si.out)
	_ = o.SetJSON("content_index", si.openPart)
	if err := o.SetJSON(member, value); err != nil {
		return err
	}
	if strings.HasPrefix(typ, "response.output_text.") {
		o.Set("logprobs", json.RawMessage("[]"))
	}
	_ = o.SetJSON("sequence_number", c.seq)
	return g.write(sse.Named(typ, string(encodeObject(o))).Encode())
}

// endPart writes the open part's done event with its text.
func (c *ResponsesClientStream) endPart(g *responsesStreamGuard, si *streamItem, text string) error {
	err := c.writePartEvent(g, si, "response.content_part.done", "part", outputTextPart(text))
	si.openPart = -1
	return err
}

// endItem writes an open message item's done event, its parts with the text the client has of each, and
// notes the item for the continuation's terminal response.
func (c *ResponsesClientStream) endItem(g *responsesStreamGuard, si *streamItem) error {
	texts := make([]string, si.parts)
	for k := range texts {
		texts[k] = c.text(textKey{si.id, k}).released.String()
	}
	item := messageItem(si.id, texts)
	o := &jsonobj.Object{}
	_ = o.SetJSON("type", "response.output_item.done")
	_ = o.SetJSON("output_index", si.out)
	o.Set("item", item)
	_ = o.SetJSON("sequence_number", c.seq)
	c.sent = append(c.sent, item)
	si.done = true
	return g.write(sse.Named("response.output_item.done", string(encodeObject(o))).Encode())
}

// Body returns the response of the last round, when its decide failed, as a whole Responses body: the
// terminal event's response as the provider wrote it (reasoning items and original text included), which
// is what a follow-up must send back. Nil otherwise.
func (c *ResponsesClientStream) Body() []byte { return c.body }

var sequenceKey = []byte(`"sequence_number":`)

// sequenced returns an event (raw SSE) carrying the client's next sequence_number, and counts it; an event
// without a sequence_number goes as it is, uncounted. The provider writes the member last, so it is looked
// for at the end first and, when it already has the right number (nothing moved), the event is not touched.
func (c *ResponsesClientStream) sequenced(raw []byte) ([]byte, error) {
	if at, end, n, ok := trailingSequence(raw); ok {
		if !c.numbered {
			c.numbered, c.seq = true, n // the client's count starts where the provider's does
		}
		seq := c.seq
		c.seq++
		if n == seq {
			return raw, nil
		}
		out := make([]byte, 0, len(raw)+8)
		out = append(out, raw[:at]...)
		out = strconv.AppendInt(out, int64(seq), 10)
		return append(out, raw[end:]...), nil
	}
	if !bytes.Contains(raw, sequenceKey) {
		return raw, nil
	}
	ev, err := sse.ParseEvent(raw)
	if err != nil || !ev.HasData {
		return raw, nil // not an event with data: it has no sequence_number of its own
	}
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return raw, nil
	}
	v, _ := obj.Get("sequence_number")
	var n int
	if json.Unmarshal(v, &n) != nil {
		return raw, nil // none, or not a count
	}
	if !c.numbered {
		c.numbered, c.seq = true, n
	}
	seq := c.seq
	c.seq++
	if n == seq {
		return raw, nil
	}
	_ = obj.SetJSON("sequence_number", seq)
	return sse.Named(ev.Type, string(encodeObject(obj))).Encode(), nil
}

// trailingSequence reads a sequence_number written as the provider writes it: the last member of an
// object that is an event's one data line (the event's first line, or the one after its event line), the
// number's digits at raw[at:end]. Where the object closes the event, the member is a top-level one. A
// malformed event is not noticed here, as in the scanners.
func trailingSequence(raw []byte) (at, end, n int, ok bool) {
	e := len(raw)
	for e > 0 && (raw[e-1] == '\n' || raw[e-1] == '\r' || raw[e-1] == ' ' || raw[e-1] == '\t') {
		e--
	}
	if e == 0 || raw[e-1] != '}' {
		return 0, 0, 0, false
	}
	e--
	for e > 0 && (raw[e-1] == ' ' || raw[e-1] == '\t') {
		e--
	}
	d := e
	for d > 0 && raw[d-1] >= '0' && raw[d-1] <= '9' && e-d < 16 {
		d--
	}
	if d == e || e-d > 1 && raw[d] == '0' || !bytes.HasSuffix(raw[:d], sequenceKey) {
		return 0, 0, 0, false
	}
	line := 0
	if !bytes.HasPrefix(raw, []byte("data:")) {
		line = bytes.IndexByte(raw, '\n') + 1
		if line == 0 || !bytes.HasPrefix(raw[line:], []byte("data:")) {
			return 0, 0, 0, false
		}
	}
	data := bytes.TrimPrefix(raw[line+len("data:"):d], []byte(" "))
	if len(data) == 0 || data[0] != '{' || bytes.IndexByte(data, '\n') >= 0 || bytes.IndexByte(data, '\r') >= 0 {
		return 0, 0, 0, false
	}
	for _, b := range raw[d:e] {
		n = n*10 + int(b-'0')
	}
	return d, e, n, true
}

// ResponsesMessageStream returns a Responses event stream whose one output item is an assistant message with
// text, completed, for streamed answers Warden gives itself: the explanation of a denied call whose
// follow-up the provider did not take, joined after the stream before it.
func ResponsesMessageStream(id, model, text string) []byte {
	itemID := "msg_" + id
	response := func(status string, output []json.RawMessage) map[string]any {
		return map[string]any{"id": id, "object": "response", "created_at": 0, "status": status, "error": nil,
			"incomplete_details": nil, "model": model, "output": output, "usage": nil}
	}
	part := map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": ""}
	done := map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": text}
	events := []map[string]any{
		{"type": "response.created", "response": response("in_progress", []json.RawMessage{})},
		{"type": "response.in_progress", "response": response("in_progress", []json.RawMessage{})},
		{"type": "response.output_item.added", "output_index": 0, "item": map[string]any{"id": itemID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}},
		{"type": "response.content_part.added", "item_id": itemID, "output_index": 0, "content_index": 0, "part": part},
		{"type": "response.output_text.delta", "item_id": itemID, "output_index": 0, "content_index": 0, "delta": text, "logprobs": []any{}},
		{"type": "response.output_text.done", "item_id": itemID, "output_index": 0, "content_index": 0, "text": text, "logprobs": []any{}},
		{"type": "response.content_part.done", "item_id": itemID, "output_index": 0, "content_index": 0, "part": done},
		{"type": "response.output_item.done", "output_index": 0, "item": json.RawMessage(messageItem(itemID, []string{text}))},
		{"type": "response.completed", "response": response("completed", []json.RawMessage{messageItem(itemID, []string{text})})},
	}
	var out []byte
	for i, e := range events {
		e["sequence_number"] = i
		b, _ := json.Marshal(e)
		out = append(out, sse.Named(e["type"].(string), string(b)).Encode()...)
	}
	return out
}
