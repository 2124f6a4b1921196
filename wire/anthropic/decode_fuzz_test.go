package anthropic_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden/wire/anthropic"
)

// FuzzDecode: any body decodes without panic or is refused with an error, a body decoded and not changed
// encodes to exactly the bytes it came as, and one written back through Set decodes to the same response.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"healthy_tool_use", "refusal_tool_use", "refusal_blank"} {
		if b, err := os.ReadFile("testdata/" + name + ".json"); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := anthropic.DecodeMessage(body)
		if err != nil {
			return
		}
		out, err := r.Encode()
		if err != nil || !bytes.Equal(out, body) {
			t.Fatalf("an unchanged body came out different (err %v):\n in %q\nout %q", err, body, out)
		}
		// Writing the same response back goes through the rewriting path: it must give a body that decodes
		// to the same text and tool calls.
		before := r.Response()
		if len(before.Message.ToolCalls) > 0 && !before.Message.ToolCalls[0].Complete {
			return
		}
		if err := r.Set(r.Response()); err != nil {
			return
		}
		out, err = r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := anthropic.DecodeMessage(out)
		if err != nil {
			t.Fatalf("the rewritten body does not decode: %v\n in %q\nout %q", err, body, out)
		}
		after := r2.Response()
		if after.Message.Text() != before.Message.Text() || len(after.Message.ToolCalls) != len(before.Message.ToolCalls) {
			t.Fatalf("rewriting changed the response:\n in %q\nout %q", body, out)
		}
	})
}
