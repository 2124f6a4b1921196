// Package jsontest holds the codecs' readers to encoding/json: a codec that reads a body member by member
// from validated bytes promises json.Unmarshal's answer and error, and its differential fuzz tests check
// that promise with this package. It is for tests only, imports nothing of Warden's (so that a codec's
// internal tests can use it), and its API changes with its users.
package jsontest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ReadsAsUnmarshal fails t when a codec's reader answered got, err for data where json.Unmarshal into a T
// answers otherwise: an error exactly when encoding/json has one, in its words (a codec puts it in the
// client's error), and else the same value.
func ReadsAsUnmarshal[T any](t testing.TB, what string, data []byte, got T, err error) {
	t.Helper()
	var want T
	wantErr := json.Unmarshal(data, &want)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: %s error %v, encoding/json's %v", data, what, err, wantErr)
	}
	if diff := cmp.Diff(want, got); err == nil && diff != "" {
		t.Errorf("%q: %s (-encoding/json +read):\n%s", data, what, diff)
	}
}

// A codec's source names the members it reads in struct tags, in calls to jsonobj's readers (the name is
// the call's first quoted argument, or every quoted argument of the calls that take several), and in
// lists of names declared as `…Keys = […]string{…}`.
var (
	tagName    = regexp.MustCompile(`json:"([A-Za-z_]+)`)
	firstName  = regexp.MustCompile(`(?:StringInto|\.Get|\.Bool|\.Delete|\.Set|SetMember)\([^"()]*"([A-Za-z_]+)"`)
	everyName  = regexp.MustCompile(`(?:\.Plain|\.Pick|FoldMatches)\(([^)]*)\)|Keys\s*=\s*\[[^\]]*\]string\{([^}]*)\}`)
	quotedName = regexp.MustCompile(`"([A-Za-z_]+)"`)
)

// NamesRead returns the member names the non-test Go files of dir read (above). It is how a codec's test
// holds its envelope's list of names to the code.
func NamesRead(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, re := range []*regexp.Regexp{tagName, firstName} {
			for _, m := range re.FindAllStringSubmatch(src, -1) {
				seen[m[1]] = true
			}
		}
		for _, m := range everyName.FindAllStringSubmatch(src, -1) {
			for _, q := range quotedName.FindAllStringSubmatch(m[1]+m[2], -1) {
				seen[q[1]] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// DefinesEveryNameRead fails t for each member name the codec in dir reads (NamesRead) that defines, its
// envelope's check (jsonobj.Format.Defines), does not know: a name the envelope lacks could be spelled in
// another case past the check and read by encoding/json as the name.
func DefinesEveryNameRead(t *testing.T, dir string, defines func(string) bool) {
	t.Helper()
	names := NamesRead(t, dir)
	if len(names) < 10 {
		t.Fatalf("found %d names the codec reads, want the dozens it does: is NamesRead still reading the code?", len(names))
	}
	for _, name := range names {
		if !defines(name) {
			t.Errorf("the codec reads %q, which the envelope's list in envelope.go lacks", name)
		}
	}
}
