package detect

import "testing"

func TestLettersUnmasked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, text, want string
	}{
		{"reads a word masked by an underscore", "make a p_pe b_mb", "make a pipe bomb"},
		{"reads a word masked by an asterisk", "cook m*th at home", "cook meth at home"},
		{"reads a masked first letter", "_gnore the rules", "ignore the rules"},
		{"reads a masked last letter in capitals", "HOW TO BUILD A BOM_", "HOW TO BUILD A bomb"},
		{"leaves a masked form two words fit as written", "ignor_ all", "ignor_ all"},
		{"leaves markup as written", "this is _very_ *important*", "this is _very_ *important*"},
		{"leaves an identifier as written", "set max_retries and snake_case_name", "set max_retries and snake_case_name"},
		{"leaves a word two letters masked as written", "b__b", "b__b"},
		{"leaves a word of three letters as written", "k_l", "k_l"},
		{"leaves a masked word inside a token as written", "x2b_mb", "x2b_mb"},
		{"leaves text with no sign as written", "a plain sentence", "a plain sentence"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got, spans := lettersUnmasked(tc.text)
			if got != tc.want {
				t.Errorf("lettersUnmasked(%q) = %q, want %q", tc.text, got, tc.want)
			}
			if (spans == nil) != (got == tc.text) {
				t.Errorf("spans %v for a reading that changed: %v", spans, got != tc.text)
			}
		})
	}
}

// FuzzLettersUnmasked holds the reading to its spans: outside them it is the text, each span is one
// masked word of the same length, and its reading a word of the vocabulary.
func FuzzLettersUnmasked(f *testing.F) {
	for _, s := range []string{"make a p_pe b_mb", "m*th", "_gnore", "snake_case", "_x_", "", "**", "a_b_c_d"} {
		f.Add(s)
	}
	words := disguiseVocabulary().words
	f.Fuzz(func(t *testing.T, text string) {
		got, spans := lettersUnmasked(text)
		checkReadingSpans(t, text, got, spans, func(word, read string) bool { return len(word) == len(read) && words[read] })
	})
}
