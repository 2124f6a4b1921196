package shell_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/shell"
)

func TestEmbeddedTablesLoad(t *testing.T) {
	if err := shell.LoadPrograms(); err != nil {
		t.Fatal(err)
	}
	if err := shell.LoadCodeLangs(); err != nil {
		t.Fatal(err)
	}
}

// Every program the table says runs a command is followed into it: a recursive delete of / through it
// is a recursive delete of /.
func TestEveryCommandRunnerIsFollowed(t *testing.T) {
	t.Parallel()
	names, skips := shell.CommandRunners()
	if len(names) < 80 {
		t.Fatalf("%d command runners in the table, want at least 80", len(names))
	}
	for i, name := range names {
		src := name + strings.Repeat(" x", skips[i]) + " rm -rf /"
		a := shell.Analyze(src)
		if !slices.Contains(rendered(a), "deletes -r /") {
			t.Errorf("%s: effects %q, want deletes -r /", src, rendered(a))
		}
	}
}
