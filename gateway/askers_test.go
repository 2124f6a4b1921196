package gateway_test

import (
	"context"
	"errors"
	"testing"

	anthropic "github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"google.golang.org/genai"
)

// history is a conversation that went through a tool round and then got a new user message, so that the
// input and tool_result stages both have something to check: what each format's request carries then.
var history = struct {
	chat, responses, anthropic []map[string]any
	gemini                     []*genai.Content
}{
	chat: []map[string]any{
		{"role": "user", "content": "Run the tests."},
		{"role": "assistant", "content": nil, "tool_calls": []map[string]any{{"id": "call_0", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"go test ./..."}`}}}},
		{"role": "tool", "tool_call_id": "call_0", "content": "ok ./... 42 tests"},
		{"role": "user", "content": "Tidy up the repository."},
	},
	responses: []map[string]any{
		{"role": "user", "content": "Run the tests."},
		{"type": "function_call", "call_id": "call_0", "name": "bash", "arguments": `{"command":"go test ./..."}`},
		{"type": "function_call_output", "call_id": "call_0", "output": "ok ./... 42 tests"},
		{"role": "user", "content": "Tidy up the repository."},
	},
	anthropic: []map[string]any{
		{"role": "user", "content": "Run the tests."},
		{"role": "assistant", "content": []map[string]any{{"type": "tool_use", "id": "toolu_0", "name": "bash", "input": map[string]any{"command": "go test ./..."}}}},
		{"role": "user", "content": []map[string]any{{"type": "tool_result", "tool_use_id": "toolu_0", "content": "ok ./... 42 tests"}, {"type": "text", "text": "Tidy up the repository."}}},
	},
	gemini: []*genai.Content{
		genai.NewContentFromText("Run the tests.", genai.RoleUser),
		genai.NewContentFromFunctionCall("bash", map[string]any{"command": "go test ./..."}, genai.RoleModel),
		genai.NewContentFromParts([]*genai.Part{genai.NewPartFromFunctionResponse("bash", map[string]any{"output": "ok ./... 42 tests"}), genai.NewPartFromText("Tidy up the repository.")}, genai.RoleUser),
	},
}

// openaiOpts and anthropicOpts carry the history in place of the request's own messages when asked.
func openaiOpts(withHistory bool, key string, value any) []option.RequestOption {
	if !withHistory {
		return nil
	}
	return []option.RequestOption{option.WithJSONSet(key, value)}
}

func anthropicOpts(withHistory bool) []aoption.RequestOption {
	if !withHistory {
		return nil
	}
	return []aoption.RequestOption{aoption.WithJSONSet("messages", history.anthropic)}
}

func geminiContents(withHistory bool) []*genai.Content {
	if withHistory {
		return history.gemini
	}
	return geminiInput
}

// asker puts the same question to Warden through one format's official SDK, whole or streamed, and returns
// what the client acts on, or the error the SDK gave. withHistory sends the history in place of the one
// user message.
type asker func(t *testing.T, h *harness, withHistory bool) (answer, error)

var askers = map[string]asker{
	"openai-chat": func(_ *testing.T, h *harness, withHistory bool) (answer, error) {
		c, err := openaiClient(h).Chat.Completions.New(context.Background(), chatParams, openaiOpts(withHistory, "messages", history.chat)...)
		if err != nil {
			return answer{}, err
		}
		m := c.Choices[0].Message
		return answer{m.Content, toolCallNames(m.ToolCalls), c.Choices[0].FinishReason}, nil
	},
	"openai-chat stream": func(_ *testing.T, h *harness, withHistory bool) (answer, error) {
		s := openaiClient(h).Chat.Completions.NewStreaming(context.Background(), chatParams, openaiOpts(withHistory, "messages", history.chat)...)
		var acc sdk.ChatCompletionAccumulator
		for s.Next() {
			acc.AddChunk(s.Current())
		}
		if err := s.Err(); err != nil {
			return answer{}, err
		}
		m := acc.Choices[0].Message
		return answer{m.Content, toolCallNames(m.ToolCalls), acc.Choices[0].FinishReason}, nil
	},
	"openai-responses": func(_ *testing.T, h *harness, withHistory bool) (answer, error) {
		r, err := openaiClient(h).Responses.New(context.Background(), responsesParams, openaiOpts(withHistory, "input", history.responses)...)
		if err != nil {
			return answer{}, err
		}
		text, calls, status := responsesSummary(r)
		return answer{text, calls, status}, nil
	},
	"openai-responses stream": func(_ *testing.T, h *harness, withHistory bool) (answer, error) {
		s := openaiClient(h).Responses.NewStreaming(context.Background(), responsesParams, openaiOpts(withHistory, "input", history.responses)...)
		var final *responses.Response
		for s.Next() {
			if ev := s.Current(); ev.Type == "response.completed" || ev.Type == "response.incomplete" {
				r := ev.Response
				final = &r
			}
		}
		if err := s.Err(); err != nil {
			return answer{}, err
		}
		if final == nil {
			return answer{}, errors.New("the stream has no final response event")
		}
		text, calls, status := responsesSummary(final)
		return answer{text, calls, status}, nil
	},
	"anthropic": func(_ *testing.T, h *harness, withHistory bool) (answer, error) {
		m, err := anthropicClient(h).Messages.New(context.Background(), messageParams, anthropicOpts(withHistory)...)
		if err != nil {
			return answer{}, err
		}
		text, calls := anthropicSummary(m)
		return answer{text, calls, string(m.StopReason)}, nil
	},
	"anthropic stream": func(_ *testing.T, h *harness, withHistory bool) (answer, error) {
		s := anthropicClient(h).Messages.NewStreaming(context.Background(), messageParams, anthropicOpts(withHistory)...)
		var m anthropic.Message
		for s.Next() {
			if err := m.Accumulate(s.Current()); err != nil {
				return answer{}, err
			}
		}
		if err := s.Err(); err != nil {
			return answer{}, err
		}
		text, calls := anthropicSummary(&m)
		return answer{text, calls, string(m.StopReason)}, nil
	},
	"gemini": func(t *testing.T, h *harness, withHistory bool) (answer, error) {
		r, err := geminiClient(t, h).Models.GenerateContent(context.Background(), "gemini-2.5-flash", geminiContents(withHistory), nil)
		if err != nil {
			return answer{}, err
		}
		text, calls, finish := geminiSummary([]*genai.GenerateContentResponse{r})
		return answer{text, calls, string(finish)}, nil
	},
	"gemini stream": func(t *testing.T, h *harness, withHistory bool) (answer, error) {
		var rs []*genai.GenerateContentResponse
		for r, err := range geminiClient(t, h).Models.GenerateContentStream(context.Background(), "gemini-2.5-flash", geminiContents(withHistory), nil) {
			if err != nil {
				return answer{}, err
			}
			rs = append(rs, r)
		}
		text, calls, finish := geminiSummary(rs)
		return answer{text, calls, string(finish)}, nil
	},
}

// sdkStatus is the HTTP status of an SDK's API error, 0 when err is not one.
func sdkStatus(err error) int {
	var oe *sdk.Error
	var ae *anthropic.Error
	var ge genai.APIError
	switch {
	case errors.As(err, &oe):
		return oe.StatusCode
	case errors.As(err, &ae):
		return ae.StatusCode
	case errors.As(err, &ge):
		return ge.Code
	}
	return 0
}
