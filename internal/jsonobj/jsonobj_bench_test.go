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

// BenchmarkSplitArray is how each request codec reads its messages and each message's content: a
// conversation's messages array (a system prompt, the task, a tool call and its result), beside
// json.Unmarshal into a []json.RawMessage, which SplitArray answers as.
func BenchmarkSplitArray(b *testing.B) {
	body := []byte(`[{"role":"system","content":"You are a careful coding agent. Run commands only in the workspace."},` +
		`{"role":"user","content":[{"type":"text","text":"List the files in the repository and summarise the README."}]},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls -la && head -50 README.md\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call_1","content":"total 48\ndrwxr-xr-x  7 dev dev 4096 .\n-rw-r--r--  1 dev dev 2113 README.md\n# Project\nA small tool that does one thing well."}]`)
	for _, v := range []struct {
		name  string
		split func([]byte) ([]json.RawMessage, error)
	}{
		{"jsonobj", jsonobj.SplitArray},
		{"encoding-json", func(data []byte) (elems []json.RawMessage, err error) { return elems, json.Unmarshal(data, &elems) }},
	} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if elems, err := v.split(body); err != nil || len(elems) != 4 {
					b.Fatal(len(elems), err)
				}
			}
		})
	}
}
