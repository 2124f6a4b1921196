package bedrock_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/wire/bedrock"
)

// BenchmarkDecodeHealthy is the codec's share of the common path: read a healthy response with a tool call
// into the turn model and write it back unchanged.
func BenchmarkDecodeHealthy(b *testing.B) {
	body, err := os.ReadFile(filepath.Join("testdata", "healthy_tool_use.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := bedrock.DecodeResponse(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeRequest is the request side of the common path: read the SDK's request with a system
// prompt, a tool call and its result into the turn model, and write it back unchanged.
func BenchmarkDecodeRequest(b *testing.B) {
	body := sdkRequest(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := bedrock.DecodeRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}
