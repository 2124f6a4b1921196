package shell_test

import (
	"testing"

	"github.com/agentwarden/warden/shell"
)

// The analysis of a three-stage pipeline of plain commands, read without the parser since the plain
// reading takes pipes (plain.go).
func BenchmarkAnalyzePipeline(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze("grep -rn TODO src | sort | head -n 20"); a.Err != nil || len(a.Commands) != 3 {
			b.Fatal(a.Err)
		}
	}
}

// The analysis of the usual line, one program with plain arguments, which needs no parser (plain.go).
func BenchmarkAnalyzePlain(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze("go test ./pkg/parse/..."); a.Err != nil || len(a.Commands) != 1 {
			b.Fatal(a.Err)
		}
	}
}

// A list of plain commands, the agent's other usual line, also read without the parser (plain.go).
func BenchmarkAnalyzePlainList(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze("cd pkg/parse && go test ./... && go vet ./..."); a.Err != nil || len(a.Commands) != 3 {
			b.Fatal(a.Err)
		}
	}
}

// A pipeline of plain commands with its stderr joined in, read without the parser (plain.go).
func BenchmarkAnalyzePlainPipeline(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze("go test ./... 2>&1 | grep -v '^ok' | head -n 40"); a.Err != nil || len(a.Commands) != 3 {
			b.Fatal(a.Err)
		}
	}
}

// A line that needs the bash parser (a file redirection): the parse and the walk over its tree.
func BenchmarkAnalyzeParsed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze("grep -rn TODO src | sort | head -n 20 > todo.txt"); a.Err != nil || len(a.Commands) != 3 || len(a.Writes) != 1 {
			b.Fatal(a.Err)
		}
	}
}
