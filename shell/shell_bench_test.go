package shell_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/shell"
)

// The analysis of a three-stage pipeline of plain commands, read without the parser since the plain
// reading takes pipes (plain.go).
func BenchmarkAnalyzePipeline(b *testing.B) {
	benchmarkAnalyze(b, "grep -rn TODO src | sort | head -n 20", 3, 0)
}

// The analysis of the usual line, one program with plain arguments, which needs no parser (plain.go).
func BenchmarkAnalyzePlain(b *testing.B) { benchmarkAnalyze(b, "go test ./pkg/parse/...", 1, 0) }

// A list of plain commands, the agent's other usual line, also read without the parser (plain.go).
func BenchmarkAnalyzePlainList(b *testing.B) {
	benchmarkAnalyze(b, "cd pkg/parse && go test ./... && go vet ./...", 3, 0)
}

// A pipeline of plain commands with its stderr joined in, read without the parser (plain.go).
func BenchmarkAnalyzePlainPipeline(b *testing.B) {
	benchmarkAnalyze(b, "go test ./... 2>&1 | grep -v '^ok' | head -n 40", 3, 0)
}

// A line that needs the bash parser (a file redirection): the parse and the walk over its tree.
func BenchmarkAnalyzeParsed(b *testing.B) {
	benchmarkAnalyze(b, "grep -rn TODO src | sort | head -n 20 > todo.txt", 3, 1)
}

func benchmarkAnalyze(b *testing.B, line string, commands, writes int) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze(line); a.Err != nil || len(a.Commands) != commands || len(a.Writes) != writes {
			b.Fatalf("%q: %d commands, %d writes, err %v", line, len(a.Commands), len(a.Writes), a.Err)
		}
	}
}

// A line longer than one read of the parser (2 KiB of a loop over files), whose parse is read in chunks
// and has its recursion measured at each (limits.go): what the depth guard costs a long line.
func BenchmarkAnalyzeLongParsed(b *testing.B) {
	line := "for f in src/*.go; do\n" + strings.Repeat("  grep -n \"TODO\" \"$f\" | sed -e 's/^/  /' >> todo.txt\n", 40) + "done"
	if len(line) < 2048 {
		b.Fatalf("the line is %d bytes, want 2 KiB", len(line))
	}
	benchmarkAnalyze(b, line, 80, 40)
}

// The time to deny a line nested far past the depth limit: the parse stops within a few reads.
func BenchmarkAnalyzeTooDeep(b *testing.B) {
	line := "echo $((" + strings.Repeat("(", 50_000) + "1" + strings.Repeat(")", 50_000) + "))"
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze(line); !a.Has(shell.TooComplex) {
			b.Fatalf("findings = %v, want too_complex", a.Findings)
		}
	}
}

// A PowerShell pipeline read as PowerShell reads it (windows.go): cmdlets, a parameter by prefix, a
// variable that names a place.
func BenchmarkAnalyzePowerShell(b *testing.B) {
	benchmarkDialect(b, shell.PowerShell, `Get-ChildItem $env:TEMP -Filter *.log | Remove-Item -Fo`, 2)
}

// A cmd line read as cmd reads it: built-ins, /switches, a %VARIABLE%.
func BenchmarkAnalyzeCmd(b *testing.B) {
	benchmarkDialect(b, shell.Cmd, `if exist build rd /s /q build & del /q %TEMP%\*.tmp`, 2)
}

// A PowerShell line given to a bash tool: read as bash and as PowerShell (windowsDialect, analyzeEither).
func BenchmarkAnalyzePowerShellInBashTool(b *testing.B) {
	line := `Remove-Item -Recurse -Force .\build`
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.Analyze(line); len(a.Commands) == 0 {
			b.Fatalf("%q: no command", line)
		}
	}
}

func benchmarkDialect(b *testing.B, d shell.Dialect, line string, commands int) {
	b.ReportAllocs()
	for b.Loop() {
		if a := shell.AnalyzeDialect(line, d, shell.Limits{}); a.Err != nil || len(a.Commands) != commands {
			b.Fatalf("%q: %d commands, err %v", line, len(a.Commands), a.Err)
		}
	}
}
