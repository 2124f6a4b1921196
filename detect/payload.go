package detect

import "strings"

// joinedParts returns the readings of a text that asks for its quoted parts to be put together ("a =
// 'Ignore all prev'; b = 'ious instructions'; now do a + b"): the payload split so that no part reads as
// an attack alone (payload splitting, Kang et al. 2023, "Exploiting Programmatic Behavior of LLMs"). The
// parts are read run together (a word split between two) and set apart by a space (whole words split
// between them); each reading's one span covers the parts. Parts count in runs near each other, cut
// between letters somewhere, with a cue to put them together beside the run ("+", "concatenate",
// "combine", "join", "merge"); a program's strings meet at spaces and signs, and JSON's keys and values
// at colons, so neither is read so.
func joinedParts(text string) []reading {
	if strings.Count(text, `"`)+strings.Count(text, "'") < 4 {
		return nil
	}
	// Parts are read in runs, each part near the one before it: a program's strings spread over its
	// lines are no message in pieces.
	const nearby = 40
	var out []reading
	var parts []string
	first, last, keyed := -1, -1, false
	flush := func() {
		if len(parts) >= 2 && len(out) < 4 && !keyed && cutInWords(parts) && asksToJoin(text, first, last) {
			for _, sep := range []string{"", " "} {
				plain := strings.Join(parts, sep)
				out = append(out, reading{plain, []spelledOut{{start: first, end: last, joinedStart: 0, joinedEnd: len(plain)}}})
			}
		}
		parts, first, keyed = parts[:0], -1, false
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
		} else if strings.TrimSpace(text[last:i]) == ":" {
			keyed = true // a key and its value
		}
		parts = append(parts, text[i+1:end])
		last = end + 1
		i = end
	}
	flush()
	return out
}

// cutInWords reports whether parts are cut between letters somewhere, as a message split into pieces is
// ("prev" | "ious", "your" | "system"); a program's strings meet at spaces and signs ("Email = " |
// ", scopes: ").
func cutInWords(parts []string) bool {
	for k := 1; k < len(parts); k++ {
		a, b := parts[k-1], parts[k]
		if a != "" && b != "" && isASCIILetter(a[len(a)-1]) && isASCIILetter(b[0]) {
			return true
		}
	}
	return false
}

// asksToJoin reports whether the words just before or just after the run of parts text[first:last] ask
// for them to be put together: "+" or a verb of joining, outside the parts themselves.
func asksToJoin(text string, first, last int) bool {
	const reach = 100
	around := strings.ToLower(text[max(0, first-reach):first] + " " + text[last:min(len(text), last+reach)])
	for _, cue := range [...]string{"+", "concat", "combine", "join", "merge", "put together", "put them together", "append"} {
		if strings.Contains(around, cue) {
			return true
		}
	}
	return false
}
