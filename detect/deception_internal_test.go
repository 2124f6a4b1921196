package detect

import "testing"

func TestCompilerDiagnostic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, output string
		want         bool
	}{
		{"reads a Go compiler's error", "# example.com/app\n./main.go:12:2: undefined: Foo\n", true},
		{"reads a Rust error with no column word", "src/lib.rs:3:1: expected item, found `}`", true},
		{"reads a type checker's error", "app.py:7: error: Name \"x\" is not defined", true},
		{"reads a TypeScript error after a dash", "src/app.ts:10:5 - error TS2304: Cannot find name 'foo'.", true},
		{"leaves a compiler's warning", "main.c:10:5: warning: unused variable 'x'", false},
		{"leaves a compiler's note", "main.c:3:1: note: declared here", false},
		{"leaves pytest's test ids", "tests/test_a.py::test_one PASSED\ntests/test_a.py::test_two PASSED", false},
		{"leaves a build with no diagnostics", "go: downloading example.com/x v1.2.0\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := compilerDiagnostic(tc.output); got != tc.want {
				t.Errorf("compilerDiagnostic(%q) = %v, want %v", tc.output, got, tc.want)
			}
		})
	}
}
