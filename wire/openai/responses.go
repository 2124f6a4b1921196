package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/textdiff"
)

// Response is a decoded Responses API body (object "response"): one turn-model response made of its output
// items. Message items' output_text parts are the text, reasoning items are kept as they came, and
// the items of tools the client runs are the tool calls, identified by call_id (the id the client answers
// with): function_call, custom_tool_call (its free-form input is a JSON string in the turn model), and the
// built-in client tools (see builtinCalls), whose action or operation object is the arguments.
type Response struct {
	raw     []byte
	obj     *jsonobj.Object
	items   []outputItem
	resp    warden.Response
	changed bool
	// newItemID, when set, makes Set put added text in a new message item with this id, as a stream guard
	// that has already sent that item needs.
	newItemID string
}

// builtinCalls are the Responses items of built-in tools that the client executes, with the tool name they
// have in the turn model and the member holding what the call would do.
var builtinCalls = map[string]struct{ name, member string }{
	"local_shell_call": {"local_shell", "action"},
	"shell_call":       {"shell", "action"},
	"apply_patch_call": {"apply_patch", "operation"},
	"computer_call":    {"computer", "action"},
}

type outputItem struct {
	raw   json.RawMessage
	kind  string // message, call, or other (kept as it is)
	typ   string // the item's type, as it came
	id    string // the item's id ("" when it has none, or not a string)
	call  warden.ToolCall
	texts []string // a message's output_text parts, in order
}

// DecodeResponse reads a Responses API body.
func DecodeResponse(body []byte) (*Response, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a response: %v", err) // not JSON, or not an object: say so rather than name a struct
	}
	if err := envelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous response: %v", err)
	}
	return decodeResponseObject(body, obj)
}

// decodeValidResponse is DecodeResponse for valid JSON that does not change afterwards (a terminal
// event's response, which the stream guard decoded the event for): it is neither validated nor copied
// again, and a stream's last event, which carries the whole response, is read once.
func decodeValidResponse(body []byte) (*Response, error) {
	if len(body) == 0 {
		return DecodeResponse(body) // for its error
	}
	obj, err := jsonobj.ParseTrusted(body)
	if err != nil {
		return nil, fmt.Errorf("not a response: %v", err)
	}
	return decodeResponseObject(body, obj)
}

// decodeResponseObject reads the response body, which obj holds parsed.
func decodeResponseObject(body []byte, obj *jsonobj.Object) (*Response, error) {
	var head responseHead
	if !head.scan(obj) {
		head = responseHead{}
		if err := json.Unmarshal(body, &head); err != nil {
			return nil, fmt.Errorf("not a response: %v", err)
		}
	}
	if head.Object != "response" {
		return nil, fmt.Errorf(`not a response: object is %q`, head.Object)
	}
	r := &Response{raw: body, obj: obj}
	r.resp.Message.Role = warden.RoleAssistant
	for i, raw := range head.Output {
		it, err := decodeValidOutputItem(raw) // Parse validated the body
		if err != nil {
			return nil, fmt.Errorf("output[%d]: %v", i, err)
		}
		r.items = append(r.items, it)
		switch it.kind {
		case "message":
			for _, t := range it.texts {
				r.resp.Message.Content = append(r.resp.Message.Content, warden.ContentPart{Kind: warden.ContentText, Text: t})
			}
		case "call":
			r.resp.Message.ToolCalls = append(r.resp.Message.ToolCalls, it.call)
		}
	}
	if head.IncompleteDetails != nil && head.IncompleteDetails.Reason != "" {
		r.resp.Signal = warden.Signal{Field: "incomplete_details.reason", Value: head.IncompleteDetails.Reason}
	} else if head.Status != "" {
		r.resp.Signal = warden.Signal{Field: "status", Value: head.Status}
	}
	r.resp.FinishReason = responsesFinish(head.Status, head.IncompleteDetails, len(r.resp.Message.ToolCalls) > 0)
	return r, nil
}

// responseHead is what DecodeResponse reads of a response besides its items.
type responseHead struct {
	Object            string                   `json:"object"`
	Status            string                   `json:"status"`
	IncompleteDetails *struct{ Reason string } `json:"incomplete_details"`
	Output            []json.RawMessage        `json:"output"`
}

