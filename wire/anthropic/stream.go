package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/relay"
	"github.com/agentwarden/warden/wire/internal/reqtext"
	"github.com/agentwarden/warden/wire/internal/streamend"
	"github.com/agentwarden/warden/wire/internal/textdiff"
	"github.com/agentwarden/warden/wire/sse"
)

// Decide is what the surface does with the whole response once its stop reason is known: it returns the
// response to send (the same, or a replacement whose tool calls are a subset of the original's, possibly
// with other arguments, and whose text may have more appended), or an error that ends the stream (a
// tripwire).
type Decide = func(resp warden.Response) (warden.Response, error)

// GuardStream copies a Messages event stream from in to out under a guard. Text and thinking blocks go out at
// once, in their original bytes. tool_use (and server_tool_use) blocks are held, start, deltas and stop,
// until message_delta brings the stop reason; then decide sees the accumulated response, the held blocks of
// the calls it kept are released as they came, and a removed call's block never reaches the client. Text
// decide appended (a safety explanation, a deny message) goes out as one more text block before
// message_delta, whose stop_reason tool_use becomes end_turn when no call is left. Blocks are renumbered
// where a held block moved, because clients place each block by its index. Every other event (message_start,
// ping, message_stop, comments) passes as it came. flush, when set, is called as sse.Flusher
// says: once the events read so far are handled, and before a wait for more of in.
//
// With a gate (the stream guardrails), each text block's deltas go through it instead of out at once: an
// event goes out in its original bytes when the gate releases exactly its text, as a text_delta carrying
// the released text when it releases other text, and not at all while it holds everything. At the block's
// stop the gate sees the rest, which goes out as one more delta before the stop; decide sees the text as
// released. Thinking is not gated.
//
// On an error from decide, the gate or the stream, and when the stream ends before message_delta, nothing
// held is released; an error is returned and the surface ends the stream in its own way.
func GuardStream(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	return new(ClientStream).Guard(in, out, flush, decide, gate)
}

// ClientStream is the stream one client reads. It may carry more than one provider stream: under on_deny
// retry a follow-up's stream goes on where the stream whose tool call was denied stopped, before that
// stream's end (its message_delta and message_stop, which Guard does not write when decide fails); after a
// stream guardrail's retry, Correct's feedback and then a continuation's stream go on after the text the
// guardrail cut short. The zero value is a stream nothing has been written to. Not safe for concurrent use.
type ClientStream struct {
	started bool   // a round was guarded: the client has its message_start
	blocks  int    // the index the client expects for the next block
	body    []byte // the last round's response as a whole body, when decide failed
	open    int    // a text block the last round started and did not stop, when hasOpen
	hasOpen bool
}

// Correct writes text the client reads after what it has of the message: a self-correction's feedback,
// before the continuation's stream. It ends the text block the last round left open (a guardrail asked for
// the correction in the middle of it), or comes as a text block of its own.
func (c *ClientStream) Correct(out io.Writer, flush func(), text string) error {
	g := &streamGuard{out: out, next: c.blocks}
	g.flushes.Bind(nil, flush)
	defer func() {
		g.flushes.Flush()
		c.blocks = g.next
	}()
	if !c.hasOpen {
		return g.writeTextBlock(text)
	}
	c.hasOpen = false
	if err := g.writeTextDelta(c.open, text); err != nil {
		return err
	}
	stop, _ := json.Marshal(blockEvent{Type: "content_block_stop", Index: c.open})
	return g.write(sse.Named("content_block_stop", string(stop)).Encode())
}

// Body returns the response of the last round, when its decide failed, as a whole Messages body: its
// content blocks as the provider streamed them — text as it came, before the stream guardrails; thinking
// with its signature, which the API requires back before tool use; calls with their input; any other block
// as its start carried it — which is what a follow-up must send back. Nil otherwise.
func (c *ClientStream) Body() []byte { return c.body }

