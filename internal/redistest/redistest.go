// Package redistest starts a real redis-server for tests, on a free loopback port (another if a parallel
// test took that one first), stopped when the test ends. Under CI=true a missing redis-server fails the
// test (.ci/run installs it); elsewhere it skips, saying how to get one. It is for tests only.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Start runs a redis-server and returns its address and a client connected to it.
func Start(t testing.TB) (string, *redis.Client) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not installed; .ci/run installs it with apt")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server); .ci/run installs it")
	}
	// A free port is found by listening on one and closing it, so another test's server may take it
	// before this one binds it; redis-server then exits, and Start tries again on another port.
	for attempt := 1; ; attempt++ {
		addr, c, exited := startOnce(t, bin, freePort(t))
		if !exited {
			return addr, c
		}
		if attempt == 5 {
			t.Fatal("redis-server did not start: it exited at once on five ports in a row")
		}
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startOnce runs a redis-server on port and waits until it answers; exited says it stopped before it
// did (its port taken), in which case nothing is left running.
func startOnce(t testing.TB, bin string, port int) (string, *redis.Client, bool) {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	// The server is waited for with a client that does not retry, so that a server that has exited is
	// seen at once; the tests get a client of their own, with the usual retries.
	probe := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer probe.Close()
	deadline := time.Now().Add(10 * time.Second)
	for probe.Ping(context.Background()).Err() != nil {
		select {
		case <-done:
			return "", nil, true
		default:
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			t.Fatal("redis-server did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { c.Close() })
	return addr, c, false
}
