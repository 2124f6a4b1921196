package learn

import (
	"hash/fnv"
	"testing"
)

// The written-out hash must give the buckets hash/fnv gives: shipped weights are indexed by them.
func TestHashIsFNV1a(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ field, kind, text string }{
		{"o", "w", "decline"},
		{"i", "b", "kill a"},
		{"o", "c", "<ca"},
		{"t", "c", "ünï"},
		{"s", "", "rule.score"},
		{"", "", ""},
	} {
		h := fnv.New32a()
		h.Write([]byte(tc.field + "\x00" + tc.kind + "\x00" + tc.text))
		if want, got := h.Sum32()&(buckets-1), hash(tc.field, tc.kind, tc.text); got != want {
			t.Errorf("hash(%q, %q, %q) = %d, want %d", tc.field, tc.kind, tc.text, got, want)
		}
	}
	k := kindsOf("i")
	feats := k.wordFeatures(nil, "kill", "a")
	if len(feats) < 2 || feats[0].Index != hash("i", "w", "a") || feats[1].Index != hash("i", "b", "kill a") {
		t.Errorf("a word's features %+v are not its word and bigram hashes", feats)
	}
}