// Guard copies one provider stream into the client's stream as GuardStream does. In a round after the
// first, message_start is dropped (an accumulating client, the official SDKs' included, would start the
// message again on a second one) and every block goes out numbered after the blocks the client already
// has, so that the client reads all the rounds as one message.
func (c *ClientStream) Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	g := &streamGuard{out: out, decide: decide, gate: gate, blocks: map[int]*streamBlock{},
		c: c, follows: c.started, base: c.blocks, next: c.blocks}
	c.started, c.body, c.hasOpen = true, nil, false
	rd := sse.NewReader(in)
	g.flushes.Bind(rd, flush)
	g.gate, g.decide = g.flushes.Gate(gate), g.flushes.Decide(decide)
	defer func() {
		g.flushes.Flush()
		c.blocks = g.next
		for _, idx := range g.order {
			if b := g.blocks[idx]; b.kind == "text" && b.out >= 0 && !b.stopped {
				c.open, c.hasOpen = b.out, true
			}
		}
	}()
	g.resp.Message.Role = warden.RoleAssistant
	for {
		if g.gate == nil { // a gate reads every text delta: nothing passes unread
			// Peeked and passed by direct calls, no callback between them: a paced chunk runs this code
			// cold, and each layer is more of it (see sse.Reader.PeekData).
			if raw, _, data, ok := rd.PeekEvent(); ok {
				taken, err := g.passText(raw, data)
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

type streamGuard struct {
	out     io.Writer
	flushes relay.Flusher
	decide  Decide
	gate    warden.TextGate
	blocks  map[int]*streamBlock // by the provider's index
	order   []int                // provider indexes in the order their blocks started
	next    int                  // the index the client expects for the next block Warden places itself
	base    int                  // blocks the client has from earlier rounds: this round's index 0 goes out as base
	follows bool                 // a round before this one was written to the client
	c       *ClientStream
	holds   int // tool_use blocks held so far
	resp    warden.Response
	decided bool
	// last is the block that got the last text passText passed, and lastIndex its index: a stream's text
	// goes to one block at a time, and a paced chunk finds the map's lines out of the cache. Blocks are
	// never removed from blocks, so the pointer stays the map's.
	last      *streamBlock
	lastIndex int
}

type streamBlock struct {
	kind  string // text, thinking, tool_use, other
	typ   string // the block's own type (server_tool_use is a tool_use kind)
	out   int    // the index the client sees; -1 while held
	held  [][]byte
	text  strings.Builder // as released to the client (and so as decide sees it)
	came  strings.Builder // a gated block's text as it came
	gated bool
	// stopped: the block's stop went to the client
	stopped bool
	sig     string          // a thinking block's signature
	block   json.RawMessage // the start's content_block, for a block of another kind
	id      string
	name    string
	args    strings.Builder
	hasArg  bool // input_json_delta arrived: the start's input is a placeholder
	start   json.RawMessage
}

type streamEvent struct {
	Type         string            `json:"type"`
	Index        int               `json:"index"`
	ContentBlock *streamBlockStart `json:"content_block"`
	Delta        *streamDelta      `json:"delta"`
}

// streamBlockStart is what a content_block_start event's block says.
type streamBlockStart struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	Text  string          `json:"text"`
}

// streamDelta is what a content_block_delta or message_delta event's delta says.
type streamDelta struct {
	Type        string  `json:"type"`
	Text        string  `json:"text"`
	Thinking    string  `json:"thinking"`
	PartialJSON string  `json:"partial_json"`
	Signature   string  `json:"signature"`
	StopReason  *string `json:"stop_reason"`
}

func (g *streamGuard) write(b []byte) error {
	if _, err := g.out.Write(b); err != nil {
		return err
	}
	g.flushes.Wrote()
	return nil
}

func (g *streamGuard) event(ev sse.Event) error {
	if err := streamend.Event(ev, g.decided); err != nil {
		return err
	}
	if !ev.HasData {
		return g.write(ev.Raw)
	}
	if index, text, ok := scanTextDelta(ev.Data); ok {
		if b := g.blocks[index]; b != nil && b.out >= 0 && b.typ == "text" {
			if g.gated(b) {
				return g.gateText(ev, index, b, text)
			}
			b.text.WriteString(text)
			return g.pass(ev, index, b)
		}
	}
	data := strings.TrimSpace(ev.Data)
	if !strings.HasPrefix(data, "{") {
		return streamend.ErrNotJSON
	}
	e, err := g.readEvent(data)
	if err != nil {
		return fmt.Errorf("stream event is not JSON: %v", err)
	}
	if err := envelope.Envelope([]byte(data)); err != nil {
		return fmt.Errorf("an ambiguous stream event: %v", err)
	}
	switch e.Type {
	case "content_block_start":
		if e.ContentBlock == nil {
			return errors.New("content_block_start without content_block")
		}
		if g.blocks[e.Index] != nil {
			return fmt.Errorf("content block %d started twice", e.Index)
		}
		if g.gate != nil && e.ContentBlock.Type == "text" && len(e.ContentBlock.Text) > 0 {
			return errors.New("a text block starts with text; Warden's stream guardrails read text from its deltas only")
		}
		b := &streamBlock{kind: e.ContentBlock.Type, typ: e.ContentBlock.Type, out: -1}
		switch b.kind {
		case "text", "thinking", "tool_use", "server_tool_use":
		default:
			var start struct {
				Block json.RawMessage `json:"content_block"`
			}
			_ = json.Unmarshal([]byte(data), &start)
			b.block = start.Block
		}
		g.blocks[e.Index] = b
		g.order = append(g.order, e.Index)
		switch b.kind {
		case "tool_use", "server_tool_use":
			if !g.decided {
				b.kind, b.id, b.name, b.start = "tool_use", e.ContentBlock.ID, e.ContentBlock.Name, e.ContentBlock.Input
				b.held = append(b.held, ev.Raw)
				g.holds++
				return nil
			}
		}
		// A block that passes moves down by the blocks held before it, so the stream keeps its own
		// numbering (gaps included) where nothing was held.
		b.out = g.base + e.Index - g.holds
		if g.decided {
			b.out = g.next
		}
		if b.out < g.base {
			return fmt.Errorf("content block %d starts after a later one", e.Index)
		}
		g.next = max(g.next, b.out+1)
		return g.pass(ev, e.Index, b)
	case "content_block_delta", "content_block_stop":
		b := g.blocks[e.Index]
		if b == nil {
			return fmt.Errorf("%s for content block %d, which did not start", e.Type, e.Index)
		}
		if e.Delta != nil && !deltaFits(e.Delta.Type, b.typ) {
			// A client may show a text delta whatever block it falls in, and run a tool whose input came in
			// another block's deltas; Warden reads a delta as its block's. A mismatch has no one reading.
			return fmt.Errorf("a %s in a content block of type %q", e.Delta.Type, b.typ)
		}
		if g.gated(b) {
			switch {
			case e.Type == "content_block_stop":
				if err := g.endText(b); err != nil {
					return err
				}
			case e.Delta != nil && e.Delta.Type == "text_delta":
				return g.gateText(ev, e.Index, b, e.Delta.Text)
			}
		}
		if e.Delta != nil {
			switch e.Delta.Type {
			case "text_delta":
				b.text.WriteString(e.Delta.Text)
			case "thinking_delta":
				b.text.WriteString(e.Delta.Thinking)
			case "input_json_delta":
				b.args.WriteString(e.Delta.PartialJSON)
				b.hasArg = true
			case "signature_delta":
				b.sig += e.Delta.Signature
			}
		}
		if b.out < 0 {
			b.held = append(b.held, ev.Raw)
			return nil
		}
		b.stopped = e.Type == "content_block_stop"
		return g.pass(ev, e.Index, b)
	case "message_delta":
		if e.Delta != nil && e.Delta.StopReason != nil && !g.decided {
			return g.finish(ev, *e.Delta.StopReason)
		}
	case "message_start":
		if g.follows {
			return nil
		}
	}
	return g.write(ev.Raw)
}

// readEvent reads an event that is not a plain text delta: the start of a text block, which every stream
// opens with, from its bytes when they are exactly as Anthropic writes it (scanTextBlockStart), anything
// else with readStreamEvent.
func (g *streamGuard) readEvent(data string) (streamEvent, error) {
	if index, ok := scanTextBlockStart(data); ok {
		return streamEvent{Type: "content_block_start", Index: index, ContentBlock: &streamBlockStart{Type: "text"}}, nil
	}
	return readStreamEvent([]byte(data))
}

// gated reports whether a block's text goes through the gate: a text block that passes.
func (g *streamGuard) gated(b *streamBlock) bool {
	return g.gate != nil && b.kind == "text" && b.out >= 0
}

// gateText passes a text delta through the gate: the event as it came when the gate releases exactly its
// text, a delta with the released text otherwise, nothing while the gate holds it all.
func (g *streamGuard) gateText(ev sse.Event, index int, b *streamBlock, text string) error {
	out, err := g.gate.Text(text)
	if err != nil {
		return err
	}
	b.gated = true
	b.came.WriteString(text)
	b.text.WriteString(out)
	if out == text {
		return g.pass(ev, index, b)
	}
	return g.writeTextDelta(b.out, out)
}

// endText lets the gate see the rest of a text block at its stop and sends what it releases.
func (g *streamGuard) endText(b *streamBlock) error {
	rest, err := g.gate.Finish(warden.Part{Kind: warden.PartFinish})
	if err != nil {
		return err
	}
	b.text.WriteString(rest)
	return g.writeTextDelta(b.out, rest)
}

// pass writes a block's event, renumbered when the client sees the block at another index.
// passText writes on, straight from the reader's buffer, a text delta of a block the client sees at its own
// index: what most of a stream is, and what event would do with it (the block gets the text, the client
// the event as it came). raw and data are the reader's buffer and are not kept: the text is copied into
// the block's builder, the event into the client's stream. Anything else reports false, and the caller
// reads the event as usual.
func (g *streamGuard) passText(raw []byte, data string) (bool, error) {
	index, text, ok := scanTextDelta(data)
	if !ok {
		return false, nil
	}
	b := g.last
	if b == nil || g.lastIndex != index {
		if b = g.blocks[index]; b == nil {
			return false, nil
		}
		g.last, g.lastIndex = b, index
	}
	if b.out != index || b.typ != "text" || g.gated(b) {
		return false, nil // a text delta outside a text block goes the ordinary way, which refuses it
	}
	b.text.WriteString(text)
	return true, g.write(raw)
}

func (g *streamGuard) pass(ev sse.Event, index int, b *streamBlock) error {
	if b.out == index {
		return g.write(ev.Raw)
	}
	return g.writeRenumbered(ev.Raw, b.out)
}

func (g *streamGuard) writeRenumbered(raw []byte, index int) error {
	ev, err := sse.ParseEvent(raw)
	if err != nil {
		return err
	}
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return err
	}
	for _, k := range obj.Keys() {
		if k != "index" && strings.EqualFold(k, "index") {
			obj.Delete(k) // encoding/json, and so clients in Go, would read a case variant as the index too
		}
	}
	_ = obj.SetJSON("index", index)
	b, _ := obj.MarshalJSON()
	return g.write(sse.Named(ev.Type, string(b)).Encode())
}

// finish decides the response once message_delta (ev) brings the stop reason, then releases what it keeps.
func (g *streamGuard) finish(ev sse.Event, stopReason string) error {
	g.decided = true
	if g.gate != nil { // text the stream left in a block it never stopped goes out in a block of its own
		rest, err := g.gate.Finish(warden.Part{Kind: warden.PartFinish, Finish: normalizeStop(stopReason)})
		if err != nil {
			return err
		}
		if rest != "" {
			if err := g.writeTextBlock(rest); err != nil {
				return err
			}
			g.resp.Message.Content = append(g.resp.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: rest})
		}
	}
	before := g.resp
	before.Signal = warden.Signal{Field: "stop_reason", Value: stopReason}
	before.FinishReason = normalizeStop(stopReason)
	for _, idx := range g.order {
		b := g.blocks[idx]
		switch b.kind {
		case "text":
			before.Message.Content = append(before.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: b.text.String()})
		case "thinking":
			before.Message.Content = append(before.Message.Content, warden.ContentPart{Kind: warden.ContentReasoning, Text: b.text.String()})
		case "tool_use":
			before.Message.ToolCalls = append(before.Message.ToolCalls, warden.NewToolCall(b.id, b.name, []byte(b.arguments())))
		}
	}
	after, err := g.decide(before)
	if err != nil {
		g.c.body = g.body()
		return err
	}
	keep := map[string]warden.ToolCall{}
	for _, c := range after.Message.ToolCalls {
		keep[c.ID] = c
	}
	for _, idx := range g.order {
		b := g.blocks[idx]
		if b.kind != "tool_use" {
			continue
		}
		c, ok := keep[b.id]
		if !ok {
			b.held = nil
			continue
		}
		b.out = g.next
		g.next++
		if string(c.Arguments) != b.arguments() {
			if err := g.writeCall(b, c); err != nil {
				return err
			}
			continue
		}
		for _, raw := range b.held {
			if b.out == idx {
				if err := g.write(raw); err != nil {
					return err
				}
			} else if err := g.writeRenumbered(raw, b.out); err != nil {
				return err
			}
		}
		b.held = nil
	}
	appended, _ := textdiff.Of(before.Message, after.Message)
	if len(appended) > 0 {
		if err := g.writeTextBlock(strings.Join(appended, "")); err != nil {
			return err
		}
	}
	if len(after.Message.ToolCalls) == 0 && stopReason == "tool_use" {
		return g.writeStopReason(ev, "end_turn")
	}
	return g.write(ev.Raw)
}

