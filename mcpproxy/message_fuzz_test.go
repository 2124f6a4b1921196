package mcpproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzParse holds Parse to what it promises: it never panics; what it accepts is one JSON object whose
// kind agrees with encoding/json's reading of it, and what it refuses comes with a JSON-RPC code and an id
// an error response may carry.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`,
		`{"jsonrpc":"2.0","id":1,"Method":"a"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
		`{"jsonrpc":"2.0","id":{},"method":"a"}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","params":3}`,
		`{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"\u0074ools/call"}`,
		`{"jsonrpc":"2.0","id":-1.5e3,"method":"ping"}`,
		"",
		"null",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Code == 0 || pe.Msg == "" || (!validID(pe.ID) && string(pe.ID) != "null") {
				t.Fatalf("refusal %#v is not a JSON-RPC error", err)
			}
			return
		}
		var plain map[string]json.RawMessage
		if err := json.Unmarshal(data, &plain); err != nil {
			t.Fatalf("accepted what encoding/json cannot read: %v", err)
		}
		_, hasID := plain["id"]
		_, hasMethod := plain["method"]
		switch m.Kind {
		case Request:
			if !hasID || !hasMethod {
				t.Fatalf("a request without id or method: %s", data)
			}
		case Notification:
			if hasID || !hasMethod {
				t.Fatalf("a notification with an id or no method: %s", data)
			}
		case Response:
			if !hasID || hasMethod {
				t.Fatalf("a response without id or with a method: %s", data)
			}
		default:
			t.Fatalf("accepted with kind %v", m.Kind)
		}
		if hasMethod {
			var method string
			if err := json.Unmarshal(plain["method"], &method); err != nil || method != m.Method {
				t.Fatalf("method %q; encoding/json reads %q (%v)", m.Method, method, err)
			}
		}
	})
}

// FuzzStreamConn holds the stdio reader to its framing: every line it returns is a non-empty line of
// the input, in order, without its line ending, and it never returns more than its limit.
func FuzzStreamConn(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}"), 8)
	f.Add([]byte(strings.Repeat("x", 300)+"\n{}\n"), 16)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max <= 0 || max > 1<<16 {
			max = 64
		}
		c := NewStreamConn(bytes.NewReader(data), io.Discard, max, nil)
		// The reference: a line longer than the limit (as read, with its ending, beyond the limit and two
		// bytes for "\r\n"; or trimmed, beyond the limit) is refused, a blank one skipped, any other read.
		type line struct {
			text    string
			tooLong bool
		}
		var want []line
		raw := strings.SplitAfter(string(data), "\n")
		for _, r := range raw {
			text := strings.TrimRight(r, "\r\n")
			long := len(r) > max+2 || len(text) > max
			if long || strings.TrimSpace(text) != "" {
				want = append(want, line{text, long})
			}
		}
		i := 0
		for {
			got, err := c.ReadMessage()
			if err == io.EOF {
				break
			}
			if i >= len(want) {
				t.Fatalf("message %d (%q, %v) beyond the %d expected", i, got, err, len(want))
			}
			switch {
			case errors.Is(err, errTooLong):
				if !want[i].tooLong {
					t.Fatalf("line %d (%q) refused at a limit of %d", i, want[i].text, max)
				}
			case err != nil:
				t.Fatal(err)
			case want[i].tooLong || string(got) != want[i].text:
				t.Fatalf("message %d = %q, want %+v", i, got, want[i])
			}
			i++
		}
		if i != len(want) {
			t.Fatalf("read %d messages, want %d", i, len(want))
		}
	})
}
