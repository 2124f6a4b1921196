package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/agentwarden/warden/internal/jsonobj"
)

// EndUser returns the end-user id a Messages request body names in metadata.user_id, or "" when it names
// none. It is what the violation ledger counts and blocks by.
func EndUser(body []byte) (string, error) {
	if id, ok := plainEndUser(body); ok {
		return id, nil
	}
	var req struct {
		Metadata *struct {
			UserID *string `json:"user_id"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", fmt.Errorf("not a request body: %v", err)
	}
	if req.Metadata == nil || req.Metadata.UserID == nil {
		return "", nil
	}
	return *req.Metadata.UserID, nil
}

// WithEndUser returns the request body with metadata.user_id set to id when the request names no end user,
// so that Anthropic attributes abuse to that user rather than to the API key; a body that names one is
// returned as it came. Other metadata fields and every other field keep their bytes.
func WithEndUser(body []byte, id string) ([]byte, error) {
	if current, err := EndUser(body); err != nil || current != "" || id == "" {
		return body, err
	}
	obj, err := jsonobj.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("not a request body: %v", err)
	}
	meta := &jsonobj.Object{}
	if raw, ok := obj.Get("metadata"); ok && string(raw) != "null" {
		if meta, err = jsonobj.Parse(raw); err != nil {
			return nil, fmt.Errorf("metadata: %v", err)
		}
	}
	if err := meta.SetJSON("user_id", id); err != nil {
		return nil, err
	}
	mb, _ := meta.MarshalJSON()
	obj.Set("metadata", mb)
	return obj.MarshalJSON()
}

// plainEndUser is EndUser read from the body as jsonobj validates and parses it, which costs a fraction of
// encoding/json's pass over every member (a request carries its whole conversation and its tools' schemas).
// It declines (ok false) what encoding/json might read otherwise: metadata or user_id named in another
// case or twice, a value of another type, a body that is not a valid object.
func plainEndUser(body []byte) (id string, ok bool) {
	obj, err := jsonobj.ParseShared(body) // not kept: the id is copied out
	if err != nil || !obj.Plain("metadata") {
		return "", false
	}
	raw, has := obj.Get("metadata")
	if !has || string(raw) == "null" {
		return "", true
	}
	meta, err := jsonobj.ParseTrusted(raw)
	if err != nil || !meta.Plain("user_id") {
		return "", false
	}
	if raw, has = meta.Get("user_id"); !has {
		return "", true
	}
	return jsonobj.DecodeString(raw)
}
