package anthropic

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/internal/reqtext"
)

// FollowUp returns the Messages request req continued by a tool round the client never sees: the model's
// assistant message, then a user message of tool_result blocks (is_error set), one for each of its calls
// carrying results[i]. A retry after a denied call sends it, so that the model reads why and chooses another
// way. The assistant content is that of the whole response body resp as the provider wrote it (thinking
// blocks and their signatures included, which the API requires back before tool use), or, for a stream (resp
// nil), msg's text and tool_use blocks.
func FollowUp(req, resp []byte, msg warden.Message, results []string) ([]byte, error) {
	if err := reqtext.CheckResults(msg, results); err != nil {
		return nil, err
	}
	content, err := assistantContent(resp, msg)
	if err != nil {
		return nil, err
	}
	assistant, err := json.Marshal(struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}{"assistant", content})
	if err != nil {
		return nil, err
	}
	type toolResult struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
		IsError   bool   `json:"is_error"`
	}
	blocks := make([]toolResult, len(msg.ToolCalls))
	for i, c := range msg.ToolCalls {
		blocks[i] = toolResult{"tool_result", c.ID, results[i], true}
	}
	user, err := json.Marshal(struct {
		Role    string       `json:"role"`
		Content []toolResult `json:"content"`
	}{"user", blocks})
	if err != nil {
		return nil, err
	}
	return reqtext.Append(req, "messages", assistant, user)
}

func assistantContent(resp []byte, msg warden.Message) (json.RawMessage, error) {
	if resp != nil {
		var body struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(resp, &body); err != nil {
			return nil, err
		}
		if len(body.Content) == 0 || string(body.Content) == "null" {
			return nil, errors.New("follow-up: the response has no content")
		}
		return body.Content, nil
	}
	var blocks []any
	if text := msg.Text(); text != "" {
		blocks = append(blocks, map[string]string{"type": "text", "text": text})
	}
	for _, c := range msg.ToolCalls {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": reqtext.CallArguments(c)})
	}
	return json.Marshal(blocks)
}

// Continue returns the Messages request req continued from partial, the assistant's message so far (text the
// client has, ending with a stream guardrail's feedback): an assistant message last, which the model
// continues, for a self-correction. Trailing white space is cut, as the API refuses it there.
func Continue(req []byte, partial string) ([]byte, error) {
	text := strings.TrimRight(partial, " \t\r\n")
	if text == "" {
		return nil, errors.New("continue: no partial message to continue from")
	}
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	assistant, err := json.Marshal(struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}{"assistant", []block{{"text", text}}})
	if err != nil {
		return nil, err
	}
	return reqtext.Append(req, "messages", assistant)
}
