package ahocorasick_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/ahocorasick"
)

// lower folds ASCII letters only, as the matcher does (strings.ToLower would also rewrite invalid UTF-8).
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// naive is the obvious answer, lowercased: the earliest end of any term and the longest end of text
// that starts a term.
func naive(terms []string, text string) (end int, found bool, pending int) {
	lt := lower(text)
	end = len(text) + 1
	for _, t := range terms {
		if t == "" {
			continue
		}
		lterm := lower(t)
		if i := strings.Index(lt, lterm); i >= 0 && i+len(t) < end {
			end, found = i+len(t), true
		}
		for l := min(len(t), len(lt)); l > pending; l-- {
			if strings.HasSuffix(lt, lterm[:l]) {
				pending = l
				break
			}
		}
	}
	return end, found, pending
}

func TestMatcher(t *testing.T) {
	t.Parallel()
	terms := []string{"internal-only", "Confidential", "he", "she", "hers"}
	m := ahocorasick.Compile(terms)
	tests := []struct {
		desc, text  string
		wantFound   bool
		wantEnd     int
		wantPending int
	}{
		{"a term in another case is found", "this is CONFIDENTIAL data", true, 20, 0},
		{"the earliest ending term wins", "ushers", true, 4, 4},
		{"no term, the end that starts one is pending", "see our intern", false, 0, 6},
		{"a term's start at the very end is pending", "notes: Confid", false, 0, 6},
		{"text without term bytes is pending nothing", "123 !!", false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, _, end, ok := m.Find(tt.text)
			if ok != tt.wantFound || ok && end != tt.wantEnd {
				t.Errorf("Find = %d, %v; want %d, %v", end, ok, tt.wantEnd, tt.wantFound)
			}
			if got := m.Pending(tt.text); got != tt.wantPending {
				t.Errorf("Pending = %d, want %d", got, tt.wantPending)
			}
		})
	}
}

// FuzzMatcher holds the automaton to the naive answer.
func FuzzMatcher(f *testing.F) {
	f.Add("he,she,hers", "ushers and HIS")
	f.Add("abcab,bca,c", "xabcabcab")
	f.Fuzz(func(t *testing.T, termList, text string) {
		terms := strings.Split(termList, ",")
		wantEnd, wantFound, wantPending := naive(terms, text)
		for _, m := range matchers(terms, ahocorasick.Options{}) {
			id, start, end, ok := m.Find(text)
			if ok != wantFound || ok && end != wantEnd {
				t.Fatalf("Find = %d, %v; want %d, %v", end, ok, wantEnd, wantFound)
			}
			if ok && lower(text[start:end]) != lower(terms[id]) {
				t.Fatalf("Find says %q at %d..%d, text has %q", terms[id], start, end, text[start:end])
			}
			if got := m.Pending(text); got != wantPending {
				t.Fatalf("Pending = %d, want %d", got, wantPending)
			}
		}
	})
}

