package commands

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/shell"
)

// pathClasses decides which classes a path is in. The built-in classes are computed; the others are
// lists of glob patterns (with ** for any number of directories) from config and the default policy.
type pathClasses struct {
	workdir string // absolute (or ~/… in a home) and clean, or "" when unknown
	globs   map[string][]string
	// compiled holds each class's patterns split into path elements, once, at Provision; excluded the
	// class's exceptions, its patterns written with a leading "!" (a public key is no credential).
	compiled, excluded map[string][]classPattern
}

// classPattern is a class's glob pattern split into path elements, with the elements a path must have for
// the pattern to match it, so that most paths are passed over without splitting them or calling
// path.Match: a literal first element (/etc/** needs a path that starts at /, ~/.netrc one that starts at ~)
// and a literal last one (**/id_rsa needs a path that ends in id_rsa).
type classPattern struct {
	parts             []string
	first, last       string
	hasFirst, hasLast bool // first and last are literal
}

// compile splits every class's patterns into path elements.
func (pc *pathClasses) compile() {
	pc.compiled = make(map[string][]classPattern, len(pc.globs))
	pc.excluded = map[string][]classPattern{}
	for name, patterns := range pc.globs {
		for _, p := range patterns {
			except := strings.HasPrefix(p, "!")
			cp := classPattern{parts: strings.Split(strings.TrimPrefix(p, "!"), "/")}
			cp.first, cp.last = cp.parts[0], cp.parts[len(cp.parts)-1]
			cp.hasFirst, cp.hasLast = isLiteral(cp.first), isLiteral(cp.last)
			if except {
				pc.excluded[name] = append(pc.excluded[name], cp)
			} else {
				pc.compiled[name] = append(pc.compiled[name], cp)
			}
		}
	}
}

