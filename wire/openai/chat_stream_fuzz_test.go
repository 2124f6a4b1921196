package openai_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
)

// FuzzGuardChatStream: any stream is guarded without panic, as it is when it comes byte by byte (no chunk
// is then peeked), and when the decision changes nothing, the client
// receives exactly the bytes that came.
func FuzzGuardChatStream(f *testing.F) {
	for _, name := range []string{"stream_text", "stream_tool_call", "stream_safety_tool_call", "stream_denied_call"} {
		if b, err := os.ReadFile("testdata/" + name + ".sse"); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"{\"}}]}}]}\n\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := pipelinetest.GuardBytewise(t, in, openai.GuardChatStream)
		if err != nil {
			return
		}
		// A stream with tool calls (in any case: encoding/json reads keys without regard to case) may
		// rightly hold them back; any other stream must pass unchanged.
		if !bytes.Equal(out.Bytes(), in) && !bytes.Contains(bytes.ToLower(in), []byte("tool_calls")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}
