package gemini_test

import (
	"os"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/gemini"
)

// FuzzDecode: any body decodes without panic or is refused with an error, a body decoded and not changed
// encodes to exactly the bytes it came as, and one written back through Set decodes to the same response.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"healthy_function_call", "safety_function_call", "prompt_blocked"} {
		if b, err := os.ReadFile("testdata/" + name + ".json"); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RoundTrip(t, body, func(b []byte) (pipelinetest.Body, error) { return gemini.DecodeResponse(b) })
	})
}
