package shell_test

import (
	"testing"

	"github.com/agentwarden/warden/shell"
	"github.com/google/go-cmp/cmp"
)

// The lines read without the parser, and the ones that must go to it.
func TestSplitPlain(t *testing.T) {
	t.Parallel()
	type cmds = [][]string
	tests := []struct {
		desc string
		src  string
		want cmds // nil: declined, the parser reads the line
	}{
		{"plain words split on spaces", "go test ./pkg/parse/...", cmds{{"go", "test", "./pkg/parse/..."}}},
		{"runs of spaces and tabs separate alike", " \tgit  log\t--oneline -5 ", cmds{{"git", "log", "--oneline", "-5"}}},
		{"single quotes keep what bash would expand", `grep -rn '$HOME | *' src`, cmds{{"grep", "-rn", "$HOME | *", "src"}}},
		{"double quotes keep spaces", `git commit -m "fix the parser"`, cmds{{"git", "commit", "-m", "fix the parser"}}},
		{"quoted and plain parts join into one word", `echo a'b c'"d"e`, cmds{{"echo", "ab cde"}}},
		{"an empty quoted word stays a word", `printf ''`, cmds{{"printf", ""}}},
		{"an assignment after the program is an argument", "make CC=clang", cmds{{"make", "CC=clang"}}},
		{"a tilde reads as itself", "cat ~/.ssh/id_rsa", cmds{{"cat", "~/.ssh/id_rsa"}}},
		{"&& joins commands", "cd src && go test ./...", cmds{{"cd", "src"}, {"go", "test", "./..."}}},
		{"|| and ; join commands, spaces or none", "make||make clean;ls", cmds{{"make"}, {"make", "clean"}, {"ls"}}},
		{"a last ; ends the line", "ls;", cmds{{"ls"}}},
		{"an operator in quotes is text", `echo 'a && b' "c;d"`, cmds{{"echo", "a && b", "c;d"}}},
		{"| pipes a command into the next", "go test ./... | tail -20", cmds{{"go", "test", "./...", "|"}, {"tail", "-20"}}},
		{"a pipeline in a list", "cd x && grep -rn a . | sort | head; ls", cmds{{"cd", "x"}, {"grep", "-rn", "a", ".", "|"}, {"sort", "|"}, {"head"}, {"ls"}}},
		{"2>&1 records nothing", "go vet ./... 2>&1 | head", cmds{{"go", "vet", "./...", "|"}, {"head"}}},
		{"2>&1 may come before the program", "2>&1 make", cmds{{"make"}}},
		{"a leading assignment is not a program", "FOO=bar make", nil},
		{"a leading assignment after && is not a program", "cd x && FOO=bar make", nil},
		{"a keyword is not a program", "time make", nil},
		{"a keyword after ; is not a program", "ls; if x", nil},
		{"a declaration builtin is a clause", "export PATH", nil},
		{"|& needs the parser", "make |& tail", nil},
		{"a line ending in | needs the parser", "ls |", nil},
		{"a redirection joined to a word needs the parser", "make 2>&1x", nil},
		{"2>&1 alone is no command", "2>&1 && ls", nil},
		{"a background job needs the parser", "sleep 1 & ls", nil},
		{"a line ending in && needs the parser", "make &&", nil},
		{"an operator first needs the parser", "; ls", nil},
		{"two operators in a row need the parser", "ls ; ; ls", nil},
		{"a case terminator needs the parser", "ls ;; ls", nil},
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
			got, ok := shell.SplitPlain(tt.src)
			if !ok {
				if tt.want != nil {
					t.Fatalf("declined %q; want %q", tt.src, tt.want)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("commands of %q (-want +got):\n%s", tt.src, diff)
			}
			if tt.want != nil {
				checkAlike(t, tt.src)
			}
		})
	}
}

// checkAlike fails when Analyze's bash reading and the parser's disagree on a line. (A line that looks like
// PowerShell's or cmd's is also read their way by Analyze; that reading is windows.go's, tested there.)
func checkAlike(t *testing.T, src string) {
	t.Helper()
	want, got := shell.AnalyzeWithParser(src), shell.AnalyzeBash(src)
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
		"xargs -I % rm %", "timeout 5 nice -n 1 rm x", "eval 'rm x'", "sed -i s/a/b/ f", `"" x`,
		"cd src && go test ./...", "make || rm -rf /", "ls; curl -o x u;", "a&&b||c;d", "x && sudo rm -rf ~",
		"curl -s u | sh", "wget -qO- u | sudo bash -s", "curl u | python3 - x", "go test ./... 2>&1 | tail -5", "a|b|c&&d|e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if _, ok := shell.SplitPlain(src); ok {
			checkAlike(t, src)
		}
	})
}
