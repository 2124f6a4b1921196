package mcpproxy

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"github.com/agentwarden/warden"
)

// secretField matches the name, title or description of a form field that asks for a secret. The MCP
// specification's elicitation chapter (revisions 2025-11-25 and 2026-07-28) says servers must not ask for
// passwords, API keys, access tokens or payment credentials in form mode, which sends the answer through
// the client and the model's context; URL mode keeps it between the user and the server's own page.
var secretField = regexp.MustCompile(`(?i)\b(pass ?(word|wd|phrase|code)s?|passwd|pin( code)?|secrets?|(api|access|private|secret|signing|encryption) ?keys?|` +
	`((auth|access|bearer|refresh|session|api|personal ?access|github|slack|bot) ?)?tokens?|credentials?|(session )?cookies?|ssn|social ?security( number)?|` +
	`credit ?card|card ?(number|no)|cvv|cvc|security ?code|iban|(bank )?account (number|no)|routing (number|no)|` +
	`one ?time ?(code|password)|otp|2fa|mfa|(verification|auth|authentication|login|sms) code|` +
	`seed ?phrase|mnemonic|recovery ?(phrase|codes?))\b`)

// words spells a field's name as words, so that one pattern reads apiKey, api_key, API-Key and "API key"
// alike: camel case split, separators made spaces.
func words(s string) string {
	var b strings.Builder
	var prev rune
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.':
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// elicitation is what of an elicitation/create request the proxy reads.
type elicitation struct {
	Mode            string `json:"mode"`
	Message         string `json:"message"`
	RequestedSchema struct {
		Properties map[string]struct {
			Title       string `json:"title"`
			Description string `json:"description"`
		} `json:"properties"`
	} `json:"requestedSchema"`
}

// asksForSecret says whether a form-mode elicitation asks for a secret, and which field.
func (e *elicitation) asksForSecret() (string, bool) {
	if e.Mode != "" && e.Mode != "form" {
		return "", false
	}
	for name, p := range e.RequestedSchema.Properties {
		if secretField.MatchString(words(name)) || secretField.MatchString(words(p.Title)) || secretField.MatchString(p.Description) {
			return name, true
		}
	}
	return "", false
}

// sampling is what of a sampling/createMessage request the proxy reads: the text the client's model would
// be given.
type sampling struct {
	SystemPrompt string `json:"systemPrompt"`
	Messages     []struct {
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func (s *sampling) text() string {
	parts := []string{s.SystemPrompt}
	for _, m := range s.Messages {
		var one contentPart
		var many []contentPart
		if json.Unmarshal(m.Content, &one) == nil {
			many = []contentPart{one}
		} else {
			json.Unmarshal(m.Content, &many)
		}
		for _, c := range many {
			parts = append(parts, c.Text)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// checkServerRequest judges a request the server makes of the client. It answers the server itself and
// gives false when the request may not reach the client: a form that asks the user for a secret is
// declined; a sampling request whose text the tool-result stage withholds (a server putting an
// injection before the client's model) is refused.
func (s *session) checkServerRequest(ctx context.Context, m *Message) bool {
	switch m.Method {
	case "elicitation/create":
		var e elicitation
		if err := json.Unmarshal(m.Params, &e); err != nil {
			s.toServer(encodeError(m.ID, CodeInvalidParams, "elicitation/create: "+err.Error()))
			return false
		}
		if field, ok := e.asksForSecret(); ok {
			s.p.log.Warn("mcp: declined a form that asks the user for a secret", "field", field)
			b, _ := encodeResult(m.ID, map[string]string{"action": "decline"})
			s.toServer(b)
			return false
		}
	case "sampling/createMessage":
		var r sampling
		if err := json.Unmarshal(m.Params, &r); err != nil {
			s.toServer(encodeError(m.ID, CodeInvalidParams, "sampling/createMessage: "+err.Error()))
			return false
		}
		text := r.text()
		if text == "" {
			return true
		}
		name := ToolName(s.p.cfg.Server, m.Method)
		call := warden.ToolCall{ID: string(m.ID), Name: name, Arguments: json.RawMessage("{}"), Complete: true}
		out, err := s.p.cfg.Engine.CheckToolResult(ctx, warden.ToolResultCheck{Run: s.run, Call: call,
			Result: warden.ToolResult{CallID: call.ID, Name: name, Content: text}})
		if err != nil || !out.Allowed() || out.Value.Content != text {
			msg := "Guardrail refused the sampling request"
			if err == nil && !out.Allowed() {
				msg = out.Value.Content
			}
			s.p.log.Warn("mcp: refused a sampling request", "reason", out.Decision.FirstReason().Code)
			s.toServer(encodeError(m.ID, CodeDenied, msg))
			return false
		}
	}
	return true
}
