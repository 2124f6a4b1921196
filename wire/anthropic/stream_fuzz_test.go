package anthropic_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/anthropic"
)

// FuzzGuardStream: any stream is guarded without panic, as it is when it comes byte by byte (no event is
// then peeked), and when the decision changes nothing and no block is held (no tool_use; encoding/json
// reads values and keys without regard to case, hence the lowering), the client receives exactly the
// bytes that came.
func FuzzGuardStream(f *testing.F) {
	for _, name := range []string{"stream_tool_use", "stream_refusal_tool_use", "stream_denied_first_call"} {
		if b, err := os.ReadFile("testdata/" + name + ".sse"); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"x\",\"input\":{}}}\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := pipelinetest.GuardBytewise(t, in, anthropic.GuardStream)
		if err != nil {
			return
		}
		if !bytes.Equal(out.Bytes(), in) && !bytes.Contains(bytes.ToLower(in), []byte("tool_use")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}
