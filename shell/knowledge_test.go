package shell_test

import (
	"slices"
	"testing"

	"github.com/agentwarden/warden/shell"
)

// The embedded tables load strictly (an unknown key, effect kind or target, an alias to nothing, a bad
// pattern fails), every entry and subcommand compiled, and Fig's grammars fill in what review left out.
func TestEmbeddedTablesLoad(t *testing.T) {
	t.Parallel()
	if err := shell.LoadPrograms(); err != nil {
		t.Fatal(err)
	}
	if err := shell.LoadCodeLangs(); err != nil {
		t.Fatal(err)
	}
	reviewed, fig, loaded := shell.TableSizes()
	if reviewed < 350 || fig < 500 || loaded < reviewed+fig/2 {
		t.Errorf("reviewed %d, fig %d, loaded %d: want at least 350 reviewed and 500 from Fig, most of them loaded", reviewed, fig, loaded)
	}
}

// Every program the table says runs a command is followed into it: a recursive delete of / through it
// is a recursive delete of /.
func TestEveryCommandRunnerIsFollowed(t *testing.T) {
	t.Parallel()
	lines := shell.Invocations("rm -rf /")
	if len(lines) < 120 {
		t.Fatalf("%d command runners in the table, want at least 120", len(lines))
	}
	for _, src := range lines {
		a := shell.Analyze(src)
		if !slices.Contains(rendered(a), "deletes -r /") {
			t.Errorf("%s: effects %q, want deletes -r /", src, rendered(a))
		}
	}
}

// What loading the tables costs, once per process, at the command policy's Provision: the reviewed
// table and the code patterns compiled, Fig's entries located (each is decoded when first asked for).
func BenchmarkLoadPrograms(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := shell.LoadTablesAtStart(); err != nil {
			b.Fatal(err)
		}
	}
}
