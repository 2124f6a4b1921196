package bedrock

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
	"github.com/agentwarden/warden/wire/internal/streamend"
	"github.com/agentwarden/warden/wire/internal/textdiff"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// Decide is what the surface does with the whole response once its stop reason is known: it returns the
// response to send (the same, or a replacement whose tool calls are a subset of the original's, possibly
// with other arguments, and whose text may have more appended), or an error that ends the stream (a
// tripwire).
type Decide = func(resp warden.Response) (warden.Response, error)

// maxMessage bounds one event-stream message, as the AWS framing does (16 MiB payload and headers).
const maxMessage = 16<<20 + 128<<10

// GuardStream copies a ConverseStream response (AWS event-stream framing, application/vnd.amazon.eventstream)
// from in to out under a guard. Text and reasoning deltas go out at once, each message in its original bytes.
// A toolUse block (its contentBlockStart, deltas and contentBlockStop) is held until messageStop brings the
// stop reason; then decide sees the accumulated response, the held blocks of the calls it kept are released as
// they came (a changed call as its start, one delta with the new input, and its stop), a removed call's never
// reach the client, text decide appended goes out as one more text block before messageStop, and a stopReason
// of tool_use becomes end_turn when no call is left. Block indexes are renumbered only where a held block
// moved. Messages Warden writes are framed with their own checksums. flush, when set, is called after each
// write.
//
// With a gate (the stream guardrails), each text block's deltas go through it instead of out at once: a
// message goes out in its original bytes when the gate releases exactly its text, as a delta carrying the
// released text when it releases other text, and not at all while it holds everything. At the block's
// contentBlockStop the gate sees the rest, which goes out as one more delta before the stop; decide sees
// the text as released. Reasoning is not gated.
//
// On an error, and when the stream ends before messageStop while calls are held, nothing held is released.
func GuardStream(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	g := &streamGuard{out: out, flush: flush, decide: decide, gate: gate, blocks: map[int]*streamBlock{}}
	g.resp.Message.Role = warden.RoleAssistant
	for {
		raw, err := readMessage(in)
		if errors.Is(err, io.EOF) {
			return streamend.End(g.decided)
		}
		if err != nil {
			return err
		}
		if err := g.message(raw); err != nil {
			return err
		}
	}
}

// readMessage reads one framed message whole: its 4-byte total length says how much.
func readMessage(in io.Reader) ([]byte, error) {
	var prelude [4]byte
	if _, err := io.ReadFull(in, prelude[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errors.New("the stream ends inside a message")
		}
		return nil, err
	}
	n := binary.BigEndian.Uint32(prelude[:])
	if n < 16 || n > maxMessage {
		return nil, fmt.Errorf("an event-stream message of %d bytes is not valid", n)
	}
	raw := make([]byte, n)
	copy(raw, prelude[:])
	if _, err := io.ReadFull(in, raw[4:]); err != nil {
		return nil, errors.New("the stream ends inside a message")
	}
	return raw, nil
}

type streamGuard struct {
	out     io.Writer
	flush   func()
	decide  Decide
	gate    warden.TextGate
	blocks  map[int]*streamBlock
	order   []int
	holds   int
	next    int
	resp    warden.Response
	decided bool
}

type streamBlock struct {
	kind    string // text, reasoning, toolUse
	out     int    // the index the client sees; -1 while held
	held    []eventstream.Message
	text    strings.Builder
	id      string
	name    string
	input   strings.Builder
	headers eventstream.Headers // of the block's first message, for messages Warden writes
}

type streamPayload struct {
	ContentBlockIndex *int `json:"contentBlockIndex"`
	Start             *struct {
		ToolUse *struct {
			ToolUseID string `json:"toolUseId"`
			Name      string `json:"name"`
		} `json:"toolUse"`
	} `json:"start"`
	Delta *struct {
		Text    *string `json:"text"`
		ToolUse *struct {
			Input string `json:"input"`
		} `json:"toolUse"`
		Reasoning *struct {
			Text string `json:"text"`
		} `json:"reasoningContent"`
	} `json:"delta"`
	StopReason *string `json:"stopReason"`
}

func (g *streamGuard) write(b []byte) error {
	if _, err := g.out.Write(b); err != nil {
		return err
	}
	if g.flush != nil {
		g.flush()
	}
	return nil
}

func (g *streamGuard) writeMessage(m eventstream.Message) error {
	var buf bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&buf, m); err != nil {
		return err
	}
	return g.write(buf.Bytes())
}

func header(m eventstream.Message, name string) string {
	if v := m.Headers.Get(name); v != nil {
		return v.String()
	}
	return ""
}

