package anthropic_test

import (
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/anthropic"
)

// FuzzDecodeRequest: any body decodes or is refused, an unchanged request keeps its bytes, and every
// message's text can be rewritten into a body that decodes to it.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(sdkRequest(f))
	f.Add([]byte(`{"system":"s","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"}]},{"type":"text","text":"b"}]}]}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"tool_use","id":"x","name":"n","input":{}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RequestRoundTrip(t, body, func(b []byte) (pipelinetest.Request, error) { return anthropic.DecodeRequest(b) })
	})
}
