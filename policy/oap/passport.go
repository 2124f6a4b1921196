package oap

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentwarden/warden/internal/jcs"
)

// SpecVersion is the only passport version this evaluator reads.
const SpecVersion = "oap/1.0"

// Passport holds the fields of an Open Agent Passport this evaluator uses.
type Passport struct {
	PassportID     string                     `json:"passport_id"`
	AgentID        string                     `json:"agent_id"`
	Kind           string                     `json:"kind"`
	SpecVersion    string                     `json:"spec_version"`
	OwnerID        string                     `json:"owner_id"`
	OwnerType      string                     `json:"owner_type"`
	Status         string                     `json:"status"`
	AssuranceLevel string                     `json:"assurance_level"`
	Capabilities   []Capability               `json:"capabilities"`
	Limits         map[string]json.RawMessage `json:"limits"`
	Regions        []string                   `json:"regions"`
	CreatedAt      string                     `json:"created_at"`
	UpdatedAt      string                     `json:"updated_at"`
	Version        string                     `json:"version"`
	ExpiresAt      string                     `json:"expires_at"`
}

// Capability is one entry of a passport's capabilities.
type Capability struct {
	ID     string         `json:"id"`
	Params map[string]any `json:"params"`
}

// has reports whether the passport grants a capability (messaging.message.send is accepted for
// messaging.send, as the reference evaluator does).
func (p *Passport) has(capability string) bool {
	for _, c := range p.Capabilities {
		if c.ID == capability || capability == "messaging.send" && c.ID == "messaging.message.send" {
			return true
		}
	}
	return false
}

var capabilityID = regexp.MustCompile(`^[a-z0-9]+(\.[a-z0-9]+)*$`)

// parsePassport reads a passport and checks the fields the evaluator uses. With strict, it also applies
// the published schema's rules, tolerating its known defects: the spec text's optional did, expires_at and
// never_expires, and the reference tooling's agent_id, are accepted although the schema's
// additionalProperties:false rejects them.
func parsePassport(data []byte, strict bool) (*Passport, error) {
	var p Passport
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("not a JSON passport: %v", err)
	}
	var errs []string
	if p.Status == "" {
		errs = append(errs, "status: missing")
	}
	if p.SpecVersion == "" {
		errs = append(errs, "spec_version: missing")
	}
	for i, c := range p.Capabilities {
		if !capabilityID.MatchString(c.ID) {
			errs = append(errs, fmt.Sprintf("capabilities[%d].id: %q is not a capability id (lower-case words separated by dots)", i, c.ID))
		}
	}
	if strict {
		errs = append(errs, strictProblems(data, &p)...)
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return &p, nil
}

var (
	uuidRE   = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	semverRE = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	regionRE = regexp.MustCompile(`^[A-Z]{2}(-[A-Z]{2})?$`)
	// topLevel are the schema's properties plus the defects the evaluator tolerates.
	topLevel = []string{"passport_id", "kind", "spec_version", "owner_id", "owner_type", "status", "assurance_level",
		"capabilities", "limits", "regions", "created_at", "updated_at", "version", "template_id", "parent_agent_id",
		"metadata", "did", "expires_at", "never_expires", "agent_id"}
)

func strictProblems(data []byte, p *Passport) []string {
	var errs []string
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(data, &raw)
	for k := range raw {
		if !slices.Contains(topLevel, k) {
			errs = append(errs, fmt.Sprintf("%s: not a passport field", k))
		}
	}
	for _, req := range []string{"passport_id", "kind", "spec_version", "owner_id", "owner_type", "status", "assurance_level",
		"capabilities", "limits", "regions", "created_at", "updated_at", "version"} {
		if _, ok := raw[req]; !ok {
			errs = append(errs, req+": required")
		}
	}
	check := func(field, value string, ok bool, want string) {
		if value != "" && !ok {
			errs = append(errs, fmt.Sprintf("%s: %q is not %s", field, value, want))
		}
	}
	check("passport_id", p.PassportID, uuidRE.MatchString(p.PassportID), "a UUID")
	check("kind", p.Kind, p.Kind == "template" || p.Kind == "instance", "template or instance")
	check("spec_version", p.SpecVersion, p.SpecVersion == SpecVersion, SpecVersion)
	check("owner_type", p.OwnerType, p.OwnerType == "org" || p.OwnerType == "user", "org or user")
	check("status", p.Status, slices.Contains([]string{"draft", "active", "suspended", "revoked"}, p.Status), "draft, active, suspended or revoked")
	check("assurance_level", p.AssuranceLevel, slices.Contains([]string{"L0", "L1", "L2", "L3", "L4KYC", "L4FIN"}, p.AssuranceLevel), "an assurance level (L0 … L4FIN)")
	check("version", p.Version, semverRE.MatchString(p.Version), "a version like 1.0.0")
	for _, f := range []struct{ name, v string }{{"created_at", p.CreatedAt}, {"updated_at", p.UpdatedAt}, {"expires_at", p.ExpiresAt}} {
		if f.v != "" {
			if _, err := time.Parse(time.RFC3339, f.v); err != nil {
				errs = append(errs, fmt.Sprintf("%s: %q is not an RFC 3339 date-time", f.name, f.v))
			}
		}
	}
	for i, r := range p.Regions {
		if !regionRE.MatchString(r) {
			errs = append(errs, fmt.Sprintf("regions[%d]: %q is not a region (US, US-CA)", i, r))
		}
	}
	slices.Sort(errs)
	return errs
}

// Digest returns the passport digest OAP specifies: "sha256:" and the hex SHA-256 of the passport in the
// JSON Canonicalization Scheme (RFC 8785).
func Digest(data []byte) (string, error) {
	canon, err := Canonical(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Canonical returns a JSON document in the JSON Canonicalization Scheme (RFC 8785); see internal/jcs. A
// document that is not I-JSON (a member named twice, data after it) is an error.
func Canonical(data []byte) ([]byte, error) { return jcs.Canonical(data) }
