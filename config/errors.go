package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Error is one problem in a config file, with where it is: it prints as
//
//	file:line:col: module: key.path: message
//
// leaving out the parts that are unknown.
type Error struct {
	File   string
	Line   int
	Col    int
	Path   string // key path, e.g. guardrails.tool_call[0].config.timeout
	Module string // module ID, when the problem is inside a module's config
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, "%d:", e.Col)
		}
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Module != "" {
		b.WriteString(e.Module)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one load, sorted by position. Loading does not stop at the first
// problem, so one run of `warden config validate` shows them all.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find each *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func (es Errors) sorted() Errors {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Path, b.Path))
	})
	return es
}

// errorList collects problems during a load.
type errorList struct {
	file string
	errs Errors
}

func (l *errorList) add(line, col int, path, module, format string, args ...any) {
	l.errs = append(l.errs, &Error{File: l.file, Line: line, Col: col, Path: path, Module: module, Msg: fmt.Sprintf(format, args...)})
}

func (l *errorList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	return l.errs.sorted()
}
