package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
	"github.com/agentwarden/warden/wire/internal/textdiff"
	"github.com/agentwarden/warden/wire/sse"
)

// GuardResponsesStream copies a Responses API event stream from in to out under a guard. Events of message,
// reasoning and other items go out at once, in their original bytes. Every event of a tool-call item (those
// DecodeResponse reads as calls: function, custom and built-in client tools) is held, from
// response.output_item.added to response.output_item.done, until the stream's terminal event
// (response.completed, response.incomplete or response.failed). Then decide sees the response that event
// carries; the held events of the calls it kept are released as they came, a removed call's never reach the
// client, text decide appended goes out as a new message item (its added, content part, delta and done
// events), and the terminal event's response is rewritten to match. Output indexes are renumbered only where a
// held item moved. flush, when set, is called after each write.
//
// With a gate (the stream guardrails), the text of message items goes through it instead of out at once:
// an output_text delta goes out in its original bytes when the gate releases exactly its text, with the
// released text in its place (and no logprobs) when it releases other text, and not at all while the gate
// holds it all. At the part's response.output_text.done the gate sees the rest, which goes out as one more
// delta; that done event, the content part's and the item's done events and the terminal response carry
// the text as released, which is also what decide sees. Refusals and reasoning are not gated.
//
// A function call whose arguments decide changed goes out with the new arguments in its first delta and its
// done events; for the other call items a change cannot be carried, and it ends the stream with an error
// rather than letting the original arguments through. On an error, and when the stream ends before its terminal
// event while calls are held, nothing held is released.
func GuardResponsesStream(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	return new(ResponsesClientStream).Guard(in, out, flush, decide, gate)
}

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
	// open is a message item the last round added and did not finish, with the released text of its parts.
	open  *streamItem
	texts map[textKey]*gatedText
}

// Correct writes text the client reads after what it has of the response: a self-correction's feedback,
// before the continuation's stream. It ends the message item the last round left open (a guardrail asked
// for the correction in the middle of it) with the text at the end of its open part, or comes as a message
// item of its own; either way the item is one the continuation's terminal response lists.
func (c *ResponsesClientStream) Correct(out io.Writer, flush func(), text string) error {
	g := &responsesStreamGuard{out: out, flush: flush, c: c, next: c.items}
	defer func() { c.items = g.next }()
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

// Guard copies one provider stream into the client's stream as GuardResponsesStream does. In a round after
// the first, the opening events (response.created, response.queued, response.in_progress) are dropped, every
// item goes out at an output index after the items the client already has, and the terminal event's
// response lists the earlier rounds' items before this round's, so that the client reads all the rounds
// as one response.
func (c *ResponsesClientStream) Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) (err error) {
	g := &responsesStreamGuard{out: out, flush: flush, decide: decide, gate: gate, items: map[int]*streamItem{}, texts: map[textKey]*gatedText{},
		c: c, follows: c.started, base: c.items, next: c.items}
	c.started, c.body, c.open = true, nil, nil
	defer func() {
		c.items = g.next
		c.texts = g.texts
		if err != nil && !g.keptSent {
			g.keepDone() // a round cut before its terminal event: a continuation's terminal response lists them
		}
		for _, idx := range g.order {
			if si := g.items[idx]; si.typ == "message" && si.out >= 0 && !si.done {
				c.open = si
			}
		}
	}()
	rd := sse.NewReader(in)
	for {
		if g.gate == nil { // a gate reads every text delta: they do not pass unread
			// Peeked and passed by direct calls: a paced delta runs this code cold (see sse.Reader.PeekData).
			if raw, _, data, ok := rd.PeekEvent(); ok {
				taken, err := g.passSameShape(raw)
				if !taken {
					taken, err = g.passPeeked(raw, data)
				}
				if taken {
					rd.Skip(len(raw))
				}
				if err != nil {
					return err
				}
				if taken {
					continue
				}
			}
		}
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if g.holds > 0 && !g.decided {
				return errors.New("the stream ended before its terminal event; held tool calls were not released")
			}
			return nil
		}
		if err != nil {
			return err
		}
		if err := g.event(ev); err != nil {
			return err
		}
	}
}

