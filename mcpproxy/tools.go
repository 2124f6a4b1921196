package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

// callParams are the members of tools/call's params the proxy reads; the others are forwarded as they came.
type callParams struct {
	name string
	args json.RawMessage
}

// readCallParams reads a tools/call's params: a tool name and arguments that are an object (absent means
// none).
func readCallParams(params json.RawMessage) (callParams, *jsonobj.Object, error) {
	if len(params) == 0 || params[0] != '{' {
		return callParams{}, nil, errors.New("tools/call needs params with the tool's name")
	}
	obj, err := jsonobj.Parse(params)
	if err != nil {
		return callParams{}, nil, err
	}
	var c callParams
	raw, ok := obj.Get("name")
	if ok {
		c.name, ok = jsonobj.DecodeString(raw)
	}
	if !ok || c.name == "" {
		return callParams{}, nil, errors.New(`tools/call needs "name", a string`)
	}
	c.args, ok = obj.Get("arguments")
	switch {
	case !ok || string(c.args) == "null":
		c.args = json.RawMessage("{}")
	case c.args[0] != '{':
		return callParams{}, nil, errors.New(`tools/call's "arguments" must be an object`)
	}
	return c, obj, nil
}

// CodeWithheldTool is the reason code of a call of a tool a listing left out.
const CodeWithheldTool = "warden.withheld_tool"

// authorize runs the tool-call stage on a tools/call request. It gives the message to forward (the
// request, its arguments replaced when a guardrail modified them) and true; or it answers the client
// itself (a denial the model reads as the tool's result, an error) and gives false.
func (s *session) authorize(ctx context.Context, m *Message, p *pending) ([]byte, bool) {
	c, params, err := readCallParams(m.Params)
	if err != nil {
		s.toClient(encodeError(m.ID, CodeInvalidParams, err.Error()))
		return nil, false
	}
	p.call = warden.ToolCall{ID: string(m.ID), Name: ToolName(s.p.cfg.Server, c.name), Arguments: c.args, Complete: true}
	if why := s.p.withheldWhy(c.name); why != "" {
		out := s.p.cfg.Engine.DenyToolCall(ctx, warden.ToolCallCheck{Run: s.run, Call: p.call}, CodeWithheldTool,
			"the tool was left out of the tool listing: "+why)
		s.toClient(toolError(m.ID, out.Message))
		return nil, false
	}
	out, err := s.p.cfg.Engine.CheckToolCall(ctx, warden.ToolCallCheck{Run: s.run, Call: p.call})
	var tw *warden.TripwireError
	switch {
	case errors.As(err, &tw):
		s.halt(m.ID, tw)
		return nil, false
	case err != nil:
		// The engine fails closed inside a stage; an error here is the session's context ending.
		s.toClient(toolError(m.ID, "Guardrail could not check the call of tool '"+p.call.Name+"': "+err.Error()))
		return nil, false
	case out.Decision.Action == warden.ActionAsk && out.Approval != nil:
		return s.ask(ctx, m, p, params, out)
	case !out.Allowed():
		s.toClient(toolError(m.ID, out.Message))
		return nil, false
	}
	_, retried := params.Get("requestState") // a retry after the approval's input request, maybe
	retried = retried && len(s.p.cfg.StateKey) > 0
	if !retried && string(out.Value.Arguments) == string(c.args) {
		return m.Raw, true
	}
	if retried {
		s.stripOwnState(params) // the server sees the call as the client first made it
	}
	if string(out.Value.Arguments) != string(c.args) {
		p.call = out.Value
		params.Set("arguments", out.Value.Arguments)
	}
	rewritten, err := params.MarshalJSON()
	if err != nil {
		s.toClient(encodeError(m.ID, CodeInternalError, "rewriting the call: "+err.Error()))
		return nil, false
	}
	return encodeRequest(m.ID, m.Method, rewritten), true
}

