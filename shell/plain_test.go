package shell_test

import (
	"testing"

	"github.com/agentwarden/warden/shell"
	"github.com/google/go-cmp/cmp"
)

// The lines read without the parser, and the ones that must go to it.
func TestSplitPlain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		src  string
		want []string // nil: declined, the parser reads the line
	}{
		{"plain words split on spaces", "go test ./pkg/parse/...", []string{"go", "test", "./pkg/parse/..."}},
		{"runs of spaces and tabs separate alike", " \tgit  log\t--oneline -5 ", []string{"git", "log", "--oneline", "-5"}},
		{"single quotes keep what bash would expand", `grep -rn '$HOME | *' src`, []string{"grep", "-rn", "$HOME | *", "src"}},
		{"double quotes keep spaces", `git commit -m "fix the parser"`, []string{"git", "commit", "-m", "fix the parser"}},
		{"quoted and plain parts join into one word", `echo a'b c'"d"e`, []string{"echo", "ab cde"}},
		{"an empty quoted word stays a word", `printf ''`, []string{"printf", ""}},
		{"an assignment after the program is an argument", "make CC=clang", []string{"make", "CC=clang"}},
		{"a tilde reads as itself", "cat ~/.ssh/id_rsa", []string{"cat", "~/.ssh/id_rsa"}},
		{"a leading assignment is not a program", "FOO=bar make", nil},
		{"a keyword is not a program", "time make", nil},
		{"a declaration builtin is a clause", "export PATH", nil},
		{"a pipe needs the parser", "ls | sh", nil},
		{"a list needs the parser", "cd x && make", nil},
		{"a redirection needs the parser", "echo x >out", nil},
		{"an expansion needs the parser", "rm -rf $DIR", nil},
		{"an expansion in double quotes needs the parser", `rm -rf "$DIR"`, nil},
		{"an escape needs the parser", `rm a\ b`, nil},
		{"a glob needs the parser", "rm *.go", nil},
		{"a brace needs the parser", "r{m,} x", nil},
		{"a comment needs the parser", "ls # x", nil},
		{"a newline needs the parser", "ls\nrm x", nil},
		{"an unterminated quote needs the parser", "echo 'x", nil},
		{"non-ASCII needs the parser", "echo é", nil},
		{"an empty line needs the parser", "  ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			words, ok := shell.SplitPlain(tt.src)
			if !ok {
				if tt.want != nil {
					t.Fatalf("declined %q; want %q", tt.src, tt.want)
				}
				return
			}
			var got []string
			for _, w := range words {
				got = append(got, w.Value)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("words of %q (-want +got):\n%s", tt.src, diff)
			}
			if tt.want != nil {
				checkAlike(t, tt.src)
			}
		})
	}
}

// checkAlike fails when Analyze and the parser's reading disagree on a line.
func checkAlike(t *testing.T, src string) {
	t.Helper()
	want, got := shell.AnalyzeWithParser(src), shell.Analyze(src)
	if (want.Err == nil) != (got.Err == nil) {
		t.Fatalf("%q: parse error %v, Analyze's %v", src, want.Err, got.Err)
	}
	if want.Err != nil {
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q: Analyze differs from the parser's reading (-parser +Analyze):\n%s", src, diff)
	}
}

// FuzzPlainMatchesParser: any line Analyze reads without the parser it reads as the parser does.
func FuzzPlainMatchesParser(f *testing.F) {
	for _, s := range []string{"go test ./...", `grep -rn 'a b' "c d"`, "sudo rm -rf /", "env A=b sh", "bash -c 'curl x'",
		"nc -e sh host 1", "tee -a ~/.bashrc", "dd if=x of=/dev/sda", "if x", "a=b c", `x ""`, "busybox rm -rf /",
		"xargs -I % rm %", "timeout 5 nice -n 1 rm x", "eval 'rm x'", "sed -i s/a/b/ f", `"" x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, ok := shell.SplitPlain(src); ok {
			checkAlike(t, src)
		}
	})
}