type responsesStreamGuard struct {
	out      io.Writer
	flush    func()
	decide   Decide
	gate     warden.TextGate
	texts    map[textKey]*gatedText // the gated text of each message content part
	items    map[int]*streamItem    // by the provider's output_index
	order    []int
	holds    int // call items held so far
	next     int // the output index the client expects for the next item Warden places
	base     int // items the client has from earlier rounds: this round's output index 0 goes out as base
	follows  bool
	c        *ResponsesClientStream
	decided  bool
	keptSent bool // the round's items the client has were noted for a later terminal response
	moved    bool // an item went out at another output index than it came with
	shape    deltaShape
}

// deltaShape is what the text deltas of a stream share with the last one passPeeked passed: the event's
// bytes before its delta string (head), and those from the string's closing quote to its sequence_number's
// digits (tail). Empty until a delta is learned.
type deltaShape struct{ head, tail []byte }

type streamItem struct {
	call   bool
	typ    string // the item's type
	callID string
	out    int // the output index the client sees; -1 while held
	held   [][]byte
	// What the client has of a message item: its id, content parts added, the part whose done event has not
	// gone (-1 none) and whether that part's text done event went (track), and whether the item's done event
	// went (set as it passes, for every item).
	id       string
	parts    int
	openPart int
	textDone bool
	done     bool
	doneItem json.RawMessage // the item its done event carried, as it came
}

// track notes what an event of a message item the client received tells of the item's state.
func (si *streamItem) track(e *responsesEvent) {
	switch e.Type {
	case "response.content_part.added":
		si.parts++
		if e.ContentIndex != nil {
			si.openPart, si.textDone = *e.ContentIndex, false
		}
	case "response.output_text.done":
		si.textDone = true
	case "response.content_part.done":
		si.openPart = -1
	}
}

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

type responsesEvent struct {
	Type         string           `json:"type"`
	OutputIndex  *int             `json:"output_index"`
	ContentIndex *int             `json:"content_index"`
	Item         *json.RawMessage `json:"item"`
	Response     json.RawMessage  `json:"response"`
}

// responsesEventKeys are the members responsesEvent reads.
var responsesEventKeys = [...]string{"type", "output_index", "content_index", "item", "response"}

// decodeResponsesEvent reads an event as json.Unmarshal into a responsesEvent does, without decoding what
// it only keeps raw: an item's done event carries the item, and the terminal event every item, which
// encoding/json would walk twice. An event whose member names differ from those read only in case (which
// encoding/json matches too) or repeat, or that encoding/json would reject, is left to encoding/json, so
// that the answer and the error are always json.Unmarshal's; a fuzz test holds the two to one reading.
// data is kept: the item and the response are slices of it.
func decodeResponsesEvent(data []byte) (responsesEvent, error) {
	var e responsesEvent
	obj, err := jsonobj.ParseShared(data)
	if err != nil || !obj.Plain(responsesEventKeys[:]...) {
		return e, json.Unmarshal(data, &e)
	}
	ok := true
	if raw, has := obj.Get("type"); has {
		e.Type, ok = jsonobj.DecodeString(raw)
	}
	if raw, has := obj.Get("output_index"); has && ok {
		e.OutputIndex, ok = decodeIndex(raw)
	}
	if raw, has := obj.Get("content_index"); has && ok {
		e.ContentIndex, ok = decodeIndex(raw)
	}
	if raw, has := obj.Get("item"); has && string(raw) != "null" {
		e.Item = &raw
	}
	e.Response, _ = obj.Get("response")
	if !ok {
		return responsesEvent{}, json.Unmarshal(data, new(responsesEvent)) // a member of the wrong type
	}
	return e, nil
}

// decodeIndex reads a valid JSON value as json.Unmarshal into an *int does: nil for null, the number for
// an integer that fits; ok false for anything else. Only what is not a plain run of digits goes through
// encoding/json.
func decodeIndex(valid []byte) (*int, bool) {
	if string(valid) == "null" {
		return nil, true
	}
	if n, err := strconv.Atoi(string(valid)); err == nil {
		return &n, true
	}
	var n *int
	return n, json.Unmarshal(valid, &n) == nil
}

func (g *responsesStreamGuard) write(b []byte) error {
	b, err := g.c.sequenced(b)
	if err != nil {
		return err
	}
	if _, err := g.out.Write(b); err != nil {
		return err
	}
	if g.flush != nil {
		g.flush()
	}
	return nil
}