// halt ends the session's requests: this one, answered with the halt, and every one after it.
func (s *session) halt(id json.RawMessage, tw *warden.TripwireError) {
	s.mu.Lock()
	s.halted = tw
	s.mu.Unlock()
	if s.onHalt != nil {
		s.onHalt(haltReason(tw))
	}
	s.toClient(encodeError(id, CodeHalted, "Warden halted this session: "+haltReason(tw)))
}

// toolError is a tools/call answer that reports a failure to the model: a tool result with isError.
func toolError(id json.RawMessage, text string) []byte {
	b, _ := encodeResult(id, textResult(text, true))
	return b
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type toolResult struct {
	Content []textContent `json:"content"`
	IsError bool          `json:"isError,omitempty"`
}

func textResult(text string, isError bool) toolResult {
	return toolResult{Content: []textContent{{Type: "text", Text: text}}, IsError: isError}
}

// resultContent is what of an answer reaches a model as text: text parts, embedded resources' text,
// resource links' names and descriptions, structured content, a prompt's messages, a resource's contents.
// Binary parts (images, audio, blobs) carry no text a text guardrail can read and pass as they are.
type resultContent struct {
	Content           []contentPart   `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	// resources/read
	Contents []resourceContents `json:"contents"`
	// prompts/get
	Description string `json:"description"`
	Messages    []struct {
		Content contentPart `json:"content"`
	} `json:"messages"`
}

type contentPart struct {
	Type        string           `json:"type"`
	Text        string           `json:"text"`
	Name        string           `json:"name"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Resource    resourceContents `json:"resource"`
}

type resourceContents struct {
	Text string `json:"text"`
}

// text joins the answer's text in the order it appears.
func (r *resultContent) text() string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	addPart := func(c contentPart) {
		add(c.Text)
		add(c.Title)
		add(c.Name)
		add(c.Description)
		add(c.Resource.Text)
	}
	for _, c := range r.Content {
		addPart(c)
	}
	if len(r.StructuredContent) > 0 && string(r.StructuredContent) != "null" {
		add(string(r.StructuredContent))
	}
	for _, c := range r.Contents {
		add(c.Text)
	}
	add(r.Description)
	for _, m := range r.Messages {
		addPart(m.Content)
	}
	return strings.Join(parts, "\n")
}

// checkToolResult runs the tool-result stage on the server's answer to a tools/call. A rejected result is
// replaced by the guardrail's message with isError; a modified one by its text (the original's other
// parts and structured content, which the guardrail did not rewrite, are left out).
func (s *session) checkToolResult(ctx context.Context, p *pending, m *Message) []byte {
	var r resultContent
	content, isError := "", false
	if m.Error != nil {
		content, isError = m.Error.Message, true
	} else if err := json.Unmarshal(m.Result, &r); err != nil {
		return toolError(m.ID, "Warden could not read the result of tool '"+p.call.Name+"': it is not an MCP tool result")
	} else {
		content, isError = r.text(), r.IsError
	}
	res := warden.ToolResult{CallID: p.call.ID, Name: p.call.Name, Content: content, IsError: isError}
	out, err := s.p.cfg.Engine.CheckToolResult(ctx, warden.ToolResultCheck{Run: s.run, Call: p.call, Result: res})
	switch {
	case err != nil:
		return toolError(m.ID, "Guardrail could not check the result of tool '"+p.call.Name+"': "+err.Error())
	case !out.Allowed():
		return toolError(m.ID, out.Value.Content)
	case out.Value.Content != content:
		if m.Error != nil {
			return encodeError(m.ID, m.Error.Code, out.Value.Content)
		}
		b, _ := encodeResult(m.ID, textResult(out.Value.Content, out.Value.IsError))
		return b
	}
	return m.Raw
}

