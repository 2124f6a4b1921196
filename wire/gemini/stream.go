package gemini

import (
	"bytes"
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

// Decide is what the surface does with the whole response once its finish reason is known: it returns the
// response to send (the same, or a replacement whose tool calls are a subset of the original's, possibly
// with other arguments, and whose text may have more appended), or an error that ends the stream (a
// tripwire).
type Decide = func(resp warden.Response) (warden.Response, error)

// GuardStream copies a streamGenerateContent stream (alt=sse: each event one GenerateContentResponse) from in
// to out under a guard. Chunks without functionCall parts go out at once, in their original bytes.
// functionCall parts are cut out of their chunk and held (a chunk left with nothing else is not sent) until a
// chunk brings the candidate's finishReason, or a blocked prompt's promptFeedback; then decide sees the
// accumulated response, and that last chunk goes out carrying, before its own parts, the held calls decide
// kept (with changed arguments where it changed them), and after them the text decide appended. Thought
// signatures of removed calls move as in Set. flush, when set, is called as sse.Flusher says: once the events
// read so far are handled, and before a wait for more of in.
//
// With a gate (the stream guardrails), the answer's text parts go through it before anything else reads the
// chunk: a chunk goes out in its original bytes when the gate releases exactly its text, with the released
// text in place of its text parts when it releases other text (a part it holds whole is left out, and a
// chunk left with nothing is not sent), and at the finish the rest comes out as one more text part of the
// finishing chunk; decide sees the text as released. Thoughts are not gated.
//
// Gemini streams one candidate; a chunk with function calls for several candidates, or with text for
// several under a gate, is refused rather than guarded. On an error from decide or from the stream, and when the stream ends before a finish reason while
// calls are held, nothing held is released and an error is returned.
func GuardStream(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	return new(ClientStream).Guard(in, out, flush, decide, gate)
}

// ClientStream is the stream one client reads. Under on_deny retry it carries more than one provider
// stream: a follow-up's stream goes on where the stream whose call was denied stopped, before that
// stream's finishing chunk (which Guard does not write when decide fails); its chunks go on as they come,
// since each chunk stands alone. The zero value is a stream nothing has been written to. Not safe for
// concurrent use.
type ClientStream struct {
	body []byte // the last round's response as a whole body, when decide failed
	eol  string // the line ending of the last round's events
}

// Correct writes text the client reads after what it has of the message, as a chunk of one text part: a
// self-correction's feedback, before the continuation's stream.
func (c *ClientStream) Correct(out io.Writer, flush func(), text string) error {
	g := &streamGuard{out: out, eol: c.eol}
	g.flushes.Bind(nil, flush)
	defer g.flushes.Flush()
	chunk, err := json.Marshal(map[string]any{"candidates": []map[string]any{{"index": 0,
		"content": map[string]any{"role": "model", "parts": []map[string]string{{"text": text}}}}}})
	if err != nil {
		return err
	}
	return g.write(sse.Data(string(chunk)).EncodeLines(g.eolOr()))
}

// Body returns the response of the last round, when its decide failed, as a whole generateContent body:
// its text, then the function calls and the finishing chunk's parts as the provider wrote them, thought
// signatures included, which Gemini requires back with function calls. Nil otherwise.
func (c *ClientStream) Body() []byte { return c.body }

// Guard copies one provider stream into the client's stream as GuardStream does.
func (c *ClientStream) Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	c.body = nil
	g := &streamGuard{out: out, decide: decide, gate: gate, c: c}
	rd := sse.NewReader(in)
	g.flushes.Bind(rd, flush)
	g.gate, g.decide = g.flushes.Gate(gate), g.flushes.Decide(decide)
	defer func() {
		g.flushes.Flush()
		if g.eol != "" {
			c.eol = g.eol
		}
	}()
	for {
		if g.gate == nil { // a gate reads every text chunk: nothing passes unread
			// Peeked and passed by direct calls: a paced chunk runs this code cold (see sse.Reader.PeekData).
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
	held    []json.RawMessage    // functionCall parts, in the order they came
	chunks  [][]byte             // the held parts as chunks of their own, sent as they are if all are kept
	content []warden.ContentPart // text and thought of the chunks already sent, but for the run in text
	// text is the run of text that ends content: one part built in one builder, not a part a chunk.
	text    strings.Builder
	decided bool
	c       *ClientStream
	// eol ends the lines of the events Warden writes: the stream's own ending, so that a client never sees
	// two kinds mixed. Gemini ends its lines with \r\n.
	eol string
}

// eolOr is the stream's line ending, or Gemini's own before any line has ended.
func (g *streamGuard) eolOr() string {
	if g.eol == "" {
		return "\r\n"
	}
	return g.eol
}

func (g *streamGuard) write(b []byte) error {
	if _, err := g.out.Write(b); err != nil {
		return err
	}
	g.flushes.Wrote()
	return nil
}

// streamChunk is what the guard reads of a chunk: enough to accumulate its text and see its calls and finish.
type streamChunk struct {
	Candidates     []streamCandidate `json:"candidates"`
	PromptFeedback *promptFeedback   `json:"promptFeedback"`
}

type streamCandidate struct {
	Content      *streamContent `json:"content"`
	FinishReason string         `json:"finishReason"`
}

type streamContent struct {
	Parts []streamPart `json:"parts"`
}

type streamPart struct {
	Text         *string         `json:"text"`
	Thought      bool            `json:"thought"`
	FunctionCall json.RawMessage `json:"functionCall"`
}

func (p streamPart) isCall() bool { return len(p.FunctionCall) > 0 && string(p.FunctionCall) != "null" }

func (g *streamGuard) event(ev sse.Event) error {
	if g.eol == "" {
		g.eol = sse.LineEnding(ev.Raw)
	}
	if err := streamend.Event(ev, g.decided); err != nil {
		return err
	}
	data := strings.TrimSpace(ev.Data)
	if ev.HasData && !strings.HasPrefix(data, "{") {
		return streamend.ErrNotJSON
	}
	if !ev.HasData || g.decided {
		return g.write(ev.Raw)
	}
	raw := ev.Raw
	if g.gate != nil {
		var err error
		if data, raw, err = g.gateChunk(data, raw); err != nil || raw == nil {
			return err
		}
	}
	if text, ok := scanTextChunk(data); ok {
		g.text.WriteString(text)
		return g.write(raw)
	}
	c, err := readStreamChunk([]byte(data))
	if err != nil {
		return fmt.Errorf("stream chunk is not JSON: %v", err)
	}
	if err := envelope.Envelope([]byte(data)); err != nil {
		return fmt.Errorf("an ambiguous stream chunk: %v", err)
	}
	finished := c.PromptFeedback != nil && c.PromptFeedback.BlockReason != ""
	var calls int
	for _, cand := range c.Candidates {
		finished = finished || cand.FinishReason != ""
		if cand.Content != nil {
			for _, p := range cand.Content.Parts {
				if p.isCall() {
					calls++
				}
			}
		}
	}
	if calls > 0 && len(c.Candidates) != 1 {
		return errors.New("a stream chunk carries function calls for several candidates; Warden guards streams with one candidate")
	}
	if finished {
		return g.finish(raw, []byte(data))
	}
	if calls == 0 {
		if len(c.Candidates) > 0 && c.Candidates[0].Content != nil {
			for _, p := range c.Candidates[0].Content.Parts {
				g.collect(p)
			}
		}
		return g.write(raw)
	}
	return g.holdCalls(raw, []byte(data))
}

// passText writes on, straight from the reader's buffer, a chunk of text alone (scanTextChunk), as event
// would: its text is copied into the run of text, the chunk into the client's stream. raw and data are the
// reader's buffer and are not kept. Anything else reports false, and the caller reads the event as usual.
func (g *streamGuard) passText(raw []byte, data string) (bool, error) {
	if g.decided || g.eol == "" || len(data) == 0 || data[0] != '{' || data[len(data)-1] != '}' {
		return false, nil // or one TrimSpace would change, which event reads after trimming
	}
	text, ok := scanTextChunk(data)
	if !ok {
		return false, nil
	}
	g.text.WriteString(text)
	return true, g.write(raw)
}

// collect adds a sent part's text or thought to the accumulated content.
func (g *streamGuard) collect(p streamPart) {
	switch {
	case p.Text == nil || p.isCall():
	case p.Thought:
		g.content = append(g.contentSoFar(), warden.ContentPart{Kind: warden.ContentReasoning, Text: *p.Text})
	default:
		g.text.WriteString(*p.Text)
	}
}

// contentSoFar returns the text and thought of the chunks already sent, the run of text last.
func (g *streamGuard) contentSoFar() []warden.ContentPart {
	if g.text.Len() > 0 {
		g.content = append(g.content, warden.ContentPart{Kind: warden.ContentText, Text: g.text.String()})
		g.text.Reset()
	}
	return g.content
}

// holdCalls cuts the functionCall parts out of a chunk, holds them, and sends what is left.
func (g *streamGuard) holdCalls(raw, data []byte) error {
	c, err := openParts(data)
	if err != nil {
		return err
	}
	var rest []json.RawMessage
	for _, p := range c.parts {
		sp, err := readStreamPart(p)
		if err != nil {
			return err
		}
		if sp.isCall() {
			g.held = append(g.held, p)
		} else {
			rest = append(rest, p)
			g.collect(sp)
		}
	}
	if len(rest) == 0 {
		g.chunks = append(g.chunks, raw)
		return nil
	}
	g.chunks = append(g.chunks, sse.Data(string(c.with(g.held[len(g.held)-(len(c.parts)-len(rest)):]))).EncodeLines(g.eolOr()))
	return g.write(sse.Data(string(c.with(rest))).EncodeLines(g.eolOr()))
}

// candidateParts is a chunk opened at its first candidate's content parts, to be written back with others.
type candidateParts struct {
	obj, cand, content *jsonobj.Object
	cands              []json.RawMessage
	parts              []json.RawMessage
}

// openParts opens a chunk at its first candidate's parts; a candidate without content gets a model one.
func openParts(data []byte) (*candidateParts, error) {
	c := &candidateParts{content: &jsonobj.Object{}}
	var err error
	if c.obj, err = jsonobj.Parse(data); err != nil {
		return nil, err
	}
	rc, _ := c.obj.Get("candidates")
	if c.cands, err = splitValidArray(rc); err != nil || len(c.cands) == 0 {
		return nil, errors.New("the chunk has no candidate")
	}
	if c.cand, err = jsonobj.Parse(c.cands[0]); err != nil {
		return nil, err
	}
	if rcontent, ok := c.cand.Get("content"); ok && string(rcontent) != "null" {
		if c.content, err = jsonobj.Parse(rcontent); err != nil {
			return nil, err
		}
	} else {
		c.content.Set("role", json.RawMessage(`"model"`))
	}
	if rp, ok := c.content.Get("parts"); ok {
		if c.parts, err = splitValidArray(rp); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// with returns the chunk with parts in place of its first candidate's; the chunk stays open for another.
func (c *candidateParts) with(parts []json.RawMessage) []byte {
	_ = c.content.SetJSON("parts", parts)
	cb, _ := c.content.MarshalJSON()
	c.cand.Set("content", cb)
	cands := append([]json.RawMessage(nil), c.cands...)
	cands[0], _ = c.cand.MarshalJSON()
	_ = c.obj.SetJSON("candidates", cands)
	b, _ := c.obj.MarshalJSON()
	return b
}

// finish decides the response when a chunk (raw, its data) brings the finish reason (or a prompt block), and
// sends that chunk with the held calls kept and the text added.
func (g *streamGuard) finish(raw, data []byte) error {
	g.decided = true
	combined, err := g.withHeldCalls(data)
	if err != nil {
		return err
	}
	r, err := DecodeResponse(combined)
	if err != nil {
		return err
	}
	last := r.Response(0)
	whole := last
	whole.Message.Content = append(append([]warden.ContentPart(nil), g.contentSoFar()...), last.Message.Content...)
	after, err := g.decide(whole)
	if err != nil {
		g.c.body = g.body(combined)
		return err
	}
	appended, _ := textdiff.Of(whole.Message, after.Message)
	if sameCalls(after.Message.ToolCalls, whole.Message.ToolCalls) {
		// Every call kept as it came: the held chunks go out as they are, then the finishing chunk.
		for _, c := range g.chunks {
			if err := g.write(c); err != nil {
				return err
			}
		}
		if len(appended) == 0 {
			return g.write(raw)
		}
		if r, err = DecodeResponse(data); err != nil {
			return err
		}
		last = r.Response(0)
		after.Message.ToolCalls = last.Message.ToolCalls
	}
	next := last
	next.Message.ToolCalls = after.Message.ToolCalls
	next.Message.Content = append(append([]warden.ContentPart(nil), last.Message.Content...), textParts(appended)...)
	if err := r.Set(0, next); err != nil {
		return err
	}
	b, err := r.Encode()
	if err != nil {
		return err
	}
	return g.write(sse.Data(string(b)).EncodeLines(g.eolOr()))
}

// withHeldCalls returns the chunk with the held functionCall parts put before its own parts.
func (g *streamGuard) withHeldCalls(data []byte) ([]byte, error) {
	if len(g.held) == 0 {
		return data, nil
	}
	c, err := openParts(data)
	if err != nil || len(c.cands) != 1 {
		return nil, errors.New("function calls were held but the finishing chunk has no single candidate")
	}
	return c.with(append(append([]json.RawMessage(nil), g.held...), c.parts...)), nil
}

// body assembles the round's response as one whole body (see ClientStream.Body) from the finishing chunk
// with the held calls put back (combined): the text of the chunks already sent goes first, as one part
// (thoughts, summaries the API does not need back, are left out). Nil when the chunk cannot be opened.
func (g *streamGuard) body(combined []byte) []byte {
	c, err := openParts(combined)
	if err != nil {
		return nil
	}
	var text strings.Builder
	for _, p := range g.contentSoFar() {
		if p.Kind == warden.ContentText {
			text.WriteString(p.Text)
		}
	}
	parts := c.parts
	if text.Len() > 0 {
		t, _ := json.Marshal(map[string]string{"text": text.String()})
		parts = append([]json.RawMessage{t}, parts...)
	}
	return c.with(parts)
}

func sameCalls(a, b []warden.ToolCall) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || !bytes.Equal(a[i].Arguments, b[i].Arguments) {
			return false
		}
	}
	return true
}

func textParts(texts []string) []warden.ContentPart {
	out := make([]warden.ContentPart, len(texts))
	for i, t := range texts {
		out[i] = warden.ContentPart{Kind: warden.ContentText, Text: t}
	}
	return out
}

// gateChunk passes a chunk's answer text through the gate and returns the chunk to go on with: data and raw
// themselves when the gate released exactly its text, a rewritten chunk otherwise, and a nil raw when
// nothing is left to send. A finishing chunk also gets the rest of the held text as one more text part.
func (g *streamGuard) gateChunk(data string, raw []byte) (string, []byte, error) {
	if text, ok := scanTextChunk(data); ok {
		out, err := g.gate.Text(text)
		if err != nil {
			return "", nil, err
		}
		if out == text {
			return data, raw, nil
		}
		// scanTextChunk read the text between the quotes after textHead with no escape in it: the new
		// string takes its place, and every other byte stays (an emptied part is as Gemini ends a stream).
		at := len(textHead)
		nd := data[:at] + string(reqtext.Quote(out)) + data[at+len(text)+2:]
		return nd, sse.Data(nd).EncodeLines(g.eolOr()), nil
	}
	c, err := readStreamChunk([]byte(data))
	if err != nil {
		return data, raw, nil // the caller reports it
	}
	finished := c.PromptFeedback != nil && c.PromptFeedback.BlockReason != ""
	texts := 0
	for _, cand := range c.Candidates {
		finished = finished || cand.FinishReason != ""
		if cand.Content != nil {
			for _, p := range cand.Content.Parts {
				if answerText(p) {
					texts++
				}
			}
		}
	}
	if len(c.Candidates) > 1 && (texts > 0 || finished) {
		return "", nil, errors.New("the stream has several candidates; Warden's stream guardrails guard streams with one candidate")
	}
	var outs []string
	same := true
	if texts > 0 {
		for _, p := range c.Candidates[0].Content.Parts {
			if !answerText(p) {
				continue
			}
			out, err := g.gate.Text(*p.Text)
			if err != nil {
				return "", nil, err
			}
			outs = append(outs, out)
			same = same && out == *p.Text
		}
	}
	rest := ""
	if finished {
		reason := ""
		if len(c.Candidates) > 0 {
			reason = c.Candidates[0].FinishReason
		}
		var err error
		if rest, err = g.gate.Finish(warden.Part{Kind: warden.PartFinish, Finish: normalizeFinish(reason, false)}); err != nil {
			return "", nil, err
		}
	}
	if same && rest == "" {
		return data, raw, nil
	}
	return rewriteText(data, outs, rest, finished, g.eolOr())
}

// answerText reports whether a part is text of the answer (not a thought, not a call).
func answerText(p streamPart) bool { return p.Text != nil && !p.Thought && !p.isCall() }

// rewriteText returns the chunk with the released texts in place of the first candidate's answer text parts,
// in order (a part whose text is all held is left out), and rest, when set, as one more text part. A chunk
// that then carries no part and does not finish is not sent (nil raw).
func rewriteText(data string, outs []string, rest string, finished bool, eol string) (string, []byte, error) {
	c, err := openParts([]byte(data))
	if err != nil {
		return "", nil, err
	}
	parts := c.parts
	kept := parts[:0]
	for _, rp := range parts {
		p, err := readStreamPart(rp)
		if err != nil {
			return "", nil, err
		}
		if answerText(p) {
			out := outs[0]
			outs = outs[1:]
			if out == "" {
				continue
			}
			po, err := jsonobj.Parse(rp)
			if err != nil {
				return "", nil, err
			}
			_ = po.SetJSON("text", out)
			rp, _ = po.MarshalJSON()
		}
		kept = append(kept, rp)
	}
	if rest != "" {
		kept = append(kept, textPart(rest))
	}
	if len(kept) == 0 && !finished {
		return "", nil, nil
	}
	b := c.with(kept)
	return string(b), sse.Data(string(b)).EncodeLines(eol), nil
}

// MessageStream returns a generateContent stream of one chunk: a model candidate holding text with finish
// reason STOP, for streamed answers Warden gives itself: the explanation of a denied call whose follow-up
// the provider did not take, joined after the stream before it.
func MessageStream(model, text string) []byte {
	return sse.Data(string(MessageBody(model, text, "STOP"))).EncodeLines("\r\n")
}