func (g *responsesStreamGuard) event(ev sse.Event) error {
	if !ev.HasData || g.decided {
		return g.write(ev.Raw)
	}
	if g.gate != nil {
		if d, ok := scanOutputTextDelta(ev.Data); ok {
			if si := g.items[d.outputIndex]; si != nil && si.out >= 0 && si.typ == "message" {
				return g.gateScannedDelta(ev, d, si)
			}
		}
	}
	if typ, idx, ok := scanResponsesItemEvent(ev.Data); ok {
		if si := g.items[idx]; si != nil && si.out >= 0 && g.passesUnread(typ, si) {
			return g.pass(ev, idx, si)
		}
	}
	if scanResponseStateEvent(ev.Data) {
		if g.follows {
			return nil // the client's stream has its state events from the first round
		}
		return g.write(ev.Raw)
	}
	data := strings.TrimSpace(ev.Data)
	if !strings.HasPrefix(data, "{") {
		return g.write(ev.Raw)
	}
	e, err := decodeResponsesEvent([]byte(data))
	if err != nil {
		return fmt.Errorf("stream event is not JSON: %v", err)
	}
	switch e.Type {
	case "response.completed", "response.incomplete", "response.failed":
		return g.finish(ev, e.Response)
	case "response.created", "response.queued", "response.in_progress":
		if g.follows {
			return nil
		}
	case "response.output_item.added":
		if e.OutputIndex == nil || e.Item == nil {
			return errors.New("response.output_item.added without output_index or item")
		}
		idx := *e.OutputIndex
		if g.items[idx] != nil {
			return fmt.Errorf("output item %d added twice", idx)
		}
		it, err := decodeOutputItem(*e.Item)
		if err != nil {
			return fmt.Errorf("output item %d: %v", idx, err)
		}
		si := &streamItem{call: it.kind == "call", typ: it.typ, callID: it.call.ID, out: -1, id: it.id, openPart: -1}
		g.items[idx] = si
		g.order = append(g.order, idx)
		if si.call {
			si.held = append(si.held, ev.Raw)
			g.holds++
			return nil
		}
		si.out = g.base + idx - g.holds
		if si.out < g.base {
			return fmt.Errorf("output item %d added after a later one", idx)
		}
		g.next = max(g.next, si.out+1)
		return g.pass(ev, idx, si)
	}
	if e.OutputIndex == nil {
		return g.write(ev.Raw)
	}
	si := g.items[*e.OutputIndex]
	if si == nil {
		return fmt.Errorf("%s for output item %d, which was not added", e.Type, *e.OutputIndex)
	}
	if si.out < 0 {
		si.held = append(si.held, ev.Raw)
		return nil
	}
	if e.Type == "response.output_item.done" && e.Item != nil {
		si.doneItem = *e.Item
		si.done = true
	}
	if g.gate == nil || si.typ != "message" {
		return g.pass(ev, *e.OutputIndex, si)
	}
	if err := g.gateEvent(ev, e.Type, *e.OutputIndex, si); err != nil {
		return err
	}
	si.track(&e)
	return nil
}

// passPeeked writes on, straight from the reader's buffer, an event of an item the client has at the
// output index it came with that passes unread (passesUnread): most of a stream's events, its text deltas
// first, and what event would do with them. raw and data are the reader's buffer and are not kept (write
// copies raw into the client's stream, renumbering its sequence_number when it must). Anything else
// reports false, and the caller reads the event as usual.
func (g *responsesStreamGuard) passPeeked(raw []byte, data string) (bool, error) {
	if g.decided || len(data) == 0 || data[len(data)-1] != '}' {
		return false, nil // or one TrimSpace would change, which event reads after trimming
	}
	if scanResponseStateEvent(data) {
		if g.follows {
			return true, nil // as event drops it
		}
		return true, g.write(raw)
	}
	typ, idx, ok := scanResponsesItemEvent(data)
	if !ok {
		return false, nil
	}
	si := g.items[idx]
	if si == nil || si.out != idx || !g.passesUnread(typ, si) {
		return false, nil
	}
	if typ == "response.output_text.delta" {
		g.learnShape(raw, data)
	}
	return true, g.write(raw)
}

