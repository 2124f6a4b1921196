// Package childtest runs a test of the running test binary again in a child process, for inputs whose
// failure would be fatal: a stack overflow is a fatal error no recover catches, and it must fail the one
// test that fed the input, not end the whole test binary. It is for tests only and imported by nothing
// else.
package childtest

import (
	"os"
	"os/exec"
	"testing"
)

const envVar = "WARDEN_CHILD_CASE"

// Case is the case a child process was started for; "" in the parent.
func Case() string { return os.Getenv(envVar) }

// Run runs the top-level test named test in a child process for the case named which, and returns what
// the child printed. A child that does not exit cleanly fails t, with the start of its output.
func Run(t *testing.T, test, which string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), envVar+"="+which)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child process failed: %v\n%.2000s", err, out)
	}
	return string(out)
}
