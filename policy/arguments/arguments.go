// Package arguments is a tool-call guardrail that denies calls whose arguments do not read as one value to
// every JSON reader: arguments that are not valid JSON, and objects that name a member twice or in two
// cases. A check is only as good as the agreement between what it checked and what the tool runs: with
// {"command":"ls","Command":"rm -rf ~"}, a policy that reads "command" exactly checks ls, while a Go tool
// that decodes into a struct field `json:"command"` runs rm, because encoding/json matches names
// case-insensitively and keeps the last; and with a name twice, Python and JavaScript keep the last value
// where other readers keep the first. Such arguments have no one meaning, so no other guardrail's verdict on
// them can be trusted, and this one runs first in the embedded default config.
//
// It never logs or returns the arguments; its reasons name the kind of problem only.
package arguments

import (
	"bytes"
	"context"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.arguments",
		New:     func() any { return new(Arguments) },
		Summary: "denies tool calls whose arguments read differently to different JSON readers (malformed, duplicate or case-variant names)",
	})
}

// Reason codes.
const (
	// CodeAmbiguous: an object in the arguments names a member twice, or in two spellings that differ only
	// by case.
	CodeAmbiguous = "warden.ambiguous_arguments"
	// CodeMalformed: the arguments are not valid JSON.
	CodeMalformed = "warden.malformed_arguments"
)

// Arguments is the guardrail's config and, once provisioned, the guardrail. Every check is on by default.
type Arguments struct {
	// AllowDuplicateKeys lets through arguments in which one object names a member twice. Default false:
	// denied with warden.ambiguous_arguments.
	AllowDuplicateKeys bool `yaml:"allow_duplicate_keys" json:"allow_duplicate_keys"`
	// AllowCaseVariantKeys lets through arguments in which one object has two member names that differ
	// only by case ("command" and "Command", or by Unicode case folding). Default false: denied with
	// warden.ambiguous_arguments.
	AllowCaseVariantKeys bool `yaml:"allow_case_variant_keys" json:"allow_case_variant_keys"`
	// AllowMalformed lets through arguments that are not valid JSON. Default false: denied with
	// warden.malformed_arguments. Empty arguments are read as no arguments and pass.
	AllowMalformed bool `yaml:"allow_malformed" json:"allow_malformed"`
}

var _ warden.ToolCallGuardrail = (*Arguments)(nil)

// CheckToolCall denies arguments that are malformed or name a member ambiguously.
func (a *Arguments) CheckToolCall(_ context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	raw := c.Call.Arguments
	if len(bytes.TrimSpace(raw)) == 0 {
		return warden.Allow(), nil
	}
	if !jsonobj.Valid(raw) {
		if a.AllowMalformed {
			return warden.Allow(), nil
		}
		return warden.Reject(CodeMalformed, "the tool's arguments are not valid JSON; send them as one JSON object"), nil
	}
	var kinds jsonobj.Conflict
	if !a.AllowDuplicateKeys {
		kinds |= jsonobj.Duplicate
	}
	if !a.AllowCaseVariantKeys {
		kinds |= jsonobj.CaseVariant
	}
	if kinds == 0 {
		return warden.Allow(), nil
	}
	switch jsonobj.NameConflict(raw, kinds) {
	case jsonobj.Duplicate:
		return warden.Reject(CodeAmbiguous, "the tool's arguments name a member twice in one object; JSON readers disagree on which value is meant, so send each member once"), nil
	case jsonobj.CaseVariant:
		return warden.Reject(CodeAmbiguous, "the tool's arguments hold two member names that differ only by case in one object; some readers take them for one member, so send each member once in its exact name"), nil
	}
	return warden.Allow(), nil
}
