package mcpproxy

import (
	"encoding/json"
	"net/http"
	"testing"
)

// An argument's header value: plain ASCII as it is, anything a header cannot carry plainly wrapped in
// base64, and read back the same.
func TestHeaderValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, arg, header string
	}{
		{"a plain string as it is", `"eu-west-1"`, "eu-west-1"},
		{"a boolean in words", `true`, "true"},
		{"an integer in decimal", `42`, "42"},
		{"non-ASCII text in base64", `"Zürich"`, "=?base64?WsO8cmljaA==?="},
		{"a leading blank in base64", `" api"`, "=?base64?IGFwaQ==?="},
		{"a value that looks wrapped is wrapped", `"=?base64?abc?="`, "=?base64?PT9iYXNlNjQ/YWJjPz0=?="},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			text, ok := headerText(json.RawMessage(tc.arg))
			if !ok || encodeHeader(text) != tc.header {
				t.Fatalf("%s gives %q (%v), want %q", tc.arg, encodeHeader(text), ok, tc.header)
			}
			if back, ok := decodeHeader(tc.header); !ok || back != text {
				t.Errorf("%q reads back as %q (%v), want %q", tc.header, back, ok, text)
			}
		})
	}
	for _, arg := range []string{`1.5`, `9007199254740993`, `{"a":1}`, `["x"]`} {
		if _, ok := headerText(json.RawMessage(arg)); ok {
			t.Errorf("%s has a header value; only strings, booleans and safe integers do", arg)
		}
	}
}

// Nested arguments are found by their path, and an absent one must have no header.
func TestParamMismatch(t *testing.T) {
	t.Parallel()
	p := NewParamHeaders()
	p.learn(json.RawMessage(`{"tools":[{"name":"deploy","inputSchema":{"type":"object","properties":{"target":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}}}]}`))
	args := json.RawMessage(`{"target":{"region":"eu"}}`)
	for _, tc := range []struct {
		desc   string
		header http.Header
		args   json.RawMessage
		tool   string
		ok     bool
	}{
		{"a nested argument's header agrees", http.Header{"Mcp-Param-Region": {"eu"}}, args, "deploy", true},
		{"it disagrees", http.Header{"Mcp-Param-Region": {"us"}}, args, "deploy", false},
		{"a header for an absent argument", http.Header{"Mcp-Param-Region": {"eu"}}, json.RawMessage(`{}`), "deploy", false},
		{"a tool not listed is not judged", http.Header{"Mcp-Param-Region": {"us"}}, args, "other", true},
	} {
		if got := p.mismatch(tc.header, tc.tool, tc.args); (got == "") != tc.ok {
			t.Errorf("%s: %q", tc.desc, got)
		}
	}
	if h := p.headers("deploy", args); h["Mcp-Param-Region"] != "eu" {
		t.Errorf("derived headers %v", h)
	}
}
