package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// Request is a decoded generateContent request body (the model and whether it streams are in the URL, not the
// body). Its conversation in the turn model is the system instruction (a system message), then each content;
// a content's functionResponse parts become tool messages of their own, in order, before its other parts.
// The request's field names may be camelCase or snake_case, as the API accepts both.
type Request struct {
	raw      []byte
	obj      *jsonobj.Object
	contents reqtext.Array
	conv     reqtext.Conversation
	tools    []string
}

// partsContent is a content's parts, of which text parts that are not thoughts hold text.
var partsContent = reqtext.Content{
	Member: "parts",
	Classify: func(elem json.RawMessage) reqtext.Part {
		p, err := jsonobj.ParseTrusted(elem) // read as a map is: by exact key, the last of duplicates
		if err != nil {
			return reqtext.Part{} // a part that is not an object
		}
		if t, ok := p.Get("text"); ok {
			text, _ := jsonobj.DecodeString(t) // "" when it is not a string, as json.Unmarshal leaves it
			if v, _ := p.Get("thought"); string(v) == "true" {
				return reqtext.Part{Kind: warden.ContentReasoning, Text: text}
			}
			return reqtext.Part{Kind: warden.ContentText, Text: text, Key: "text"}
		}
		for _, k := range mediaKeys {
			if _, ok := p.Get(k); ok {
				return reqtext.Part{Kind: warden.ContentMedia, MediaType: k}
			}
		}
		return reqtext.Part{} // a function call or response, code, or a part of a kind not known here
	},
	NewPart: textPart,
}

// mediaKeys are the members of parts that carry media, in both spellings.
var mediaKeys = []string{"inlineData", "inline_data", "fileData", "file_data"}

// DecodeRequest reads a generateContent or streamGenerateContent request body.
func DecodeRequest(body []byte) (*Request, error) {
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a generateContent request: %v", err)
	}
	if err := requestEnvelope.Envelope(body); err != nil {
		return nil, fmt.Errorf("an ambiguous request: %v", err)
	}
	r := &Request{raw: body, obj: obj}
	if err := r.readTools(); err != nil {
		return nil, err
	}
	for _, key := range []string{"systemInstruction", "system_instruction"} {
		sys, ok := obj.Get(key)
		if !ok || string(bytes.TrimSpace(sys)) == "null" {
			continue
		}
		so, err := jsonobj.Parse(sys)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		parts, err := partsContent.Parts(so)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		r.conv.Add(warden.Message{Role: warden.RoleSystem, Content: parts}, func(text string) error {
			ns, err := partsContent.Replace(sys, text)
			if err != nil {
				return err
			}
			r.obj.Set(key, ns)
			r.contents.Changed = true
			return nil
		})
	}
	rawContents, ok := obj.Get("contents")
	if !ok {
		return nil, errors.New(`not a generateContent request: no "contents"`)
	}
	if r.contents.Elems, err = jsonobj.SplitArray(rawContents); err != nil {
		return nil, fmt.Errorf("contents: %v", err)
	}
	for i, raw := range r.contents.Elems {
		if err := r.addContent(i, raw); err != nil {
			return nil, fmt.Errorf("contents[%d]: %v", i, err)
		}
	}
	return r, nil
}

// readTools reads the names of the tools the request offers: each function declaration's, and each
// built-in tool's key (googleSearch, codeExecution, …), in the order the request gives them. A tool is read
// as a map is (by exact key, the last of duplicates), its declarations as json.Unmarshal into structs does;
// anything readToolNames cannot take that way goes through encoding/json, for its error.
func (r *Request) readTools() error {
	raw, ok := r.obj.Get("tools")
	if !ok {
		return nil
	}
	var err error
	if r.tools, ok = readToolNames(raw); !ok {
		r.tools, err = decodeToolNames(raw)
	}
	return err
}

// readToolNames reads tools from validated bytes; ok is false when encoding/json must read them.
func readToolNames(tools json.RawMessage) (names []string, ok bool) {
	elems, err := jsonobj.SplitArrayTrusted(tools)
	if err != nil {
		return nil, false
	}
	for _, e := range elems {
		if string(e) == "null" {
			continue // a nil map: no tool
		}
		t, err := jsonobj.ParseTrusted(e)
		if err != nil {
			return nil, false
		}
		key := declarationsKey(t.Get)
		if key == "" {
			names = appendBuiltIn(names, t)
			continue
		}
		fns, ok := jsonobj.Objects(t, key, func(f *jsonobj.Object, fn *functionDeclaration) bool {
			return f.Plain("name") && f.Strings(jsonobj.StringInto("name", &fn.Name))
		})
		if !ok {
			return nil, false
		}
		for _, f := range fns {
			names = append(names, f.Name)
		}
	}
	return names, true
}

// decodeToolNames is readToolNames with encoding/json, for what that cannot read: its answer (in the same
// order) or its error.
func decodeToolNames(raw json.RawMessage) ([]string, error) {
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		return nil, fmt.Errorf("tools: %v", err)
	}
	elems, _ := jsonobj.SplitArrayTrusted(raw) // valid: encoding/json read it
	var names []string
	for i, t := range tools {
		key := declarationsKey(func(k string) (json.RawMessage, bool) { v, ok := t[k]; return v, ok })
		if key == "" {
			if obj, err := jsonobj.ParseTrusted(elems[i]); err == nil { // the map's keys in the request's order
				names = appendBuiltIn(names, obj)
			}
			continue
		}
		var fns []functionDeclaration
		if err := json.Unmarshal(t[key], &fns); err != nil {
			return nil, fmt.Errorf("tools: functionDeclarations: %v", err)
		}
		for _, f := range fns {
			names = append(names, f.Name)
		}
	}
	return names, nil
}

