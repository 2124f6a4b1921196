package oap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/shell"
)

// limits are a passport's limits, decoded per capability when the passport loads.
type limits struct {
	command   commandLimits
	fileRead  fileLimits
	fileWrite fileLimits
	web       webLimits
	browser   webLimits
	mcp       mcpLimits
	messaging messagingLimits
}

type commandLimits struct {
	AllowedCommands           []string `json:"allowed_commands"`
	BlockedPatterns           []string `json:"blocked_patterns"`
	AllowedWorkingDirectories []string `json:"allowed_working_directories"`
	BlockedEnvVars            []string `json:"blocked_env_vars"`
	MaxExecutionTime          float64  `json:"max_execution_time"`
	patterns                  []blockedPattern
}

type fileLimits struct {
	AllowedPaths      []string         `json:"allowed_paths"`
	BlockedPaths      []string         `json:"blocked_paths"`
	BlockedPatterns   []string         `json:"blocked_patterns"`
	AllowedExtensions []string         `json:"allowed_extensions"`
	MaxFileSizeMB     float64          `json:"max_file_size_mb"`
	globs             []*regexp.Regexp // BlockedPatterns as shell globs, by position
}

type webLimits struct {
	AllowedDomains  []string `json:"allowed_domains"`
	BlockedDomains  []string `json:"blocked_domains"`
	AllowPrivateIPs bool     `json:"allow_private_ips"`
	AllowedMethods  []string `json:"allowed_methods"`
}

type mcpLimits struct {
	AllowedServers    []string `json:"allowed_servers"`
	AllowedTools      []string `json:"allowed_tools"`
	MaxCallsPerMinute int      `json:"max_calls_per_minute"`
}

type messagingLimits struct {
	AllowedRecipients []string `json:"allowed_recipients"`
	MsgsPerMin        int      `json:"msgs_per_min"`
	MsgsPerDay        int      `json:"msgs_per_day"`
}

// decodeLimits reads the limits of the capabilities this evaluator checks. Messaging limits may also stand
// flat at the top of limits, as the reference verifier accepts.
func decodeLimits(raw map[string]json.RawMessage) (limits, error) {
	var l limits
	targets := map[string]any{
		"system.command.execute": &l.command, "data.file.read": &l.fileRead, "data.file.write": &l.fileWrite,
		"web.fetch": &l.web, "web.browser": &l.browser, "mcp.tool.execute": &l.mcp, "messaging.send": &l.messaging,
	}
	for key := range raw {
		if _, ok := targets[key]; !ok && strings.Contains(key, ".") {
			// A limit Warden does not enforce must not read as one that holds (code.repository.merge's
			// allowed repos, data.export's row limits): the passport is refused instead.
			return l, fmt.Errorf("limits.%s: Warden does not enforce limits for this capability; remove them, or grant the capability without limits", key)
		}
	}
	for capability, dst := range targets {
		if r, ok := raw[capability]; ok {
			dec := json.NewDecoder(bytes.NewReader(r))
			dec.DisallowUnknownFields() // an unknown limit would be silently unenforced
			if err := dec.Decode(dst); err != nil {
				return l, fmt.Errorf("limits.%s: %v (Warden enforces only the limits docs/config.md lists)", capability, err)
			}
		}
	}
	if _, ok := raw["web.browser"]; !ok {
		l.browser = l.web // a browser without limits of its own keeps web.fetch's, as before it had its own
	}
	if _, ok := raw["messaging.send"]; !ok {
		flat, _ := json.Marshal(raw)
		_ = json.Unmarshal(flat, &l.messaging)
	}
	for _, p := range l.command.BlockedPatterns {
		l.command.patterns = append(l.command.patterns, compileBlockedPattern(p))
	}
	for _, f := range []struct {
		capability string
		lim        *fileLimits
	}{{"data.file.read", &l.fileRead}, {"data.file.write", &l.fileWrite}} {
		for i, p := range f.lim.BlockedPatterns {
			g, err := shellGlob(p)
			if err != nil {
				return l, fmt.Errorf("limits.%s.blocked_patterns[%d]: %q %v", f.capability, i, p, err)
			}
			f.lim.globs = append(f.lim.globs, g)
		}
	}
	return l, nil
}

