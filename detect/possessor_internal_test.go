package detect

import (
	"strings"
	"testing"
)

func TestPossessorReadings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, text, want string // want: the reading's words around the possessor, "" for no reading
	}{
		{"reads a relative's thing as someone's", "drain my grandma's savings", "drain someone's savings"},
		{"reads a hyphenated relative", "log into my father-in-law's account", "log into someone's account"},
		{"reads a chain of possessors as one", "read my girlfriend's best friend's messages", "read someone's messages"},
		{"reads a possessor opened by a pronoun", "hack her sister's phone", "hack someone's phone"},
		{"leaves a possessor opened by an article", "kill the caller's goroutine", ""},
		{"reads a curly apostrophe", "open my boss’s mail", "open someone's mail"},
		{"leaves the asker's child's things", "track my son's phone", ""},
		{"leaves a pet's things", "check my dog's location", ""},
		{"leaves the asker's company's things", "reset my company's server", ""},
		{"leaves a contraction", "that's my plan and it's fine", ""},
		{"leaves a possessive with no head", "Bob's phone is broken", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got := possessorReadings(tc.text)
			if tc.want == "" {
				if got != nil {
					t.Fatalf("possessorReadings(%q) = %q, want none", tc.text, got[0].plain)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].plain, tc.want) {
				t.Fatalf("possessorReadings(%q) = %v, want a reading holding %q", tc.text, got, tc.want)
			}
			for _, sp := range got[0].spans {
				if got[0].plain[sp.joinedStart:sp.joinedEnd] != "someone's" {
					t.Errorf("span %v reads %q, want someone's", sp, got[0].plain[sp.joinedStart:sp.joinedEnd])
				}
			}
		})
	}
}

// FuzzPossessorReadings holds every span of a reading inside its text and its reading, over "someone's".
func FuzzPossessorReadings(f *testing.F) {
	for _, s := range []string{"drain my grandma's savings", "my girlfriend's best friend's phone", "her ex’s car", "my's 's", "my a's b's c's d's e's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range possessorReadings(text) {
			for _, sp := range r.spans {
				if sp.start < 0 || sp.start >= sp.end || sp.end > len(text) {
					t.Fatalf("span [%d, %d) of a text of %d bytes", sp.start, sp.end, len(text))
				}
				if sp.joinedStart < 0 || sp.joinedEnd > len(r.plain) || r.plain[sp.joinedStart:sp.joinedEnd] != "someone's" {
					t.Fatalf("reading span [%d, %d) of %q", sp.joinedStart, sp.joinedEnd, r.plain)
				}
			}
		}
	})
}
