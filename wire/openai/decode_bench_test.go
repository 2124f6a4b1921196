package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
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

// The request side with an agent's toolbox: 24 function tools, each with its schema, which the codec reads
// for their names.

func BenchmarkDecodeChatRequestTools(b *testing.B) {
	pipelinetest.BenchDecode(b, withTools(b, sdkChatRequest(b), func(name, desc, schema string) string {
		return `{"type":"function","function":{"name":"` + name + `","description":"` + desc + `","parameters":` + schema + `}}`
	}), openai.DecodeChatRequest)
}

func BenchmarkDecodeResponsesRequestTools(b *testing.B) {
	pipelinetest.BenchDecode(b, withTools(b, sdkResponsesRequest(b), func(name, desc, schema string) string {
		return `{"type":"function","name":"` + name + `","description":"` + desc + `","parameters":` + schema + `,"strict":true}`
	}), openai.DecodeResponsesRequest)
}

func withTools(b *testing.B, body []byte, each func(name, desc, schema string) string) []byte {
	out, err := jsonobj.SetMember(body, "tools", json.RawMessage(pipelinetest.AgentTools(24, each)))
	if err != nil {
		b.Fatal(err)
	}
	return out
}