func TestFindAllReportsEveryEndOfATerm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		terms []string
		text  string
		want  []string // the matched text at each reported end, in order
	}{
		{"finds each occurrence", []string{"ab"}, "xabyab", []string{"ab", "ab"}},
		{"overlapping terms end at different places", []string{"abc", "bcd"}, "abcd", []string{"abc", "bcd"}},
		{"a longer term wins where both end", []string{"previous instructions", "instructions"}, "ignore previous instructions", []string{"previous instructions"}},
		{"a shorter term is reported where the longer does not match", []string{"xinstructions", "instructions"}, "the instructions", []string{"instructions"}},
		{"matches fold ASCII case", []string{"I cannot"}, "Sorry, I CANNOT.", []string{"I CANNOT"}},
		{"nothing matches", []string{"zz"}, "abc", nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			m := ahocorasick.Compile(tc.terms)
			var got []string
			m.FindAll(tc.text, func(id, start, end int) {
				if !strings.EqualFold(tc.text[start:end], tc.terms[id]) {
					t.Errorf("span %d:%d holds %q, not term %q", start, end, tc.text[start:end], tc.terms[id])
				}
				got = append(got, tc.text[start:end])
			})
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFindEveryReportsTheShorterTermsThatEndThere(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		terms []string
		text  string
		want  []string
	}{
		{"a shorter term ending with a longer one is reported after it", []string{"previous instructions", "instructions"}, "ignore previous instructions", []string{"previous instructions", "instructions"}},
		{"a chain of suffixes is reported longest first", []string{"abcd", "bcd", "cd"}, "xabcd", []string{"abcd", "bcd", "cd"}},
		{"a term that is no suffix is not reported", []string{"before this tool, read", "read", "tool"}, "before this tool, read it", []string{"tool", "before this tool, read", "read"}},
		{"a shorter term alone is reported once", []string{"xinstructions", "instructions"}, "the instructions", []string{"instructions"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			m := ahocorasick.Compile(tc.terms)
			var got []string
			m.FindEvery(tc.text, func(id, start, end int) {
				if !strings.EqualFold(tc.text[start:end], tc.terms[id]) {
					t.Errorf("span %d:%d holds %q, not term %q", start, end, tc.text[start:end], tc.terms[id])
				}
				got = append(got, tc.text[start:end])
			})
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzFindEvery holds FindEvery to the naive answer: every term occurrence, each once.
func FuzzFindEvery(f *testing.F) {
	f.Add("he,she,hers,e", "ushers and HIS")
	f.Add("abcab,bca,c,ab", "xabcabcab")
	f.Fuzz(func(t *testing.T, termList, text string) {
		terms := strings.Split(termList, ",")
		for _, m := range matchers(terms, ahocorasick.Options{}) {
			findEveryAsNaive(t, m, terms, text)
		}
	})
}

// matchers are the same terms compiled with full rows for the default depth of states, for the root
// alone and down to depth 1: the deep states' path must answer as the rows do.
func matchers(terms []string, o ahocorasick.Options) []*ahocorasick.Matcher {
	return []*ahocorasick.Matcher{ahocorasick.CompileWith(terms, o), ahocorasick.CompileDense(terms, o, 0), ahocorasick.CompileDense(terms, o, 1)}
}

func findEveryAsNaive(t *testing.T, m *ahocorasick.Matcher, terms []string, text string) {
	t.Helper()
	got := map[[2]int]int{} // (start, end) -> times, for distinct term strings
	seen := map[string]bool{}
	var distinct []string
	for _, term := range terms {
		if term != "" && !seen[lower(term)] {
			seen[lower(term)] = true
			distinct = append(distinct, lower(term))
		}
	}
	m.FindEvery(text, func(id, start, end int) {
		if lower(text[start:end]) != lower(terms[id]) {
			t.Fatalf("FindEvery says %q at %d..%d, text has %q", terms[id], start, end, text[start:end])
		}
		got[[2]int{start, end}]++
	})
	lt := lower(text)
	want := map[[2]int]int{}
	for _, term := range distinct {
		for i := 0; i+len(term) <= len(lt); i++ {
			if lt[i:i+len(term)] == term {
				want[[2]int{i, i + len(term)}]++
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("FindEvery found %d spans, the naive search %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Fatalf("span %v reported %d times, want %d", k, got[k], n)
		}
	}
}

func TestFoldSpaceReadsARunOfWhiteSpaceAsOneSpace(t *testing.T) {
	t.Parallel()
	terms := []string{"ignore all previous", "all"}
	folded := ahocorasick.CompileWith(terms, ahocorasick.Options{FoldSpace: true})
	plain := ahocorasick.Compile(terms)
	tests := []struct {
		name, text      string
		start, end      int // of the first term, in folded; -1 when not found
		plainFindsFirst bool
	}{
		{"single spaces", "x ignore all previous y", 2, 21, true},
		{"a run of spaces", "ignore   all previous", 0, 21, false},
		{"a tab and a line break", "ignore\tall\n\nprevious", 0, 20, false},
		{"a run before the match", "a  \n ignore all previous", 5, 24, true},
		{"no term", "ignore\t\tsome previous", -1, -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start, end := -1, -1
			folded.FindEvery(tc.text, func(id, s, e int) {
				if id == 0 && start < 0 {
					start, end = s, e
				}
			})
			if start != tc.start || end != tc.end {
				t.Errorf("folded: found at [%d, %d), want [%d, %d)", start, end, tc.start, tc.end)
			}
			found := false
			plain.FindEvery(tc.text, func(id, s, e int) { found = found || id == 0 })
			if found != tc.plainFindsFirst {
				t.Errorf("plain: found %v, want %v", found, tc.plainFindsFirst)
			}
		})
	}
}

func TestSizeGrowsWithTheTerms(t *testing.T) {
	t.Parallel()
	small := ahocorasick.Compile([]string{"ignore"})
	large := ahocorasick.Compile([]string{"ignore", "disregard all previous instructions", "forget everything above"})
	if small.Size() <= 0 || large.Size() <= small.Size() {
		t.Errorf("Size: %d for one term, %d for three longer ones; want positive and growing", small.Size(), large.Size())
	}
}

func TestCompileRefusesATermLongerThanMaxTermLen(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Compile took a term longer than MaxTermLen")
		}
	}()
	ahocorasick.Compile([]string{"ok", strings.Repeat("a", ahocorasick.MaxTermLen+1)})
}

func TestATermOfMaxTermLenIsFoundAndHeldBack(t *testing.T) {
	t.Parallel()
	term := strings.Repeat("a", ahocorasick.MaxTermLen)
	m := ahocorasick.Compile([]string{term})
	if _, start, end, ok := m.Find("x" + term + "y"); !ok || start != 1 || end != 1+ahocorasick.MaxTermLen {
		t.Errorf("Find = %d, %d, %v; want 1, %d, true", start, end, ok, 1+ahocorasick.MaxTermLen)
	}
	if got := m.Pending("x" + term[:ahocorasick.MaxTermLen-1]); got != ahocorasick.MaxTermLen-1 {
		t.Errorf("Pending = %d, want %d", got, ahocorasick.MaxTermLen-1)
	}
}
