package openai_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/wire/openai"
)

// The codec's share of the common path: read a healthy response with a tool call into the turn model and
// write it back unchanged.

func BenchmarkDecodeHealthyChat(b *testing.B) {
	body := readBench(b, "healthy_tool_calls.json")
	for b.Loop() {
		r, err := openai.DecodeChatResponse(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeHealthyResponses(b *testing.B) {
	body := readBench(b, "responses_healthy_function_call.json")
	for b.Loop() {
		r, err := openai.DecodeResponse(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func readBench(b *testing.B, name string) []byte {
	b.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	return body
}

// The request side of the common path: read an openai-go request with instructions, a tool call and its
// result into the turn model, and write it back unchanged.

func BenchmarkDecodeChatRequest(b *testing.B) {
	body := sdkChatRequest(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := openai.DecodeChatRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeResponsesRequest(b *testing.B) {
	body := sdkResponsesRequest(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := openai.DecodeResponsesRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}