func (g *streamGuard) message(raw []byte) error {
	if mt, et, payload, ok := scanFrame(raw); ok {
		if g.decided || mt != "event" {
			return g.write(raw)
		}
		if et == "contentBlockDelta" {
			if idx, text, ok := scanTextDelta(payload); ok {
				if b := g.blocks[idx]; b != nil && b.out == idx && b.kind == "text" {
					if g.gate != nil {
						return g.gateText(raw, nil, payload, b, idx, text)
					}
					b.text.WriteString(text)
					return g.write(raw)
				}
			}
		}
	}
	m, err := eventstream.NewDecoder().Decode(bytes.NewReader(raw), nil)
	if err != nil {
		return fmt.Errorf("event-stream message: %v", err)
	}
	if g.decided || header(m, ":message-type") != "event" {
		return g.write(raw)
	}
	typ := header(m, ":event-type")
	var p streamPayload
	switch typ {
	case "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop":
		if err := json.Unmarshal(m.Payload, &p); err != nil {
			return fmt.Errorf("%s payload is not JSON: %v", typ, err)
		}
		if err := envelope.Envelope(m.Payload); err != nil {
			return fmt.Errorf("an ambiguous %s payload: %v", typ, err)
		}
	default:
		return g.write(raw)
	}
	if typ == "messageStop" {
		stop := ""
		if p.StopReason != nil {
			stop = *p.StopReason
		}
		return g.finish(raw, m, stop)
	}
	if p.ContentBlockIndex == nil {
		return fmt.Errorf("%s without contentBlockIndex", typ)
	}
	idx := *p.ContentBlockIndex
	b := g.blocks[idx]
	if b == nil {
		b = &streamBlock{kind: "text", out: -1, headers: m.Headers}
		if typ == "contentBlockStart" && p.Start != nil && p.Start.ToolUse != nil {
			b.kind, b.id, b.name = "toolUse", p.Start.ToolUse.ToolUseID, p.Start.ToolUse.Name
			g.holds++
		} else {
			b.out = idx - g.holds
			if b.out < 0 {
				return fmt.Errorf("content block %d starts after a later one", idx)
			}
			g.next = max(g.next, b.out+1)
		}
		g.blocks[idx] = b
		g.order = append(g.order, idx)
	}
	if g.gate != nil && b.kind == "text" && b.out >= 0 {
		switch {
		case typ == "contentBlockDelta" && p.Delta != nil && p.Delta.Text != nil:
			return g.gateText(raw, &m, nil, b, idx, *p.Delta.Text)
		case typ == "contentBlockStop":
			if err := g.endText(m.Headers, b); err != nil {
				return err
			}
		}
	}
	if p.Delta != nil && (p.Delta.ToolUse != nil) != (b.kind == "toolUse") {
		// A tool's input outside a toolUse block, or text inside one: a client may run or show what Warden
		// read as another block's, so the delta has no one reading.
		return fmt.Errorf("a contentBlockDelta that does not fit content block %d", idx)
	}
	if p.Delta != nil {
		switch {
		case p.Delta.Text != nil:
			b.text.WriteString(*p.Delta.Text)
		case p.Delta.Reasoning != nil:
			if b.kind == "text" && b.text.Len() == 0 {
				b.kind = "reasoning"
			}
			b.text.WriteString(p.Delta.Reasoning.Text)
		case p.Delta.ToolUse != nil:
			b.input.WriteString(p.Delta.ToolUse.Input)
		}
	}
	if b.out < 0 {
		b.held = append(b.held, m)
		return nil
	}
	if b.out == idx {
		return g.write(raw)
	}
	return g.writeRenumbered(m, b.out)
}

// gateText passes a text delta (the message raw, m when already decoded, payload when scanTextDelta read
// it) of block b at the provider's index idx through the gate: the message as it came when the gate
// releases exactly its text, a delta with the released text otherwise, nothing while the gate holds it all.
func (g *streamGuard) gateText(raw []byte, m *eventstream.Message, payload []byte, b *streamBlock, idx int, text string) error {
	out, err := g.gate.Text(text)
	if err != nil {
		return err
	}
	b.text.WriteString(out)
	if out == text && b.out == idx {
		return g.write(raw)
	}
	if payload != nil && out != "" && b.out == idx {
		// scanTextDelta read the text between the quotes after textDeltaHead with no escape in it: the new
		// string takes its place, the padding and headers stay, and the frame gets new checksums.
		at := bytes.Index(payload, []byte(textDeltaHead)) + len(textDeltaHead) // the opening quote
		np := append(append(append([]byte(nil), payload[:at]...), reqtext.Quote(out)...), payload[at+len(text)+2:]...)
		return g.write(reframe(raw, np))
	}
	if m == nil {
		dm, err := eventstream.NewDecoder().Decode(bytes.NewReader(raw), nil)
		if err != nil {
			return fmt.Errorf("event-stream message: %v", err)
		}
		m = &dm
	}
	if out == text {
		return g.writeRenumbered(*m, b.out)
	}
	return g.writeTextDelta(m.Headers, b.out, out)
}

// endText lets the gate see the rest of a text block at its stop and sends what it releases.
func (g *streamGuard) endText(like eventstream.Headers, b *streamBlock) error {
	rest, err := g.gate.Finish(warden.Part{Kind: warden.PartFinish})
	if err != nil {
		return err
	}
	b.text.WriteString(rest)
	return g.writeTextDelta(like, b.out, rest)
}