// body assembles the round's response as one whole Messages body (see ClientStream.Body). An empty text
// block, which the API refuses in a request, is left out.
func (g *streamGuard) body() []byte {
	type block struct {
		Type      string          `json:"type"`
		ID        string          `json:"id,omitempty"`
		Name      string          `json:"name,omitempty"`
		Input     json.RawMessage `json:"input,omitempty"`
		Text      string          `json:"text,omitempty"`
		Thinking  *string         `json:"thinking,omitempty"`
		Signature *string         `json:"signature,omitempty"`
	}
	content := make([]json.RawMessage, 0, len(g.order))
	for _, idx := range g.order {
		b := g.blocks[idx]
		var v block
		switch b.kind {
		case "text":
			v = block{Type: "text", Text: b.text.String()}
			if b.gated {
				v.Text = b.came.String()
			}
			if v.Text == "" {
				continue
			}
		case "thinking":
			thinking, sig := b.text.String(), b.sig
			v = block{Type: "thinking", Thinking: &thinking, Signature: &sig}
		case "tool_use":
			c := warden.NewToolCall(b.id, b.name, []byte(b.arguments()))
			v = block{Type: b.typ, ID: b.id, Name: b.name, Input: reqtext.CallArguments(c)}
		default:
			if len(b.block) > 0 {
				content = append(content, b.block)
			}
			continue
		}
		raw, _ := json.Marshal(v)
		content = append(content, raw)
	}
	body, _ := json.Marshal(struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}{"assistant", content})
	return body
}

