package jsonobj

import (
	"encoding/binary"
	"math/bits"
)

// maxDepth is encoding/json's nesting limit: a body nested deeper is invalid to it, and so to Valid.
const maxDepth = 10000

// Valid reports whether data is one valid JSON value, exactly as encoding/json.Valid does (the same
// grammar, any byte above 0x1f in a string, the same nesting limit), several times faster: every whole
// provider body Warden reads is validated first, and encoding/json steps a state machine through a
// function call a byte where this walks the grammar and passes a string's plain bytes eight at a time.
func Valid(data []byte) bool {
	var kinds [32]bool // the open containers, innermost last: true for an object
	open := kinds[:0]
	i := skipSpace(data, 0)
value:
	for {
		if i >= len(data) {
			return false
		}
		switch c := data[i]; c {
		case '{', '[':
			if len(open) == maxDepth {
				return false
			}
			open = append(open, c == '{')
			i = skipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' and ']' are two after '{' and '['
				open = open[:len(open)-1]
				i++
				break
			}
			if c == '{' {
				if i = memberValue(data, i); i < 0 {
					return false
				}
			}
			continue value
		case '"':
			i = validString(data, i)
		case 't':
			i = literal(data, i, "true")
		case 'f':
			i = literal(data, i, "false")
		case 'n':
			i = literal(data, i, "null")
		default:
			i = number(data, i)
		}
		if i < 0 {
			return false
		}
		// After a value: close what it ends, and find the next one.
		for {
			i = skipSpace(data, i)
			if len(open) == 0 {
				return i == len(data)
			}
			if i >= len(data) {
				return false
			}
			inObject := open[len(open)-1]
			switch c := data[i]; {
			case c == ',':
				i = skipSpace(data, i+1)
				if inObject {
					if i = memberValue(data, i); i < 0 {
						return false
					}
				}
				continue value
			case inObject && c == '}', !inObject && c == ']':
				open = open[:len(open)-1]
				i++
			default:
				return false
			}
		}
	}
}

// memberValue checks an object member's name and colon at data[i] and returns where its value starts, or -1.
func memberValue(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = validString(data, i); i < 0 {
		return -1
	}
	if i = skipSpace(data, i); i >= len(data) || data[i] != ':' {
		return -1
	}
	return skipSpace(data, i+1)
}

// literal checks the word at data[i] and returns the index after it, or -1.
func literal(data []byte, i int, word string) int {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// number checks the number at data[i] and returns the index after it, or -1: an optional minus, 0 or
// digits without a leading zero, an optional fraction, an optional exponent.
func number(data []byte, i int) int {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digits(data, i)
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		if j := digits(data, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(data, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// validString checks the string whose quote is data[i] and returns the index after its closing quote,
// or -1: no control characters, and escapes only of the forms JSON has.
func validString(data []byte, i int) int {
	for i++; ; {
		i = plainFrom(data, i)
		if i >= len(data) {
			return -1
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i+1 >= len(data) {
				return -1
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if _, ok := hex4(data[i+2:]); !ok {
					return -1
				}
				i += 6
			default:
				return -1
			}
		default:
			i++ // not reached (plainFrom stops only at a quote, a backslash or a control character); it keeps the loop moving
		}
	}
}

// plainFrom returns the index of the first byte from data[i] on that a string may not hold as it is: a
// quote, a backslash or a control character (bytes above 0x7f are plain), or len(data). It tests eight
// bytes at a time, since most of a body is string text.
func plainFrom(data []byte, i int) int {
	for len(data)-i >= 8 {
		if n := plainRun(binary.LittleEndian.Uint64(data[i:])); n < 8 {
			return i + n
		}
		i += 8
	}
	for i < len(data) && data[i] >= 0x20 && data[i] != '"' && data[i] != '\\' {
		i++
	}
	return i
}

// plainRun is how many of the eight bytes of x, from its lowest, are plain (see plainFrom), tested all at
// once. The bit tricks may flag a byte above a flagged one wrongly, never the lowest flagged one, which is
// all plainFrom needs: it looks at that byte itself.
func plainRun(x uint64) int {
	flagged := (x-0x20*ones)&^x&highs | zeroByte(x^'"'*ones) | zeroByte(x^'\\'*ones)
	return bits.TrailingZeros64(flagged) / 8
}

const ones, highs = 0x0101010101010101, 0x8080808080808080

// zeroByte flags the bytes of v that are zero with their high bit: exactly for the lowest such byte, and
// maybe wrongly for bytes above it (a borrow), which the callers, after the lowest, never look at.
func zeroByte(v uint64) uint64 { return (v - ones) & ^v & highs }
