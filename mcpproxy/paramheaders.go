package mcpproxy

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// ParamHeaders knows, per tool, which arguments its input schema marks x-mcp-header (MCP 2026-07-28,
// SEP-2243): such an argument travels in a Mcp-Param-<Name> header as well as in the body, so that
// intermediaries can read it. It learns them from the server's tools/list answers and is shared by every
// connection to that server, the stateless requests of 2026-07-28 included. Warden derives the headers
// it sends from the body it sends, so a header never disagrees with the arguments the server runs, and
// refuses a client's header that disagrees with the client's body. It is safe for concurrent use.
type ParamHeaders struct {
	mu    sync.Mutex
	tools map[string][]paramBinding
}

// paramBinding is one marked argument: its path in the arguments and its header's name.
type paramBinding struct {
	path   []string
	header string
}

// NewParamHeaders returns an empty registry.
func NewParamHeaders() *ParamHeaders { return &ParamHeaders{tools: map[string][]paramBinding{}} }

const (
	paramHeaderPrefix = "Mcp-Param-"
	base64Open        = "=?base64?"
	base64Close       = "?="
)

// schema is what of a JSON schema the registry reads: each property's x-mcp-header mark, and the
// properties of an object property, at any depth.
type schema struct {
	Header     json.RawMessage   `json:"x-mcp-header"`
	Properties map[string]schema `json:"properties"`
}

// learn reads the bindings of every tool of a tools/list result.
func (p *ParamHeaders) learn(result json.RawMessage) {
	var r struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range r.Tools {
		var sc schema // a tool whose schema does not read has no bindings; the others still do
		json.Unmarshal(t.InputSchema, &sc)
		p.tools[t.Name] = collectBindings(sc.Properties, nil, nil)
	}
}

func collectBindings(props map[string]schema, prefix []string, out []paramBinding) []paramBinding {
	for name, prop := range props {
		path := append(append([]string(nil), prefix...), name)
		var header string
		if json.Unmarshal(prop.Header, &header) == nil && header != "" {
			out = append(out, paramBinding{path: path, header: header})
		}
		out = collectBindings(prop.Properties, path, out)
	}
	return out
}

func (p *ParamHeaders) bindings(tool string) ([]paramBinding, bool) {
	if p == nil {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.tools[tool]
	return b, ok
}

// argument is the value at path in args, and whether it is there (null counts as absent).
func argument(args json.RawMessage, path []string) (json.RawMessage, bool) {
	cur := args
	for _, part := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return nil, false
		}
		var ok bool
		if cur, ok = obj[part]; !ok {
			return nil, false
		}
	}
	return cur, string(cur) != "null"
}

// headerText is a primitive argument as its header carries it: a string as it is, a boolean as true or
// false, an integer JavaScript can hold exactly in decimal; ok is false for anything else.
func headerText(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		const safe = 1<<53 - 1
		if x != math.Trunc(x) || math.Abs(x) > safe {
			return "", false
		}
		return strconv.FormatInt(int64(x), 10), true
	}
	return "", false
}

// encodeHeader writes a value into a header: as it is when it is plain printable ASCII, wrapped in
// =?base64?…?= when it has other characters, leading or trailing blanks, or looks wrapped already.
func encodeHeader(s string) string {
	plain := s == "" || s[0] != ' ' && s[0] != '\t' && s[len(s)-1] != ' ' && s[len(s)-1] != '\t' &&
		!(strings.HasPrefix(s, base64Open) && strings.HasSuffix(s, base64Close))
	for i := 0; plain && i < len(s); i++ {
		plain = s[i] >= 0x20 && s[i] <= 0x7e
	}
	if plain {
		return s
	}
	return base64Open + base64.StdEncoding.EncodeToString([]byte(s)) + base64Close
}

// decodeHeader reads a header's value, unwrapping =?base64?…?=; ok is false for bad base64.
func decodeHeader(h string) (string, bool) {
	inner, wrapped := strings.CutPrefix(h, base64Open)
	if inner, closed := strings.CutSuffix(inner, base64Close); wrapped && closed {
		b, err := base64.StdEncoding.DecodeString(inner)
		return string(b), err == nil
	}
	return h, true
}

// headers gives the Mcp-Param-* headers of a tools/call of tool with args, from its bindings.
func (p *ParamHeaders) headers(tool string, args json.RawMessage) map[string]string {
	bs, _ := p.bindings(tool)
	out := map[string]string{}
	for _, b := range bs {
		raw, ok := argument(args, b.path)
		if !ok {
			continue
		}
		if s, ok := headerText(raw); ok {
			out[paramHeaderPrefix+b.header] = encodeHeader(s)
		}
	}
	return out
}

// mismatch says how the request's Mcp-Param-* headers disagree with a tools/call's arguments, for a tool
// whose bindings are known; "" when they agree or the tool is not known.
func (p *ParamHeaders) mismatch(h http.Header, tool string, args json.RawMessage) string {
	bs, known := p.bindings(tool)
	if !known {
		return ""
	}
	for _, b := range bs {
		name := paramHeaderPrefix + b.header
		got := h.Get(name)
		raw, present := argument(args, b.path)
		if !present {
			if got != "" {
				return fmt.Sprintf("header %s is sent for argument %q, which the body does not have", name, strings.Join(b.path, "."))
			}
			continue
		}
		want, ok := headerText(raw)
		if !ok {
			continue // not a value a header can carry
		}
		decoded, ok := decodeHeader(got)
		switch {
		case got == "":
			return fmt.Sprintf("header %s is missing for argument %q", name, strings.Join(b.path, "."))
		case !ok:
			return fmt.Sprintf("header %s is not valid base64", name)
		case decoded != want:
			return fmt.Sprintf("header %s disagrees with the body's argument %q", name, strings.Join(b.path, "."))
		}
	}
	return ""
}
