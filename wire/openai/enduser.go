package openai

import (
	"encoding/json"
	"fmt"
	"strings"
	"unsafe"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// EndUser returns the end-user id a Chat Completions or Responses request body names, and the field it came
// from: safety_identifier, or else the older user. Both empty: "", "". It is what the violation ledger counts
// and blocks by.
func EndUser(body []byte) (id, field string, err error) {
	if id, field, ok := scanEndUser(body); ok {
		return id, field, nil
	}
	var req struct {
		SafetyIdentifier *string `json:"safety_identifier"`
		User             *string `json:"user"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", "", fmt.Errorf("not a request body: %v", err)
	}
	switch {
	case req.SafetyIdentifier != nil && *req.SafetyIdentifier != "":
		return *req.SafetyIdentifier, "safety_identifier", nil
	case req.User != nil && *req.User != "":
		return *req.User, "user", nil
	}
	return "", "", nil
}

// WithEndUser returns the request body with safety_identifier set to id when the request names no end user,
// so that OpenAI attributes policy violations to that user rather than to the API key; a body that names
// one is returned as it came. Every other field keeps its bytes.
func WithEndUser(body []byte, id string) ([]byte, error) {
	if current, _, err := EndUser(body); err != nil || current != "" || id == "" {
		return body, err
	}
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a request body: %v", err)
	}
	if err := obj.SetJSON("safety_identifier", id); err != nil {
		return nil, err
	}
	return obj.MarshalJSON()
}

// scanEndUser is EndUser without encoding/json, whose reflection costs several microseconds a request:
// the body's top-level members are passed over, but for the two it reads. It declines (ok false) whatever
// it is not sure encoding/json would read alike — a case variant of either key, a value neither a string
// nor null, invalid UTF-8 or escapes, anything malformed — and EndUser then decodes the body.
func scanEndUser(body []byte) (id, field string, ok bool) {
	if len(body) == 0 {
		return "", "", false
	}
	// The scanner reads a string; the body is not written while it does, and what is kept is cloned.
	s := scanner{b: unsafe.String(&body[0], len(body))}
	var safety, user string
	s.ws()
	ok = s.object(func(key string) bool {
		switch key {
		case "safety_identifier":
			return s.strOrEmpty(&safety)
		case "user":
			return s.strOrEmpty(&user)
		}
		if strings.EqualFold(key, "safety_identifier") || strings.EqualFold(key, "user") {
			return false // encoding/json would read it as the field
		}
		return s.skip()
	})
	s.ws()
	switch {
	case !ok || s.i != len(s.b):
		return "", "", false
	case safety != "":
		return strings.Clone(safety), "safety_identifier", true
	case user != "":
		return strings.Clone(user), "user", true
	}
	return "", "", true
}

// strOrEmpty reads a string into v, or null, which empties v: what decoding into a *string does, the
// last of repeated members winning.
func (s *scanner) strOrEmpty(v *string) bool {
	if s.lit("null") {
		*v = ""
		return true
	}
	str, ok := s.str()
	*v = str
	return ok
}
