package openai_test

import (
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
)

// FuzzDecodeChatRequest: any body decodes or is refused, an unchanged request keeps its bytes, and every
// message's text can be rewritten into a body that decodes to it.
func FuzzDecodeChatRequest(f *testing.F) {
	f.Add(sdkChatRequest(f))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url"},{"type":"text","text":"b"}]},{"role":"tool","tool_call_id":"c","content":null}]}`))
	f.Add([]byte(`{"messages":[{"role":"function","name":"f","content":"x"},{"role":"assistant","content":[{"type":"refusal","refusal":"no"}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RequestRoundTrip(t, body, func(b []byte) (pipelinetest.Request, error) { return openai.DecodeChatRequest(b) })
	})
}

// FuzzDecodeResponsesRequest is FuzzDecodeChatRequest for Responses API requests.
func FuzzDecodeResponsesRequest(f *testing.F) {
	f.Add(sdkResponsesRequest(f))
	f.Add([]byte(`{"instructions":"a","input":"b"}`))
	f.Add([]byte(`{"input":[{"type":"shell_call_output","call_id":"s","output":[{"type":"input_text","text":"x"}]},{"type":"computer_call_output","output":{}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		pipelinetest.RequestRoundTrip(t, body, func(b []byte) (pipelinetest.Request, error) { return openai.DecodeResponsesRequest(b) })
	})
}
