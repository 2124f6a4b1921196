// Package gemini is the codec of the Gemini generateContent wire format (Google AI and Vertex AI): it turns
// a response body into the turn model, one response per candidate, and writes changes back into the same
// body, keeping every part and field it did not change byte for byte. A body Warden did not change is
// returned as the exact bytes it came as.
//
// A prompt that Gemini blocked before generating anything (promptFeedback.blockReason, no candidates) is one
// response with no content whose signal is the block reason, so the safety guardrail treats it like any
// blank safety stop.
//
// Per-request values: a Response is not safe for concurrent use.
package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/textdiff"
)

// Response is a decoded generateContent body.
type Response struct {
	raw        []byte
	obj        *jsonobj.Object
	candidates []*candidate
	blocked    bool // the prompt was blocked: no candidates came
	changed    bool
}

type candidate struct {
	obj     *jsonobj.Object
	content *jsonobj.Object
	parts   []part
	resp    warden.Response
}

type part struct {
	raw   json.RawMessage
	kind  string // text, thought, call, other
	text  string
	call  warden.ToolCall
	hasID bool
	sig   json.RawMessage // thoughtSignature, when the part carries one
}

// DecodeResponse reads a generateContent body.
func DecodeResponse(body []byte) (*Response, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a generateContent response: %v", err)
	}
	if err := envelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous generateContent response: %v", err)
	}
	head, err := readResponseHead(obj, body)
	if err != nil {
		return nil, fmt.Errorf("not a generateContent response: %v", err)
	}
	block := ""
	if head.PromptFeedback != nil {
		block = head.PromptFeedback.BlockReason
	}
	_, hasCandidates := obj.Get("candidates")
	if !hasCandidates && head.PromptFeedback == nil {
		return nil, fmt.Errorf(`not a generateContent response: no "candidates" and no "promptFeedback"`)
	}
	r := &Response{raw: body, obj: obj}
	for i, rc := range head.Candidates {
		c, err := decodeCandidate(rc, i)
		if err != nil {
			return nil, fmt.Errorf("candidates[%d]: %v", i, err)
		}
		if block != "" {
			c.resp.Signals = append(c.resp.Signals, warden.Signal{Field: "promptFeedback.blockReason", Value: block})
		}
		r.candidates = append(r.candidates, c)
	}
	if len(r.candidates) == 0 && block != "" {
		r.blocked = true
		r.candidates = []*candidate{{resp: warden.Response{Message: warden.Message{Role: warden.RoleAssistant},
			Signals: []warden.Signal{{Field: "promptFeedback.blockReason", Value: block}}}}}
	}
	return r, nil
}

func decodeCandidate(raw json.RawMessage, index int) (*candidate, error) {
	obj, err := jsonobj.ParseTrusted(raw) // an element of the validated body
	if err != nil {
		return nil, err
	}
	c := &candidate{obj: obj}
	c.resp.Message.Role = warden.RoleAssistant
	var finish string
	if f, ok := obj.Get("finishReason"); ok {
		finish, _ = jsonobj.DecodeString(f) // "" when it is not a string, as json.Unmarshal leaves it
	}
	if finish != "" {
		c.resp.Signal = warden.Signal{Field: "finishReason", Value: finish}
	}
	rawContent, ok := obj.Get("content")
	if ok {
		if c.content, err = jsonobj.ParseTrusted(rawContent); err != nil {
			return nil, fmt.Errorf("content: %v", err)
		}
		parts, err := readContentParts(c.content, rawContent)
		if err != nil {
			return nil, fmt.Errorf("content: %v", err)
		}
		for j, rp := range parts {
			p, err := decodePart(rp, index, j)
			if err != nil {
				return nil, fmt.Errorf("content.parts[%d]: %v", j, err)
			}
			c.parts = append(c.parts, p)
			switch p.kind {
			case "text":
				c.resp.Message.Content = append(c.resp.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: p.text})
			case "thought":
				c.resp.Message.Content = append(c.resp.Message.Content, warden.ContentPart{Kind: warden.ContentReasoning, Text: p.text})
			case "call":
				c.resp.Message.ToolCalls = append(c.resp.Message.ToolCalls, p.call)
			}
		}
	}
	c.resp.FinishReason = normalizeFinish(finish, len(c.resp.Message.ToolCalls) > 0)
	return c, nil
}

func decodePart(raw json.RawMessage, cand, index int) (part, error) {
	p, err := readResponsePart(raw)
	if err != nil {
		return part{}, err
	}
	out := part{raw: raw, kind: "other", sig: p.ThoughtSignature}
	if p.FunctionCall != nil && p.Text != nil {
		// A part is one of its kinds (a oneof in Gemini's schema); with two, a client may act on the one
		// Warden did not read as the part: SDKs join every part's text, and run every call.
		return part{}, errors.New("a part holds both text and a functionCall")
	}
	switch {
	case p.FunctionCall != nil:
		id := p.FunctionCall.ID
		out.hasID = id != ""
		if id == "" {
			// Gemini may send calls without ids; a stable one lets the turn model tell them apart.
			id = syntheticID + strconv.Itoa(cand) + "-" + strconv.Itoa(index)
		}
		out.kind, out.call = "call", warden.NewToolCall(id, p.FunctionCall.Name, p.FunctionCall.Args)
	case p.Text != nil && p.Thought:
		out.kind, out.text = "thought", *p.Text
	case p.Text != nil:
		out.kind, out.text = "text", *p.Text
	}
	return out, nil
}

func normalizeFinish(v string, calls bool) warden.FinishReason {
	switch v {
	case "STOP":
		if calls {
			return warden.FinishToolCalls
		}
		return warden.FinishStop
	case "MAX_TOKENS":
		return warden.FinishLength
	case "SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "RECITATION", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION":
		return warden.FinishSafety
	}
	return warden.FinishUnknown
}

