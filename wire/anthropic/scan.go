package anthropic

import (
	"encoding/json"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// A request, a message and a stream's structural events are read member by member from bytes jsonobj
// validated once, not with encoding/json, which validates each value again at every level it descends (a
// message, its content, each block) and costs a whole body's decoding several times over. Each reader
// below answers as json.Unmarshal into its struct does; whatever it cannot read that way (a member named
// in another case or twice, a value of another type, a null where encoding/json's answer is subtle) it
// leaves to json.Unmarshal, so that the answer and the error are always encoding/json's. FuzzScanReaders
// holds each to that.

// requestHead is what DecodeRequest reads of a request beside its messages and system prompt.
type requestHead struct {
	Model  string        `json:"model"`
	Stream bool          `json:"stream"`
	Tools  []requestTool `json:"tools"`
}

// requestTool names a tool a request offers: a client tool by name, a server tool by name or type.
type requestTool struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// readHead reads the head of the request obj: its model, stream and tools members, as json.Unmarshal of
// the object those members make (exact names only, the last of duplicates: jsonobj.Object.Pick).
func readHead(obj *jsonobj.Object) (requestHead, error) {
	var h requestHead
	if h.readPlain(obj) {
		return h, nil
	}
	h = requestHead{}
	err := json.Unmarshal(obj.Pick("model", "stream", "tools"), &h)
	return h, err
}

func (h *requestHead) readPlain(obj *jsonobj.Object) bool {
	if !obj.Strings(jsonobj.StringInto("model", &h.Model)) || !obj.Bool("stream", &h.Stream) {
		return false
	}
	var ok bool
	h.Tools, ok = jsonobj.Objects(obj, "tools", func(t *jsonobj.Object, tool *requestTool) bool {
		return t.Plain("name", "type") && t.Strings(jsonobj.StringInto("name", &tool.Name), jsonobj.StringInto("type", &tool.Type))
	})
	return ok
}

// wireMessage is what addMessage reads of a message.
type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// readMessage reads a message obj (its bytes raw) as json.Unmarshal into a wireMessage does.
func readMessage(obj *jsonobj.Object, raw json.RawMessage) (wireMessage, error) {
	var m wireMessage
	if obj.Plain("role", "content") {
		ok := true
		if v, has := obj.Get("role"); has {
			m.Role, ok = jsonobj.DecodeString(v)
		}
		if v, has := obj.Get("content"); ok && (!has || string(v) != "null") {
			m.Content = v
			return m, nil
		}
	}
	m = wireMessage{}
	err := json.Unmarshal(raw, &m)
	return m, err
}

// callBlock is what addMessage reads of a content block: a tool call's or a tool result's members.
type callBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
}

var callBlockKeys = [...]string{"type", "id", "name", "input", "tool_use_id", "is_error"}

// readCallBlock reads the content block raw (an element jsonobj validated) as json.Unmarshal into a
// callBlock does, and returns the block parsed too when it is an object.
func readCallBlock(raw json.RawMessage) (callBlock, *jsonobj.Object, error) {
	var b callBlock
	obj, err := jsonobj.ParseTrusted(raw)
	if err == nil && obj.Plain(callBlockKeys[:]...) && b.readPlain(obj) {
		return b, obj, nil
	}
	b = callBlock{}
	return b, obj, json.Unmarshal(raw, &b)
}

func (b *callBlock) readPlain(obj *jsonobj.Object) bool {
	ok := obj.Strings(jsonobj.StringInto("type", &b.Type), jsonobj.StringInto("id", &b.ID), jsonobj.StringInto("name", &b.Name),
		jsonobj.StringInto("tool_use_id", &b.ToolUseID))
	if raw, has := obj.Get("input"); has && ok {
		b.Input, ok = raw, string(raw) != "null"
	}
	return ok && obj.Bool("is_error", &b.IsError)
}

// textFields is what Classify reads of a content block.
type textFields struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
}

// readTextFields reads the content block elem (an element jsonobj validated) as json.Unmarshal into a
// textFields does, its error ignored: what the decoding filled before it failed is the answer (a block that
// is not an object is media of no type).
func readTextFields(elem json.RawMessage) textFields {
	var b textFields
	if obj, err := jsonobj.ParseTrusted(elem); err == nil && obj.Plain("type", "text", "thinking") &&
		obj.Strings(jsonobj.StringInto("type", &b.Type), jsonobj.StringInto("text", &b.Text), jsonobj.StringInto("thinking", &b.Thinking)) {
		return b
	}
	b = textFields{}
	_ = json.Unmarshal(elem, &b)
	return b
}

// messageHead is what DecodeMessage reads of a message body beside its other members.
type messageHead struct {
	Type       string            `json:"type"`
	Role       string            `json:"role"`
	Content    []json.RawMessage `json:"content"`
	StopReason *string           `json:"stop_reason"`
}

