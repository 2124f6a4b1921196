package openai_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/openai"
)

// FuzzGuardResponsesStream: any stream is guarded without panic, and when the decision changes nothing, a
// stream with no item added (so none held or renumbered) reaches the client exactly as it came.
func FuzzGuardResponsesStream(f *testing.F) {
	for _, name := range []string{"responses_stream_function_call", "responses_stream_content_filter", "responses_stream_denied_first_call"} {
		if b, err := os.ReadFile("testdata/" + name + ".sse"); err == nil {
			f.Add(b)
		}
	}
	same := func(r warden.Response) (warden.Response, error) { return r, nil }
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if err := openai.GuardResponsesStream(bytes.NewReader(in), &out, nil, same, nil); err != nil {
			return
		}
		if !bytes.Equal(out.Bytes(), in) && !bytes.Contains(bytes.ToLower(in), []byte("output_item.added")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}
