package mcpproxy

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

// listedTool is what of a tools/list entry the proxy reads: its name, and the text a model reads of it.
type listedTool struct {
	Name, Title, Description  string
	InputSchema, OutputSchema json.RawMessage
}

// readListedTool reads one entry of a valid tools/list answer (the message was validated whole).
func readListedTool(entry json.RawMessage) (listedTool, bool) {
	var t listedTool
	o, err := jsonobj.ParseTrusted(entry)
	if err != nil || !o.Strings(jsonobj.StringInto("name", &t.Name), jsonobj.StringInto("title", &t.Title),
		jsonobj.StringInto("description", &t.Description)) || t.Name == "" {
		return listedTool{}, false
	}
	t.InputSchema, _ = o.Get("inputSchema")
	t.OutputSchema, _ = o.Get("outputSchema")
	return t, true
}

// modelText is everything of the tool a model reads: its title and description, and its schemas, whose
// property descriptions and defaults are read as instructions as well.
func (t *listedTool) modelText() string {
	parts := []string{t.Title, t.Description}
	for _, schema := range []json.RawMessage{t.InputSchema, t.OutputSchema} {
		if len(schema) > 0 && string(schema) != "null" {
			parts = append(parts, string(schema))
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// checkListing gives a tools/list answer without the tools the client may not see: those a tool-call
// guardrail denies by name (unless Config.ShowDenied), and those whose description or schemas a
// tool-result guardrail withholds (a poisoned description is an injection the model reads before any call
// is made). A tool left out for its description stays uncallable in the session. Everything else of the
// answer (pagination cursor, other members) is kept as it came.
func (s *session) checkListing(ctx context.Context, m *Message) []byte {
	if m.Error != nil {
		return m.Raw
	}
	result, err := jsonobj.Parse(m.Result)
	if err != nil {
		return encodeError(m.ID, CodeServerFault, "the MCP server's answer to tools/list is not an object")
	}
	raw, ok := result.Get("tools")
	if !ok {
		return encodeError(m.ID, CodeServerFault, `the MCP server's answer to tools/list has no "tools"`)
	}
	entries, err := jsonobj.SplitArrayTrusted(raw)
	if err != nil {
		return encodeError(m.ID, CodeServerFault, `the MCP server's "tools" is not an array`)
	}
	kept := entries[:0:0]
	for _, entry := range entries {
		t, ok := readListedTool(entry)
		if !ok {
			s.p.log.Warn("mcp: left out a listed tool that is not one")
			continue
		}
		name := ToolName(s.p.cfg.Server, t.Name)
		if !s.p.cfg.ShowDenied && s.p.cfg.Engine.DeniesTool(name) {
			continue
		}
		why := s.judgeDescription(ctx, m.ID, name, &t)
		if why == "" {
			why = s.checkPin(ctx, name, &t)
		}
		s.p.withhold(t.Name, why)
		if why != "" {
			s.p.log.Warn("mcp: left out a listed tool", "tool", name, "reason", why)
			continue
		}
		kept = append(kept, entry)
	}
	if len(kept) == len(entries) {
		return m.Raw
	}
	result.Set("tools", jsonobj.JoinArray(kept))
	rewritten, err := result.MarshalJSON()
	if err != nil {
		return encodeError(m.ID, CodeInternalError, "rewriting the tool listing: "+err.Error())
	}
	b, _ := encodeResult(m.ID, json.RawMessage(rewritten))
	return b
}

// judgeDescription runs the tool-result stage on what a model reads of a listed tool; it gives why the
// tool is withheld, or "" when it may be listed.
func (s *session) judgeDescription(ctx context.Context, id json.RawMessage, name string, t *listedTool) string {
	text := t.modelText()
	if text == "" {
		return ""
	}
	call := warden.ToolCall{ID: string(id), Name: name, Arguments: json.RawMessage("{}"), Complete: true}
	out, err := s.p.cfg.Engine.CheckToolResult(ctx, warden.ToolResultCheck{Run: s.run, Call: call,
		Result: warden.ToolResult{CallID: call.ID, Name: name, Content: text}})
	switch {
	case err != nil:
		return "its description could not be checked: " + err.Error()
	case !out.Allowed():
		r := out.Decision.FirstReason()
		return "its description was withheld (" + r.Code + "): " + r.Message
	case out.Value.Content != text:
		return "a guardrail would rewrite its description, which a listing cannot carry"
	}
	return ""
}

// checkPin compares what the model reads of a listed tool with its pin, pinning it at its first listing;
// it gives why the tool is withheld, or "".
func (s *session) checkPin(ctx context.Context, name string, t *listedTool) string {
	cfg := &s.p.cfg
	if cfg.Pins == nil {
		return ""
	}
	digest, err := toolDigest(t)
	if err != nil {
		return "its description could not be pinned: " + err.Error()
	}
	before, err := cfg.Pins.Pin(ctx, cfg.Server+"/"+t.Name, digest, cfg.Repin)
	switch {
	case err != nil:
		return "its pin could not be checked: " + err.Error()
	case before == "" || before == digest:
		return ""
	case cfg.Repin:
		s.p.log.Info("mcp: re-pinned a tool whose description changed", "tool", name)
		return ""
	case cfg.OnPinChange == "warn":
		s.p.log.Warn("mcp: a tool's description changed since it was pinned", "tool", name)
		return ""
	}
	return "its description or schemas changed since it was pinned, as a rug pull does (accept the change with warden mcp --repin)"
}

// withhold records why a listing left the tool out, or, with why empty, that it listed it clean.
func (p *Proxy) withhold(tool, why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if why == "" {
		delete(p.withheld, tool)
	} else {
		p.withheld[tool] = why
	}
}

// withheldWhy says why calls of the tool are refused, "" when they are not.
func (p *Proxy) withheldWhy(tool string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.withheld[tool]
}
