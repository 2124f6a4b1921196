package commands

import (
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/internal/toolwords"
)

// codeTools is what the policy knows of tools that run code in a language (default.yaml, tools): where the
// code and its language are, and how each language's interpreter runs code.
type codeTools struct {
	keys, languageKeys []string
	withLanguage       []string // keys that hold code only beside a language key
	languages          map[string][]string
	// queryKeys hold a query tool's statement; queryLanguages map a word of its name to the client that
	// runs it (execute_sql: psql -c). They are not among the interpreters code in no language is run by.
	queryKeys      []string
	queryLanguages map[string][]string
	// scriptExtensions map a script file's extension to its language; contentKeys hold a written file's
	// text.
	scriptExtensions map[string]string
	contentKeys      []string
}

// scriptInterpreter is the command line that runs a written file's text: by its extension, else by its
// #! line's interpreter (#!/usr/bin/env python3, #!/bin/bash); false for a file that is no script.
func (t codeTools) scriptInterpreter(p, content string) ([]string, bool) {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(p, "\\", "/")))
	lang, ok := t.scriptExtensions[ext]
	if !ok && strings.HasPrefix(content, "#!") {
		line, _, _ := strings.Cut(content[2:], "\n")
		f := strings.Fields(line)
		if len(f) > 0 {
			interp := path.Base(f[0])
			if interp == "env" && len(f) > 1 {
				interp = f[len(f)-1]
				if strings.HasPrefix(interp, "-") {
					interp = ""
				}
			}
			lang, ok = strings.TrimRightFunc(interp, func(r rune) bool { return unicode.IsDigit(r) || r == '.' }), interp != ""
		}
	}
	if !ok {
		return nil, false
	}
	argv, ok := t.languages[lang]
	return argv, ok
}

// commandLines gives the command lines that run a code tool's code, and whether the call is one: code
// under a code key, or under a command key beside a language key. The language comes from a language key,
// else from a word of the tool's name (run_js, execute_python); code in no known language is run, in the
// lines given, by every interpreter the table knows, so that it is judged as whichever would run it.
func (t codeTools) commandLines(args *jsonobj.Object, tool string, commandKeys []string) ([]string, bool) {
	if line, ok := t.queryLine(args, tool); ok {
		return []string{line}, true
	}
	if len(t.languages) == 0 {
		return nil, false
	}
	lang, hasLang := t.language(args)
	code, found := firstString(args, t.keys)
	if !found && hasLang {
		code, found = firstString(args, commandKeys)
	}
	if !found && hasLang {
		code, found = firstString(args, t.withLanguage)
	}
	if !found {
		return nil, false
	}
	if !hasLang {
		lang = t.languageInName(tool)
	}
	if argv, ok := t.languages[strings.ToLower(lang)]; ok {
		return []string{commandLine(argv, code)}, true
	}
	// No language known: every interpreter's reading, each once.
	var lines []string
	seen := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(t.languages)) {
		argv := t.languages[name]
		key := strings.Join(argv, " ")
		if !seen[key] {
			seen[key] = true
			lines = append(lines, commandLine(argv, code))
		}
	}
	return lines, true
}

// queryLine is the command line that runs a query tool's statement: a tool whose name has a store's word
// (execute_sql, mcp__postgres__query, redis_command) and a statement under a query key; a statement under a
// key named sql is SQL whatever the tool is called.
func (t codeTools) queryLine(args *jsonobj.Object, tool string) (string, bool) {
	if len(t.queryLanguages) == 0 {
		return "", false
	}
	if q, ok := firstString(args, []string{"sql"}); ok {
		return commandLine(t.queryLanguages["sql"], q), true
	}
	for _, w := range toolwords.Split(tool) {
		if argv, ok := t.queryLanguages[w]; ok {
			// A store's tool may take words as well as statements (a search of a vector database):
			// what SQL's client runs is read as SQL only when it opens as a statement does.
			if q, ok := firstString(args, t.queryKeys); ok && (argv[0] != "psql" || opensAsSQL(q)) {
				return commandLine(argv, q), true
			}
		}
	}
	return "", false
}

// sqlKeywords open SQL statements.
var sqlKeywords = map[string]bool{"select": true, "insert": true, "update": true, "delete": true, "drop": true,
	"truncate": true, "alter": true, "create": true, "with": true, "grant": true, "revoke": true, "merge": true,
	"replace": true, "call": true, "exec": true, "execute": true, "begin": true, "set": true, "copy": true,
	"vacuum": true, "analyze": true, "explain": true, "pragma": true, "attach": true, "detach": true, "show": true,
	"use": true, "rename": true, "comment": true, "lock": true, "unlock": true, "flush": true, "reset": true,
	"start": true, "commit": true, "rollback": true, "savepoint": true, "declare": true, "do": true,
	"refresh": true, "reindex": true, "cluster": true, "optimize": true, "kill": true, "load": true, "upsert": true}

// opensAsSQL reports whether a text opens as a SQL statement (after blanks, comments and parentheses).
func opensAsSQL(q string) bool {
	for {
		q = strings.TrimLeft(q, " \t\r\n(;")
		switch {
		case strings.HasPrefix(q, "--"):
			if i := strings.IndexByte(q, '\n'); i >= 0 {
				q = q[i+1:]
				continue
			}
			return false
		case strings.HasPrefix(q, "/*"):
			if i := strings.Index(q, "*/"); i >= 0 {
				q = q[i+2:]
				continue
			}
			return false
		}
		break
	}
	end := strings.IndexFunc(q, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(q)
	}
	return sqlKeywords[strings.ToLower(q[:end])]
}

// language is the value of a language key, when one holds a string.
func (t codeTools) language(args *jsonobj.Object) (string, bool) {
	s, ok := firstString(args, t.languageKeys)
	s = strings.TrimSpace(s)
	// An interpreter's path or version names its language: /usr/bin/python3.12 is python3.
	if i := strings.LastIndexAny(s, "/\\"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSuffix(strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsDigit(r) || r == '.' }), ".exe")
	if s == "python" || s == "python3" {
		return "python", ok
	}
	return s, ok && s != ""
}

// languageInName finds a language's name among the words of a tool's name (run_js, executePython).
func (t codeTools) languageInName(tool string) string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	var prev rune
	for _, r := range tool {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	flush()
	for i := len(words) - 1; i >= 0; i-- {
		if _, ok := t.languages[words[i]]; ok {
			return words[i]
		}
	}
	return ""
}

// firstString is the string under the first of keys the arguments hold one under (in any case).
func firstString(args *jsonobj.Object, keys []string) (string, bool) {
	for _, v := range args.FoldMatches(keys) {
		if s, ok := stringValue(v); ok {
			return s, true
		}
	}
	return "", false
}

// commandLine quotes argv and code for the shell: the interpreter, its options, the code as one word.
func commandLine(argv []string, code string) string {
	var b strings.Builder
	for _, a := range argv {
		b.WriteString(a)
		b.WriteByte(' ')
	}
	b.WriteString("'" + strings.ReplaceAll(code, "'", `'\''`) + "'")
	return b.String()
}
