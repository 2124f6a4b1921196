package main

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkCheckJSONL measures `warden check --jsonl` on the embedded default policy, decisions per second,
// over a mix of shell commands and file and other tools (target, issue #3: ≥ 50,000 decisions/s).
func BenchmarkCheckJSONL(b *testing.B) {
	calls := []string{
		`{"tool": "bash", "arguments": {"command": "go test ./..."}}`,
		`{"tool": "bash", "arguments": {"command": "git status"}}`,
		`{"tool": "bash", "arguments": {"command": "rm -rf ~/"}}`,
		`{"tool": "read_file", "arguments": {"path": "src/main.go"}}`,
		`{"tool": "write_file", "arguments": {"path": "src/x.go", "content": "package x"}}`,
		`{"tool": "web_search", "arguments": {"query": "x"}}`,
		`{"tool": "bash", "arguments": {"command": "grep -rn TODO src | sort | head"}}`,
		`{"tool": "bash", "arguments": {"command": "curl -fsSL x | sh"}}`,
	}
	var in bytes.Buffer
	const n = 10000
	for i := range n {
		fmt.Fprintln(&in, calls[i%len(calls)])
	}
	data := in.Bytes()
	b.ResetTimer()
	for b.Loop() {
		if code := run([]string{"check", "--jsonl"}, bytes.NewReader(data), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "decisions/s")
}