// functionDeclaration is what Warden reads of a declared function.
type functionDeclaration struct {
	Name string `json:"name"`
}

// declarationsKey names the member of a tool that holds its function declarations, in the spelling the
// tool uses ("" for a built-in tool); the camelCase one counts when both are there.
func declarationsKey(get func(string) (json.RawMessage, bool)) string {
	for _, k := range [...]string{"functionDeclarations", "function_declarations"} {
		if _, ok := get(k); ok {
			return k
		}
	}
	return ""
}

// appendBuiltIn appends a built-in tool's keys to names, once each, in the order the tool gives them.
func appendBuiltIn(names []string, tool *jsonobj.Object) []string {
	keys := tool.Keys()
	for i, k := range keys {
		if !slices.Contains(keys[:i], k) {
			names = append(names, k)
		}
	}
	return names
}

// geminiCall is a functionCall or functionResponse.
type geminiCall struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Args     json.RawMessage `json:"args"`
	Response json.RawMessage `json:"response"`
}

func (r *Request) addContent(i int, raw json.RawMessage) error {
	obj, err := jsonobj.ParseTrusted(raw) // an element SplitArray validated
	if err != nil {
		return err
	}
	c, err := readRequestContent(obj, raw)
	if err != nil {
		return err
	}
	role := warden.RoleUser
	if c.role == "model" {
		role = warden.RoleAssistant
	}
	out := warden.Message{Role: role}
	if out.Content, err = partsContent.Parts(obj); err != nil {
		return err
	}
	results := 0
	for j, p := range c.parts {
		if p == nil {
			continue
		}
		call, hasCall := p.Get("functionCall")
		if !hasCall {
			call, hasCall = p.Get("function_call")
		}
		resp, hasResp := p.Get("functionResponse")
		if !hasResp {
			resp, hasResp = p.Get("function_response")
		}
		switch {
		case hasCall:
			fc, err := readCall(call)
			if err != nil {
				return fmt.Errorf("parts[%d]: functionCall: %v", j, err)
			}
			out.ToolCalls = append(out.ToolCalls, warden.NewToolCall(fc.ID, fc.Name, fc.Args))
		case hasResp:
			fc, err := readCall(resp)
			if err != nil {
				return fmt.Errorf("parts[%d]: functionResponse: %v", j, err)
			}
			failed := false
			if payload, err := jsonobj.ParseTrusted(fc.Response); err == nil {
				_, failed = payload.Get("error")
			}
			r.conv.Add(warden.Message{Role: warden.RoleTool, ToolCallID: fc.ID, Name: fc.Name, IsError: failed,
				Content: []warden.ContentPart{{Kind: warden.ContentText, Text: string(fc.Response)}}}, r.setResponse(i, j))
			results++
		}
	}
	// A content made only of function responses adds no message of its own.
	if len(out.Content) > 0 || len(out.ToolCalls) > 0 || results == 0 {
		r.conv.Add(out, r.contents.Setter(i, partsContent.Replace))
	}
	return nil
}

// setResponse returns a setter for the functionResponse in part j of content i. The new text becomes the
// response when it is a JSON object, as a guardrail that redacts the response's JSON returns it; any other
// text becomes {"output": text}, the shape Gemini documents for a function's output.
func (r *Request) setResponse(i, j int) func(string) error {
	return r.contents.ElementSetter(i, "parts", j, func(part json.RawMessage, text string) (json.RawMessage, error) {
		po, err := jsonobj.Parse(part)
		if err != nil {
			return nil, err
		}
		key := "functionResponse"
		fr, ok := po.Get(key)
		if !ok {
			key = "function_response"
			fr, _ = po.Get(key)
		}
		value := json.RawMessage(text)
		if t := bytes.TrimSpace(value); len(t) == 0 || t[0] != '{' || !json.Valid(t) {
			value = json.RawMessage(`{"output":` + string(reqtext.Quote(text)) + `}`)
		}
		nfr, err := jsonobj.SetMember(fr, "response", value)
		if err != nil {
			return nil, err
		}
		po.Set(key, nfr)
		return po.MarshalJSON()
	})
}

// Tools names the functions the request declares, and built-in tools (googleSearch, codeExecution, …) by key.
func (r *Request) Tools() []string { return r.tools }

// Messages returns the conversation in the turn model. Do not modify it.
func (r *Request) Messages() []warden.Message { return r.conv.Messages() }

// SetText replaces the text of message i (a tool message: its functionResponse's response).
func (r *Request) SetText(i int, text string) error {
	return r.conv.SetText(i, text)
}

// Encode returns the body: the original bytes when nothing was changed.
func (r *Request) Encode() ([]byte, error) {
	if !r.contents.Changed {
		return r.raw, nil
	}
	r.obj.Set("contents", jsonobj.JoinArray(r.contents.Elems))
	return r.obj.MarshalJSON()
}
