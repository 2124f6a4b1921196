package openai

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// scanResponsesItemEvent reads the events most of a Responses stream is made of, an item's events exactly
// as OpenAI writes them, deltas and the done events that close a part or its text:
//
//	{"type":"response.…","item_id":"…","output_index":N,…}
//
// without encoding/json, which costs more than the rest of the guard per event. All the guard needs of
// such an event is its type and output index. It declines (ok false) anything else, the events the guard
// reads more of (an item's addition and its done event, which carry the item), and an event whose other
// members hold a key that folds to type or output_index (encoding/json would read the last one). A
// malformed event is not noticed here: it goes to the client as it came. A differential fuzz test holds it
// to encoding/json's reading of every event encoding/json accepts.
func scanResponsesItemEvent(data string) (typ string, index int, ok bool) {
	const head = `{"type":"response.`
	if !strings.HasPrefix(data, head) {
		return "", 0, false
	}
	rest := data[len(head)-len("response."):]
	end := strings.IndexByte(rest, '"')
	if end < 0 {
		return "", 0, false
	}
	typ = rest[:end]
	switch typ {
	case "response.output_item.added", "response.output_item.done", "response.created", "response.queued",
		"response.in_progress", "response.completed", "response.incomplete", "response.failed":
		return "", 0, false // the guard reads more of these
	}
	for i := 0; i < len(typ); i++ {
		if typ[i] == '\\' || typ[i] >= utf8.RuneSelf {
			return "", 0, false // escaped or beyond ASCII: encoding/json may read it otherwise
		}
	}
	rest = rest[end+1:]
	const itemID = `,"item_id":"`
	if !strings.HasPrefix(rest, itemID) {
		return "", 0, false
	}
	rest = rest[len(itemID):]
	end = strings.IndexByte(rest, '"')
	if end < 0 || strings.IndexByte(rest[:end], '\\') >= 0 {
		return "", 0, false
	}
	rest = rest[end+1:]
	const outIdx = `,"output_index":`
	if !strings.HasPrefix(rest, outIdx) {
		return "", 0, false
	}
	rest = rest[len(outIdx):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || (n > 1 && rest[0] == '0') || n >= len(rest) || (rest[n] != ',' && rest[n] != '}') {
		return "", 0, false
	}
	index, _ = strconv.Atoi(rest[:n])
	if hasTopLevelKeyFolding(rest[n:], "type", "output_index") {
		return "", 0, false
	}
	return typ, index, true
}

// hasKeyFolding reports whether s, the rest of a JSON object, holds a key that folds to one of keys: a
// string followed by a colon. Strings are skipped with their escapes; a key with an escape counts as a
// match, since it could spell one after decoding.
func hasKeyFolding(s string, keys ...string) bool { return foldedKey(s, false, keys) }

// scanResponseStateEvent reads an event that tells the response's state before its output, as OpenAI
// writes it:
//
//	{"type":"response.created","response":{…},"sequence_number":N}
//
// (and response.queued and response.in_progress), without validating or decoding the response it carries,
// which echoes the request's instructions and tools: all the guard does with such an event is pass it on or,
// in a follow-up round, drop it. It declines anything else, and an event with a top-level key that folds to
// type or output_index (encoding/json would read the last type, or an item's event). A malformed event is
// not noticed here: it goes to the client as it came. A differential fuzz test holds it to encoding/json.
func scanResponseStateEvent(data string) bool {
	const head = `{"type":"response.`
	if !strings.HasPrefix(data, head) {
		return false
	}
	rest := data[len(head):]
	for _, state := range [...]string{`created",`, `in_progress",`, `queued",`} {
		if strings.HasPrefix(rest, state) {
			return !hasTopLevelKeyFolding(rest[len(state):], "type", "output_index")
		}
	}
	return false
}

// hasTopLevelKeyFolding is hasKeyFolding for the keys of the object itself, not those of the objects in
// its values: the keys encoding/json matches to a struct's fields.
func hasTopLevelKeyFolding(s string, keys ...string) bool { return foldedKey(s, true, keys) }

// foldedKey reports whether s names one of keys, which are ASCII, in any case, or names a member with an
// escape; topOnly counts only the names at s's own depth.
func foldedKey(s string, topOnly bool, keys []string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
			continue
		case '"':
		default:
			continue
		}
		if topOnly && depth > 0 {
			// A string inside a member's value names nothing that counts: only its end is wanted.
			if i = closingQuote(s, i+1); i == len(s) {
				return true // an unterminated string: let encoding/json say what it is
			}
			continue
		}
		j, escaped, ascii := i+1, false, true
		for {
			j = plainFrom(s, j) // a run of plain ASCII, eight bytes at a time
			if j >= len(s) {
				return true // an unterminated string: let encoding/json say what it is
			}
			if s[j] == '"' {
				break
			}
			if s[j] == '\\' {
				escaped = true
				j += 2
				continue
			}
			if s[j] >= utf8.RuneSelf {
				ascii = false
			}
			j++
		}
		k := j + 1
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
			k++
		}
		if k < len(s) && s[k] == ':' && (!topOnly || depth == 0) {
			if escaped {
				return true
			}
			name := s[i+1 : j]
			for _, key := range keys {
				// An ASCII name folds only to a key as long (the keys are ASCII): EqualFold, the
				// costly part of a scan, runs on those and on names beyond ASCII.
				if (len(name) == len(key) || !ascii) && strings.EqualFold(name, key) {
					return true
				}
			}
		}
		i = j
	}
	return false
}