// Len returns the number of responses: one per candidate, or one for a blocked prompt.
func (r *Response) Len() int { return len(r.candidates) }

// Response returns candidate i in the turn model.
func (r *Response) Response(i int) warden.Response { return r.candidates[i].resp }

// Set writes a changed turn-model response back into candidate i: functionCall parts of removed calls are
// dropped, text added after the existing text becomes new text parts at the end (text changed in place
// replaces the text parts with one), and every other part stays as it came. For a blocked prompt, the text
// becomes the content of a new candidate; promptFeedback stays.
//
// A thoughtSignature on a part Set drops or replaces moves to the next functionCall part kept, or else to the
// first text part Set writes: Gemini 3 puts the signature of parallel calls on the first call only and rejects
// the next request when the first call sent back has none, so removing a denied first call must not strand it.
func (r *Response) Set(i int, resp warden.Response) error {
	c := r.candidates[i]
	if r.blocked && c.obj == nil {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": []map[string]string{{"text": resp.Message.Text()}}}, "index": 0}
		b, _ := json.Marshal([]any{cand})
		r.obj.Set("candidates", b)
		c.resp, r.changed = resp, true
		return nil
	}
	if c.content == nil {
		var err error
		if c.content, err = jsonobj.ParseShared([]byte(`{"role":"model"}`)); err != nil {
			return err
		}
	}
	keep := map[string]warden.ToolCall{}
	for _, call := range resp.Message.ToolCalls {
		keep[call.ID] = call
	}
	appended, inPlace := textdiff.Of(c.resp.Message, resp.Message)
	var parts []json.RawMessage
	var pendingSig json.RawMessage // a signature whose part was dropped or replaced
	// write appends a part Warden made, giving it the pending signature if there is one.
	write := func(text string) {
		if pendingSig != nil {
			parts = append(parts, signedTextPart(text, pendingSig))
			pendingSig = nil
			return
		}
		parts = append(parts, textPart(text))
	}
	wroteText := false
	for _, p := range c.parts {
		switch p.kind {
		case "call":
			call, ok := keep[p.call.ID]
			if !ok {
				if p.sig != nil && pendingSig == nil {
					pendingSig = p.sig
				}
				continue
			}
			if bytes.Equal(call.Arguments, p.call.Arguments) && (pendingSig == nil || p.sig != nil) {
				parts = append(parts, p.raw)
				continue
			}
			po, err := jsonobj.Parse(p.raw)
			if err != nil {
				return err
			}
			if !bytes.Equal(call.Arguments, p.call.Arguments) {
				fc, _ := po.Get("functionCall")
				fo, err := jsonobj.Parse(fc)
				if err != nil {
					return err
				}
				fo.Set("args", json.RawMessage(call.Arguments))
				fb, _ := fo.MarshalJSON()
				po.Set("functionCall", fb)
			}
			if p.sig == nil && pendingSig != nil {
				po.Set("thoughtSignature", pendingSig)
				pendingSig = nil
			}
			pb, _ := po.MarshalJSON()
			parts = append(parts, pb)
		case "text":
			if !inPlace {
				parts = append(parts, p.raw)
				continue
			}
			if p.sig != nil && pendingSig == nil {
				pendingSig = p.sig
			}
			if !wroteText {
				write(resp.Message.Text())
				wroteText = true
			}
		default:
			parts = append(parts, p.raw)
		}
	}
	if inPlace && !wroteText && resp.Message.Text() != "" {
		write(resp.Message.Text())
	}
	for _, t := range appended {
		write(t)
	}
	if parts == nil {
		parts = []json.RawMessage{}
	}
	if err := c.content.SetJSON("parts", parts); err != nil {
		return err
	}
	cb, _ := c.content.MarshalJSON()
	c.obj.Set("content", cb)
	c.resp, r.changed = resp, true
	return nil
}

func textPart(text string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Text string `json:"text"`
	}{text})
	return b
}

func signedTextPart(text string, sig json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(struct {
		Text             string          `json:"text"`
		ThoughtSignature json.RawMessage `json:"thoughtSignature"`
	}{text, sig})
	return b
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *Response) Encode() ([]byte, error) {
	if !r.changed {
		return r.raw, nil
	}
	if !r.blocked {
		cands := make([]json.RawMessage, len(r.candidates))
		for i, c := range r.candidates {
			b, err := c.obj.MarshalJSON()
			if err != nil {
				return nil, err
			}
			cands[i] = b
		}
		if err := r.obj.SetJSON("candidates", cands); err != nil {
			return nil, err
		}
	}
	return r.obj.MarshalJSON()
}

// ErrorBody returns an error body in Google's API error shape, for errors Warden answers itself.
func ErrorBody(message string) []byte { return StatusErrorBody(403, message) }

// StatusErrorBody returns an error body in Google's API error shape for an HTTP status, with the
// canonical status name Google pairs with it.
func StatusErrorBody(status int, message string) []byte {
	name := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
		409: "ABORTED", 413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 499: "CANCELLED", 500: "INTERNAL",
		501: "UNIMPLEMENTED", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}[status]
	if name == "" {
		name = "UNKNOWN"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": message, "status": name}})
	return b
}

// MessageBody returns a response with one model candidate holding text, for answers Warden gives itself.
func MessageBody(model, text, finishReason string) []byte {
	b, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []json.RawMessage{textPart(text)}},
			"finishReason": finishReason,
			"index":        0,
		}},
		"modelVersion":  model,
		"usageMetadata": map[string]int{"promptTokenCount": 0, "candidatesTokenCount": 0, "totalTokenCount": 0},
	})
	return b
}
