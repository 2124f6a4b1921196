package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/relay"
	"github.com/agentwarden/warden/wire/internal/reqtext"
	"github.com/agentwarden/warden/wire/internal/streamend"
	"github.com/agentwarden/warden/wire/sse"
)

// Decide is what the surface does with a choice's whole response once its finish reason is known: it
// returns the response to send (the same, or a replacement whose tool calls are a subset of the original's
// and whose text may have more appended), or an error that ends the stream (a tripwire).
type Decide = func(resp warden.Response) (warden.Response, error)

// GuardChatStream copies a chat.completion.chunk stream from in to out under a guard. Text deltas go out at
// once, in their original bytes. Tool-call deltas are held until the choice's finish reason arrives; then
// decide sees the accumulated response, and the held events are released in their original bytes for the
// calls it kept, while a call it removed never reaches the client. Text decide appended (a safety
// explanation, a deny message) goes out as one more content delta before the finish chunk. Every other
// event (role, usage, comments, data: [DONE]) passes as it came. flush, when set, is called as
// sse.Flusher says: once the events read so far are handled, and before a wait for more of in, so that each
// event reaches the client at once and a burst's events in one flush.
//
// With a gate (the stream guardrails), content deltas go through it instead of out at once: a chunk goes
// out in its original bytes when the gate releases exactly its delta, with the released text in its place
// (and no logprobs, which would spell the held text) when it releases other text, and not at all when it
// holds everything and the chunk says nothing else. At the finish the gate sees the rest, which goes out as
// one content delta before the tool calls, and decide sees the text as released. A gate guards one choice:
// a stream with several (n>1) ends with an error.
//
// On an error from decide, the gate or the stream, nothing held is released and the error is returned;
// the surface then ends the stream in its own way.
func GuardChatStream(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	return new(ChatClientStream).Guard(in, out, flush, decide, gate)
}

// ChatClientStream is the chunk stream one client reads, which may carry more than one provider stream:
// under on_deny retry a follow-up's stream, and after a stream guardrail's retry a continuation's, go on
// after the stream before (whose finish was not written), their chunks as they come, since each chunk
// stands alone. The zero value is a stream nothing has been written to. Not safe for concurrent use.
type ChatClientStream struct {
	template chunkTemplate // the last round's stream id, model and so on
	choice   int           // the choice the last round's gate guarded
	// id is the first round's chunk id, which the chunks of later rounds carry in place of their own: SDKs
	// accumulate one completion a stream and drop chunks with another id (openai-go does).
	id string
}

// chunkTemplate is the first chunk of a stream, whose id, object, created, model and fingerprint the
// chunks Warden writes carry. It is decoded only when Warden writes one, which most streams never do.
type chunkTemplate struct {
	data   string
	fields map[string]json.RawMessage
}

// from keeps data, a chunk read as JSON, when the template has no chunk yet.
func (t *chunkTemplate) from(data string) {
	if t.data == "" {
		t.data = strings.Clone(data)
	}
}

// field returns the chunk's member k.
func (t *chunkTemplate) field(k string) (json.RawMessage, bool) {
	if t.fields == nil && t.data != "" {
		_ = json.Unmarshal([]byte(t.data), &t.fields)
	}
	v, ok := t.fields[k]
	return v, ok
}

