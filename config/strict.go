package config

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// checkStrict walks a YAML node against the Go type it will be decoded into and reports, with the exact
// position and key path, every unknown key, repeated key, wrong shape and value that does not decode.
//
// It exists because yaml.v3's Node.Decode ignores KnownFields (go-yaml/yaml#460) and its type errors carry a
// line but no key path. After a clean walk, Node.Decode is safe to use.
func checkStrict(n *yaml.Node, t reflect.Type, path, module string, errs *errorList) {
	if n == nil {
		return
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if t == yamlNodeType {
		return // decoded later, strictly, into whatever the key selects
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if isNull(n) {
		return
	}
	if decodesItself(t) {
		checkLeaf(n, t, path, module, errs)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			errs.add(n.Line, n.Column, path, module, "want a mapping of keys, got %s", describe(n))
			return
		}
		fields := yamlFields(t)
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			kp := join(path, k.Value)
			if first, dup := seen[k.Value]; dup {
				errs.add(k.Line, k.Column, kp, module, "key repeated (first at line %d)", first)
				continue
			}
			seen[k.Value] = k.Line
			f, ok := fields[k.Value]
			if !ok {
				errs.add(k.Line, k.Column, kp, module, "unknown key %q%s", k.Value, suggest(k.Value, fields))
				continue
			}
			checkStrict(v, f.Type, kp, module, errs)
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			errs.add(n.Line, n.Column, path, module, "want a list, got %s", describe(n))
			return
		}
		for i, e := range n.Content {
			checkStrict(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i), module, errs)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			errs.add(n.Line, n.Column, path, module, "want a mapping, got %s", describe(n))
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			checkLeaf(n.Content[i], t.Key(), join(path, n.Content[i].Value), module, errs)
			checkStrict(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value), module, errs)
		}
	case reflect.Interface:
		// any: whatever the YAML holds.
	default:
		checkLeaf(n, t, path, module, errs)
	}
}

var (
	yamlNodeType        = reflect.TypeFor[yaml.Node]()
	yamlUnmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(yamlUnmarshalerType) || p.Implements(textUnmarshalerType)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// checkLeaf decodes one node into a fresh value of t to see whether it fits.
func checkLeaf(n *yaml.Node, t reflect.Type, path, module string, errs *errorList) {
	if n.Kind != yaml.ScalarNode && !decodesItself(t) {
		errs.add(n.Line, n.Column, path, module, "want %s, got %s", kindName(t), describe(n))
		return
	}
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		errs.add(n.Line, n.Column, path, module, "%s", cleanDecodeError(err))
	}
}

var yamlLinePrefix = regexp.MustCompile(`^(yaml: )?(unmarshal errors:\s*)?(line \d+: )?`)

// cleanDecodeError drops yaml's own "line N:" prefix; the caller's position is exact.
func cleanDecodeError(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		return yamlLinePrefix.ReplaceAllString(strings.TrimSpace(te.Errors[0]), "")
	}
	return yamlLinePrefix.ReplaceAllString(err.Error(), "")
}

type fieldInfo struct {
	Type reflect.Type
}

// yamlFields returns the keys yaml.v3 decodes into a struct: the yaml tag's name, or the lowercased field
// name, with ",inline" structs flattened and "-" left out.
func yamlFields(t reflect.Type) map[string]fieldInfo {
	out := map[string]fieldInfo{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range yamlFields(ft) {
					out[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = fieldInfo{Type: f.Type}
	}
	return out
}

// suggest names the closest known key, or lists them all when there are few.
func suggest(key string, fields map[string]fieldInfo) string {
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(key, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		// fail_open for fail_closed: same start, different ending.
		for _, n := range names {
			if len(key) >= 4 && len(n) >= 4 && key[:4] == n[:4] {
				best = n
				break
			}
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	if len(names) == 0 {
		return " (this mapping takes no keys)"
	}
	return " (known keys: " + strings.Join(names, ", ") + ")"
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "nothing"
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.String()
}