var (
	responseHeadKeys = []string{"object", "status", "incomplete_details", "output"}
	reasonKeys       = []string{"reason"}
)

// scan reads the head of a response as json.Unmarshal would, without its reflection, when it is plain (as
// outputItemFields.scan); for anything else it reports false, and the caller asks encoding/json. The
// output's elements are slices of obj's bytes.
func (h *responseHead) scan(obj *jsonobj.Object) bool {
	if !obj.Plain(responseHeadKeys...) {
		return false
	}
	ok := obj.Strings(jsonobj.StringInto("object", &h.Object), jsonobj.StringInto("status", &h.Status))
	if v, has := obj.Get("incomplete_details"); has && ok && string(v) != "null" {
		d, err := jsonobj.ParseTrusted(v)
		if ok = err == nil && d.Plain(reasonKeys...); ok {
			h.IncompleteDetails = &struct{ Reason string }{}
			ok = d.Strings(jsonobj.StringInto("reason", &h.IncompleteDetails.Reason))
		}
	}
	if v, has := obj.Get("output"); has && ok {
		var err error
		h.Output, err = jsonobj.SplitArrayTrusted(v)
		ok = err == nil
	}
	return ok
}

// decodeOutputItem reads an output item from raw, which need not be valid JSON.
func decodeOutputItem(raw json.RawMessage) (outputItem, error) {
	obj, err := jsonobj.ParseShared(raw)
	return outputItemOf(raw, obj, err)
}

// decodeValidOutputItem is decodeOutputItem for an element of a body validated whole, which it does not
// validate again.
func decodeValidOutputItem(raw json.RawMessage) (outputItem, error) {
	obj, err := jsonobj.ParseTrusted(raw)
	return outputItemOf(raw, obj, err)
}

// outputItemOf reads the item raw, parsed as obj (err when it could not be).
func outputItemOf(raw json.RawMessage, obj *jsonobj.Object, err error) (outputItem, error) {
	var it outputItemFields
	if err != nil || !it.scan(obj) {
		it = outputItemFields{}
		if err := json.Unmarshal(raw, &it); err != nil {
			return outputItem{}, err
		}
	}
	out := outputItem{raw: raw, kind: "other", typ: it.Type}
	out.id, _ = jsonobj.DecodeString(it.ID)
	switch it.Type {
	case "message":
		out.kind = "message"
		for _, p := range it.Content {
			if p.Type == "output_text" {
				out.texts = append(out.texts, p.Text)
			}
		}
	case "function_call":
		var args []byte
		if it.Arguments != nil {
			args = []byte(*it.Arguments)
		}
		out.kind, out.call = "call", warden.NewToolCall(it.CallID, it.Name, args)
	case "custom_tool_call":
		var input string
		if it.Input != nil {
			input = *it.Input
		}
		args, _ := json.Marshal(input)
		out.kind, out.call = "call", warden.NewToolCall(it.CallID, it.Name, args)
	default:
		if b, ok := builtinCalls[it.Type]; ok {
			args := it.Action
			if b.member == "operation" {
				args = it.Operation
			}
			out.kind, out.call = "call", warden.NewToolCall(it.CallID, b.name, args)
		}
	}
	return out, nil
}

// outputItemFields is what Warden reads of an output item.
type outputItemFields struct {
	Type      string          `json:"type"`
	ID        json.RawMessage `json:"id"` // raw: an id of another type is no reason to refuse the item
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments *string         `json:"arguments"`
	Input     *string         `json:"input"`
	Action    json.RawMessage `json:"action"`
	Operation json.RawMessage `json:"operation"`
	Content   []outputPart    `json:"content"`
}

type outputPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

var (
	outputItemKeys = []string{"type", "id", "call_id", "name", "arguments", "input", "action", "operation", "content"}
	outputPartKeys = []string{"type", "text"}
)

