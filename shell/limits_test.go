package shell_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/childtest"
	"github.com/agentwarden/warden/shell"
)

// nestings are the families of construct the bash parser recurses on, each as a function of how many
// levels deep it goes. Some close what they open (parentheses, keywords), some are chains of operators
// that nest without closing anything (unary minus, right-associative assignment and power).
var nestings = []struct {
	desc string
	make func(n int) string
}{
	{"arithmetic parentheses", func(n int) string { return "echo $((" + rep("(", n) + "1" + rep(")", n) + "))" }},
	{"command substitutions", func(n int) string { return rep("$(", n) + "ls" + rep(")", n) }},
	{"double-quoted substitutions", func(n int) string { return rep(`echo "$(`, n) + "ls" + rep(`)"`, n) }},
	{"subshells", func(n int) string { return rep("( ", n) + "ls" + rep(" )", n) }},
	{"brace groups", func(n int) string { return rep("{ ", n) + "ls" + rep("; }", n) }},
	{"if clauses", func(n int) string { return rep("if true; then ", n) + "ls" + rep("; fi", n) }},
	{"while loops", func(n int) string { return rep("while true; do ", n) + "ls" + rep("; done", n) }},
	{"case clauses", func(n int) string { return rep("case x in x) ", n) + "ls" + rep(";; esac", n) }},
	{"process substitutions", func(n int) string { return rep("cat <(", n) + "ls" + rep(")", n) }},
	{"parameter expansions", func(n int) string { return "echo " + rep("${a:-", n) + "x" + rep("}", n) }},
	{"array indexes", func(n int) string { return "echo ${a[" + rep("a[", n) + "1" + rep("]", n) + "]}" }},
	{"a unary minus chain", func(n int) string { return "echo $((" + rep("- ", n) + "1))" }},
	{"a power chain", func(n int) string { return "echo $((" + rep("2**", n) + "1))" }},
	{"a ternary chain", func(n int) string { return "echo $((" + rep("a?b:", n) + "1))" }},
	{"a let assignment chain", func(n int) string { return "let " + rep("a=", n) + "1" }},
	{"a [[ negation chain", func(n int) string { return "[[ " + rep("! ", n) + "x ]]" }},
	{"a [[ and chain", func(n int) string { return "[[ " + rep("x && ", n) + "x ]]" }},
	{"pipelines in subshells", func(n int) string { return rep("ls | (", n) + "ls" + rep(")", n) }},
	{"pipelines in substitutions", func(n int) string { return rep("ls | $(", n) + "ls" + rep(")", n) }},
	{"shell strings in substitutions", func(n int) string { return rep(`bash -c "$(`, n) + "ls" + rep(`)"`, n) }},
	{"function bodies", func(n int) string { return rep("f() { ", n) + "ls" + rep("; }", n) }},
}

// widths are families that grow wide rather than deep, or nest a little with work that grows faster than
// their size.
var widths = []struct {
	desc string
	make func(n int) string
}{
	{"an and list", func(n int) string { return rep("ls && ", n) + "ls" }},
	{"a pipeline", func(n int) string { return rep("cat | ", n) + "sh" }},
	{"a parsed pipeline", func(n int) string { return rep("cat $x | ", n) + "sh" }},
	{"substitutions in one command", func(n int) string { return "bash " + rep("$(curl x) ", n) }},
	{"functions that call themselves", func(n int) string { return rep("f() { f | f & }; ", n) }},
	{"shell strings in substitutions, 150 deep", func(n int) string { return rep(`bash -c "$(`, 150) + rep("ls;", n) + rep(`)"`, 150) }},
	{"pipelines in substitutions, 100 deep", func(n int) string { return rep("ls | $(", 100) + rep("ls;", n) + rep(")", 100) }},
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

func TestNestingWithinTheLimitsIsAnalyzed(t *testing.T) {
	t.Parallel()
	for _, tt := range nestings {
		t.Run(tt.desc+" 40 deep", func(t *testing.T) {
			t.Parallel()
			if a := shell.Analyze(tt.make(40)); a.Has(shell.TooComplex) {
				t.Errorf("findings = %v, want no too_complex", a.Findings)
			}
		})
	}
}

func TestDeepNestingIsTooComplex(t *testing.T) {
	t.Parallel()
	for _, tt := range nestings {
		for _, n := range []int{3000, 100_000} {
			t.Run(fmt.Sprintf("%s %d deep", tt.desc, n), func(t *testing.T) {
				t.Parallel()
				src := tt.make(n)
				a := shell.AnalyzeLimited(src, shell.Limits{MaxBytes: len(src)}) // the depth, not the length, must stop it
				if !a.Has(shell.TooComplex) {
					t.Fatalf("findings = %v, want too_complex", a.Findings)
				}
				if len(a.Commands)+len(a.Writes)+len(a.Reads) > 0 {
					t.Errorf("a line too complex to analyze kept %d commands, %d writes, %d reads of its partial analysis",
						len(a.Commands), len(a.Writes), len(a.Reads))
				}
			})
		}
	}
}

func TestALowerDepthLimitStopsSoonerAndNestingBelowItPasses(t *testing.T) {
	t.Parallel()
	l := shell.Limits{MaxDepth: 300}
	for _, tt := range nestings {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if a := shell.AnalyzeLimited(tt.make(3), l); a.Has(shell.TooComplex) {
				t.Errorf("3 deep: findings = %v, want no too_complex", a.Findings)
			}
			if a := shell.AnalyzeLimited(tt.make(2000), l); !a.Has(shell.TooComplex) {
				t.Errorf("2000 deep: findings = %v, want too_complex", a.Findings)
			}
		})
	}
}

