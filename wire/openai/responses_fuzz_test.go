package openai_test

import (
	"os"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
)

// FuzzDecodeResponse: any body decodes without panic or is refused with an error, and a body decoded and
// not changed encodes to exactly the bytes it came as.
func FuzzDecodeResponse(f *testing.F) {
	for _, name := range []string{"responses_healthy_function_call", "responses_content_filter_function_call", "responses_length_truncated_call"} {
		if b, err := os.ReadFile("testdata/" + name + ".json"); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RoundTrip(t, body, func(b []byte) (pipelinetest.Body, error) { return openai.DecodeResponse(b) })
	})
}
