package warden_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The root package is imported by every user; it must stay free of third-party code.
func TestRootPackageImportsOnlyTheStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/agentwarden/warden" {
			t.Errorf("root package depends on %s", p)
		}
	}
}
