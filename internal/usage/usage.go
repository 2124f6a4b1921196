// Package usage reads the token counts providers report, from a whole body or from one stream event, for
// the guardrails that count them (warden.UsageObserver). Each format names its fields; what a provider
// bills separately (cache reads and writes, reasoning) is added where it is billed.
package usage

import (
	"encoding/json"

	"github.com/agentwarden/warden"
)

// Fields says where a format reports usage: the object's path from the top of a body or event (each path
// tried in turn) and the counts in it that are input and output tokens.
type Fields struct {
	Paths   [][]string
	In, Out []string
}

// Read returns the usage data carries, and whether it carries any.
func Read(data []byte, f Fields) (warden.Usage, bool) {
	for _, path := range f.Paths {
		raw := json.RawMessage(data)
		found := true
		for _, key := range path {
			var obj map[string]json.RawMessage
			if json.Unmarshal(raw, &obj) != nil {
				found = false
				break
			}
			if raw, found = obj[key]; !found {
				break
			}
		}
		if !found {
			continue
		}
		var counts map[string]json.RawMessage
		if json.Unmarshal(raw, &counts) != nil || counts == nil {
			continue
		}
		u := warden.Usage{InputTokens: sum(counts, f.In), OutputTokens: sum(counts, f.Out)}
		return u, true
	}
	return warden.Usage{}, false
}

func sum(counts map[string]json.RawMessage, keys []string) int64 {
	var n int64
	for _, k := range keys {
		var v int64
		if json.Unmarshal(counts[k], &v) == nil && v > 0 {
			n += v
		}
	}
	return n
}

// Max keeps the larger of each count: a stream that reports its usage in parts (input at the start,
// output at the end) or again and again as it grows (a running total) adds up to its largest figures.
func Max(a, b warden.Usage) warden.Usage {
	return warden.Usage{InputTokens: max(a.InputTokens, b.InputTokens), OutputTokens: max(a.OutputTokens, b.OutputTokens)}
}
