package bedrock_test

import (
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/bedrock"
)

// FuzzDecodeRequest: any body decodes or is refused, an unchanged request keeps its bytes, and every
// message's text can be rewritten into a body that decodes to it.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(sdkRequest(f))
	f.Add([]byte(`{"system":[{"text":"s"}],"messages":[{"role":"user","content":[{"toolResult":{"toolUseId":"t","content":[{"json":{"a":1}}]}},{"text":"b"}]}]}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"t"}}},{"toolUse":{"toolUseId":"x","name":"n","input":{}}}]},{"role":"user","content":[{"guardContent":{"text":{"text":"g"}}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RequestRoundTrip(t, body, func(b []byte) (pipelinetest.Request, error) { return bedrock.DecodeRequest(b) })
	})
}
