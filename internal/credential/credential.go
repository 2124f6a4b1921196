// Package credential names the credential a request presents without holding it, for the surfaces that
// bind approvals, budgets and rate limits to it (warden.RunInfo.Credential): the gateway and the MCP
// proxy's HTTP handler read it alike.
package credential

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
)

// Digest is the first 16 bytes of the secret's SHA-256, in hex; empty for no secret.
func Digest(secret string) string {
	if secret == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:16])
}

// Of is the digest of the API key a request presents, in whichever header its client uses (Authorization,
// the providers' key headers) or Gemini's key query parameter; empty when it presents none.
func Of(r *http.Request) string {
	for _, h := range [...]string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Api-Key"} {
		if v := r.Header.Get(h); v != "" {
			return Digest(v)
		}
	}
	return Digest(r.URL.Query().Get("key"))
}
