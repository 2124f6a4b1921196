package gemini

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// syntheticID starts the id the turn model gives a call Gemini sent without one; it never goes back.
const syntheticID = "gemini-call-"

// FollowUp returns the generateContent request req continued by a tool round the client never sees: the
// model's content, then a user content of functionResponse parts, one for each of its calls, whose response
// is {"error": results[i]}. A retry after a denied call sends it, so that the model reads why and chooses
// another way. The model's content is the first candidate's of the whole response body resp as the provider
// wrote it (thought signatures included, which Gemini requires back with function calls), or, for a stream
// (resp nil), msg's text and functionCall parts.
func FollowUp(req, resp []byte, msg warden.Message, results []string) ([]byte, error) {
	if err := reqtext.CheckResults(msg, results); err != nil {
		return nil, err
	}
	model, err := modelContent(resp, msg)
	if err != nil {
		return nil, err
	}
	type response struct {
		ID       string            `json:"id,omitempty"`
		Name     string            `json:"name"`
		Response map[string]string `json:"response"`
	}
	type part struct {
		FunctionResponse response `json:"functionResponse"`
	}
	parts := make([]part, len(msg.ToolCalls))
	for i, c := range msg.ToolCalls {
		id := c.ID
		if strings.HasPrefix(id, syntheticID) {
			id = ""
		}
		parts[i] = part{response{id, c.Name, map[string]string{"error": results[i]}}}
	}
	user, err := json.Marshal(struct {
		Role  string `json:"role"`
		Parts []part `json:"parts"`
	}{"user", parts})
	if err != nil {
		return nil, err
	}
	return reqtext.Append(req, "contents", model, user)
}

func modelContent(resp []byte, msg warden.Message) (json.RawMessage, error) {
	if resp != nil {
		var body struct {
			Candidates []struct {
				Content json.RawMessage `json:"content"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal(resp, &body); err != nil {
			return nil, err
		}
		if len(body.Candidates) == 0 || len(body.Candidates[0].Content) == 0 {
			return nil, errors.New("follow-up: the response has no candidate content")
		}
		return body.Candidates[0].Content, nil
	}
	var parts []any
	if text := msg.Text(); text != "" {
		parts = append(parts, map[string]string{"text": text})
	}
	for _, c := range msg.ToolCalls {
		call := map[string]any{"name": c.Name, "args": reqtext.CallArguments(c)}
		if !strings.HasPrefix(c.ID, syntheticID) {
			call["id"] = c.ID
		}
		parts = append(parts, map[string]any{"functionCall": call})
	}
	return json.Marshal(map[string]any{"role": "model", "parts": parts})
}

// Continue returns the generateContent request req continued from partial, the model's message so far (text
// the client has, ending with a stream guardrail's feedback), as the last content, for a self-correction.
func Continue(req []byte, partial string) ([]byte, error) {
	if strings.TrimSpace(partial) == "" {
		return nil, errors.New("continue: no partial message to continue from")
	}
	type part struct {
		Text string `json:"text"`
	}
	model, err := json.Marshal(struct {
		Role  string `json:"role"`
		Parts []part `json:"parts"`
	}{"model", []part{{partial}}})
	if err != nil {
		return nil, err
	}
	return reqtext.Append(req, "contents", model)
}
