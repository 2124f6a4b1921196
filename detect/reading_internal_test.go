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
