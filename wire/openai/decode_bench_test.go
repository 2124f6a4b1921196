package openai_test

import (
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
)

// The codec's share of the common path: read a healthy response with a tool call into the turn model and
// write it back unchanged; and the request side: read an openai-go request with instructions, a tool call
// and its result, and write it back unchanged.

func BenchmarkDecodeHealthyChat(b *testing.B) {
	pipelinetest.BenchDecode(b, pipelinetest.Testdata(b, "healthy_tool_calls.json"), openai.DecodeChatResponse)
}

func BenchmarkDecodeHealthyResponses(b *testing.B) {
	pipelinetest.BenchDecode(b, pipelinetest.Testdata(b, "responses_healthy_function_call.json"), openai.DecodeResponse)
}

func BenchmarkDecodeChatRequest(b *testing.B) {
	pipelinetest.BenchDecode(b, sdkChatRequest(b), openai.DecodeChatRequest)
}

func BenchmarkDecodeResponsesRequest(b *testing.B) {
	pipelinetest.BenchDecode(b, sdkResponsesRequest(b), openai.DecodeResponsesRequest)
}