// scan reads an item as json.Unmarshal would, without its reflection, when the item is plain: its members
// named exactly once, of the types the fields take. For anything else it reports false, and the caller
// asks encoding/json, for the answer or the error; a fuzz test holds the two to one reading. The fields
// that keep raw JSON are slices of obj's bytes.
func (it *outputItemFields) scan(obj *jsonobj.Object) bool {
	if !obj.Plain(outputItemKeys...) {
		return false
	}
	ok := obj.Strings(jsonobj.StringInto("type", &it.Type), jsonobj.StringInto("call_id", &it.CallID), jsonobj.StringInto("name", &it.Name))
	optional := func(key string, into **string) {
		if v, has := obj.Get(key); has && ok && string(v) != "null" {
			var s string
			if s, ok = jsonobj.DecodeString(v); ok {
				*into = &s
			}
		}
	}
	optional("arguments", &it.Arguments)
	optional("input", &it.Input)
	it.ID, _ = obj.Get("id")
	it.Action, _ = obj.Get("action")
	it.Operation, _ = obj.Get("operation")
	if v, has := obj.Get("content"); has && ok {
		ok = it.scanContent(v)
	}
	return ok
}

// scanContent reads a message item's content parts, or reports false as scan does.
func (it *outputItemFields) scanContent(v json.RawMessage) bool {
	if string(v) == "null" {
		return true
	}
	parts, err := jsonobj.SplitArrayTrusted(v)
	if err != nil {
		return false
	}
	it.Content = make([]outputPart, len(parts))
	for i, raw := range parts {
		if string(raw) == "null" {
			continue
		}
		p, err := jsonobj.ParseTrusted(raw)
		if err != nil || !p.Plain(outputPartKeys...) {
			return false
		}
		if !p.Strings(jsonobj.StringInto("type", &it.Content[i].Type), jsonobj.StringInto("text", &it.Content[i].Text)) {
			return false
		}
	}
	return true
}

func responsesFinish(status string, incomplete *struct{ Reason string }, calls bool) warden.FinishReason {
	switch status {
	case "completed":
		if calls {
			return warden.FinishToolCalls
		}
		return warden.FinishStop
	case "incomplete":
		if incomplete == nil {
			return warden.FinishUnknown
		}
		switch incomplete.Reason {
		case "max_output_tokens":
			return warden.FinishLength
		case "content_filter":
			return warden.FinishSafety
		}
	}
	return warden.FinishUnknown
}

// Len is 1: a Responses body is one response.
func (r *Response) Len() int { return 1 }

// Response returns the body in the turn model; the index is ignored.
func (r *Response) Response(int) warden.Response { return r.resp }

// Set writes a changed turn-model response back: the items of removed calls are dropped; text added after the
// existing text becomes output_text parts at the end of the last message item (or a new message item after
// all others when there is none); text changed in place replaces the output_text parts with one, in the first
// message item that had any. Reasoning and other items stay as they came. The index is ignored.
func (r *Response) Set(_ int, resp warden.Response) error {
	keep := map[string]warden.ToolCall{}
	for _, c := range resp.Message.ToolCalls {
		keep[c.ID] = c
	}
	appended, inPlace := textdiff.Of(r.resp.Message, resp.Message)
	var items []json.RawMessage
	lastMessage := -1 // index in items of the last message item kept
	wroteText := false
	for _, it := range r.items {
		switch it.kind {
		case "call":
			c, ok := keep[it.call.ID]
			if !ok {
				continue
			}
			if bytes.Equal(c.Arguments, it.call.Arguments) {
				items = append(items, it.raw)
				continue
			}
			nb, err := setCallArguments(it.raw, c)
			if err != nil {
				return err
			}
			items = append(items, nb)
		case "message":
			if !inPlace || len(it.texts) == 0 {
				items = append(items, it.raw)
				lastMessage = len(items) - 1
				continue
			}
			text := ""
			if !wroteText {
				text, wroteText = resp.Message.Text(), true
			}
			nb, keepItem, err := replaceOutputText(it.raw, text)
			if err != nil {
				return err
			}
			if keepItem {
				items = append(items, nb)
				lastMessage = len(items) - 1
			}
		default:
			items = append(items, it.raw)
		}
	}
	if inPlace && !wroteText && resp.Message.Text() != "" {
		appended = []string{resp.Message.Text()}
	}
	if len(appended) > 0 && r.newItemID != "" {
		items = append(items, messageItem(r.newItemID, []string{strings.Join(appended, "")}))
	} else if len(appended) > 0 {
		if lastMessage >= 0 {
			nb, err := appendOutputText(items[lastMessage], appended)
			if err != nil {
				return err
			}
			items[lastMessage] = nb
		} else {
			items = append(items, messageItem("msg_warden_"+strconv.Itoa(len(r.items)), appended))
		}
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	if err := r.obj.SetJSON("output", items); err != nil {
		return err
	}
	r.resp, r.changed = resp, true
	return nil
}

// setCallArguments writes a modified call's arguments in its item's own form.
func setCallArguments(raw json.RawMessage, c warden.ToolCall) (json.RawMessage, error) {
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, err
	}
	var typ string
	if t, ok := obj.Get("type"); ok {
		_ = json.Unmarshal(t, &typ)
	}
	if typ == "custom_tool_call" {
		var input string
		if err := json.Unmarshal(c.Arguments, &input); err != nil {
			return nil, errors.New("a modified custom tool call's input is not a JSON string")
		}
		if err := obj.SetJSON("input", input); err != nil {
			return nil, err
		}
		return obj.MarshalJSON()
	}
	if !c.Complete {
		return nil, errors.New("a modified tool call's arguments are not JSON")
	}
	if b, ok := builtinCalls[typ]; ok {
		obj.Set(b.member, c.Arguments)
		return obj.MarshalJSON()
	}
	if err := obj.SetJSON("arguments", string(c.Arguments)); err != nil {
		return nil, err
	}
	return obj.MarshalJSON()
}

