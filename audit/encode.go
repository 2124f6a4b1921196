package audit

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// Every exchange through the gateway writes its audit events synchronously, before its answer completes, so
// their encoding is on the request path: encoding/json's reflection cost about 1.7 µs an event. appendEvent
// writes the same bytes as json.Marshal(&e) by hand (TestAppendEventMatchesEncodingJSON and
// FuzzAppendEvent hold it to that), and falls back to json.Marshal for what it does not write itself.

// appendEvent appends e as json.Marshal writes it.
func appendEvent(b []byte, e *Event) ([]byte, error) {
	if y := e.Time.Year(); y < 0 || y > 9999 {
		m, err := json.Marshal(e) // json.Marshal's error for a time it cannot write
		return append(b, m...), err
	}
	if math.IsNaN(e.DurationUS) || math.IsInf(e.DurationUS, 0) {
		m, err := json.Marshal(e)
		return append(b, m...), err
	}
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(e.V), 10)
	b = append(b, `,"time":"`...)
	b = e.Time.AppendFormat(b, "2006-01-02T15:04:05.999999999Z07:00")
	b = append(b, `","kind":`...)
	b = appendString(b, e.Kind)
	b = append(b, `,"stage":`...)
	b = appendString(b, e.Stage)
	b = append(b, `,"guardrail":`...)
	b = appendString(b, e.Guardrail)
	b = appendOmitEmpty(b, "module", e.Module)
	b = append(b, `,"mode":`...)
	b = appendString(b, e.Mode)
	b = append(b, `,"status":`...)
	b = appendString(b, e.Status)
	b = appendOmitEmpty(b, "action", e.Action)
	b = append(b, `,"effect":`...)
	b = appendString(b, e.Effect)
	if e.WouldBlock {
		b = append(b, `,"would_block":true`...)
	}
	if len(e.Reasons) > 0 {
		b = append(b, `,"reasons":[`...)
		for i, r := range e.Reasons {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"code":`...)
			b = appendString(b, r.Code)
			b = appendOmitEmpty(b, "message", r.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = appendOmitEmpty(b, "policy_id", e.PolicyID)
	b = appendOmitEmpty(b, "skip", e.Skip)
	b = appendOmitEmpty(b, "error", e.Error)
	b = append(b, `,"duration_us":`...)
	b = appendFloat(b, e.DurationUS)
	b = append(b, `,"decision":`...)
	b = appendString(b, e.Decision)
	b = appendOmitEmpty(b, "run_id", e.RunID)
	b = appendOmitEmpty(b, "thread_id", e.ThreadID)
	b = appendOmitEmpty(b, "agent_id", e.AgentID)
	if e.IsSubagent {
		b = append(b, `,"is_subagent":true`...)
	}
	b = appendOmitEmpty(b, "tool_name", e.ToolName)
	b = appendOmitEmpty(b, "tool_call_id", e.ToolCallID)
	b = appendOmitEmpty(b, "approval_id", e.ApprovalID)
	b = appendOmitEmpty(b, "approver", e.Approver)
	return append(b, '}'), nil
}

func appendOmitEmpty(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

// appendFloat writes a float64 as encoding/json does: the shortest form, in exponent notation below 1e-6
// and from 1e21 on, with a one-digit negative exponent.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hex = "0123456789abcdef"

// appendString writes s as a JSON string as encoding/json does: HTML characters, control characters,
// U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