// passSameShape writes on, straight from the reader's buffer, a text delta that differs from the last
// one passPeeked passed only in its delta string (with no quote or backslash in it, the event's members
// are those of the last, which passed) and in its sequence_number, which must be the client's next: what
// passPeeked would do with it, without scanning it again. It is a paced stream's every delta, and the
// code a cold delta runs is what its delay through the proxy is made of (see sse.Reader.PeekData).
func (g *responsesStreamGuard) passSameShape(raw []byte) (bool, error) {
	sh := &g.shape
	if len(sh.head) == 0 || g.decided || !bytes.HasPrefix(raw, sh.head) {
		return false, nil
	}
	rest := raw[len(sh.head):]
	q := bytes.IndexByte(rest, '"')
	if q < 0 || bytes.IndexByte(rest[:q], '\\') >= 0 || !bytes.HasPrefix(rest[q:], sh.tail) {
		return false, nil
	}
	digits := rest[q+len(sh.tail):]
	n, i := 0, 0
	for ; i < len(digits) && i < 9 && '0' <= digits[i] && digits[i] <= '9'; i++ {
		n = n*10 + int(digits[i]-'0')
	}
	if i == 0 || i > 1 && digits[0] == '0' || string(digits[i:]) != "}\n\n" || !g.c.numbered || n != g.c.seq {
		return false, nil
	}
	g.c.seq++
	if _, err := g.out.Write(raw); err != nil {
		return true, err
	}
	if g.flush != nil {
		g.flush()
	}
	return true, nil
}

// learnShape notes the shape of a text delta passPeeked passed (raw, its data line's value data), or
// forgets the last one when this delta is not written as OpenAI writes them (scanOutputTextDelta) with its
// sequence_number last.
func (g *responsesStreamGuard) learnShape(raw []byte, data string) {
	sh := &g.shape
	sh.head = sh.head[:0]
	d, ok := scanOutputTextDelta(data)
	seqAt, _, _, numbered := trailingSequence(raw)
	dataAt := len(raw) - len("\n\n") - len(data) // PeekEvent's data runs to the event's blank line
	if !ok || !numbered || dataAt < 0 || string(raw[dataAt:dataAt+len(data)]) != data {
		return
	}
	open, closing := dataAt+d.at[0]+1, dataAt+d.at[1]-1 // after the string's opening quote; its closing one
	if seqAt <= closing {
		return
	}
	sh.head = append(sh.head, raw[:open]...)
	sh.tail = append(sh.tail[:0], raw[closing:seqAt]...)
}

// passesUnread says whether an item's event that scanResponsesItemEvent read goes out as it is, as the
// general path would send it: any event when no gate reads the text; a delta unless it is the text the
// gate reads; another event unless the gate tracks its item's text (a message).
func (g *responsesStreamGuard) passesUnread(typ string, si *streamItem) bool {
	switch {
	case g.gate == nil:
		return true
	case strings.HasSuffix(typ, ".delta"):
		return typ != "response.output_text.delta"
	}
	return si.typ != "message"
}

// pass writes an item's event, renumbered when the client sees the item at another output index.
func (g *responsesStreamGuard) pass(ev sse.Event, idx int, si *streamItem) error {
	if si.out == idx {
		return g.write(ev.Raw)
	}
	return g.writeRenumbered(ev.Raw, si.out)
}

func (g *responsesStreamGuard) writeRenumbered(raw []byte, idx int) error {
	g.moved = true
	ev, err := sse.ParseEvent(raw)
	if err != nil {
		return err
	}
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return err
	}
	for _, k := range obj.Keys() {
		if k != "output_index" && strings.EqualFold(k, "output_index") {
			obj.Delete(k)
		}
	}
	_ = obj.SetJSON("output_index", idx)
	b, _ := obj.MarshalJSON()
	return g.write(sse.Named(ev.Type, string(b)).Encode())
}

// finish decides on the response the terminal event carries, releases the held calls it keeps, sends the
// text it added as a new message item, and sends the terminal event with its response rewritten.
func (g *responsesStreamGuard) finish(ev sse.Event, rawResp json.RawMessage) error {
	g.decided = true
	came := rawResp
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
