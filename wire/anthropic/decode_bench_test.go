package anthropic_test

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/anthropic"
)

// BenchmarkDecodeHealthy is the codec's share of the common path: read a healthy response with a tool call
// into the turn model and write it back unchanged.
func BenchmarkDecodeHealthy(b *testing.B) {
	pipelinetest.BenchDecode(b, pipelinetest.Testdata(b, "healthy_tool_use.json"), anthropic.DecodeMessage)
}

// BenchmarkDecodeRequest is the request side of the common path: read the SDK's request with a system
// prompt, a tool call and its result into the turn model, and write it back unchanged.
func BenchmarkDecodeRequest(b *testing.B) {
	pipelinetest.BenchDecode(b, sdkRequest(b), anthropic.DecodeRequest)
}

// BenchmarkDecodeRequestTools is BenchmarkDecodeRequest with an agent's toolbox: 24 tools, each with its
// schema, which the codec reads for their names.
func BenchmarkDecodeRequestTools(b *testing.B) {
	tools := pipelinetest.AgentTools(24, func(name, desc, schema string) string {
		return `{"name":"` + name + `","description":"` + desc + `","input_schema":` + schema + `}`
	})
	body, err := jsonobj.SetMember(sdkRequest(b), "tools", json.RawMessage(tools))
	if err != nil {
		b.Fatal(err)
	}
	pipelinetest.BenchDecode(b, body, anthropic.DecodeRequest)
}
