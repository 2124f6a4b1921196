package redistest

import (
	"net"
	"os/exec"
	"testing"
)

func TestStartOnceReportsAPortTaken(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed; .ci/run installs it")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, _, exited := startOnce(t, bin, l.Addr().(*net.TCPAddr).Port); !exited {
		t.Fatal("startOnce on a port another listener holds: exited = false, want true")
	}
}

func TestStartAnswers(t *testing.T) {
	t.Parallel()
	_, c := Start(t)
	if err := c.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("ping: %v", err)
	}
}