// Guard copies one provider stream into the client's stream as GuardChatStream does.
func (c *ChatClientStream) Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	out = c.writer(out)
	g := &chatStreamGuard{out: out, decide: decide, gate: gate, gated: -1, choices: map[int]*streamChoice{}}
	rd := sse.NewReader(in)
	g.flushes.Bind(rd, flush)
	g.gate, g.decide = g.flushes.Gate(gate), g.flushes.Decide(decide)
	defer func() {
		g.flushes.Flush()
		if g.template.data != "" {
			if c.id == "" {
				c.id = chunkID([]byte(g.template.data))
			}
			c.template = g.template
		}
		c.choice = max(g.gated, 0)
	}()
	for {
		if g.gate == nil { // a gate reads every text delta: nothing passes unread
			if raw, data, ok := rd.PeekData(); ok {
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
			return streamend.End(g.finished())
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

type chatStreamGuard struct {
	out     io.Writer
	flushes relay.Flusher
	decide  Decide
	gate    warden.TextGate
	gated   int // the choice the gate guards; -1 until one is seen
	choices map[int]*streamChoice
	// last is the choice that got the last text passText passed, and lastIndex its index: a stream's text
	// goes to one choice, and a paced chunk finds the map's lines out of the cache.
	last      *streamChoice
	lastIndex int
	// template holds the stream's id, object, created, model, system_fingerprint for chunks Warden writes.
	template chunkTemplate
	scanner  chunkScanner
}

type streamChoice struct {
	resp warden.Response
	// text is the choice's text so far; it becomes resp's one text part when the choice finishes (one
	// builder, not a part a delta).
	text  strings.Builder
	calls map[int]*streamCall
	held  []heldEvent
	// finished: the choice's finish reason came, and it was decided.
	finished bool
}

type streamCall struct {
	id, name string
	args     strings.Builder
}

// heldEvent is an event held back because it carries tool-call deltas: its raw bytes, and for each tool-call
// index it carries, so a removed call's deltas can be cut out.
type heldEvent struct {
	raw     []byte
	indexes []int
}

type chunk struct {
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
}

func (g *chatStreamGuard) write(b []byte) error {
	if _, err := g.out.Write(b); err != nil {
		return err
	}
	g.flushes.Wrote()
	return nil
}

// finished says whether every choice the stream opened has finished (and a stream opened one).
func (g *chatStreamGuard) finished() bool {
	for _, sc := range g.choices {
		if !sc.finished {
			return false
		}
	}
	return len(g.choices) > 0
}

func (g *chatStreamGuard) event(ev sse.Event) error {
	if err := streamend.Event(ev, g.finished()); err != nil {
		return err
	}
	data := strings.TrimSpace(ev.Data)
	if !ev.HasData || data == "[DONE]" {
		return g.write(ev.Raw)
	}
	if !strings.HasPrefix(data, "{") {
		return streamend.ErrNotJSON
	}
	if fc, ok := g.scanner.scan(data); ok {
		g.template.from(data)
		return g.fastEvent(ev, fc)
	}
	var c chunk
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		return fmt.Errorf("stream chunk is not JSON: %v", err)
	}
	if err := envelope.Envelope([]byte(data)); err != nil {
		return fmt.Errorf("an ambiguous stream chunk: %v", err)
	}
	g.template.from(data)
	var holdIdx []int
	finished := -1
	gatedAt, gatedContent := -1, ""
	for _, ch := range c.Choices {
		sc := g.choice(ch.Index)
		if ch.Delta.Role != "" {
			sc.resp.Message.Role = warden.Role(ch.Delta.Role)
		}
		if ch.Delta.Content != nil && *ch.Delta.Content != "" {
			if g.gate != nil {
				if gatedAt >= 0 {
					return errSeveralChoices // two choices' text in one chunk: neither may pass unchecked
				}
				gatedAt, gatedContent = ch.Index, *ch.Delta.Content
			} else {
				addText(sc, *ch.Delta.Content)
			}
		}
		for _, tc := range ch.Delta.ToolCalls {
			sc.addCall(callDelta{index: tc.Index, id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
			holdIdx = append(holdIdx, tc.Index)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			sc.resp.FinishReason = normalizeFinish(*ch.FinishReason)
			sc.resp.Signal = warden.Signal{Field: "finish_reason", Value: *ch.FinishReason}
			finished = ch.Index
		}
	}
	raw := ev.Raw
	if gatedAt >= 0 {
		var err error
		if raw, err = g.gateContent(raw, gatedAt, gatedContent, finished < 0 && len(holdIdx) == 0, nil); err != nil {
			return err
		}
	}
	if finished >= 0 {
		return g.finish(finished, raw, holdIdx)
	}
	if len(holdIdx) > 0 {
		if len(c.Choices) != 1 {
			// Holding a chunk that mixes several choices' calls is not supported: refuse rather than leak.
			return errors.New("a stream chunk carries tool calls for several choices; Warden guards streams with one choice (n=1)")
		}
		sc := g.choice(c.Choices[0].Index)
		sc.held = append(sc.held, heldEvent{raw: raw, indexes: holdIdx})
		return nil
	}
	if raw == nil {
		return nil // the gate holds all the chunk said
	}
	return g.write(raw)
}

// passText writes on, straight from the reader's buffer, a chunk that carries only text of a choice already seen
// and is shaped as the chunk read before it: what most of a stream is, and what event and fastEvent would
// do with it (the choice gets the text, the client the chunk as it came). raw and data are the reader's
// buffer and are not kept: the text is copied into the choice's builder, the chunk into the client's
// stream. Anything else reports false, and the caller reads the event as usual.
func (g *chatStreamGuard) passText(raw []byte, data string) (bool, error) {
	if g.template.data == "" || len(data) == 0 || data[0] != '{' || data[len(data)-1] != '}' {
		return false, nil // the first chunk, or one TrimSpace would change: event reads it
	}
	fc, ok := g.scanner.sameShape(data)
	if !ok || fc.index < 0 || fc.role != "" || fc.content == "" || fc.hasCall || fc.finishReason != "" {
		return false, nil
	}
	sc := g.last
	if sc == nil || g.lastIndex != fc.index {
		if sc = g.choices[fc.index]; sc == nil {
			return false, nil
		}
		g.last, g.lastIndex = sc, fc.index
	}
	addText(sc, fc.content)
	return true, g.write(raw)
}

// fastEvent handles an ordinary chunk read by scanChunk: its text passes at once (or through the gate),
// and a finish reason decides the choice.
func (g *chatStreamGuard) fastEvent(ev sse.Event, fc fastChunk) error {
	if fc.index < 0 {
		return g.write(ev.Raw) // no choices: a usage chunk
	}
	sc := g.choice(fc.index)
	if fc.role != "" {
		sc.resp.Message.Role = warden.Role(fc.role)
	}
	raw := ev.Raw
	if fc.content != "" {
		if g.gate == nil {
			addText(sc, fc.content)
		} else {
			var err error
			if raw, err = g.gateContent(raw, fc.index, fc.content, fc.finishReason == "" && !fc.hasCall, placeFast(ev.Data, fc)); err != nil {
				return err
			}
		}
	}
	var holdIdx []int
	if fc.hasCall {
		sc.addCall(fc.call)
		holdIdx = oneIndex(fc.call.index)
	}
	if fc.finishReason != "" {
		sc.resp.FinishReason = normalizeFinish(fc.finishReason)
		sc.resp.Signal = warden.Signal{Field: "finish_reason", Value: fc.finishReason}
		return g.finish(fc.index, raw, holdIdx)
	}
	if fc.hasCall {
		sc.held = append(sc.held, heldEvent{raw: raw, indexes: holdIdx})
		return nil
	}
	if raw == nil {
		return nil // the gate holds all the chunk said
	}
	return g.write(raw)
}

func addText(sc *streamChoice, text string) { sc.text.WriteString(text) }

// oneIndexes holds the one-index lists of the first calls, shared (and never written), so that holding a
// tool-call delta does not allocate one.
var oneIndexes = func() (t [8][]int) {
	for i := range t {
		t[i] = []int{i}
	}
	return t
}()

// oneIndex is the list of one call index i.
func oneIndex(i int) []int {
	if i >= 0 && i < len(oneIndexes) {
		return oneIndexes[i]
	}
	return []int{i}
}

// addCall adds a tool-call delta to the call it belongs to: its id and name when it has them, its piece of
// the arguments.
func (sc *streamChoice) addCall(d callDelta) {
	call := sc.calls[d.index]
	if call == nil {
		call = &streamCall{}
		sc.calls[d.index] = call
	}
	if d.id != "" {
		call.id = d.id
	}
	if d.name != "" {
		call.name = d.name
	}
	call.args.WriteString(d.args)
}

var errSeveralChoices = errors.New("the stream has several choices; Warden's stream guardrails guard streams with one choice (n=1)")

// bindGate makes choice i the one the gate guards, or fails when the gate already guards another.
func (g *chatStreamGuard) bindGate(i int) error {
	if g.gated < 0 {
		g.gated = i
	}
	if i != g.gated {
		return errSeveralChoices
	}
	return nil
}

// gateContent passes choice i's content delta through the gate and returns the event to send in place of
// raw: raw itself when the gate released exactly the delta, the event with the released text in its place
// otherwise, nil when nothing is left of it. When the event also finishes or carries tool calls (alone is
// false), the released text goes out at once as a chunk of its own and the event loses its content, so
// that the text keeps its place before what the finish releases. place, when set, puts text in the event
// faster than placeContent can.
func (g *chatStreamGuard) gateContent(raw []byte, i int, content string, alone bool, place func(text string) []byte) ([]byte, error) {
	if err := g.bindGate(i); err != nil {
		return nil, err
	}
	text, err := g.gate.Text(content)
	if err != nil {
		return nil, err
	}
	addText(g.choice(i), text)
	if alone && text == content {
		return raw, nil
	}
	if !alone {
		if text != "" {
			if err := g.write(g.contentChunk(i, text)); err != nil {
				return nil, err
			}
		}
		text = ""
	}
	if place != nil && text != "" {
		return place(text), nil
	}
	return placeContent(raw, i, text)
}

// placeFast returns, for a chunk scanChunk read, a function putting other text in place of its content:
// the chunk's own bytes around the new string. Nil when the choice has logprobs, which must go too.
func placeFast(data string, fc fastChunk) func(string) []byte {
	if fc.logprobs || fc.contentAt[1] == 0 {
		return nil
	}
	return func(text string) []byte {
		q := reqtext.Quote(text)
		b := make([]byte, 0, len("data: ")+len(data)-fc.contentAt[1]+fc.contentAt[0]+len(q)+2)
		b = append(b, "data: "...)
		b = append(b, data[:fc.contentAt[0]]...)
		b = append(b, q...)
		b = append(b, data[fc.contentAt[1]:]...)
		return append(b, "\n\n"...)
	}
}

// placeContent returns the event with choice i's content replaced by text (removed when empty) and its
// logprobs, which spell the original text, cleared; nil when the event then says nothing.
func placeContent(raw []byte, i int, text string) ([]byte, error) {
	return editChoices(raw, func(ch, delta *jsonobj.Object) error {
		var h struct {
			Index int `json:"index"`
		}
		if rawIndex, ok := ch.Get("index"); ok {
			_ = json.Unmarshal(rawIndex, &h)
		}
		if h.Index != i {
			return nil
		}
		if text == "" {
			delta.Delete("content")
		} else if err := delta.SetJSON("content", text); err != nil {
			return err
		}
		if _, ok := ch.Get("logprobs"); ok {
			ch.Set("logprobs", json.RawMessage("null"))
		}
		return nil
	}, func(delta *jsonobj.Object, finish json.RawMessage) bool {
		return delta.Len() > 0 || (len(finish) > 0 && string(finish) != "null")
	})
}

func (g *chatStreamGuard) choice(i int) *streamChoice {
	sc := g.choices[i]
	if sc == nil {
		sc = &streamChoice{calls: map[int]*streamCall{}}
		sc.resp.Message.Role = warden.RoleAssistant
		g.choices[i] = sc
	}
	return sc
}

// finish decides a choice whose finish reason arrived in the event raw, then releases what it keeps.
func (g *chatStreamGuard) finish(i int, raw []byte, evIdx []int) error {
	sc := g.choice(i)
	sc.finished = true
	if g.gate != nil {
		if err := g.bindGate(i); err != nil {
			return err
		}
		rest, err := g.gate.Finish(warden.Part{Kind: warden.PartFinish, Finish: sc.resp.FinishReason})
		if err != nil {
			return err
		}
		if rest != "" {
			addText(sc, rest)
			if err := g.write(g.contentChunk(i, rest)); err != nil {
				return err
			}
		}
	}
	idxs := make([]int, 0, len(sc.calls))
	for idx := range sc.calls {
		idxs = append(idxs, idx)
	}
	sort.Ints(idxs)
	byID := map[string]int{}
	for _, idx := range idxs {
		c := sc.calls[idx]
		sc.resp.Message.ToolCalls = append(sc.resp.Message.ToolCalls, warden.NewToolCall(c.id, c.name, []byte(c.args.String())))
		byID[c.id] = idx
	}
	if sc.text.Len() > 0 {
		sc.resp.Message.Content = []warden.ContentPart{{Kind: warden.ContentText, Text: sc.text.String()}}
	}
	before := sc.resp
	after, err := g.decide(before)
	if err != nil {
		return err
	}
	// keep maps each kept call's index to its index in what the client sees: clients expect 0, 1, 2 …
	keep := map[int]int{}
	var kept []int
	changed := map[int]warden.ToolCall{} // kept calls whose arguments decide changed, by stream index
	for _, c := range after.Message.ToolCalls {
		if idx, ok := byID[c.ID]; ok {
			kept = append(kept, idx)
			if string(c.Arguments) != sc.calls[idx].args.String() {
				changed[idx] = c
			}
		}
	}
	sort.Ints(kept)
	for n, idx := range kept {
		keep[idx] = n
	}
	// A changed call's original deltas are cut out like a removed call's; it goes out whole afterwards.
	release := keep
	if len(changed) > 0 {
		release = map[int]int{}
		for idx, n := range keep {
			if _, ok := changed[idx]; !ok {
				release[idx] = n
			}
		}
	}
	for _, h := range sc.held {
		if err := g.release(h.raw, h.indexes, release); err != nil {
			return err
		}
	}
	sc.held = nil
	for _, idx := range kept {
		c, ok := changed[idx]
		if !ok {
			continue
		}
		if !c.Complete {
			return errors.New("a modified tool call's arguments are not JSON")
		}
		if err := g.write(g.toolCallChunk(i, keep[idx], sc.calls[idx].id, sc.calls[idx].name, string(c.Arguments))); err != nil {
			return err
		}
	}
	if added := appendedText(before.Message, after.Message); added != "" {
		if err := g.write(g.contentChunk(i, added)); err != nil {
			return err
		}
	}
	if raw == nil {
		return nil
	}
	if len(kept) == 0 && len(before.Message.ToolCalls) > 0 {
		// Every call was removed: the turn finishes as a plain stop, so that a client branching on the
		// finish reason does not look for calls that are not there (whole bodies say stop too).
		if raw, err = withStopFinish(raw, i); err != nil {
			return err
		}
	}
	return g.release(raw, evIdx, keep)
}

// withStopFinish returns the chunk with choice i's finish_reason "tool_calls" written as "stop".
func withStopFinish(raw []byte, i int) ([]byte, error) {
	out, err := editChoices(raw, func(choice, _ *jsonobj.Object) error {
		var idx int
		if v, ok := choice.Get("index"); !ok || json.Unmarshal(v, &idx) != nil || idx != i {
			return nil
		}
		if v, ok := choice.Get("finish_reason"); ok && string(v) == `"tool_calls"` {
			return choice.SetJSON("finish_reason", "stop")
		}
		return nil
	}, carries)
	if err != nil || out == nil {
		return raw, err
	}
	return out, nil
}

// release writes a held event: as it came when all its calls are kept at their indexes, otherwise without
// the removed calls' deltas and with the kept ones renumbered, and not at all when nothing is left of it.
func (g *chatStreamGuard) release(raw []byte, indexes []int, keep map[int]int) error {
	same := true
	for _, idx := range indexes {
		n, ok := keep[idx]
		same = same && ok && n == idx
	}
	if same {
		return g.write(raw)
	}
	out, err := editChoices(raw, func(_, delta *jsonobj.Object) error {
		rawCalls, _ := delta.Get("tool_calls")
		var calls []json.RawMessage
		_ = json.Unmarshal(rawCalls, &calls)
		var kept []json.RawMessage
		for _, c := range calls {
			var h struct {
				Index int `json:"index"`
			}
			_ = json.Unmarshal(c, &h)
			n, ok := keep[h.Index]
			if !ok {
				continue
			}
			if n != h.Index {
				co, err := jsonobj.Parse(c)
				if err != nil {
					return err
				}
				_ = co.SetJSON("index", n)
				c, _ = co.MarshalJSON()
			}
			kept = append(kept, c)
		}
		if len(kept) > 0 {
			return delta.SetJSON("tool_calls", kept)
		}
		delta.Delete("tool_calls")
		return nil
	}, carries)
	if err != nil || out == nil {
		return err
	}
	return g.write(out)
}

// editChoices returns the chunk event raw re-encoded after edit has changed each choice and its delta, or
// nil when afterwards says reports of no choice that it still says something.
func editChoices(raw []byte, edit func(choice, delta *jsonobj.Object) error, says func(delta *jsonobj.Object, finish json.RawMessage) bool) ([]byte, error) {
	ev, err := sse.ParseEvent(raw)
	if err != nil {
		return nil, err
	}
	obj, err := jsonobj.ParseShared([]byte(ev.Data))
	if err != nil {
		return nil, err
	}
	rawChoices, _ := obj.Get("choices")
	var choices []json.RawMessage
	if err := json.Unmarshal(rawChoices, &choices); err != nil {
		return nil, err
	}
	meaningful := false
	for ci, rc := range choices {
		ch, err := jsonobj.Parse(rc)
		if err != nil {
			return nil, err
		}
		rd, _ := ch.Get("delta")
		delta, err := jsonobj.Parse(rd)
		if err != nil {
			return nil, err
		}
		if err := edit(ch, delta); err != nil {
			return nil, err
		}
		db, _ := delta.MarshalJSON()
		ch.Set("delta", db)
		finish, _ := ch.Get("finish_reason")
		meaningful = meaningful || says(delta, finish)
		choices[ci], _ = ch.MarshalJSON()
	}
	if !meaningful {
		return nil, nil
	}
	_ = obj.SetJSON("choices", choices)
	b, _ := obj.MarshalJSON()
	return sse.Data(string(b)).Encode(), nil
}

// carries reports whether a stripped choice still says something: a delta member that is not null (the
// role included: a chunk that carried the role beside a removed call still gives the client the role, which
// the SDKs' stream helpers require before any content, and Warden's explanation may be the next), or a
// finish.
func carries(delta *jsonobj.Object, finish json.RawMessage) bool {
	for _, k := range delta.Keys() {
		if v, _ := delta.Get(k); string(v) != "null" {
			return true
		}
	}
	return len(finish) > 0 && string(finish) != "null"
}

// contentChunk is a chunk carrying one content delta for choice i, with the stream's own id, created and
// model, in the order providers write them.
func (g *chatStreamGuard) contentChunk(i int, text string) []byte {
	var o jsonobj.Object
	for _, k := range []string{"id", "object", "created", "model", "system_fingerprint"} {
		if v, ok := g.template.field(k); ok {
			o.Set(k, v)
		}
	}
	type delta struct {
		Content string `json:"content"`
	}
	type choice struct {
		Index        int             `json:"index"`
		Delta        delta           `json:"delta"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason json.RawMessage `json:"finish_reason"`
	}
	_ = o.SetJSON("choices", []choice{{Index: i, Delta: delta{text}, Logprobs: json.RawMessage("null"), FinishReason: json.RawMessage("null")}})
	b, _ := o.MarshalJSON()
	return sse.Data(string(b)).Encode()
}

// Correct writes text the client reads after what it has of the message, as one content delta of the
// choice the stream guardrails guard: a self-correction's feedback, before the continuation's stream.
func (c *ChatClientStream) Correct(out io.Writer, flush func(), text string) error {
	g := &chatStreamGuard{out: c.writer(out), template: c.template}
	g.flushes.Bind(nil, flush)
	defer g.flushes.Flush()
	return g.write(g.contentChunk(c.choice, text))
}

// toolCallChunk is a chunk carrying one whole tool call for choice i at index n, for a call whose arguments
// a guardrail changed.
func (g *chatStreamGuard) toolCallChunk(i, n int, id, name, args string) []byte {
	var o jsonobj.Object
	for _, k := range []string{"id", "object", "created", "model", "system_fingerprint"} {
		if v, ok := g.template.field(k); ok {
			o.Set(k, v)
		}
	}
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		Index    int      `json:"index"`
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	type delta struct {
		ToolCalls []toolCall `json:"tool_calls"`
	}
	type choice struct {
		Index        int             `json:"index"`
		Delta        delta           `json:"delta"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason json.RawMessage `json:"finish_reason"`
	}
	d := delta{ToolCalls: []toolCall{{Index: n, ID: id, Type: "function", Function: function{Name: name, Arguments: args}}}}
	_ = o.SetJSON("choices", []choice{{Index: i, Delta: d, Logprobs: json.RawMessage("null"), FinishReason: json.RawMessage("null")}})
	b, _ := o.MarshalJSON()
	return sse.Data(string(b)).Encode()
}

// appendedText returns the text after has that before did not have.
func appendedText(before, after warden.Message) string {
	b, a := before.Text(), after.Text()
	if strings.HasPrefix(a, b) {
		return a[len(b):]
	}
	return ""
}

// ChatMessageStream returns a chat.completion.chunk stream whose one choice is an assistant message with
// text and a stop, ended by [DONE], for streamed answers Warden gives itself: the explanation of a denied
// call whose follow-up the provider did not take, joined after the stream before it.
func ChatMessageStream(id, model, text string) []byte {
	chunk := func(delta map[string]any, finish any) string {
		b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}})
		return string(b)
	}
	var out []byte
	out = append(out, sse.Data(chunk(map[string]any{"role": "assistant", "content": text}, nil)).Encode()...)
	out = append(out, sse.Data(chunk(map[string]any{}, "stop")).Encode()...)
	return append(out, sse.Data("[DONE]").Encode()...)
}

// writer is out for the chunks of a round after the first, and of Warden's own between rounds: with the
// first round's id in place of theirs.
func (c *ChatClientStream) writer(out io.Writer) io.Writer {
	if c.id == "" {
		return out
	}
	return &chunkIDWriter{w: out, to: c.id}
}

// chunkID is a chunk's top-level id, or "".
func chunkID(data []byte) string {
	var c struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(data, &c)
	return c.ID
}

// chunkIDWriter writes a later round's chunks with the first round's id in place of their own, which it
// learns from the first chunk written. Each write holds whole events, as the stream guard writes them.
type chunkIDWriter struct {
	w        io.Writer
	to, from string
	learned  bool
}

func (c *chunkIDWriter) Write(p []byte) (int, error) {
	if !c.learned {
		if i := bytes.Index(p, []byte("data:")); i >= 0 {
			line := p[i+len("data:"):]
			if j := bytes.IndexByte(line, '\n'); j >= 0 {
				line = line[:j]
			}
			c.from, c.learned = chunkID(bytes.TrimSpace(line)), true
		}
	}
	out := p
	if c.from != "" && c.from != c.to {
		for _, sep := range []string{`":"`, `": "`} {
			out = bytes.ReplaceAll(out, []byte(`"id`+sep+c.from+`"`), []byte(`"id`+sep+c.to+`"`))
		}
	}
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
