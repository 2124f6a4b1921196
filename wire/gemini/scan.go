package gemini

import (
	"encoding/json"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// A generateContent body is read member by member from bytes jsonobj validated once, not with
// encoding/json, which validates each value again at every level it descends (the body, each candidate,
// its content, each part). Each reader below answers as json.Unmarshal into its struct does; whatever it
// cannot read that way (a member named in another case or twice, a value of another type, a null where
// encoding/json's answer is subtle) it leaves to json.Unmarshal, so that the answer and the error are
// always encoding/json's. A fuzz test holds each to that.

// responseHead is what DecodeResponse reads of a body beside its candidates' members.
type responseHead struct {
	Candidates     []json.RawMessage `json:"candidates"`
	PromptFeedback *promptFeedback   `json:"promptFeedback"`
}

type promptFeedback struct {
	BlockReason string `json:"blockReason"`
}

// readResponseHead reads the body (parsed as obj) as json.Unmarshal into a responseHead does.
func readResponseHead(obj *jsonobj.Object, body []byte) (responseHead, error) {
	var h responseHead
	if obj.Plain("candidates", "promptFeedback") && h.readPlain(obj) {
		return h, nil
	}
	h = responseHead{}
	err := json.Unmarshal(body, &h)
	return h, err
}

func (h *responseHead) readPlain(obj *jsonobj.Object) bool {
	if raw, has := obj.Get("candidates"); has {
		var err error
		if h.Candidates, err = jsonobj.SplitArrayTrusted(raw); err != nil {
			return false
		}
	}
	if raw, has := obj.Get("promptFeedback"); has && string(raw) != "null" {
		f, err := jsonobj.ParseTrusted(raw)
		h.PromptFeedback = &promptFeedback{}
		if err != nil || !f.Plain("blockReason") || !f.Strings(jsonobj.StringInto("blockReason", &h.PromptFeedback.BlockReason)) {
			return false
		}
	}
	return true
}

// readContentParts reads a candidate's content (parsed as obj, its bytes raw) as json.Unmarshal into a
// struct of its parts does.
func readContentParts(obj *jsonobj.Object, raw json.RawMessage) ([]json.RawMessage, error) {
	if obj.Plain("parts") {
		p, has := obj.Get("parts")
		if !has {
			return nil, nil
		}
		if parts, err := jsonobj.SplitArrayTrusted(p); err == nil {
			return parts, nil
		}
	}
	var ct struct {
		Parts []json.RawMessage `json:"parts"`
	}
	err := json.Unmarshal(raw, &ct)
	return ct.Parts, err
}

// responsePart is what DecodeResponse reads of a part.
type responsePart struct {
	Text             *string         `json:"text"`
	Thought          bool            `json:"thought"`
	ThoughtSignature json.RawMessage `json:"thoughtSignature"`
	FunctionCall     *functionCall   `json:"functionCall"`
}

type functionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// readResponsePart reads the part raw (an element jsonobj validated) as json.Unmarshal into a responsePart
// does.
func readResponsePart(raw json.RawMessage) (responsePart, error) {
	var p responsePart
	if obj, err := jsonobj.ParseTrusted(raw); err == nil && obj.Plain("text", "thought", "thoughtSignature", "functionCall") && p.readPlain(obj) {
		return p, nil
	}
	p = responsePart{}
	err := json.Unmarshal(raw, &p)
	return p, err
}

func (p *responsePart) readPlain(obj *jsonobj.Object) bool {
	ok := true
	if raw, has := obj.Get("text"); has && string(raw) != "null" {
		var text string
		text, ok = jsonobj.DecodeString(raw)
		p.Text = &text
	}
	if raw, has := obj.Get("thought"); has && ok {
		p.Thought, ok = jsonobj.DecodeBool(raw)
	}
	if raw, has := obj.Get("thoughtSignature"); has && ok {
		p.ThoughtSignature, ok = raw, string(raw) != "null"
	}
	if raw, has := obj.Get("functionCall"); has && ok && string(raw) != "null" {
		c, err := jsonobj.ParseTrusted(raw)
		p.FunctionCall = &functionCall{}
		fc := p.FunctionCall
		if err != nil || !c.Plain("id", "name", "args") || !c.Strings(jsonobj.StringInto("id", &fc.ID), jsonobj.StringInto("name", &fc.Name)) {
			return false
		}
		if args, has := c.Get("args"); has {
			if string(args) == "null" {
				return false
			}
			fc.Args = args
		}
	}
	return ok
}

// readStreamChunk reads a stream chunk (data, valid JSON or not) as json.Unmarshal into a streamChunk
// does: the chunks that are not plain text (a call, a thought, the finish) come this way.
func readStreamChunk(data []byte) (streamChunk, error) {
	var c streamChunk
	if obj, err := jsonobj.ParseShared(data); err == nil && obj.Plain("candidates", "promptFeedback") && c.readPlain(obj) {
		return c, nil
	}
	c = streamChunk{}
	err := json.Unmarshal(data, &c)
	return c, err
}

func (c *streamChunk) readPlain(obj *jsonobj.Object) bool {
	var h responseHead
	if !h.readPlain(obj) {
		return false
	}
	c.PromptFeedback = h.PromptFeedback
	if h.Candidates != nil {
		c.Candidates = make([]streamCandidate, len(h.Candidates))
	}
	for i, rc := range h.Candidates {
		cand, err := jsonobj.ParseTrusted(rc)
		if err != nil || !cand.Plain("content", "finishReason") || !c.Candidates[i].readPlain(cand) {
			return false // a null candidate among them too: encoding/json's reading of it is left to it
		}
	}
	return true
}

func (c *streamCandidate) readPlain(obj *jsonobj.Object) bool {
	if !obj.Strings(jsonobj.StringInto("finishReason", &c.FinishReason)) {
		return false
	}
	raw, has := obj.Get("content")
	if !has || string(raw) == "null" {
		return true
	}
	content, err := jsonobj.ParseTrusted(raw)
	if err != nil {
		return false
	}
	parts, err := readContentParts(content, raw)
	if err != nil {
		return false
	}
	c.Content = &streamContent{}
	if parts != nil {
		c.Content.Parts = make([]streamPart, len(parts))
	}
	for j, p := range parts {
		po, err := jsonobj.ParseTrusted(p)
		if err != nil || !c.Content.Parts[j].readPlain(po) {
			return false
		}
	}
	return true
}

// readStreamPart reads a part (an element jsonobj validated) as json.Unmarshal into a streamPart does.
func readStreamPart(raw json.RawMessage) (streamPart, error) {
	var p streamPart
	if obj, err := jsonobj.ParseTrusted(raw); err == nil && p.readPlain(obj) {
		return p, nil
	}
	p = streamPart{}
	err := json.Unmarshal(raw, &p)
	return p, err
}

func (p *streamPart) readPlain(obj *jsonobj.Object) bool {
	if !obj.Plain("text", "thought", "functionCall") {
		return false
	}
	ok := true
	if raw, has := obj.Get("text"); has && string(raw) != "null" {
		var text string
		text, ok = jsonobj.DecodeString(raw)
		p.Text = &text
	}
	if ok {
		ok = obj.Bool("thought", &p.Thought)
	}
	p.FunctionCall, _ = obj.Get("functionCall") // a json.RawMessage member takes a null as the bytes null
	return ok
}

// splitValidArray reads an array jsonobj validated as json.Unmarshal into a []json.RawMessage does: its
// elements, nil for null, and encoding/json's error for anything else.
func splitValidArray(raw json.RawMessage) ([]json.RawMessage, error) {
	if elems, err := jsonobj.SplitArrayTrusted(raw); err == nil {
		return elems, nil
	}
	var elems []json.RawMessage
	err := json.Unmarshal(raw, &elems)
	return elems, err
}

// A request's parts are read as json.Unmarshal reads them into a map[string]json.RawMessage: by exact key,
// the last of duplicates, which is how jsonobj.Object.Get reads an object.

// requestContent is what DecodeRequest reads of a content: its role, and its parts as objects (nil for a
// null part). A part's member whose value is null is there with the bytes null, as a map holds it.
type requestContent struct {
	role  string
	parts []*jsonobj.Object
}

// readRequestContent reads a content (parsed as obj, its bytes raw) as json.Unmarshal into a struct of
// its role and its parts as maps does.
func readRequestContent(obj *jsonobj.Object, raw json.RawMessage) (requestContent, error) {
	var c requestContent
	if obj.Plain("role", "parts") && c.readPlain(obj) {
		return c, nil
	}
	var wire struct {
		Role  string                       `json:"role"`
		Parts []map[string]json.RawMessage `json:"parts"`
	}
	if err := json.Unmarshal(raw, &wire); err != nil {
		return requestContent{}, err
	}
	c = requestContent{role: wire.Role, parts: make([]*jsonobj.Object, len(wire.Parts))}
	for j, p := range wire.Parts {
		if p == nil {
			continue
		}
		c.parts[j] = &jsonobj.Object{}
		for k, v := range p {
			c.parts[j].Set(k, v)
		}
	}
	return c, nil
}

func (c *requestContent) readPlain(obj *jsonobj.Object) bool {
	if !obj.Strings(jsonobj.StringInto("role", &c.role)) {
		return false
	}
	raw, has := obj.Get("parts")
	if !has {
		return true
	}
	elems, err := jsonobj.SplitArrayTrusted(raw)
	if err != nil {
		return false
	}
	c.parts = make([]*jsonobj.Object, len(elems))
	for j, e := range elems {
		if string(e) == "null" {
			continue
		}
		p, err := jsonobj.ParseTrusted(e)
		if err != nil {
			return false // encoding/json's error
		}
		c.parts[j] = p
	}
	return true
}

// readCall reads a functionCall or functionResponse (an element jsonobj validated) as json.Unmarshal into
// a geminiCall does.
func readCall(raw json.RawMessage) (geminiCall, error) {
	var fc geminiCall
	if obj, err := jsonobj.ParseTrusted(raw); err == nil && obj.Plain("id", "name", "args", "response") &&
		obj.Strings(jsonobj.StringInto("id", &fc.ID), jsonobj.StringInto("name", &fc.Name)) {
		fc.Args, _ = obj.Get("args") // a json.RawMessage member takes a null as the bytes null, as Get gives it
		fc.Response, _ = obj.Get("response")
		return fc, nil
	}
	fc = geminiCall{}
	err := json.Unmarshal(raw, &fc)
	return fc, err
}
