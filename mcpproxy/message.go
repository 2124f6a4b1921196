package mcpproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// JSON-RPC error codes the proxy answers with (JSON-RPC 2.0 §5.1).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeHalted answers every request of a session a guardrail halted (a server error in JSON-RPC's
	// reserved range, which MCP leaves to implementations).
	CodeHalted = -32001
	// CodeServerFault answers a request whose answer cannot be checked because the server failed: it
	// ended, or it sent a message that is not JSON-RPC.
	CodeServerFault = -32002
	// CodeDenied answers a request other than tools/call that a tool-call guardrail denied (a tools/call
	// denial is a tool result with isError, which the model reads).
	CodeDenied = -32003
)

// Kind says what a message is.
type Kind uint8

const (
	// Request has a method and an id: its sender waits for a response with that id.
	Request Kind = iota + 1
	// Notification has a method and no id: nobody answers it.
	Notification
	// Response has an id and a result or an error.
	Response
)

func (k Kind) String() string {
	switch k {
	case Request:
		return "request"
	case Notification:
		return "notification"
	case Response:
		return "response"
	}
	return "invalid"
}

// Message is one JSON-RPC 2.0 message as it crossed the wire. The members are kept raw: the proxy reads
// what its stages need and forwards the rest as it came. Raw is the message's own bytes.
type Message struct {
	Kind   Kind
	ID     json.RawMessage // a string or a number; nil for a notification, `null` in an error about an unreadable request
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *Error
	Raw    []byte
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// ParseError says why bytes are not a message the proxy may forward, with the JSON-RPC code to answer with
// and, when the request's id could be read, that id.
type ParseError struct {
	Code int
	ID   json.RawMessage
	Msg  string
}

func (e *ParseError) Error() string { return e.Msg }

// envelope is the members a JSON-RPC message may have; any other is refused, so that a reader which takes a
// member the proxy did not read (a case variant: Go's encoding/json reads "Method" as "method") cannot see
// another message than the one the proxy judged.
var envelope = []string{"jsonrpc", "id", "method", "params", "result", "error"}

// Parse reads one JSON-RPC 2.0 message. It refuses what two readers could read differently (a member name
// twice, or two names that differ only in case, anywhere in the message; a member JSON-RPC does not define)
// and what is not one message (a batch: the MCP revisions since 2025-06-18 have none, and the proxy answers
// each request on its own).
func Parse(data []byte) (*Message, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		return nil, &ParseError{Code: CodeInvalidRequest, ID: json.RawMessage("null"), Msg: "JSON-RPC batches are not accepted: send each message on its own"}
	}
	if !jsonobj.Valid(data) {
		return nil, &ParseError{Code: CodeParseError, ID: json.RawMessage("null"), Msg: "not valid JSON"}
	}
	obj, err := jsonobj.Parse(data)
	if err != nil {
		return nil, &ParseError{Code: CodeInvalidRequest, ID: json.RawMessage("null"), Msg: "a JSON-RPC message is a JSON object"}
	}
	m := &Message{Raw: data}
	if id, ok := obj.Get("id"); ok {
		m.ID = id
	}
	invalid := func(format string, args ...any) error {
		id := m.ID
		if !validID(id) {
			id = json.RawMessage("null")
		}
		return &ParseError{Code: CodeInvalidRequest, ID: id, Msg: fmt.Sprintf(format, args...)}
	}
	if c := jsonobj.NameConflict(data, jsonobj.AnyConflict); c != jsonobj.NoConflict {
		return nil, invalid("a member name appears twice or in two spellings (%s): readers would disagree on the message", c)
	}
	for _, k := range obj.Keys() {
		if !contains(envelope, k) {
			return nil, invalid("unknown member %q: a JSON-RPC 2.0 message has only %v", k, envelope)
		}
	}
	if v, _ := obj.Get("jsonrpc"); string(v) != `"2.0"` {
		return nil, invalid(`"jsonrpc" must be "2.0"`)
	}
	if m.ID != nil && !validID(m.ID) && string(m.ID) != "null" {
		return nil, invalid(`"id" must be a string or a number`)
	}
	method, hasMethod := obj.Get("method")
	result, hasResult := obj.Get("result")
	errRaw, hasError := obj.Get("error")
	m.Params, _ = obj.Get("params")
	switch {
	case hasMethod:
		if hasResult || hasError {
			return nil, invalid("a message with a method carries no result or error")
		}
		s, ok := jsonobj.DecodeString(method)
		if !ok || s == "" {
			return nil, invalid(`"method" must be a non-empty string`)
		}
		m.Method = s
		if m.Params != nil && m.Params[0] != '{' && m.Params[0] != '[' {
			return nil, invalid(`"params" must be an object or an array`)
		}
		switch {
		case m.ID == nil:
			m.Kind = Notification
		case validID(m.ID):
			m.Kind = Request
		default:
			return nil, invalid(`a request's "id" must be a string or a number`)
		}
	case hasResult == hasError:
		return nil, invalid("a message has a method, or exactly one of result and error")
	default:
		if m.ID == nil || m.Params != nil {
			return nil, invalid("a response has an id and no params")
		}
		m.Kind = Response
		if hasResult {
			m.Result = result
			break
		}
		m.Error = new(Error)
		if err := json.Unmarshal(errRaw, m.Error); err != nil || m.Error.Message == "" && m.Error.Code == 0 {
			return nil, invalid(`"error" must be an object with a code and a message`)
		}
	}
	return m, nil
}

// validID says whether id is a string or a number, the ids a request may carry.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	return id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9'
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// idKey is an id as a map key: its JSON text, so that the number 1 and the string "1" stay apart.
type idKey string

// encodeRequest writes a request or notification with the given params.
func encodeRequest(id json.RawMessage, method string, params json.RawMessage) []byte {
	v := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", id, method, params}
	b, _ := json.Marshal(v) // raw members are valid JSON: they came from Parse
	return b
}

// encodeResult writes a response carrying result.
func encodeResult(id json.RawMessage, result any) ([]byte, error) {
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// encodeError writes a response carrying an error.
func encodeError(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   Error           `json:"error"`
	}{"2.0", id, Error{Code: code, Message: msg}})
	return b
}

// encodeErrorObject writes a response carrying e, its data included.
func encodeErrorObject(id json.RawMessage, e *Error) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *Error          `json:"error"`
	}{"2.0", id, e})
	return b
}

var errTooLong = errors.New("message longer than the limit")
