// Command warden is the Warden guardrails engine's command line: the gateway, the MCP proxy and the
// offline tools. Run `warden --help` for the commands.
package main

import (
	"os"

	_ "github.com/agentwarden/warden/builtin"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
