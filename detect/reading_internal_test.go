package detect

import "testing"

// checkReadingSpans holds a reading to its spans: with none it is the text; outside them it is the text,
// in order; and ok accepts what each span of the text reads as.
func checkReadingSpans(t *testing.T, text, reading string, spans []spelledOut, ok func(word, read string) bool) {
	t.Helper()
	if spans == nil {
		if reading != text {
			t.Fatalf("no spans, but the reading differs: %q", reading)
		}
		return
	}
	prev, prevRead := 0, 0
	for _, sp := range spans {
		if sp.start < prev || sp.end <= sp.start || sp.end > len(text) || sp.joinedStart < prevRead || sp.joinedEnd > len(reading) {
			t.Fatalf("span %+v out of order or bounds in %q -> %q", sp, text, reading)
		}
		if text[prev:sp.start] != reading[prevRead:sp.joinedStart] {
			t.Fatalf("text between spans changed: %q -> %q", text[prev:sp.start], reading[prevRead:sp.joinedStart])
		}
		if word, read := text[sp.start:sp.end], reading[sp.joinedStart:sp.joinedEnd]; !ok(word, read) {
			t.Fatalf("span %q reads %q", word, read)
		}
		prev, prevRead = sp.end, sp.joinedEnd
	}
	if text[prev:] != reading[prevRead:] {
		t.Fatalf("tail changed: %q -> %q", text[prev:], reading[prevRead:])
	}
}

func TestSentenceEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, text string
		want       int
	}{
		{"counts nothing in an opener's first words", "Sure, I can help with something related", 0},
		{"counts an opener ended by an exclamation", "Sure! ", 1},
		{"counts an opener and a sentence after it", "Sure. That would be illegal. ", 2},
		{"counts a line break once however many", "Sure!\n\n", 1},
		{"does not count a ratio's or a version's point", "Mix them 3:1 with v1.2 of the kit", 0},
		{"counts a question mark ending a sentence", "Why would you want that? ", 1},
		{"counts a full stop ending the text", "Step 1: scan.", 1},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := sentenceEnds(tc.text, 0, len(tc.text), false); got != tc.want {
				t.Errorf("sentenceEnds(%q) = %d, want %d", tc.text, got, tc.want)
			}
		})
	}
}
