package gemini_test

import (
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/gemini"
)

// FuzzDecodeRequest: any body decodes or is refused, an unchanged request keeps its bytes, and every
// message's text can be rewritten into a body that decodes to it.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(sdkRequest(f))
	f.Add([]byte(`{"systemInstruction":{"parts":[{"text":"s"}]},"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"a":1}}},{"text":"b"}]}]}`))
	f.Add([]byte(`{"contents":[{"role":"model","parts":[{"text":"t","thought":true},{"function_call":{"name":"g","args":{}}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RequestRoundTrip(t, body, func(b []byte) (pipelinetest.Request, error) { return gemini.DecodeRequest(b) })
	})
}