// arguments returns a tool_use block's input as it streamed: the input_json_delta fragments joined, or the
// start's input when no delta came.
func (b *streamBlock) arguments() string {
	if !b.hasArg {
		return string(b.start)
	}
	return b.args.String()
}

// writeCall sends a kept call whose arguments decide changed: its start as it came, the new arguments in one
// input_json_delta, and its stop.
func (g *streamGuard) writeCall(b *streamBlock, c warden.ToolCall) error {
	if !c.Complete {
		return errors.New("a modified tool call's arguments are not JSON")
	}
	if err := g.writeRenumbered(b.held[0], b.out); err != nil {
		return err
	}
	delta, _ := json.Marshal(blockEvent{Type: "content_block_delta", Index: b.out, Delta: &blockDelta{Type: "input_json_delta", PartialJSON: string(c.Arguments)}})
	stop, _ := json.Marshal(blockEvent{Type: "content_block_stop", Index: b.out})
	b.held = nil
	if err := g.write(sse.Named("content_block_delta", string(delta)).Encode()); err != nil {
		return err
	}
	return g.write(sse.Named("content_block_stop", string(stop)).Encode())
}

// deltaFits says whether a delta of type delta belongs in a content block of type block, as the Messages
// stream pairs them; a delta type Warden does not know is left to the client.
func deltaFits(delta, block string) bool {
	switch delta {
	case "text_delta", "citations_delta":
		return block == "text"
	case "thinking_delta", "signature_delta":
		return block == "thinking"
	case "input_json_delta":
		return strings.HasSuffix(block, "tool_use")
	}
	return true
}

