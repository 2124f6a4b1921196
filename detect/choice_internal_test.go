package detect

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzFoundIn holds what a tool result lists to what it holds: in text that is not JSON, every target
// found stands in the text, and the targets of one line share a record.
func FuzzFoundIn(f *testing.F) {
	for _, seed := range []string{
		`[{"name":"John Smith","account":"40211873350"},{"name":"John Park","account":"77310092218"}]`,
		"Found 2 contacts:\nMike Chen  +1 415 555 0134\nMike Ross  +1 212 555 0199",
		`{"results":[{"email":"a.b@corp.example","team":"x"}],"next":"cursor_123abc"}`,
		"2 matches\nDavid Kim <david.kim@acme.example> Legal",
		`"a JSON string with bob@x.example in it"`,
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		found := foundIn(content)
		if json.Valid([]byte(content)) {
			return // decoded strings may differ from the raw bytes (escapes)
		}
		lower := strings.ToLower(content)
		for _, fd := range found {
			if !strings.Contains(lower, fd.target) {
				t.Fatalf("target %q is not in the text", fd.target)
			}
			if fd.record < 0 {
				t.Fatalf("record %d", fd.record)
			}
		}
	})
}
