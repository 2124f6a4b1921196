package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/relay"
	"github.com/agentwarden/warden/wire/internal/streamend"
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
// held item moved. flush, when set, is called once the events read so far are handled, and before a wait
// for more of in or for a check, so that each event reaches the client at once and a burst's events in
// one flush.
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

// Guard copies one provider stream into the client's stream as GuardResponsesStream does. In a round after
// the first, the opening events (response.created, response.queued, response.in_progress) are dropped, every
// item goes out at an output index after the items the client already has, and the terminal event's
// response lists the earlier rounds' items before this round's, so that the client reads all the rounds
// as one response.
func (c *ResponsesClientStream) Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) (err error) {
	g := &responsesStreamGuard{out: out, items: map[int]*streamItem{}, texts: map[textKey]*gatedText{},
		c: c, follows: c.started, base: c.items, next: c.items}
	rd := sse.NewReader(in)
	g.flushes.Bind(rd, flush)
	g.gate, g.decide = g.flushes.Gate(gate), g.flushes.Decide(decide)
	c.started, c.body, c.open = true, nil, nil
	defer func() {
		g.flushes.Flush()
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
					g.flushes.Handled()
					continue
				}
			}
		}
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return streamend.End(g.decided)
		}
		if err != nil {
			return err
		}
		if err := g.event(ev); err != nil {
			return err
		}
		g.flushes.Handled()
	}
}

type responsesStreamGuard struct {
	out      io.Writer
	flushes  relay.Flusher
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
	g.flushes.Wrote()
	return nil
}

func (g *responsesStreamGuard) event(ev sse.Event) error {
	if err := streamend.Event(ev, g.decided); err != nil {
		return err
	}
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
		return streamend.ErrNotJSON
	}
	e, err := decodeResponsesEvent([]byte(data))
	if err != nil {
		return fmt.Errorf("stream event is not JSON: %v", err)
	}
	if err := envelope.Envelope([]byte(data)); err != nil {
		return fmt.Errorf("an ambiguous stream event: %v", err)
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
	g.flushes.Wrote()
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
