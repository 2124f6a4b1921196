package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/shell"
)

// inEveryPattern is pathClasses.in for the glob classes without the first- and last-element checks:
// every pattern of the class is matched against every candidate of the word, and a glob word against
// every anchored pattern it may meet.
func inEveryPattern(pc *pathClasses, w shell.Word, class string) bool {
	cands, n := candidates(w.Value)
	for _, v := range cands[:n] {
		if v == "" {
			continue
		}
		p := normalize(v)
		parts := strings.Split(p, "/")
		glob := w.Glob || strings.ContainsAny(p, "*?[")
		for _, cp := range pc.compiled[class] {
			if matchParts(cp.parts, parts) && !pc.excepted(class, parts, parts[0], parts[len(parts)-1]) {
				return true
			}
			if glob && cp.hasFirst && cp.first == parts[0] && mayMatchParts(cp.parts, parts) && !pc.excepted(class, parts, parts[0], parts[len(parts)-1]) {
				return true
			}
		}
	}
	return false
}

// FuzzPathClassesPassOverOnlyWhatCannotMatch: a word is in a glob class exactly when one of the class's
// patterns matches it, the patterns that the first and last elements pass over included.
func FuzzPathClassesPassOverOnlyWhatCannotMatch(f *testing.F) {
	c := &Commands{Classes: map[string][]string{"odd": {"a/**/b*", "*/x", "[ab]/**", `\e/f`, "**", "/", "~"}}}
	if err := c.Provision(context.Background()); err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"~/.ssh/id_rsa", "/etc/shadow", "x/y/id_ed25519", "of=/dev/sda", "@~/.netrc", "--file=/etc/profile.d/x",
		"./pkg/parse/...", "/", "~", "", "/home/u/.bashrc", "/root/.aws/credentials", "a/c/d/bee", "e/f", "q/x", "/etc/cron.daily/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		w := shell.Word{Value: v, Literal: true}
		for class := range c.classes.compiled {
			if got, want := c.classes.in(w, []string{class}), inEveryPattern(&c.classes, w, class); got != want {
				t.Fatalf("%q in %s: %v; by every pattern, %v", v, class, got, want)
			}
		}
	})
}
