package commands

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/shell"
)

// pathClasses decides which classes a path is in. The built-in classes are computed; the others are
// lists of glob patterns (with ** for any number of directories) from config and the default policy.
type pathClasses struct {
	workdir string // absolute and clean, or "" when unknown
	globs   map[string][]string
	// compiled holds each class's patterns split into path elements, once, at Provision.
	compiled map[string][][]string
}

// compile splits every class's patterns into path elements.
func (pc *pathClasses) compile() {
	pc.compiled = make(map[string][][]string, len(pc.globs))
	for name, patterns := range pc.globs {
		for _, p := range patterns {
			pc.compiled[name] = append(pc.compiled[name], strings.Split(p, "/"))
		}
	}
}

// Built-in classes.
const (
	classRoot    = "root"            // / and /*
	classHome    = "home"            // ~ and ~/*
	classParent  = "parent"          // a relative path that leaves the working directory
	classOutside = "outside_workdir" // anything not inside the working directory, the three above included
	classDynamic = "dynamic"         // known only at run time
)

var builtinClasses = []string{classRoot, classHome, classParent, classOutside, classDynamic}

// normalize writes home directories as ~ and cleans the path, keeping a leading ~.
func normalize(p string) string {
	switch {
	case p == "/root" || strings.HasPrefix(p, "/root/"):
		p = "~" + p[len("/root"):]
	case strings.HasPrefix(p, "/home/"):
		rest := p[len("/home/"):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			p = "~" + rest[i:]
		} else {
			p = "~"
		}
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		return "~" + strings.TrimSuffix(path.Clean("/"+p[1:]), "/")
	}
	if p == "" {
		return p
	}
	return path.Clean(p)
}

// candidates are the path-like values of a word: itself, the part after key= (of=/dev/sda, --file=x)
// and after a leading @ (curl -d @file).
func candidates(v string) []string {
	out := []string{v}
	if i := strings.IndexByte(v, '='); i > 0 && !strings.ContainsAny(v[:i], "/~") {
		out = append(out, v[i+1:])
	}
	for _, c := range out {
		if rest, ok := strings.CutPrefix(c, "@"); ok {
			out = append(out, rest)
		}
	}
	return out
}

// in reports whether a word is in any of the classes.
func (pc *pathClasses) in(w shell.Word, classes []string) bool {
	for _, c := range classes {
		if c == classDynamic && !w.Literal {
			return true
		}
	}
	if !w.Literal && !strings.HasPrefix(w.Value, "~") && !strings.HasPrefix(w.Value, "/") {
		return false
	}
	for _, v := range candidates(w.Value) {
		if v == "" {
			continue
		}
		p := normalize(v)
		var parts []string // split once, for every glob class
		for _, c := range classes {
			if pats, ok := pc.compiled[c]; ok {
				if parts == nil {
					parts = strings.Split(p, "/")
				}
				for _, pat := range pats {
					// Most operands are relative words: a pattern anchored at / or ~ cannot match them.
					if pat[0] != "**" && pat[0] != parts[0] && !strings.ContainsAny(pat[0], "*?[") {
						continue
					}
					if matchParts(pat, parts) {
						return true
					}
				}
				continue
			}
			if pc.inClass(p, w.Glob, c) {
				return true
			}
		}
	}
	return false
}

func (pc *pathClasses) inClass(p string, glob bool, class string) bool {
	switch class {
	case classRoot:
		return p == "/" || glob && path.Dir(p) == "/" && strings.ContainsAny(path.Base(p), "*?[")
	case classHome:
		return p == "~" || glob && path.Dir(p) == "~" && strings.ContainsAny(path.Base(p), "*?[")
	case classParent:
		return !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && (p == ".." || strings.HasPrefix(p, "../"))
	case classOutside:
		if pc.inClass(p, glob, classParent) || strings.HasPrefix(p, "~") {
			return true
		}
		if !strings.HasPrefix(p, "/") {
			return false // relative: inside the working directory
		}
		return pc.workdir == "" || p != pc.workdir && !strings.HasPrefix(p, pc.workdir+"/")
	}
	return false
}

// matchParts matches path elements against pattern elements: ** stands for any number of directories,
// the others are path.Match patterns.
func matchParts(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(parts); i++ {
				if matchParts(pat[1:], parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], parts[0]); !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}
