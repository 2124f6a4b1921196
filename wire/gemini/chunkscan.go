package gemini

import (
	"strings"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// textHead is how every chunk scanTextChunk reads begins; its text's opening quote follows.
const textHead = `{"candidates":[{"content":{"parts":[{"text":`

// scanTextChunk reads the chunk most of a stream is made of, one text part of the one candidate, exactly as
// Gemini writes it:
//
//	{"candidates":[{"content":{"parts":[{"text":"…"}],"role":"model"},"index":0}], …other members…}
//
// without decoding it into structs, which costs more than the rest of the guard per chunk. It declines (ok
// false) anything else, and any chunk whose other members could change what encoding/json reads: a key that
// folds to candidates, promptFeedback, finishReason or functionCall, or any escape. A differential fuzz test
// holds it to encoding/json's reading of every chunk encoding/json accepts.
func scanTextChunk(data string) (text string, ok bool) {
	if !strings.HasPrefix(data, textHead) {
		return "", false
	}
	rest := data[len(textHead):]
	if len(rest) == 0 || rest[0] != '"' {
		return "", false
	}
	end := 1
	for ; end < len(rest); end++ {
		c := rest[end]
		if c == '"' {
			break
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return "", false // escapes and non-ASCII: the ordinary path decides
		}
	}
	if end >= len(rest) {
		return "", false
	}
	text, rest = rest[1:end], rest[end+1:]
	const candTail, candTailIndexed = `}],"role":"model"}}]`, `}],"role":"model"},"index":0}]`
	switch {
	case strings.HasPrefix(rest, candTailIndexed):
		rest = rest[len(candTailIndexed):]
	case strings.HasPrefix(rest, candTail):
		rest = rest[len(candTail):]
	default:
		return "", false
	}
	if strings.IndexByte(rest, '\\') >= 0 || mentionsKey(rest) {
		return "", false
	}
	// No member after the candidates can name a candidate, call, finish or prompt block (checked above);
	// they must still be valid JSON, so that no chunk a client's parser rejects is passed as text Warden
	// read (the ordinary path refuses it, and the stream ends with the error event).
	switch {
	case rest == "}":
	case strings.HasPrefix(rest, ","):
		members := append([]byte(`{"":0`), rest...) // the candidates stand for the member before
		if !jsonobj.Valid(members) {
			return "", false
		}
	default:
		return "", false
	}
	return text, true
}

// mentionsKey reports whether s, which holds no escapes, holds a string that folds to a key that would
// change what a chunk means.
func mentionsKey(s string) bool {
	for i := strings.IndexByte(s, '"'); i >= 0; {
		rest := s[i+1:]
		j := strings.IndexByte(rest, '"')
		if j < 0 {
			return false
		}
		if foldsToKey(rest[:j]) {
			return true
		}
		i += 1 + j + 1
		if next := strings.IndexByte(s[i:], '"'); next >= 0 {
			i += next
		} else {
			return false
		}
	}
	return false
}

// foldsToKey reports whether name, a JSON string's bytes without escapes, is a key whose member, met
// again after the text, changes what a chunk means (candidates, promptFeedback, finishReason,
// functionCall), as encoding/json matches a key: in any case, and with the two letters beyond ASCII that
// Unicode folds to ASCII ones, ſ (two bytes) to s and the Kelvin sign (three bytes) to k, so that a name
// may be one byte longer than the key for each s in it and two for each k. No letter beyond ASCII folds
// to a key's first letter, so most names are told apart by their first byte, before strings.EqualFold,
// whose code a paced chunk would find cold.
func foldsToKey(name string) bool {
	if name == "" {
		return false
	}
	switch name[0] | 0x20 {
	case 'c':
		return foldsTo(name, "candidates", 1)
	case 'p':
		return foldsTo(name, "promptFeedback", 2)
	case 'f':
		return foldsTo(name, "finishReason", 2) || foldsTo(name, "functionCall", 0)
	}
	return false
}

// foldsTo reports whether name folds to key, spelled in at most extra bytes more.
func foldsTo(name, key string, extra int) bool {
	return len(name) >= len(key) && len(name) <= len(key)+extra && strings.EqualFold(name, key)
}
