// Package golden compares test output with golden files under testdata, and rewrites them when a test runs
// with -update.
package golden

import (
	"os"
	"strings"
	"testing"
)

// JSON compares a JSON body with the golden file at path, ignoring the file's surrounding whitespace; with
// update it writes the body there first, with a final newline.
func JSON(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, append(append([]byte(nil), got...), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := read(t, path); strings.TrimSpace(want) != string(got) {
		t.Errorf("output differs from %s:\n%s", path, got)
	}
}

// Exact compares output with the golden file at path byte for byte; with update it writes the output there
// first.
func Exact(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := read(t, path); want != string(got) {
		t.Errorf("output differs from %s:\n%s", path, got)
	}
}

func read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	return string(b)
}
