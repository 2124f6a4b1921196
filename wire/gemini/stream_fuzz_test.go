package gemini_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/gemini"
)

// FuzzGuardStream: any stream is guarded without panic, as it is when it comes byte by byte, and when the
// decision changes nothing, a stream without function calls (encoding/json reads keys without regard to
// case, hence the lowering) reaches the client exactly as it came.
func FuzzGuardStream(f *testing.F) {
	for _, name := range []string{"stream_function_call", "stream_safety_function_call", "stream_denied_first_call", "stream_prompt_blocked"} {
		if b, err := os.ReadFile("testdata/" + name + ".sse"); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := pipelinetest.GuardBytewise(t, in, gemini.GuardStream)
		if err != nil {
			return
		}
		if !bytes.Equal(out.Bytes(), in) && !bytes.Contains(bytes.ToLower(in), []byte("functioncall")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}