// blockEvent is a content block event Warden writes, its fields in the order Anthropic writes them.
type blockEvent struct {
	Type         string      `json:"type"`
	Index        int         `json:"index"`
	ContentBlock *blockDelta `json:"content_block,omitempty"`
	Delta        *blockDelta `json:"delta,omitempty"`
}

type blockDelta struct {
	Type        string  `json:"type"`
	Text        *string `json:"text,omitempty"`
	PartialJSON string  `json:"partial_json,omitempty"`
}

// writeTextBlock sends text as one more text block, as Anthropic streams one: start, one delta, stop.
func (g *streamGuard) writeTextBlock(text string) error {
	i := g.next
	g.next++
	empty := ""
	start, _ := json.Marshal(blockEvent{Type: "content_block_start", Index: i, ContentBlock: &blockDelta{Type: "text", Text: &empty}})
	stop, _ := json.Marshal(blockEvent{Type: "content_block_stop", Index: i})
	if err := g.write(sse.Named("content_block_start", string(start)).Encode()); err != nil {
		return err
	}
	if err := g.writeTextDelta(i, text); err != nil {
		return err
	}
	return g.write(sse.Named("content_block_stop", string(stop)).Encode())
}

// writeTextDelta sends text as a text_delta of block i; no event for no text.
func (g *streamGuard) writeTextDelta(i int, text string) error {
	if text == "" {
		return nil
	}
	delta, _ := json.Marshal(blockEvent{Type: "content_block_delta", Index: i, Delta: &blockDelta{Type: "text_delta", Text: &text}})
	return g.write(sse.Named("content_block_delta", string(delta)).Encode())
}

// writeStopReason sends message_delta with another stop reason, every other field as it came.
func (g *streamGuard) writeStopReason(ev sse.Event, stopReason string) error {
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return err
	}
	rd, _ := obj.Get("delta")
	delta, err := jsonobj.Parse(rd)
	if err != nil {
		return err
	}
	_ = delta.SetJSON("stop_reason", stopReason)
	db, _ := delta.MarshalJSON()
	obj.Set("delta", db)
	b, _ := obj.MarshalJSON()
	return g.write(sse.Named(ev.Type, string(b)).Encode())
}

// MessageStream returns a Messages event stream of one message with one text block and stop reason
// end_turn, for streamed answers Warden gives itself: the explanation of a denied call whose follow-up
// the provider did not take, joined after the stream before it.
func MessageStream(id, model, text string) []byte {
	events := []struct {
		typ  string
		data any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
			"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 0, "output_tokens": 0}}}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 0}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}
	var out []byte
	for _, e := range events {
		b, _ := json.Marshal(e.data)
		out = append(out, sse.Named(e.typ, string(b)).Encode()...)
	}
	return out
}
