package detect

import "slices"

// stacked returns the readings of text's readings (first): a disguise laid over another ("1gn0re" with a
// zero-width space in "prev\u200bious", a Cyrillic letter among styled ones, a word spelled out with a
// digit for a letter) is read by undoing one, then the other. seen holds the readings already given,
// which are not given again. A text with no disguise has no first reading and pays nothing.
func stacked(text string, first []reading, words bool, seen map[string]bool) []reading {
	var out []reading
	for _, r := range first {
		for _, again := range readOnce(r.plain, words) {
			if seen[again.plain] {
				continue
			}
			seen[again.plain] = true
			out = append(out, reading{again.plain, throughReading(r.spans, again.spans, len(text), len(again.plain))})
		}
	}
	return out
}

// stackedDepth is how many disguises laid over one another are read: four ("1gn\u200bоre", digits, a
// zero-width space and a Cyrillic letter in one word, beside an accent in the next). Each level is read
// only from the readings of the one before, so a text with one disguise pays for one more look, and one
// with none for nothing; maxReadings bounds a text that holds many.
const (
	stackedDepth = 4
	maxReadings  = 64
)

// readingsStacked returns first and the readings of readings, up to stackedDepth disguises deep.
func readingsStacked(text string, first []reading, words bool) []reading {
	if len(first) == 0 {
		return first
	}
	seen := make(map[string]bool, len(first))
	for _, r := range first {
		seen[r.plain] = true
	}
	out, level := first, first
	for depth := 2; depth <= stackedDepth && len(level) > 0 && len(out) < maxReadings; depth++ {
		level = stacked(text, level, words, seen)
		level = level[:min(len(level), maxReadings-len(out))]
		out = append(out, level...)
	}
	return out
}

// throughReading returns the spans of a reading of a reading, pointing into the original text: inner's
// spans (in the outer reading's text) mapped back through outer's, and outer's spans carried forward
// through inner's into the final reading, marked carried. Text outside a reading's spans is the same in
// the reading, shifted by what the spans before it changed.
func throughReading(outer, inner []spelledOut, textLen, plainLen int) []spelledOut {
	out := make([]spelledOut, 0, len(outer)+len(inner))
	back := merged(outer)
	for _, s := range inner {
		c := s
		c.start, c.end = mapThrough(back, s.start, false, true), mapThrough(back, s.end, true, true)
		c.start, c.end = min(max(c.start, 0), textLen), min(max(c.end, 0), textLen)
		if c.start < c.end {
			out = append(out, c)
		}
	}
	for _, o := range outer {
		c := o
		c.carried = true
		c.joinedStart, c.joinedEnd = mapThrough(inner, o.joinedStart, false, false), mapThrough(inner, o.joinedEnd, true, false)
		c.joinedStart, c.joinedEnd = min(max(c.joinedStart, 0), plainLen), min(max(c.joinedEnd, 0), plainLen)
		if c.joinedStart <= c.joinedEnd {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b spelledOut) int { return a.joinedStart - b.joinedStart })
	return out
}

// merged returns spans, sorted, with those that overlap in the reading made one: a reading of a reading
// holds its own spans and those it carried, which may overlap, where mapThrough needs them apart.
func merged(spans []spelledOut) []spelledOut {
	if !slices.ContainsFunc(spans, func(sp spelledOut) bool { return sp.carried }) {
		return spans // one reading's own spans stand apart
	}
	sorted := slices.SortedFunc(slices.Values(spans), func(a, b spelledOut) int { return a.joinedStart - b.joinedStart })
	var out []spelledOut
	for _, sp := range sorted {
		if n := len(out); n > 0 && sp.joinedStart < out[n-1].joinedEnd {
			last := &out[n-1]
			last.start, last.end = min(last.start, sp.start), max(last.end, sp.end)
			last.joinedEnd = max(last.joinedEnd, sp.joinedEnd)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// mapThrough maps a position across a reading's spans: back from the reading into its text, or forward
// from the text into the reading. A position inside a span goes to the span's start (or, for an end,
// its end); one outside moves by what the spans before it changed in length.
func mapThrough(spans []spelledOut, pos int, end, back bool) int {
	shift := 0
	for _, sp := range spans {
		from, to, fromEnd, toEnd := sp.start, sp.joinedStart, sp.end, sp.joinedEnd
		if back {
			from, to, fromEnd, toEnd = sp.joinedStart, sp.start, sp.joinedEnd, sp.end
		}
		if pos < from || end && pos == from {
			break
		}
		if pos < fromEnd || end && pos == fromEnd {
			if end {
				return toEnd
			}
			return to
		}
		shift += (toEnd - to) - (fromEnd - from)
	}
	return pos + shift
}
