// Package jsonwalk visits the strings of a decoded JSON value (what encoding/json gives for an `any`),
// each with the name of the member it stands under, at any depth. Guardrails use it to read a tool call's
// arguments whatever their shape: a path inside an array of attachments, a card number in a nested body.
//
// It never decodes, and it never changes what it visits. Stable within the module.
package jsonwalk

import "strings"

// Strings calls f with every string in v and the lower-cased name of the object member it stands under
// (an array's items take the array's member name; the top level has ""), until f returns false. Object
// members are visited in no set order.
func Strings(v any, f func(key, s string) bool) {
	walk("", v, f)
}

func walk(key string, v any, f func(key, s string) bool) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !walk(strings.ToLower(k), e, f) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !walk(key, e, f) {
				return false
			}
		}
	case string:
		return f(key, x)
	}
	return true
}
