package detect

import (
	"strings"
	"testing"
)

// Mistakes in a corpus's code-switching marks are mistakes in shipped data: they stop the build's tests,
// never silently match nothing.
func TestCodeSwitchedRefusesBadMarks(t *testing.T) {
	t.Parallel()
	override := func(act string) pair {
		return pair{Name: "direct_override", Window: 24, Mix: "override", Act: act, First: []string{"ignore"}, Second: []string{"the rules"}}
	}
	for _, tc := range []struct {
		desc    string
		spelled []spelledPair
		want    string // in the panic; "" for none
	}{
		{"refuses an act that is neither first nor last", []spelledPair{{override("middle"), 1}}, `act is "middle"`},
		{"refuses an act without a family", []spelledPair{{pair{Name: "direct_override", Act: "first"}, 1}}, "sets act without mix"},
		{"refuses a family across two categories", []spelledPair{{override("first"), 1}, {pair{Name: "extraction", Mix: "override", Act: "first"}, 2}}, "two categories"},
		{"accepts pairs that mix nothing", []spelledPair{{pair{Name: "direct_override"}, 1}}, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got := func() (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = r.(string)
					}
				}()
				codeSwitched("test.yaml", tc.spelled)
				return ""
			}()
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("panic %q, want one containing %q", got, tc.want)
			}
		})
	}
}

// A family is joined across languages only when two languages write it; the joined pair lists every act
// and every object, in either order, and an ASCII word of a language written in another script reads as
// English.
func TestCodeSwitchedJoinsFamilies(t *testing.T) {
	t.Parallel()
	en := pair{Name: "direct_override", Window: 24, Mix: "override", Act: "first", First: []string{"ignore"}, Second: []string{"the rules"}}
	ja := pair{Name: "direct_override", Window: 30, Mix: "override", Act: "last", First: []string{"{指示|prompt}"}, Second: []string{"無視"}}
	if got := codeSwitched("test.yaml", []spelledPair{{en, 1}}); len(got) != 0 {
		t.Fatalf("one language: %d joined pairs, want none", len(got))
	}
	got := codeSwitched("test.yaml", []spelledPair{{en, 1}, {ja, 2 | loanedFromEnglish}})
	if len(got) != 1 {
		t.Fatalf("%d joined pairs, want 1", len(got))
	}
	joined := got[0]
	if strings.Join(joined.First, ",") != "ignore,無視" || strings.Join(joined.Second, ",") != "the rules,{指示|prompt}" || joined.Window != 30 || !joined.eitherOrder {
		t.Errorf("joined: %q then %q within %d, either order %v", joined.First, joined.Second, joined.Window, joined.eitherOrder)
	}
	for _, tc := range []struct {
		term string
		want langSet
	}{{"指示", 2}, {"prompt", 2 | 1}} {
		if l := termLangs(joined.secondLangs, 1, tc.term); l != tc.want {
			t.Errorf("%q reads as languages %b, want %b", tc.term, l, tc.want)
		}
	}
}
