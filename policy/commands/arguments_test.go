package commands

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The arguments are read member by member from validated bytes; the obvious reading, json.Unmarshal into a
// map[string]any, is the reference they must agree with on every input.

var (
	testCommandKeys = []string{"command", "cmd", "argv", "script"}
	testListKeys    = []string{"commands"}
	testPathKeys    = []string{"path", "file_path"}
)

type readArgs struct {
	OK        bool
	Commands  []string
	Ambiguous bool // command keys hold different values
	Path      string
	HasPath   bool
	AmbigPath bool
}

// referenceRead reads the arguments with encoding/json, member by member (repeats kept), and takes every
// member whose name strings.EqualFold one of the keys, as a Go tool decoding into a struct would.
func referenceRead(raw []byte) readArgs {
	if strings.TrimSpace(string(raw)) == "null" {
		return readArgs{OK: true}
	}
	if !json.Valid(raw) {
		return readArgs{}
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return readArgs{}
	}
	type kv struct {
		name  string
		value any
	}
	var members []kv
	for dec.More() {
		tok, _ := dec.Token()
		var v any
		if err := dec.Decode(&v); err != nil {
			return readArgs{}
		}
		members = append(members, kv{tok.(string), v})
	}
	matches := func(name string, keys []string) bool {
		return slices.ContainsFunc(keys, func(k string) bool { return strings.EqualFold(name, k) })
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
	var cmds, paths [][]string
	for _, m := range members {
		if matches(m.name, testCommandKeys) {
			if s, ok := m.value.(string); ok {
				cmds = append(cmds, []string{s})
			} else if argv, ok := strs(m.value); ok && len(argv) > 0 {
				for i, a := range argv {
					argv[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
				}
				cmds = append(cmds, []string{strings.Join(argv, " ")})
			} else if m.value != nil {
				cmds = append(cmds, nil)
			}
		}
	}
	for _, m := range members {
		if matches(m.name, testListKeys) {
			if lines, ok := strs(m.value); ok && len(lines) > 0 {
				cmds = append(cmds, lines)
			} else if m.value != nil {
				cmds = append(cmds, nil)
			}
		}
	}
	for _, m := range members {
		if matches(m.name, testPathKeys) {
			if s, ok := m.value.(string); ok {
				paths = append(paths, []string{s})
			} else if m.value != nil {
				paths = append(paths, nil)
			}
		}
	}
	r := readArgs{OK: true}
	r.Commands, r.Ambiguous = referenceAgree(cmds)
	var p []string
	p, r.AmbigPath = referenceAgree(paths)
	if len(p) > 0 {
		r.Path, r.HasPath = p[0], true
	}
	return r
}

// referenceAgree: one value when every reading found the same, ambiguous when two differ.
func referenceAgree(found [][]string) (value []string, ambiguous bool) {
	for _, f := range found[min(1, len(found)):] {
		if f == nil || found[0] == nil || !slices.Equal(f, found[0]) {
			return nil, true
		}
	}
	if len(found) == 0 {
		return nil, false
	}
	return found[0], false
}

func read(raw []byte) readArgs {
	args, ok := readArguments(raw)
	if !ok {
		return readArgs{}
	}
	r := readArgs{OK: true}
	var agreed bool
	r.Commands, agreed = commandsOf(args, testCommandKeys, testListKeys)
	r.Ambiguous = !agreed
	r.Path, r.HasPath, agreed = pathOf(args, testPathKeys)
	r.AmbigPath = !agreed
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
		{"two keys with different commands are ambiguous", `{"cmd":"b","command":"a"}`},
		{"two keys with one command agree", `{"cmd":"a","command":"a"}`},
		{"a repeated name with different commands is ambiguous", `{"command":"first","command":"second"}`},
		{"a name in another case is the same key", `{"Command":"ls"}`},
		{"a name in two cases with different commands is ambiguous", `{"command":"ls","COMMAND":"rm -rf ~"}`},
		{"a name folded through a long s is the same key", `{"ſcript":"ls"}`},
		{"a command beside a list of other commands is ambiguous", `{"command":"ls","commands":["rm -rf ~"]}`},
		{"a null command is no command", `{"command":null,"cmd":"x"}`},
		{"a number is no command", `{"command":5}`},
		{"a number beside a command is ambiguous", `{"command":5,"cmd":"ls"}`},
		{"two paths that differ are ambiguous", `{"path":"a","file_path":"/etc/shadow"}`},
		{"a path in two cases that differ is ambiguous", `{"path":"a","Path":"/etc/shadow"}`},
		{"null arguments are an empty object", ` null `},
		{"arguments that are an array are not an object", `["ls"]`},
		{"arguments that are a string are not an object", `"ls"`},
		{"empty arguments are not an object", ``},
		{"broken JSON is not an object", `{"command":"ls"`},
		{"a path", `{"file_path":"/etc/passwd"}`},
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
