// Package textdiff tells a codec how a guardrail changed a message's text, so that it rewrites only what
// changed: text added after the existing parts becomes new parts at the end and everything the provider
// sent stays as it came; any other change replaces the text parts.
package textdiff

import "github.com/agentwarden/warden"

// Parts returns the message's text parts, in order.
func Parts(m warden.Message) []string {
	var out []string
	for _, p := range m.Content {
		if p.Kind == warden.ContentText && p.Text != "" { // an empty part says nothing: text written in it is added
			out = append(out, p.Text)
		}
	}
	return out
}

// Of compares the text parts of two messages: appended holds the parts next adds after all of old's, or
// inPlace is true when next changed, removed or reordered any of old's parts.
func Of(old, next warden.Message) (appended []string, inPlace bool) {
	o, n := Parts(old), Parts(next)
	if len(n) < len(o) {
		return nil, true
	}
	for i := range o {
		if o[i] != n[i] {
			return nil, true
		}
	}
	return n[len(o):], false
}