func TestLengthLimit(t *testing.T) {
	t.Parallel()
	line := func(n int) string { return "echo " + strings.Repeat("a", n-len("echo ")) }
	tests := []struct {
		desc  string
		src   string
		limit int
		want  bool
	}{
		{"a line at the default limit is analyzed", line(shell.DefaultMaxBytes), 0, false},
		{"a line one byte over the default limit is too complex", line(shell.DefaultMaxBytes + 1), 0, true},
		{"a line at a configured limit is analyzed", line(1000), 1000, false},
		{"a line one byte over a configured limit is too complex", line(1001), 1000, true},
		{"a parsed line one byte over a configured limit is too complex", "echo $(ls)" + line(991), 1000, true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := shell.AnalyzeLimited(tt.src, shell.Limits{MaxBytes: tt.limit}).Has(shell.TooComplex); got != tt.want {
				t.Errorf("too_complex = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStepLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		src  string
	}{
		{"a plain line", "cd src && go test ./... 2>&1 | tail -n 5"},
		{"a parsed line", `for f in *.go; do gofmt -l "$f" | grep -q . && echo "$f"; done`},
		{"a pipeline of substitutions", "echo $(ls | wc -l) | cat | sh"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			steps := shell.StepsOf(tt.src)
			if steps == 0 {
				t.Fatal("the analysis counted no steps")
			}
			if a := shell.AnalyzeLimited(tt.src, shell.Limits{MaxSteps: steps}); a.Has(shell.TooComplex) {
				t.Errorf("at the %d steps it takes: findings = %v, want no too_complex", steps, a.Findings)
			}
			if a := shell.AnalyzeLimited(tt.src, shell.Limits{MaxSteps: steps - 1}); !a.Has(shell.TooComplex) {
				t.Errorf("one step short of the %d it takes: findings = %v, want too_complex", steps, a.Findings)
			}
		})
	}
}

// TestHostileLinesCostBoundedMemory: the families whose analysis grew with the square of their size, and
// the longest line of each family, allocate a bounded amount.
func TestHostileLinesCostBoundedMemory(t *testing.T) {
	for _, tt := range append(nestings[:len(nestings):len(nestings)], widths...) {
		t.Run(tt.desc, func(t *testing.T) {
			n := 1
			for len(tt.make(2*n)) <= shell.DefaultMaxBytes {
				n *= 2
			}
			src := tt.make(n) // the longest line of the family the length limit lets through, to a factor of two
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			shell.Analyze(src)
			runtime.ReadMemStats(&after)
			t.Logf("%d bytes: %d KiB", len(src), (after.TotalAlloc-before.TotalAlloc)>>10)
			if got := after.TotalAlloc - before.TotalAlloc; got > 40<<20 {
				t.Errorf("a %d-byte line allocated %d MiB, want at most 40", len(src), got>>20)
			}
		})
	}
}

// TestDeepLinesDoNotCrashTheProcess runs the analysis of lines nested far past any limit in a child
// process: a stack overflow is a fatal error no recover catches, and it must fail this test, not end the
// test binary.
func TestDeepLinesDoNotCrashTheProcess(t *testing.T) {
	if kind := childtest.Case(); kind != "" {
		for _, tt := range nestings {
			if tt.desc == kind {
				a := shell.AnalyzeLimited(tt.make(150_000), shell.Limits{MaxBytes: 1 << 30})
				fmt.Printf("too_complex=%v\n", a.Has(shell.TooComplex))
			}
		}
		return
	}
	t.Parallel()
	for _, tt := range nestings {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if out := childtest.Run(t, "TestDeepLinesDoNotCrashTheProcess", tt.desc); !strings.Contains(out, "too_complex=true") {
				t.Errorf("the child's output does not report too_complex:\n%.2000s", out)
			}
		})
	}
}
