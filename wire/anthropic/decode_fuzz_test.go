package anthropic_test

import (
	"os"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
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
	f.Fuzz(func(t *testing.T, body []byte) { pipelinetest.RoundTrip(t, body, decodeMessageBody) })
}

func decodeMessageBody(b []byte) (pipelinetest.Body, error) {
	m, err := anthropic.DecodeMessage(b)
	if err != nil {
		return nil, err
	}
	return messageBody{m}, nil
}