func (g *streamGuard) writeRenumbered(m eventstream.Message, idx int) error {
	obj, err := jsonobj.Parse(m.Payload)
	if err != nil {
		return err
	}
	_ = obj.SetJSON("contentBlockIndex", idx)
	b, _ := obj.MarshalJSON()
	return g.writeMessage(eventstream.Message{Headers: m.Headers, Payload: b})
}

func (g *streamGuard) finish(raw []byte, m eventstream.Message, stopReason string) error {
	g.decided = true
	if g.gate != nil { // text the stream left in a block it never stopped goes out in a block of its own
		rest, err := g.gate.Finish(warden.Part{Kind: warden.PartFinish, Finish: normalizeStop(stopReason)})
		if err != nil {
			return err
		}
		if rest != "" {
			if err := g.writeTextBlock(m.Headers, rest); err != nil {
				return err
			}
			g.resp.Message.Content = append(g.resp.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: rest})
		}
	}
	before := g.resp
	before.Signal = warden.Signal{Field: "stopReason", Value: stopReason}
	before.FinishReason = normalizeStop(stopReason)
	for _, idx := range g.order {
		b := g.blocks[idx]
		switch b.kind {
		case "text":
			before.Message.Content = append(before.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: b.text.String()})
		case "reasoning":
			before.Message.Content = append(before.Message.Content, warden.ContentPart{Kind: warden.ContentReasoning, Text: b.text.String()})
		case "toolUse":
			before.Message.ToolCalls = append(before.Message.ToolCalls, warden.NewToolCall(b.id, b.name, []byte(b.input.String())))
		}
	}
	after, err := g.decide(before)
	if err != nil {
		return err
	}
	keep := map[string]warden.ToolCall{}
	for _, c := range after.Message.ToolCalls {
		keep[c.ID] = c
	}
	for _, idx := range g.order {
		b := g.blocks[idx]
		if b.kind != "toolUse" {
			continue
		}
		c, ok := keep[b.id]
		if !ok {
			b.held = nil
			continue
		}
		b.out = g.next
		g.next++
		changed := string(c.Arguments) != b.input.String()
		if changed && !c.Complete {
			return errors.New("a modified tool call's arguments are not JSON")
		}
		wroteInput := false
		for _, hm := range b.held {
			if changed && header(hm, ":event-type") == "contentBlockDelta" {
				if wroteInput {
					continue
				}
				wroteInput = true
				payload, _ := json.Marshal(map[string]any{"contentBlockIndex": b.out, "delta": map[string]any{"toolUse": map[string]string{"input": string(c.Arguments)}}})
				if err := g.writeMessage(eventstream.Message{Headers: hm.Headers, Payload: payload}); err != nil {
					return err
				}
				continue
			}
			if err := g.writeRenumbered(hm, b.out); err != nil {
				return err
			}
		}
		b.held = nil
	}
	if appended, _ := textdiff.Of(before.Message, after.Message); len(appended) > 0 {
		if err := g.writeTextBlock(m.Headers, strings.Join(appended, "")); err != nil {
			return err
		}
	}
	if len(after.Message.ToolCalls) == 0 && stopReason == "tool_use" {
		obj, err := jsonobj.Parse(m.Payload)
		if err != nil {
			return err
		}
		_ = obj.SetJSON("stopReason", "end_turn")
		b, _ := obj.MarshalJSON()
		return g.writeMessage(eventstream.Message{Headers: m.Headers, Payload: b})
	}
	return g.write(raw)
}

// writeTextBlock sends text as one more text block: a delta and a stop, with the stream's own headers.
func (g *streamGuard) writeTextBlock(like eventstream.Headers, text string) error {
	i := g.next
	g.next++
	if err := g.writeTextDelta(like, i, text); err != nil {
		return err
	}
	stop, _ := json.Marshal(map[string]any{"contentBlockIndex": i})
	return g.writeMessage(eventstream.Message{Headers: withEventType(like, "contentBlockStop"), Payload: stop})
}

// writeTextDelta sends text as a delta of block i, with the stream's own headers; no message for no text.
func (g *streamGuard) writeTextDelta(like eventstream.Headers, i int, text string) error {
	if text == "" {
		return nil
	}
	delta, _ := json.Marshal(map[string]any{"contentBlockIndex": i, "delta": map[string]string{"text": text}})
	return g.writeMessage(eventstream.Message{Headers: withEventType(like, "contentBlockDelta"), Payload: delta})
}

func withEventType(like eventstream.Headers, typ string) eventstream.Headers {
	h := like.Clone()
	h.Set(":event-type", eventstream.StringValue(typ))
	return h
}

// StreamException returns a framed exception message that ends a ConverseStream with message, for streams
// Warden stops itself; the AWS SDK reports it as a ModelStreamErrorException.
func StreamException(message string) []byte {
	var h eventstream.Headers
	h.Set(":message-type", eventstream.StringValue("exception"))
	h.Set(":exception-type", eventstream.StringValue("modelStreamErrorException"))
	h.Set(":content-type", eventstream.StringValue("application/json"))
	payload, _ := json.Marshal(map[string]string{"message": message})
	var buf bytes.Buffer
	_ = eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: h, Payload: payload})
	return buf.Bytes()
}
