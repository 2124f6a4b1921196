package bedrock_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden/wire/bedrock"
)

// FuzzDecode: any body decodes without panic or is refused with an error, a body decoded and not changed
// encodes to exactly the bytes it came as, and one written back through Set decodes to the same response.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"healthy_tool_use", "guardrail_tool_use", "content_filtered_blank"} {
		if b, err := os.ReadFile("testdata/" + name + ".json"); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := bedrock.DecodeResponse(body)
		if err != nil {
			return
		}
		out, err := r.Encode()
		if err != nil || !bytes.Equal(out, body) {
			t.Fatalf("an unchanged body came out different (err %v):\n in %q\nout %q", err, body, out)
		}
		// Writing the same response back goes through the rewriting path: it must give a body that decodes
		// to the same text and tool calls.
		before := r.Response(0)
		if len(before.Message.ToolCalls) > 0 && !before.Message.ToolCalls[0].Complete {
			return
		}
		if err := r.Set(0, r.Response(0)); err != nil {
			return
		}
		out, err = r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := bedrock.DecodeResponse(out)
		if err != nil {
			t.Fatalf("the rewritten body does not decode: %v\n in %q\nout %q", err, body, out)
		}
		after := r2.Response(0)
		if after.Message.Text() != before.Message.Text() || len(after.Message.ToolCalls) != len(before.Message.ToolCalls) {
			t.Fatalf("rewriting changed the response:\n in %q\nout %q", body, out)
		}
	})
}