// shellGlob compiles a blocked_patterns entry as the reference evaluator's shell matches it ([[ $path ==
// $pattern ]]): * matches any run of characters, / included (so **/secrets/* and *.pem match at any
// depth), ? one character, [...] a class ([!...] or [^...] its complement), \x the character x. A pattern
// the shell could never match, an empty one or an unterminated class, is an error, not a rule that
// silently never fires.
func shellGlob(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, errors.New("is empty")
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '\\':
			if i+1 == len(p) {
				return nil, errors.New("ends in a lone backslash")
			}
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end == 0 { // []...] : a ] first in the class is a member
				if next := strings.IndexByte(p[i+2:], ']'); next >= 0 {
					end = next + 1
				} else {
					end = -1
				}
			}
			if end < 0 {
				return nil, errors.New("has a [ class that is never closed")
			}
			class := p[i+1 : i+1+end]
			neg := strings.HasPrefix(class, "!") || strings.HasPrefix(class, "^")
			if neg {
				class = class[1:]
			}
			if class == "" {
				return nil, errors.New("has an empty [ ] class, which matches nothing")
			}
			b.WriteString("[")
			if neg {
				b.WriteString("^")
			}
			for _, r := range class {
				if r == '\\' || r == ']' || r == '[' || r == '^' {
					b.WriteString("\\")
				}
				b.WriteRune(r)
			}
			b.WriteString("]")
			i += 1 + end
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// blockedPattern is a blocked_patterns entry read two ways: as the raw text the reference evaluator
// matches (a fixed substring, kept for compatibility), and as a command (program, options in any spelling,
// words), so that "rm -rf" also blocks rm -fr, rm -r -f, /bin/rm -Rf and \rm --recursive --force.
type blockedPattern struct {
	raw     string
	program string
	flags   []string
	words   []string
}

// flagAliases are spellings that mean the same option for a program.
var flagAliases = map[string]map[string]string{
	"rm":    {"R": "r", "recursive": "r", "force": "f", "dir": "d"},
	"cp":    {"R": "r", "recursive": "r", "force": "f"},
	"chmod": {"recursive": "R"}, "chown": {"recursive": "R"}, "chgrp": {"recursive": "R"},
	"git": {"force": "f"},
}

func compileBlockedPattern(raw string) blockedPattern {
	bp := blockedPattern{raw: raw}
	a := shell.Analyze(raw)
	if a.Err != nil || len(a.Commands) == 0 || a.Commands[0].Program == "" || a.Commands[0].Program == shell.Unknown {
		return bp
	}
	c := a.Commands[0]
	bp.program = c.Program
	for _, w := range c.Args {
		if f := optionNames(c.Program, w.Value); f != nil {
			bp.flags = append(bp.flags, f...)
		} else {
			bp.words = append(bp.words, w.Value)
		}
	}
	return bp
}

// optionNames returns the option names of an argument (-rf → r, f; --force → f for rm), or nil.
func optionNames(program, arg string) []string {
	alias := flagAliases[program]
	norm := func(n string) string {
		if a, ok := alias[n]; ok {
			return a
		}
		return n
	}
	switch {
	case strings.HasPrefix(arg, "--") && len(arg) > 2:
		name, _, _ := strings.Cut(arg[2:], "=")
		return []string{norm(name)}
	case strings.HasPrefix(arg, "-") && len(arg) > 1 && !isNumber(arg[1:]):
		var out []string
		for _, r := range arg[1:] {
			out = append(out, norm(string(r)))
		}
		return out
	}
	return nil
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// matches reports whether the pattern blocks a command line.
func (bp *blockedPattern) matches(raw string, a *shell.Analysis) bool {
	if bp.raw != "" && strings.Contains(raw, bp.raw) {
		return true
	}
	if bp.program == "" {
		return false
	}
	for _, c := range a.Commands {
		if c.Program != bp.program {
			continue
		}
		have := map[string]bool{}
		var words []string
		for _, w := range c.Args {
			if f := optionNames(c.Program, w.Value); f != nil {
				for _, n := range f {
					have[n] = true
				}
			} else {
				words = append(words, w.Value)
			}
		}
		ok := true
		for _, f := range bp.flags {
			ok = ok && have[f]
		}
		for _, w := range bp.words {
			ok = ok && slices.ContainsFunc(words, func(x string) bool {
				return x == w || strings.HasSuffix(w, "=") && strings.HasPrefix(x, w)
			})
		}
		if ok {
			return true
		}
	}
	return false
}

// underAny reports whether a path is one of the roots or inside one, by whole path elements (/data does
// not contain /database). "*" admits everything.
func underAny(p string, roots []string) bool {
	p = cleanPath(p)
	for _, r := range roots {
		if r == "*" {
			return true
		}
		r = cleanPath(r)
		if p == r || r == "/" || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

func cleanPath(p string) string {
	if p == "$HOME" || strings.HasPrefix(p, "$HOME/") {
		p = "~" + p[len("$HOME"):]
	}
	if strings.HasPrefix(p, "~") {
		return "~" + strings.TrimSuffix(path.Clean("/"+p[1:]), "/")
	}
	return path.Clean(p)
}

// matchesGlobOrSubstring is the reference evaluator's blocked_patterns test for paths: a fixed
// substring, or a shell glob (compiled by shellGlob) on the whole path or its last element.
func matchesGlobOrSubstring(p, pattern string, glob *regexp.Regexp) bool {
	return strings.Contains(p, pattern) || glob.MatchString(p) || glob.MatchString(path.Base(p))
}

// domainAllowed matches a host against entries: an exact name, *.suffix for its subdomains, or *.
func domainIn(host string, entries []string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, e := range entries {
		e = strings.ToLower(e)
		switch {
		case e == "*" || e == host:
			return true
		case strings.HasPrefix(e, "*.") && strings.HasSuffix(host, e[1:]):
			return true
		}
	}
	return false
}

// urlHost returns the host of a URL, or "" when it is not an absolute http(s) URL.
func urlHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.Hostname()
}
