package bedrock

import (
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"strings"
)

// scanFrame reads what the guard needs of an event-stream frame on its common path, without decoding every
// header into values: the :message-type and :event-type headers and the payload. It checks both checksums,
// and declines (ok false) a frame it does not read plainly, which then goes through the full decoder.
func scanFrame(raw []byte) (messageType, eventType string, payload []byte, ok bool) {
	if len(raw) < 16 {
		return "", "", nil, false
	}
	total := binary.BigEndian.Uint32(raw[0:4])
	headersLen := binary.BigEndian.Uint32(raw[4:8])
	if int(total) != len(raw) || uint64(headersLen)+16 > uint64(total) ||
		crc32.ChecksumIEEE(raw[:8]) != binary.BigEndian.Uint32(raw[8:12]) ||
		crc32.ChecksumIEEE(raw[:total-4]) != binary.BigEndian.Uint32(raw[total-4:]) {
		return "", "", nil, false
	}
	h := raw[12 : 12+headersLen]
	for len(h) > 0 {
		n := int(h[0])
		if len(h) < 1+n+1 {
			return "", "", nil, false
		}
		name, typ := string(h[1:1+n]), h[1+n]
		h = h[2+n:]
		var size int
		switch typ {
		case 0, 1: // bool true, false
		case 2:
			size = 1
		case 3:
			size = 2
		case 4:
			size = 4
		case 5, 8:
			size = 8
		case 9:
			size = 16
		case 6, 7: // bytes, string: a 2-byte length first
			if len(h) < 2 {
				return "", "", nil, false
			}
			size = 2 + int(binary.BigEndian.Uint16(h[:2]))
		default:
			return "", "", nil, false
		}
		if len(h) < size {
			return "", "", nil, false
		}
		if name == ":message-type" || name == ":event-type" {
			if typ != 7 || (name == ":message-type" && messageType != "") || (name == ":event-type" && eventType != "") {
				return "", "", nil, false // another type, or a repeat: the full decoder decides
			}
			if name == ":message-type" {
				messageType = string(h[2:size])
			} else {
				eventType = string(h[2:size])
			}
		}
		h = h[size:]
	}
	return messageType, eventType, raw[12+headersLen : total-4], true
}

// textDeltaHead precedes the text's opening quote in a payload scanTextDelta reads.
const textDeltaHead = `,"delta":{"text":`

// reframe returns the frame raw (one scanFrame read) with another payload: its headers as they were, its
// length and both checksums anew.
func reframe(raw, payload []byte) []byte {
	headersLen := binary.BigEndian.Uint32(raw[4:8])
	total := 16 + int(headersLen) + len(payload)
	out := make([]byte, 12, total)
	binary.BigEndian.PutUint32(out[0:4], uint32(total))
	binary.BigEndian.PutUint32(out[4:8], headersLen)
	binary.BigEndian.PutUint32(out[8:12], crc32.ChecksumIEEE(out[:8]))
	out = append(out, raw[12:12+headersLen]...)
	out = append(out, payload...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// scanTextDelta reads a text delta payload exactly as Bedrock writes it, padding included:
//
//	{"contentBlockIndex":N,"delta":{"text":"…"},"p":"…"}
//
// and declines (ok false) anything else, including text with escapes or non-ASCII bytes, which
// encoding/json then reads. A differential fuzz test holds it to encoding/json's reading.
func scanTextDelta(payload []byte) (index int, text string, ok bool) {
	s := string(payload)
	const head, mid = `{"contentBlockIndex":`, `,"delta":{"text":"`
	if !strings.HasPrefix(s, head) {
		return 0, "", false
	}
	s = s[len(head):]
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || (n > 1 && s[0] == '0') {
		return 0, "", false
	}
	index, _ = strconv.Atoi(s[:n])
	s = s[n:]
	if !strings.HasPrefix(s, mid) {
		return 0, "", false
	}
	s = s[len(mid):]
	end := 0
	for ; end < len(s) && s[end] != '"'; end++ {
		if c := s[end]; c == '\\' || c < 0x20 || c >= 0x80 {
			return 0, "", false
		}
	}
	if end >= len(s) {
		return 0, "", false
	}
	text, s = s[:end], s[end+1:]
	switch {
	case s == "}}":
	case len(s) >= len(`},"p":"`)+2 && strings.HasPrefix(s, `},"p":"`) && strings.HasSuffix(s, `"}`):
		pad := s[len(`},"p":"`) : len(s)-2]
		for i := 0; i < len(pad); i++ {
			if c := pad[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				return 0, "", false
			}
		}
	default:
		return 0, "", false
	}
	return index, text, true
}
