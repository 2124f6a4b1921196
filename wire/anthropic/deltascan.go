package anthropic

import (
	"encoding/json"
	"strconv"
	"strings"
)

// scanTextDelta reads the event most of a stream is made of, a text delta exactly as Anthropic writes it:
//
//	{"type":"content_block_delta","index":N,"delta":{"type":"text_delta","text":"…"}}
//
// without encoding/json, which costs more than the rest of the guard per event. Anything else, including
// the same event with other spacing, key order or fields, is declined (ok false) and read by encoding/json;
// a differential fuzz test holds the two to the same reading.
func scanTextDelta(data string) (index int, text string, ok bool) {
	const head, mid, tail = `{"type":"content_block_delta","index":`, `,"delta":{"type":"text_delta","text":`, `}}`
	index, rest, ok := scanIndex(data, head)
	if !ok {
		return 0, "", false
	}
	if !strings.HasPrefix(rest, mid) {
		return 0, "", false
	}
	rest = rest[len(mid):]
	if len(rest) < len(tail)+2 || rest[0] != '"' || !strings.HasSuffix(rest, `"`+tail) {
		return 0, "", false
	}
	quoted := rest[:len(rest)-len(tail)]
	body := quoted[1 : len(quoted)-1]
	plain := true
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '"' || c < 0x20 || c >= 0x80 || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return index, body, true
	}
	if text, ok = unquote(quoted); !ok {
		return 0, "", false
	}
	return index, text, true
}

// unquote reads a JSON string with escapes or non-ASCII: encoding/json decides what the string is, and
// whether it ends where we think. It is apart from scanTextDelta so that only this path moves a string to
// the heap (json.Unmarshal takes its address): a result the plain path returned escaped with it, an
// allocation a paced stream's every chunk paid, and the allocator's code and data are cache lines such a
// chunk finds cold.
func unquote(quoted string) (string, bool) {
	var text string
	if err := json.Unmarshal([]byte(quoted), &text); err != nil {
		return "", false
	}
	return text, true
}

// scanIndex reads the event's head and the block index after it, as a run of digits json.Unmarshal reads
// into an int the same way (no leading zero, at most nine digits), and returns what follows it.
func scanIndex(data, head string) (index int, rest string, ok bool) {
	if !strings.HasPrefix(data, head) {
		return 0, "", false
	}
	rest = data[len(head):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || (n > 1 && rest[0] == '0') {
		return 0, "", false
	}
	index, err := strconv.Atoi(rest[:n])
	if err != nil {
		return 0, "", false
	}
	return index, rest[n:], true
}

// scanTextBlockStart reads the start of a text block exactly as Anthropic writes it:
//
//	{"type":"content_block_start","index":N,"content_block":{"type":"text","text":""}}
//
// and declines (ok false) anything else, which readStreamEvent reads. Every stream opens with one, and
// reading it as an object costs a stream's first token a parse of its own.
func scanTextBlockStart(data string) (index int, ok bool) {
	const head, tail = `{"type":"content_block_start","index":`, `,"content_block":{"type":"text","text":""}}`
	index, rest, ok := scanIndex(data, head)
	if !ok || rest != tail {
		return 0, false
	}
	return index, true
}