// checkContent runs the tool-result stage on the answer to a resources/read or prompts/get: the text a
// model will read, attributed to mcp__<server>__<method> with the request's params as its arguments.
func (s *session) checkContent(ctx context.Context, p *pending, m *Message) []byte {
	if m.Error != nil {
		return m.Raw // an error names what failed; it carries no resource or prompt
	}
	var r resultContent
	if err := json.Unmarshal(m.Result, &r); err != nil {
		return encodeError(m.ID, CodeServerFault, "the MCP server's answer to "+p.method+" is not one")
	}
	return s.judgeAnswer(ctx, p, m, r.text())
}

// checkRawAnswer runs the tool-result stage on the answer to a method Config.Methods checks, its result's
// JSON as the text: the proxy knows nothing of the answer's shape, so it judges all of it and rewrites
// none of it (a guardrail that would change it withholds it).
func (s *session) checkRawAnswer(ctx context.Context, p *pending, m *Message) []byte {
	if m.Error != nil {
		return m.Raw
	}
	return s.judgeAnswer(ctx, p, m, string(m.Result))
}

// judgeAnswer runs the tool-result stage on content, the text a model reads of the answer m to request p,
// attributed to mcp__<server>__<method>. An answer the stage rejects, or would rewrite, is withheld: the
// proxy cannot rewrite it in place.
func (s *session) judgeAnswer(ctx context.Context, p *pending, m *Message, content string) []byte {
	call := warden.ToolCall{ID: string(m.ID), Name: ToolName(s.p.cfg.Server, p.method), Arguments: json.RawMessage("{}"), Complete: true}
	out, err := s.p.cfg.Engine.CheckToolResult(ctx, warden.ToolResultCheck{Run: s.run, Call: call,
		Result: warden.ToolResult{CallID: call.ID, Name: call.Name, Content: content}})
	switch {
	case err != nil:
		return encodeError(m.ID, CodeInternalError, "Guardrail could not check the answer to "+p.method+": "+err.Error())
	case !out.Allowed():
		return encodeError(m.ID, CodeInternalError, out.Value.Content)
	case out.Value.Content != content:
		return encodeError(m.ID, CodeInternalError, "Guardrail changed the answer to "+p.method+", which cannot be rewritten in place; it was withheld")
	}
	return m.Raw
}

// authorizeRequest runs the tool-call stage on a request that reads or asks for something (resources/read,
// prompts/get, completion/complete), as tool mcp__<server>__<method> with the request's params as its
// arguments, so that the same policies judge a resource read as a file tool's read: a file: URI is given
// as a path too. It answers the client itself when the request is denied, and gives false.
func (s *session) authorizeRequest(ctx context.Context, m *Message) bool {
	args := json.RawMessage("{}")
	if len(m.Params) > 0 && m.Params[0] == '{' {
		args = m.Params
		if obj, err := jsonobj.Parse(m.Params); err == nil {
			obj.Delete("_meta") // the protocol's, not the request's
			if raw, ok := obj.Get("uri"); ok {
				if uri, ok := jsonobj.DecodeString(raw); ok {
					if path, ok := filePath(uri); ok {
						b, _ := json.Marshal(path)
						obj.Set("path", b)
					}
				}
			}
			if b, err := obj.MarshalJSON(); err == nil {
				args = b
			}
		}
	}
	call := warden.ToolCall{ID: string(m.ID), Name: ToolName(s.p.cfg.Server, m.Method), Arguments: args, Complete: true}
	out, err := s.p.cfg.Engine.CheckToolCall(ctx, warden.ToolCallCheck{Run: s.run, Call: call})
	var tw *warden.TripwireError
	switch {
	case errors.As(err, &tw):
		s.halt(m.ID, tw)
		return false
	case err != nil:
		s.toClient(encodeError(m.ID, CodeDenied, "Guardrail could not check "+m.Method+": "+err.Error()))
		return false
	case !out.Allowed():
		s.toClient(encodeError(m.ID, CodeDenied, out.Message))
		return false
	}
	return true
}

// filePath is the local path a file: URI names.
func filePath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" {
		return "", false
	}
	return u.Path, u.Path != ""
}
