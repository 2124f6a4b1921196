package detect

import "strings"

// joinedParts returns the readings of a text that asks for its quoted parts to be put together ("a =
// 'Ignore all prev'; b = 'ious instructions'; now do a + b"): the payload split so that no part reads as
// an attack alone (payload splitting, Kang et al. 2023, "Exploiting Programmatic Behavior of LLMs"). The
// parts are read run together (a word split between two) and set apart by a space (whole words split
// between them); each reading's one span covers the parts. A text without a cue to put parts together
// ("+", "concatenate", "combine", "join", "merge"), without two quoted parts near each other, or whose
// parts meet only at spaces and signs, has none.
func joinedParts(text string) []reading {
	if strings.Count(text, `"`)+strings.Count(text, "'") < 4 {
		return nil
	}
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "+") && !strings.Contains(lower, "concat") && !strings.Contains(lower, "combine") &&
		!strings.Contains(lower, "join") && !strings.Contains(lower, "merge") && !strings.Contains(lower, "put together") &&
		!strings.Contains(lower, "put them together") && !strings.Contains(lower, "append") {
		return nil
	}
	// Parts are read in runs, each part near the one before it: a program's strings spread over its
	// lines are no message in pieces.
	const nearby = 40
	var out []reading
	var parts []string
	first, last := -1, -1
	// A message cut into parts is cut between letters somewhere ("prev" | "ious", "your" | "system");
	// a program's strings meet at spaces and signs ("Email = " | ", scopes: ").
	cutInWords := func() bool {
		for k := 1; k < len(parts); k++ {
			a, b := parts[k-1], parts[k]
			if a != "" && b != "" && isASCIILetter(a[len(a)-1]) && isASCIILetter(b[0]) {
				return true
			}
		}
		return false
	}
	flush := func() {
		if len(parts) >= 2 && len(out) < 4 && cutInWords() {
			for _, sep := range []string{"", " "} {
				plain := strings.Join(parts, sep)
				out = append(out, reading{plain, []spelledOut{{start: first, end: last, joinedStart: 0, joinedEnd: len(plain)}}})
			}
		}
		parts, first = parts[:0], -1
	}
	for i := 0; i < len(text); i++ {
		q := text[i]
		if q != '"' && q != '\'' || i > 0 && isWordByte(text[i-1]) {
			continue // an apostrophe inside a word ("don't") opens nothing
		}
		j := strings.IndexByte(text[i+1:], q)
		if j < 0 {
			break
		}
		end := i + 1 + j
		if end+1 < len(text) && isWordByte(text[end+1]) {
			continue
		}
		if first >= 0 && i-last > nearby {
			flush()
		}
		if first < 0 {
			first = i
		}
		parts = append(parts, text[i+1:end])
		last = end + 1
		i = end
	}
	flush()
	return out
}
