package credential_test

import (
	"net/http/httptest"
	"testing"

	"github.com/agentwarden/warden/internal/credential"
)

func TestOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc   string
		header map[string]string
		target string
		want   string
	}{
		{"a bearer token", map[string]string{"Authorization": "Bearer sk-1"}, "/", credential.Digest("Bearer sk-1")},
		{"Anthropic's key header", map[string]string{"X-Api-Key": "sk-ant"}, "/", credential.Digest("sk-ant")},
		{"Gemini's key header", map[string]string{"X-Goog-Api-Key": "g-key"}, "/", credential.Digest("g-key")},
		{"Gemini's key parameter", nil, "/v1beta/models/m:generateContent?key=g-param", credential.Digest("g-param")},
		{"Authorization wins over another header", map[string]string{"Authorization": "Bearer a", "X-Api-Key": "b"}, "/", credential.Digest("Bearer a")},
		{"no credential", nil, "/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("POST", tt.target, nil)
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			if got := credential.Of(r); got != tt.want {
				t.Errorf("Of = %q, want %q", got, tt.want)
			}
		})
	}
	if d := credential.Digest("sk-1"); len(d) != 32 || d == "sk-1" {
		t.Errorf("Digest = %q: want 32 hex digits, never the key", d)
	}
}