// replaceOutputText replaces a message item's output_text parts with one holding text (none when text is
// empty), keeping its other parts; keep is false when the item is left with no content.
func replaceOutputText(raw json.RawMessage, text string) (out json.RawMessage, keep bool, err error) {
	obj, parts, err := messageParts(raw)
	if err != nil {
		return nil, false, err
	}
	var next []json.RawMessage
	wrote := false
	for _, p := range parts {
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(p, &head)
		if head.Type != "output_text" {
			next = append(next, p)
			continue
		}
		if !wrote && text != "" {
			next = append(next, outputTextPart(text))
		}
		wrote = true
	}
	if len(next) == 0 {
		return nil, false, nil
	}
	if err := obj.SetJSON("content", next); err != nil {
		return nil, false, err
	}
	out, err = obj.MarshalJSON()
	return out, true, err
}

// appendOutputText adds output_text parts at the end of a message item.
func appendOutputText(raw json.RawMessage, texts []string) (json.RawMessage, error) {
	obj, parts, err := messageParts(raw)
	if err != nil {
		return nil, err
	}
	for _, t := range texts {
		parts = append(parts, outputTextPart(t))
	}
	if err := obj.SetJSON("content", parts); err != nil {
		return nil, err
	}
	return obj.MarshalJSON()
}

func messageParts(raw json.RawMessage) (*jsonobj.Object, []json.RawMessage, error) {
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return nil, nil, err
	}
	var parts []json.RawMessage
	if c, ok := obj.Get("content"); ok {
		if err := json.Unmarshal(c, &parts); err != nil {
			return nil, nil, fmt.Errorf("content: %v", err)
		}
	}
	return obj, parts, nil
}

func outputTextPart(text string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Annotations []any  `json:"annotations"`
	}{"output_text", text, []any{}})
	return b
}

func messageItem(id string, texts []string) json.RawMessage {
	parts := make([]json.RawMessage, len(texts))
	for i, t := range texts {
		parts[i] = outputTextPart(t)
	}
	b, _ := json.Marshal(struct {
		Type    string            `json:"type"`
		ID      string            `json:"id"`
		Status  string            `json:"status"`
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}{"message", id, "completed", "assistant", parts})
	return b
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *Response) Encode() ([]byte, error) {
	if !r.changed {
		return r.raw, nil
	}
	return r.obj.MarshalJSON()
}

// ResponseMessageBody returns a Responses body whose one output item is an assistant message with text, for
// answers Warden gives itself; status is incomplete with reason content_filter, as a filtered response is.
func ResponseMessageBody(id, model, text string) []byte {
	b, _ := json.Marshal(map[string]any{"id": id, "object": "response", "created_at": 0, "status": "incomplete",
		"incomplete_details": map[string]string{"reason": "content_filter"}, "model": model,
		"output": []json.RawMessage{messageItem("msg_"+id, []string{text})}, "error": nil,
		"usage": map[string]any{"input_tokens": 0, "output_tokens": 0, "total_tokens": 0,
			"input_tokens_details": map[string]int{"cached_tokens": 0}, "output_tokens_details": map[string]int{"reasoning_tokens": 0}}})
	return b
}
