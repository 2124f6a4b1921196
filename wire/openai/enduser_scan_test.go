package openai

import (
	"encoding/json"
	"testing"
)

// FuzzScanEndUser: whenever the scanner answers, encoding/json reads the same end user from the body.
func FuzzScanEndUser(f *testing.F) {
	for _, s := range []string{`{"model":"m","user":"u"}`, `{"safety_identifier":"s","user":"u"}`, `{"user":null}`,
		`{"messages":[{"content":"a\"b","x":[1,2.5e3,true,null,{}]}],"user":"\u00e9"}`, `{"User":"x"}`, `{"user":"a","user":"b"}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		id, field, ok := scanEndUser(body)
		if !ok {
			return
		}
		var req struct {
			SafetyIdentifier *string `json:"safety_identifier"`
			User             *string `json:"user"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("the scanner read %q, which encoding/json rejects: %v", body, err)
		}
		wantID, wantField := "", ""
		switch {
		case req.SafetyIdentifier != nil && *req.SafetyIdentifier != "":
			wantID, wantField = *req.SafetyIdentifier, "safety_identifier"
		case req.User != nil && *req.User != "":
			wantID, wantField = *req.User, "user"
		}
		if id != wantID || field != wantField {
			t.Fatalf("%q: scanned %q from %q; encoding/json reads %q from %q", body, id, field, wantID, wantField)
		}
	})
}
