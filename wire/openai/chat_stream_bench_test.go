package openai_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
)

// BenchmarkGuardTextStream: a 1,000-delta text stream through the stream guard (issue #4 target for
// passthrough: ≤ 2 µs per event), and through the redact guardrail; the decision at the end is a no-op.
func BenchmarkGuardTextStream(b *testing.B) {
	data, events := chatTextStream()
	pipelinetest.BenchStream(b, data, events, openai.GuardChatStream)
}

// BenchmarkGuardTextStreamObfuscated is BenchmarkGuardTextStream with OpenAI's "obfuscation" member after
// "choices", different in every chunk, as OpenAI sends by default.
func BenchmarkGuardTextStreamObfuscated(b *testing.B) {
	data, events := chatTextStreamWith(func(i int) string { return fmt.Sprintf(`,"obfuscation":"%x"`, i*7919) })
	pipelinetest.BenchStream(b, data, events, openai.GuardChatStream)
}

// chatTextStream builds the benchmarks' stream and says how many events it has.
func chatTextStream() ([]byte, int) { return chatTextStreamWith(func(int) string { return "" }) }

// chatTextStreamWith builds the stream with after(i) after chunk i's "choices".
func chatTextStreamWith(after func(i int) string) ([]byte, int) {
	var in strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&in, "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token %d \"},\"finish_reason\":null}]%s}\n\n", i, after(i))
	}
	in.WriteString("data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1732000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	return []byte(in.String()), n + 2
}

// BenchmarkGuardToolCallStream: an agent's turn as OpenAI streams it, a tool call whose arguments come in
// 1,000 pieces (held until the finish, then released), through the stream guard.
func BenchmarkGuardToolCallStream(b *testing.B) {
	const head = `data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":`
	var in strings.Builder
	in.WriteString(head + `{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"bash","arguments":""}}]},"logprobs":null,"finish_reason":null}]}` + "\n\n")
	const n = 1000
	for i := range n {
		fmt.Fprintf(&in, head+`{"tool_calls":[{"index":0,"function":{"arguments":"piece %d "}}]},"logprobs":null,"finish_reason":null}]}`+"\n\n", i)
	}
	in.WriteString(head + `{},"logprobs":null,"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	pipelinetest.BenchStream(b, []byte(in.String()), n+3, openai.GuardChatStream)
}

// BenchmarkGuardColdChunk: one text chunk of a paced stream through the stream guard with the CPU caches
// emptied first, as `warden bench` meets it, against a plain copy (see pipelinetest.BenchColdChunk).
func BenchmarkGuardColdChunk(b *testing.B) {
	const chunk = `data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"%s"},"finish_reason":null}]}` + "\n\n"
	next := []byte(fmt.Sprintf(chunk, " token"))
	pipelinetest.BenchColdChunk(b, []byte(fmt.Sprintf(chunk, "Hello")), func(int) []byte { return next }, openai.GuardChatStream)
}

// BenchmarkGuardColdOpening: a Chat stream's first read (the assistant's role, then its first text) through
// a new stream guard with the CPU caches emptied first, as a model's time to its first token leaves them,
// against a plain copy (see pipelinetest.BenchColdOpening).
func BenchmarkGuardColdOpening(b *testing.B) {
	const chunk = `data: {"id":"chatcmpl-9","object":"chat.completion.chunk","created":1732000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":%s,"finish_reason":null}]}` + "\n\n"
	head := fmt.Sprintf(chunk, `{"role":"assistant","content":""}`) + fmt.Sprintf(chunk, `{"content":"Hello"}`)
	pipelinetest.BenchColdOpening(b, []byte(head), openai.GuardChatStream)
}
