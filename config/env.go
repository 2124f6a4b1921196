package config

import (
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// expandEnv replaces ${NAME} and ${NAME:-default} in every scalar value (never in keys) with the
// environment's value, so secrets stay out of config files. $${ writes a literal ${. A variable that is
// not set and has no default is an error at its position, because an empty API key or URL is never what
// was meant.
func expandEnv(n *yaml.Node, lookup func(string) (string, bool), path string, errs *errorList) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for i, c := range n.Content {
			p := path
			if n.Kind == yaml.SequenceNode {
				p = path + "[" + itoa(i) + "]"
			}
			expandEnv(c, lookup, p, errs)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			expandEnv(n.Content[i+1], lookup, join(path, n.Content[i].Value), errs)
		}
	case yaml.ScalarNode:
		if !strings.Contains(n.Value, "${") {
			return
		}
		v, missing := expand(n.Value, lookup)
		for _, name := range missing {
			errs.add(n.Line, n.Column, path, "", "environment variable %s is not set (write ${%s:-default} to give a default)", name, name)
		}
		if n.Value != v {
			n.Value = v
			// A value that came from the environment is text, whatever it looks like.
			if n.Tag != "!!str" && n.Style == 0 {
				n.Tag = ""
			}
		}
	}
}

func expand(s string, lookup func(string) (string, bool)) (string, []string) {
	var b strings.Builder
	var missing []string
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), missing
		}
		if i > 0 && s[i-1] == '$' { // $${ is a literal ${
			b.WriteString(s[:i-1])
			b.WriteString("${")
			s = s[i+2:]
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s)
			return b.String(), missing
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(expr, ":-")
		if v, ok := lookup(name); ok && v != "" {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else {
			missing = append(missing, name)
		}
		s = s[i+end+1:]
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

var osLookup = os.LookupEnv
