package gemini_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/gemini"
)

// FuzzGuardStream: any stream is guarded without panic, and when the decision changes nothing, a stream
// without function calls (encoding/json reads keys without regard to case, hence the lowering) reaches the
// client exactly as it came.
func FuzzGuardStream(f *testing.F) {
	for _, name := range []string{"stream_function_call", "stream_safety_function_call", "stream_denied_first_call", "stream_prompt_blocked"} {
		if b, err := os.ReadFile("testdata/" + name + ".sse"); err == nil {
			f.Add(b)
		}
	}
	same := func(r warden.Response) (warden.Response, error) { return r, nil }
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if err := gemini.GuardStream(bytes.NewReader(in), &out, nil, same, nil); err != nil {
			return
		}
		if !bytes.Equal(out.Bytes(), in) && !bytes.Contains(bytes.ToLower(in), []byte("functioncall")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}