// readMessageHead reads the message body (parsed as obj) as json.Unmarshal into a messageHead does.
func readMessageHead(obj *jsonobj.Object, body []byte) (messageHead, error) {
	var h messageHead
	if obj.Plain("type", "role", "content", "stop_reason") && h.readPlain(obj) {
		return h, nil
	}
	h = messageHead{}
	err := json.Unmarshal(body, &h)
	return h, err
}

func (h *messageHead) readPlain(obj *jsonobj.Object) bool {
	if !obj.Strings(jsonobj.StringInto("type", &h.Type), jsonobj.StringInto("role", &h.Role)) {
		return false
	}
	if raw, has := obj.Get("stop_reason"); has && string(raw) != "null" {
		s, ok := jsonobj.DecodeString(raw)
		if !ok {
			return false
		}
		h.StopReason = &s
	}
	if raw, has := obj.Get("content"); has {
		var err error
		if h.Content, err = jsonobj.SplitArrayTrusted(raw); err != nil {
			return false
		}
	}
	return true
}

// contentBlock is what DecodeMessage reads of a content block.
type contentBlock struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

var contentBlockKeys = [...]string{"type", "text", "thinking", "id", "name", "input"}

// readContentBlock reads the content block raw (an element jsonobj validated) as json.Unmarshal into a
// contentBlock does.
func readContentBlock(raw json.RawMessage) (contentBlock, error) {
	var b contentBlock
	if obj, err := jsonobj.ParseTrusted(raw); err == nil && obj.Plain(contentBlockKeys[:]...) &&
		obj.Strings(jsonobj.StringInto("type", &b.Type), jsonobj.StringInto("text", &b.Text), jsonobj.StringInto("thinking", &b.Thinking),
			jsonobj.StringInto("id", &b.ID), jsonobj.StringInto("name", &b.Name)) {
		input, has := obj.Get("input")
		if !has || string(input) != "null" {
			b.Input = input
			return b, nil
		}
	}
	b = contentBlock{}
	err := json.Unmarshal(raw, &b)
	return b, err
}

var (
	streamEventKeys      = [...]string{"type", "index", "content_block", "delta"}
	streamBlockStartKeys = [...]string{"type", "id", "name", "input", "text"}
	streamDeltaKeys      = [...]string{"type", "text", "thinking", "partial_json", "signature", "stop_reason"}
)

// readStreamEvent reads a stream event's data as json.Unmarshal into a streamEvent does: the events
// around a stream's text (a message's start and end, each block's start and stop), which the guard reads
// once a stream, or once a block.
func readStreamEvent(data []byte) (streamEvent, error) {
	var e streamEvent
	if obj, err := jsonobj.ParseShared(data); err == nil && obj.Plain(streamEventKeys[:]...) && e.readPlain(obj) {
		return e, nil
	}
	e = streamEvent{}
	err := json.Unmarshal(data, &e)
	return e, err
}

func (e *streamEvent) readPlain(obj *jsonobj.Object) bool {
	if !obj.Strings(jsonobj.StringInto("type", &e.Type)) {
		return false
	}
	if raw, has := obj.Get("index"); has {
		var ok bool
		if e.Index, ok = decodeInt(raw); !ok {
			return false
		}
	}
	if raw, has := obj.Get("content_block"); has && string(raw) != "null" {
		b, err := jsonobj.ParseTrusted(raw)
		e.ContentBlock = &streamBlockStart{}
		c := e.ContentBlock
		if err != nil || !b.Plain(streamBlockStartKeys[:]...) ||
			!b.Strings(jsonobj.StringInto("type", &c.Type), jsonobj.StringInto("id", &c.ID), jsonobj.StringInto("name", &c.Name), jsonobj.StringInto("text", &c.Text)) {
			return false
		}
		if input, has := b.Get("input"); has {
			if string(input) == "null" {
				return false
			}
			c.Input = input
		}
	}
	if raw, has := obj.Get("delta"); has && string(raw) != "null" {
		d, err := jsonobj.ParseTrusted(raw)
		e.Delta = &streamDelta{}
		c := e.Delta
		if err != nil || !d.Plain(streamDeltaKeys[:]...) ||
			!d.Strings(jsonobj.StringInto("type", &c.Type), jsonobj.StringInto("text", &c.Text), jsonobj.StringInto("thinking", &c.Thinking),
				jsonobj.StringInto("partial_json", &c.PartialJSON), jsonobj.StringInto("signature", &c.Signature)) {
			return false
		}
		if stop, has := d.Get("stop_reason"); has && string(stop) != "null" {
			s, ok := jsonobj.DecodeString(stop)
			if !ok {
				return false
			}
			c.StopReason = &s
		}
	}
	return true
}

// decodeInt reads a valid JSON value as json.Unmarshal into an int does, for a plain run of digits (a
// minus before them or not) that fits and for null, which leaves it 0; ok false for anything else.
func decodeInt(raw []byte) (int, bool) {
	if string(raw) == "null" {
		return 0, true
	}
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if len(digits) < len(raw) {
		n = -n
	}
	return n, true
}
