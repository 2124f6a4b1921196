// Package pipelinetest gives codec tests the response pipeline the surfaces run: the safety guardrail, then
// the default command policy on every tool call left, a denied call removed and its deny message appended.
package pipelinetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/pipeline"
	"github.com/agentwarden/warden/policy/commands"
	"github.com/agentwarden/warden/safety"
	"github.com/google/go-cmp/cmp"
)

// Decide returns the pipeline as a stream guard's decide function: the default config's response side
// (safety, then the command policy on every tool call left), run by the pipeline the surfaces share.
func Decide(t testing.TB) func(warden.Response) (warden.Response, error) {
	t.Helper()
	g := &safety.Guardrail{}
	c := &commands.Commands{}
	for _, p := range []warden.Provisioner{g, c} {
		if err := p.Provision(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	e, err := warden.NewEngine(warden.Spec{Response: []warden.Entry{{Name: "safety", Guardrail: g}}, ToolCall: []warden.Entry{{Name: "commands", Guardrail: c}}})
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Engine: e}
	return func(resp warden.Response) (warden.Response, error) {
		return p.Decide(context.Background(), warden.RunInfo{}, resp)
	}
}

// Body is a decoded provider response body whose responses can be read and written back (every whole-body
// codec has these methods).
type Body interface {
	Len() int
	Response(i int) warden.Response
	Set(i int, r warden.Response) error
	Encode() ([]byte, error)
}

// Safety runs the safety guardrail on every response of b, as the response stage does, writes its changes
// back and returns the encoded body.
func Safety(t testing.TB, b Body) []byte {
	t.Helper()
	g := &safety.Guardrail{}
	if err := g.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range b.Len() {
		d, err := g.CheckResponse(context.Background(), warden.ResponseCheck{Response: b.Response(i)})
		if err != nil {
			t.Fatal(err)
		}
		if d.Action == warden.ActionModify {
			if err := b.Set(i, d.Replacement.(warden.Response)); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := b.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// RoundTrip checks what every whole-body codec promises, for its fuzz test: a body decode accepts and nothing
// changes encodes to exactly its own bytes, and one written back unchanged through Set (the rewriting path)
// decodes to the same text and tool calls. A body decode refuses is not checked.
func RoundTrip(t *testing.T, body []byte, decode func([]byte) (Body, error)) {
	t.Helper()
	r, err := decode(body)
	if err != nil {
		return
	}
	out, err := r.Encode()
	if err != nil || !bytes.Equal(out, body) {
		t.Fatalf("an unchanged body came out different (err %v):\n in %q\nout %q", err, body, out)
	}
	if r.Len() == 0 {
		return // no response to write back
	}
	before := r.Response(0)
	if len(before.Message.ToolCalls) > 0 && !before.Message.ToolCalls[0].Complete {
		return
	}
	if err := r.Set(0, before); err != nil {
		return
	}
	if out, err = r.Encode(); err != nil {
		t.Fatal(err)
	}
	r2, err := decode(out)
	if err != nil {
		t.Fatalf("the rewritten body does not decode: %v\n in %q\nout %q", err, body, out)
	}
	after := r2.Response(0)
	if after.Message.Text() != before.Message.Text() || len(after.Message.ToolCalls) != len(before.Message.ToolCalls) {
		t.Fatalf("rewriting changed the response:\n in %q\nout %q", body, out)
	}
}

// Request is a decoded provider request whose messages' text can be rewritten.
type Request interface {
	Messages() []warden.Message
	SetText(i int, text string) error
	Encode() ([]byte, error)
}

// RequestRoundTrip checks what every request codec promises, for its fuzz test: a body decode accepts and
// nothing changes encodes to exactly its own bytes; and after each message's text is rewritten, the body
// decodes again to as many messages, the rewritten one reading the new text (a tool message whose format
// wraps plain text, Gemini's functionResponse, reads it inside its JSON).
func RequestRoundTrip(t *testing.T, body []byte, decode func([]byte) (Request, error)) {
	t.Helper()
	r, err := decode(body)
	if err != nil {
		return
	}
	out, err := r.Encode()
	if err != nil || !bytes.Equal(out, body) {
		t.Fatalf("an unchanged request came out different (err %v):\n in %q\nout %q", err, body, out)
	}
	n := len(r.Messages())
	for i := range n {
		const text = "warden <&> rewrote this"
		if err := r.SetText(i, text); err != nil {
			continue // a message that cannot hold text says so
		}
		if out, err = r.Encode(); err != nil {
			t.Fatal(err)
		}
		r2, err := decode(out)
		if err != nil {
			t.Fatalf("the rewritten request does not decode: %v\n in %q\nout %q", err, body, out)
		}
		if got := len(r2.Messages()); got != n {
			t.Fatalf("rewriting message %d made %d messages of %d:\n in %q\nout %q", i, got, n, body, out)
		}
		if got := r2.Messages()[i].Text(); !strings.Contains(got, text) {
			t.Fatalf("message %d reads %q after the rewrite:\n in %q\nout %q", i, got, body, out)
		}
	}
}

// DecodedRequest checks one row of a request codec's decode table: the error when wantErr is set,
// otherwise the conversation and the tools offered.
func DecodedRequest[R interface {
	Messages() []warden.Message
	Tools() []string
}](t *testing.T, r R, err error, wantErr string, want []warden.Message, wantTools []string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("err = %v, want %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, r.Messages()); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantTools, r.Tools()); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// BenchDecode measures a codec's share of the common path: decode body and encode it back unchanged.
func BenchDecode[T interface{ Encode() ([]byte, error) }](b *testing.B, body []byte, decode func([]byte) (T, error)) {
	b.Helper()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := decode(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// Testdata reads a file of the calling package's testdata directory.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// AgentTools writes n distinct tool definitions of a coding agent's size (a name, a sentence, a JSON
// schema of a few properties) as a JSON array whose elements each is: each codec's benchmarks shape them
// as its wire format does, as an agent that offers a model its whole toolbox does on every turn. The name
// and the description need no escape in a JSON string; the schema is a JSON object.
func AgentTools(n int, each func(name, description, schema string) string) string {
	const (
		description = "Reads, searches or changes the files of the working tree; paths are relative to its root, and the output is cut at 30,000 characters."
		schema      = `{"type":"object","properties":{"path":{"type":"string","description":"the file or directory, relative to the root"},` +
			`"pattern":{"type":"string","description":"a regular expression, RE2 syntax"},"limit":{"type":"integer","minimum":1,"maximum":2000},` +
			`"recursive":{"type":"boolean","default":false}},"required":["path"],"additionalProperties":false}`
	)
	elems := make([]string, n)
	for i := range elems {
		elems[i] = each(fmt.Sprintf("tool_%d", i), description, schema)
	}
	return "[" + strings.Join(elems, ",") + "]"
}

// DenyAllCalls is what the surfaces make of a response whose every tool call was denied and explained:
// the calls removed and a deny message appended to the text. The differential tests rewrite answers so,
// to hold what a client reads of a rewritten answer to what was decided.
func DenyAllCalls(r warden.Response) warden.Response {
	if len(r.Message.ToolCalls) == 0 {
		return r
	}
	r.Message.ToolCalls = nil
	r.Message.Content = append(append([]warden.ContentPart(nil), r.Message.Content...),
		warden.ContentPart{Kind: warden.ContentText, Text: " Guardrail denied: the call was blocked."})
	return r
}
