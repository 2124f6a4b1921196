package main

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// asWardenEnv makes this test binary run as warden itself (TestMain), for the commands that start
// warden again: `warden bench --pin` starts `warden bench --serve-proxies` from os.Executable().
const asWardenEnv = "WARDEN_TEST_AS_WARDEN"

func TestMain(m *testing.M) {
	if os.Getenv(mcpServerEnv) == "1" { // before asWardenEnv: the server's parent, warden mcp, sets that too
		if err := serveTestMCP(); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(asWardenEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// Not parallel: pinning moves the whole test process to half the CPUs while it runs.
func TestBenchCommandPinned(t *testing.T) {
	t.Setenv(asWardenEnv, "1")
	code, out, errOut := runCLI("", "bench", "--pin", "--requests", "20", "--stream-requests", "4", "--chunks", "4",
		"--chunk-interval", "10us", "--concurrency", "2", "--duration", "40ms", "--rounds", "2", "--throughput-rounds", "1")
	if runtime.NumCPU() < 2 { // the CPUs this process may use
		if code != 1 || !strings.Contains(errOut, "needs two CPUs at least") {
			t.Errorf("on one CPU: exit code %d, stderr %q; want 1 and the need for two CPUs", code, errOut)
		}
		return
	}
	if code != 0 {
		t.Fatalf("exit code %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	for _, want := range []string{"Pinned: the proxies ran in a process of their own on CPUs", "evaluated 3/3 guardrails", "added p99, whole, concurrency 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}
