package gatewaybench

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// serveProxiesEnv makes this test binary the proxies' process of a pinned run (Options.Pin): the pinned
// tests set it and name the binary itself as Options.ProxyCommand, and the child inherits it.
const serveProxiesEnv = "GATEWAYBENCH_TEST_SERVE_PROXIES"

func TestMain(m *testing.M) {
	if os.Getenv(serveProxiesEnv) == "1" {
		if err := ServeProxies(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