// closingQuote is the index of the quote that closes the JSON string whose text starts at s[i], or len(s):
// the next quote not escaped, that is, with an even run of backslashes before it. strings.IndexByte
// finds each quote many bytes at a time.
func closingQuote(s string, i int) int {
	for {
		q := strings.IndexByte(s[i:], '"')
		if q < 0 {
			return len(s)
		}
		q += i
		b := q
		for b > i && s[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// textDelta is what scanOutputTextDelta reads of an output_text delta: the part it belongs to, its text, and
// where the text's string (quotes included) sits in the event.
type textDelta struct {
	item         string
	outputIndex  int
	contentIndex int
	delta        string
	at           [2]int
}

// scanOutputTextDelta reads an output_text delta exactly as OpenAI writes it:
//
//	{"type":"response.output_text.delta","item_id":"…","output_index":N,"content_index":M,"delta":"…",…}
//
// so that the gate's text can take the delta's place without re-encoding the event. It declines (ok false)
// a delta with escapes or non-ASCII bytes, logprobs other than [], and any other member whose key folds to
// one it read; encoding/json then reads the event. A differential fuzz test holds the two to one reading.
func scanOutputTextDelta(data string) (d textDelta, ok bool) {
	const head = `{"type":"response.output_text.delta","item_id":"`
	if !strings.HasPrefix(data, head) {
		return d, false
	}
	pos := len(head)
	end := strings.IndexByte(data[pos:], '"')
	if end < 0 || strings.IndexByte(data[pos:pos+end], '\\') >= 0 {
		return d, false
	}
	d.item, pos = data[pos:pos+end], pos+end+1
	number := func(key string) (int, bool) {
		if !strings.HasPrefix(data[pos:], key) {
			return 0, false
		}
		pos += len(key)
		n := 0
		for pos+n < len(data) && data[pos+n] >= '0' && data[pos+n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || (n > 1 && data[pos] == '0') {
			return 0, false
		}
		v, _ := strconv.Atoi(data[pos : pos+n])
		pos += n
		return v, true
	}
	if d.outputIndex, ok = number(`,"output_index":`); !ok {
		return d, false
	}
	if d.contentIndex, ok = number(`,"content_index":`); !ok {
		return d, false
	}
	const delta = `,"delta":"`
	if !strings.HasPrefix(data[pos:], delta) {
		return d, false
	}
	pos += len(delta)
	start := pos - 1
	for ; pos < len(data) && data[pos] != '"'; pos++ {
		if c := data[pos]; c == '\\' || c < 0x20 || c >= 0x80 {
			return d, false
		}
	}
	if pos >= len(data) {
		return d, false
	}
	d.delta, d.at = data[start+1:pos], [2]int{start, pos + 1}
	rest := strings.TrimPrefix(data[pos+1:], `,"logprobs":[]`)
	if hasKeyFolding(rest, "type", "item_id", "output_index", "content_index", "delta", "logprobs") {
		return d, false
	}
	return d, true
}