// isLiteral says whether a pattern element matches only itself.
func isLiteral(elem string) bool { return elem != "**" && !strings.ContainsAny(elem, `*?[\`) }

// mayMatch says whether the pattern can match a path with these first and last elements.
func (cp *classPattern) mayMatch(first, last string) bool {
	return (!cp.hasFirst || cp.first == first) && (!cp.hasLast || cp.last == last)
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

// homeRoots are the directories users' homes are made in, on Linux (/home), macOS (/Users), the BSDs
// (/usr/home), Solaris (/export/home) and Windows as Git Bash, MSYS, Cygwin and WSL name its drive
// (/c/Users, /cygdrive/c/Users, /mnt/c/Users; C:\Users is read as /c/Users). Compared without case: the
// file systems of macOS and Windows ignore it.
var homeRoots = []string{"/home/", "/users/", "/usr/home/", "/export/home/", "/c/users/", "/cygdrive/c/users/", "/mnt/c/users/"}

// rootHomes are the superuser's home directories (Linux, macOS).
var rootHomes = []string{"/root", "/var/root"}

// normalize writes home directories as ~ and cleans the path, keeping a leading ~. A path that names a
// Windows drive (C:\Users\me, C:/Users/me), as a file tool may be given one, is read as Git Bash writes it
// (/c/Users/me).
func normalize(p string) string {
	if isDrivePath(p) {
		p = "/" + string(p[0]|0x20) + "/" + strings.ReplaceAll(p[3:], "\\", "/")
	}
	for _, r := range rootHomes {
		if p == r || strings.HasPrefix(p, r+"/") {
			p = "~" + p[len(r):]
			break
		}
	}
	for _, r := range homeRoots {
		if len(p) > len(r) && strings.EqualFold(p[:len(r)], r) {
			rest := p[len(r):]
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				p = "~" + rest[i:]
			} else {
				p = "~"
			}
			break
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

// isDrivePath says whether a path names a Windows drive (C:\x, C:/x).
func isDrivePath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && (p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z'
}

// candidates are the path-like values of a word: itself, the part after key= (of=/dev/sda, --file=x)
// and after a leading @ (curl -d @file); n of them, in an array so that a word's check allocates nothing.
func candidates(v string) (out [4]string, n int) {
	out[0], n = v, 1
	if i := strings.IndexByte(v, '='); i > 0 && !strings.ContainsAny(v[:i], "/~") {
		out[1], n = v[i+1:], 2
	}
	for _, c := range out[:n] {
		if rest, ok := strings.CutPrefix(c, "@"); ok {
			out[n] = rest
			n++
		}
	}
	return out, n
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
	cands, n := candidates(w.Value)
	for _, v := range cands[:n] {
		if v == "" {
			continue
		}
		p := normalize(v)
		first, last := p, p[strings.LastIndexByte(p, '/')+1:]
		if i := strings.IndexByte(p, '/'); i >= 0 {
			first = p[:i]
		}
		// A glob (~/.ssh/*, ~/.ssh/** of find -exec or grep -r) stands for every file it may match: it is
		// in a class when it may match one of the class's anchored patterns (~/.ssh/id_*, /etc/shadow).
		// Patterns that float (**/id_rsa, **/.env) are met by named paths only: a recursive read of the
		// project may hold one, and is not judged so.
		glob := w.Glob || strings.ContainsAny(p, "*?[")
		var parts []string // split once, for every glob class, when a pattern may match
		for _, c := range classes {
			if pats, ok := pc.compiled[c]; ok {
				for i := range pats {
					literal := pats[i].mayMatch(first, last)
					anchored := glob && pats[i].hasFirst && pats[i].first == first
					if !literal && !anchored {
						continue
					}
					if parts == nil {
						parts = strings.Split(p, "/")
					}
					matched := literal && matchParts(pats[i].parts, parts) || anchored && mayMatchParts(pats[i].parts, parts)
					if matched && !pc.excepted(c, parts, first, last) {
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

// excepted says whether a path matched by a class's patterns is one of the class's exceptions.
func (pc *pathClasses) excepted(class string, parts []string, first, last string) bool {
	for i, ex := range pc.excluded[class] {
		if ex.mayMatch(first, last) && matchParts(pc.excluded[class][i].parts, parts) {
			return true
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
		if pc.inClass(p, glob, classParent) {
			return true
		}
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			return false // relative: inside the working directory
		}
		// the working directory is normalized as paths are: one in a home is ~/…
		return pc.workdir == "" || p != pc.workdir && !strings.HasPrefix(p, pc.workdir+"/")
	}
	return false
}

// mayMatchParts reports whether a glob path (its elements globs, ** any number of directories) may name a
// path the pattern matches: the two have a path in common.
func mayMatchParts(pat, parts []string) bool {
	return meet(pat, parts, func(e string) bool { return e == "**" }, globsMeet)
}

// globsMeet reports whether two path.Match patterns of one element match a name in common: * any run
// of characters, ? and a [class] (taken as any character) one.
func globsMeet(a, b string) bool {
	a, b = classesAsAny(a), classesAsAny(b)
	return meet([]byte(a), []byte(b), func(c byte) bool { return c == '*' },
		func(x, y byte) bool { return x == y || x == '?' || y == '?' })
}

// meet reports whether two patterns over the same alphabet match a sequence in common: a star stands for
// any run of symbols, and two others must be alike. Either may hold stars, so the question is of two
// languages meeting, answered by a walk over both with each pair of positions visited once.
func meet[T any](a, b []T, star func(T) bool, alike func(T, T) bool) bool {
	if len(a) > 255 || len(b) > 255 {
		return false
	}
	w := len(b) + 1
	memo := make([]int8, (len(a)+1)*w) // 0 unknown, 1 yes, 2 no
	var f func(i, j int) bool
	f = func(i, j int) bool {
		if m := memo[i*w+j]; m != 0 {
			return m == 1
		}
		ok := false
		switch {
		case i == len(a) && j == len(b):
			ok = true
		case i < len(a) && star(a[i]) && (f(i+1, j) || j < len(b) && f(i, j+1)):
			ok = true
		case j < len(b) && star(b[j]) && (f(i, j+1) || i < len(a) && f(i+1, j)):
			ok = true
		case i < len(a) && j < len(b) && !star(a[i]) && !star(b[j]) && alike(a[i], b[j]):
			ok = f(i+1, j+1)
		}
		memo[i*w+j] = 2
		if ok {
			memo[i*w+j] = 1
		}
		return ok
	}
	return f(0, 0)
}

// classesAsAny writes each [class] of a pattern as ?, and drops escapes.
func classesAsAny(p string) string {
	if !strings.ContainsAny(p, "[\\") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		case '[':
			if j := strings.IndexByte(p[i:], ']'); j > 0 {
				b.WriteByte('?')
				i += j
				continue
			}
			b.WriteByte('[')
		default:
			b.WriteByte(p[i])
		}
	}
	return b.String()
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
