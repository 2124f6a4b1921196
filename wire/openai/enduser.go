package openai

import (
	"encoding/json"
	"fmt"

	"github.com/agentwarden/warden/wire/jsonobj"
)

// EndUser returns the end-user id a Chat Completions or Responses request body names, and the field it came
// from: safety_identifier, or else the older user. Both empty: "", "". It is what the violation ledger counts
// and blocks by.
func EndUser(body []byte) (id, field string, err error) {
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
