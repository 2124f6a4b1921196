package jsonobj_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// benchBody is a provider's whole answer: a chat completion with a tool call, as Warden reads every one.
func benchBody(b *testing.B) []byte {
	body, err := os.ReadFile(filepath.Join("..", "..", "wire", "openai", "testdata", "healthy_tool_calls.json"))
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkValid sets Valid beside encoding/json.Valid, which it replaced in Parse.
func BenchmarkValid(b *testing.B) {
	body := benchBody(b)
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"jsonobj", jsonobj.Valid}, {"encoding-json", json.Valid}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if !v.valid(body) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkParse is the first step of every whole answer's decoding: validate, copy, find the members.
func BenchmarkParse(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonobj.Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeString is a tool call's arguments, a string with escapes, read as encoding/json would.
func BenchmarkDecodeString(b *testing.B) {
	s := []byte(`"{\"command\":\"go test ./...\",\"cwd\":\"/work/project\",\"timeout_ms\":120000}"`)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := jsonobj.DecodeString(s); !ok {
			b.Fatal("not a string")
		}
	}
}
