package commands

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The arguments are read member by member from validated bytes; the obvious reading, json.Unmarshal into a
// map[string]any, is the reference they must agree with on every input.

var (
	testCommandKeys = []string{"command", "cmd", "argv"}
	testListKeys    = []string{"commands"}
	testPathKeys    = []string{"path", "file_path"}
)

type readArgs struct {
	OK       bool
	Commands []string
	Path     string
	HasPath  bool
}

func referenceRead(raw []byte) readArgs {
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		return readArgs{}
	}
	strs := func(v any) ([]string, bool) {
		list, ok := v.([]any)
		if !ok {
			return nil, false
		}
		out := make([]string, len(list))
		for i, x := range list {
			if out[i], ok = x.(string); !ok {
				return nil, false
			}
		}
		return out, true
	}
	r := readArgs{OK: true}
	for _, k := range testCommandKeys {
		if s, ok := args[k].(string); ok {
			r.Commands = []string{s}
			break
		}
		if argv, ok := strs(args[k]); ok && len(argv) > 0 {
			for i, a := range argv {
				argv[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
			r.Commands = []string{strings.Join(argv, " ")}
			break
		}
	}
	if r.Commands == nil {
		for _, k := range testListKeys {
			if lines, ok := strs(args[k]); ok && len(lines) > 0 {
				r.Commands = lines
				break
			}
		}
	}
	for _, k := range testPathKeys {
		if s, ok := args[k].(string); ok {
			r.Path, r.HasPath = s, true
			break
		}
	}
	return r
}

func read(raw []byte) readArgs {
	args, ok := readArguments(raw)
	if !ok {
		return readArgs{}
	}
	r := readArgs{OK: true, Commands: commandsOf(args, testCommandKeys, testListKeys)}
	r.Path, r.HasPath = firstString(args, testPathKeys)
	return r
}

func TestArgumentsAreReadAsAMapWouldBe(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ desc, raw string }{
		{"a command string", `{"command":"ls -la"}`},
		{"a command with escapes", `{"command":"grep \"a\\tb\" \u00e9 file"}`},
		{"an argv array, quoted back into one line", `{"argv":["rm","-rf","it's here"]}`},
		{"an argv array with a non-string", `{"argv":["rm",1]}`},
		{"an empty argv array falls through to the next key", `{"argv":[],"commands":["ls","pwd"]}`},
		{"a list of command lines", `{"commands":["ls","pwd"]}`},
		{"the first key with a string wins", `{"cmd":"b","command":"a"}`},
		{"a repeated name: the last one counts", `{"command":"first","command":"second"}`},
		{"a null command is no command", `{"command":null,"cmd":"x"}`},
		{"a number is no command", `{"command":5}`},
		{"a name in another case is another member", `{"Command":"ls"}`},
		{"null arguments are an empty object", ` null `},
		{"arguments that are an array are not an object", `["ls"]`},
		{"arguments that are a string are not an object", `"ls"`},
		{"empty arguments are not an object", ``},
		{"broken JSON is not an object", `{"command":"ls"`},
		{"a path", `{"file_path":"/etc/passwd","path":7}`},
		{"invalid UTF-8 is replaced as encoding/json does", "{\"command\":\"ls \xff\"}"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(referenceRead([]byte(tc.raw)), read([]byte(tc.raw))); diff != "" {
				t.Errorf("(-map +read):\n%s", diff)
			}
		})
	}
}

func FuzzArguments(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, `{"argv":["a","b'c"]}`, `{"commands":["x"],"path":"/p"}`, `null`,
		`{"command":"a","command":null}`, `{"cmd":"\ud83d\ude00"}`, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if diff := cmp.Diff(referenceRead(raw), read(raw)); diff != "" {
			t.Fatalf("%q (-map +read):\n%s", raw, diff)
		}
	})
}
