// Package allowlist is the allowlist tool-call guardrail of seed 001: tools are allowed or denied by name.
//
// Semantics, exactly as the seed's: the allowlist is checked first; a tool in both lists is denied;
// `allowed_tools: []` allows nothing; `denied_tools: []` and an absent list deny nothing. Entries are exact
// names or patterns (`mcp__*`, `github_*`; *, ? and [...] as in Go's path.Match). Denials carry the code
// oap.tool_not_allowed and the seed's messages.
package allowlist

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.allowlist",
		New:     func() any { return new(Allowlist) },
		Summary: "allows or denies tool calls by tool name (exact names or patterns)",
	})
}

// Allowlist allows or denies tool calls by name.
type Allowlist struct {
	// AllowedTools lists the tools that may run; every other tool is denied. Absent means no allowlist;
	// an empty list allows nothing.
	AllowedTools *[]string `yaml:"allowed_tools" json:"allowed_tools"`
	// DeniedTools lists tools that never run, even when allowed. Absent or empty denies nothing.
	DeniedTools []string `yaml:"denied_tools" json:"denied_tools"`

	allowed, denied matcher
}

var (
	_ warden.ToolCallGuardrail = (*Allowlist)(nil)
	_ warden.Provisioner       = (*Allowlist)(nil)
)

// matcher holds exact names in a set, `prefix*` patterns as prefixes, and other patterns apart, so the
// common cases are a map lookup and a prefix test.
type matcher struct {
	exact    map[string]struct{}
	prefixes []string
	patterns []string
}

func newMatcher(entries []string) (matcher, error) {
	m := matcher{exact: make(map[string]struct{}, len(entries))}
	for _, e := range entries {
		if !strings.ContainsAny(e, `*?[\`) {
			m.exact[e] = struct{}{}
			continue
		}
		if _, err := path.Match(e, ""); err != nil {
			return m, fmt.Errorf("bad pattern %q: %v", e, err)
		}
		if p, ok := strings.CutSuffix(e, "*"); ok && !strings.ContainsAny(p, `*?[\/`) {
			m.prefixes = append(m.prefixes, p) // "*" matches no "/" in path.Match: keep that for prefixes
			continue
		}
		m.patterns = append(m.patterns, e)
	}
	return m, nil
}

func (m *matcher) match(name string) bool {
	if _, ok := m.exact[name]; ok {
		return true
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(name, p) && !strings.Contains(name[len(p):], "/") {
			return true
		}
	}
	for _, p := range m.patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// Provision compiles the lists.
func (a *Allowlist) Provision(context.Context) error {
	var err error
	if a.AllowedTools != nil {
		if a.allowed, err = newMatcher(*a.AllowedTools); err != nil {
			return fmt.Errorf("allowed_tools: %v", err)
		}
	}
	if a.denied, err = newMatcher(a.DeniedTools); err != nil {
		return fmt.Errorf("denied_tools: %v", err)
	}
	return nil
}

var _ warden.ToolDenier = (*Allowlist)(nil)

// DeniesTool says whether every call of the named tool is denied: the lists judge the name alone.
func (a *Allowlist) DeniesTool(name string) bool {
	return a.AllowedTools != nil && !a.allowed.match(name) || a.denied.match(name)
}

// CheckToolCall allows or denies the call by its tool's name.
func (a *Allowlist) CheckToolCall(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	name := c.Call.Name
	if a.AllowedTools != nil && !a.allowed.match(name) {
		return warden.Reject("oap.tool_not_allowed", "tool '"+name+"' not in allowlist"), nil
	}
	if a.denied.match(name) {
		return warden.Reject("oap.tool_not_allowed", "tool '"+name+"' is denied"), nil
	}
	return warden.Allow(), nil
}
