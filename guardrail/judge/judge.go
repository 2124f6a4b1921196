// Package judge is the judge guardrail: it asks a model behind any OpenAI-compatible chat completions
// endpoint for a structured verdict on the subject (JSON Schema response format) and trips when a
// configured boolean field of the verdict is true.
//
// It registers as "judge" for every stage. At the stream stage it judges the streamed text at a configured
// boundary — each sentence, or the whole response — and holds that text back until the verdict is in. It fails
// closed like every guardrail: an unreachable endpoint, a non-2xx answer, a refusal, a verdict that does not
// parse or lacks the field all count as errors, which deny unless the guardrail is configured fail-open.
// The judge's free-text rationale goes into the decision's metadata, which is returned to callers but never
// audited, because a model may quote what it judged.
package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/httpjson"
	"github.com/agentwarden/warden/stream"
)

func init() {
	for _, s := range []warden.Stage{warden.StageInput, warden.StageResponse, warden.StageToolCall, warden.StageToolResult, warden.StageOutput, warden.StageStream} {
		warden.Register(warden.ModuleInfo{
			ID:      warden.GuardrailModuleID(s, "judge"),
			New:     func() any { return &Judge{stage: s} },
			Summary: "asks a model behind an OpenAI-compatible endpoint for a structured verdict",
		})
	}
}

// Judge is the judge guardrail's config and, once provisioned, the guardrail.
type Judge struct {
	// Endpoint is the base URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1;
	// /chat/completions is appended. Required.
	Endpoint string `yaml:"endpoint" json:"endpoint"`
	// APIKey is sent as a bearer token. Write ${OPENAI_API_KEY}, not the key itself.
	APIKey string `yaml:"api_key" json:"api_key"`
	// Model is the judge model, e.g. gpt-4o-mini. Required.
	Model string `yaml:"model" json:"model"`
	// Prompt is the system prompt: the policy the judge applies and what the verdict's fields mean. Required.
	Prompt string `yaml:"prompt" json:"prompt"`
	// Schema is the JSON Schema of the verdict. Default: an object with a boolean "flagged" and a string
	// "reason", both required, no other properties (what strict structured outputs accept).
	Schema map[string]any `yaml:"schema" json:"schema"`
	// TripField names the boolean field of the verdict that trips the guardrail. Default "flagged".
	TripField string `yaml:"trip_field" json:"trip_field"`
	// ReasonField names the verdict's rationale field, returned in the decision's metadata as
	// "judge_reason". Default "reason"; empty in the verdict is fine.
	ReasonField string `yaml:"reason_field" json:"reason_field"`
	// Code is the reason code of a trip. Default "warden.judge".
	Code string `yaml:"code" json:"code"`
	// Message is the reason message of a trip: at tool_call it is what the model is told, at stream the
	// feedback of the self-correction. Default "flagged by the judge model"; at stream "I wrote something
	// the policy does not allow. Let me rephrase that."
	Message string `yaml:"message" json:"message"`
	// Action is what a trip does: halt, reject (tool_call and tool_result only) or retry (stream only: the
	// model corrects itself, with Message as the feedback). Default: reject at tool_call and tool_result,
	// retry at stream, halt elsewhere.
	Action string `yaml:"action" json:"action"`
	// Window is when a stream judge judges (stream only): sentence (each sentence before it is released)
	// or response (the whole response at its end; nothing is released before). Default response.
	Window string `yaml:"window" json:"window"`
	// Timeout bounds one judge request. Default 10s.
	Timeout warden.Duration `yaml:"timeout" json:"timeout"`
	// MaxTokens bounds the verdict's length. Default 256.
	MaxTokens int `yaml:"max_tokens" json:"max_tokens"`
	// Headers are added to every request, e.g. an organization id.
	Headers map[string]string `yaml:"headers" json:"headers"`

	stage  warden.Stage
	action warden.Action
	url    string
	schema json.RawMessage
	client *http.Client
}

var (
	_ warden.Provisioner         = (*Judge)(nil)
	_ warden.Validator           = (*Judge)(nil)
	_ warden.InputGuardrail      = (*Judge)(nil)
	_ warden.ResponseGuardrail   = (*Judge)(nil)
	_ warden.ToolCallGuardrail   = (*Judge)(nil)
	_ warden.ToolResultGuardrail = (*Judge)(nil)
	_ warden.OutputGuardrail     = (*Judge)(nil)
	_ warden.StreamGuardrail     = (*Judge)(nil)
	_ warden.StreamHoldback      = (*Judge)(nil)
)

// New returns a judge for a stage, for Go users who configure it in code; call Provision and Validate
// before use, as config loading does.
func New(stage warden.Stage) *Judge { return &Judge{stage: stage} }

func defaultSchema(field, reason string) map[string]any {
	props := map[string]any{field: map[string]any{"type": "boolean"}}
	required := []any{field}
	if reason != "" {
		props[reason] = map[string]any{"type": "string"}
		required = append(required, reason)
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

// Provision fills in defaults and prepares the request pieces that never change.
func (j *Judge) Provision(context.Context) error {
	if j.TripField == "" {
		j.TripField = "flagged"
	}
	if j.ReasonField == "" {
		j.ReasonField = "reason"
	}
	if j.Code == "" {
		j.Code = "warden.judge"
	}
	if j.Message == "" {
		j.Message = "flagged by the judge model"
		if j.stage == warden.StageStream { // the feedback of a self-correction is in the model's voice
			j.Message = "I wrote something the policy does not allow. Let me rephrase that."
		}
	}
	if j.Timeout == 0 {
		j.Timeout = warden.Duration(10 * time.Second)
	}
	if j.MaxTokens == 0 {
		j.MaxTokens = 256
	}
	if j.Schema == nil {
		j.Schema = defaultSchema(j.TripField, j.ReasonField)
	}
	schema, err := json.Marshal(j.Schema)
	if err != nil {
		return fmt.Errorf("schema: %v", err)
	}
	j.schema = schema
	j.url = strings.TrimSuffix(j.Endpoint, "/") + "/chat/completions"
	j.client = &http.Client{Timeout: j.Timeout.Std()}
	return nil
}

// Validate checks the config.
func (j *Judge) Validate() error {
	var errs []error
	if u, err := url.Parse(j.Endpoint); j.Endpoint == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("endpoint: want an http or https base URL, got %q", j.Endpoint))
	}
	if j.Model == "" {
		errs = append(errs, errors.New("model: required"))
	}
	if strings.TrimSpace(j.Prompt) == "" {
		errs = append(errs, errors.New("prompt: required: the policy the judge applies"))
	}
	if props, ok := j.Schema["properties"].(map[string]any); ok {
		if f, ok := props[j.TripField].(map[string]any); !ok || f["type"] != "boolean" {
			errs = append(errs, fmt.Errorf("trip_field: %q is not a boolean property of schema", j.TripField))
		}
	} else {
		errs = append(errs, errors.New("schema: want an object schema with properties"))
	}
	switch j.Action {
	case "":
		j.action = warden.ActionHalt
		if j.stage == warden.StageToolCall || j.stage == warden.StageToolResult {
			j.action = warden.ActionReject
		}
		if j.stage == warden.StageStream {
			j.action = warden.ActionRetry
		}
	case "halt":
		j.action = warden.ActionHalt
	case "retry":
		if j.stage != warden.StageStream {
			errs = append(errs, fmt.Errorf("action: retry applies at stream only; use halt at %s", j.stage))
		}
		j.action = warden.ActionRetry
	case "reject":
		if j.stage != warden.StageToolCall && j.stage != warden.StageToolResult {
			errs = append(errs, fmt.Errorf("action: reject applies at tool_call and tool_result only; use halt at %s", j.stage))
		}
		j.action = warden.ActionReject
	default:
		errs = append(errs, fmt.Errorf("action: unknown action %q (want halt, reject or retry)", j.Action))
	}
	switch {
	case j.stage != warden.StageStream && j.Window != "":
		errs = append(errs, fmt.Errorf("window: applies at stream only"))
	case j.stage == warden.StageStream && j.Window == "":
		j.Window = "response"
	case j.stage == warden.StageStream && j.Window != "sentence" && j.Window != "response":
		errs = append(errs, fmt.Errorf("window: %q (want sentence or response)", j.Window))
	}
	if j.MaxTokens < 0 {
		errs = append(errs, errors.New("max_tokens: must be positive"))
	}
	return errors.Join(errs...)
}

// CheckInput judges the run's input messages.
func (j *Judge) CheckInput(ctx context.Context, c warden.InputCheck) (warden.Decision, error) {
	var b strings.Builder
	for _, m := range c.Messages {
		writeMessage(&b, m)
	}
	return j.judge(ctx, b.String())
}

// CheckResponse judges a model response: its text and its tool calls.
func (j *Judge) CheckResponse(ctx context.Context, c warden.ResponseCheck) (warden.Decision, error) {
	var b strings.Builder
	writeMessage(&b, c.Response.Message)
	return j.judge(ctx, b.String())
}

// CheckToolCall judges a tool call by its name and arguments.
func (j *Judge) CheckToolCall(ctx context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	return j.judge(ctx, "Tool call: "+c.Call.Name+"\nArguments: "+string(c.Call.Arguments))
}

// CheckToolResult judges what a tool returned.
func (j *Judge) CheckToolResult(ctx context.Context, c warden.ToolResultCheck) (warden.Decision, error) {
	return j.judge(ctx, "Tool: "+c.Call.Name+"\nResult:\n"+c.Result.Content)
}

// CheckOutput judges the run's final output.
func (j *Judge) CheckOutput(ctx context.Context, c warden.OutputCheck) (warden.Decision, error) {
	return j.judge(ctx, c.Output.Text())
}

// CheckPart judges streamed text at the window's boundary: with a sentence window, the complete sentences
// of the pending text (after the text already released, for context) as soon as they arrive; with a response
// window, the whole response at the finish. Between boundaries it allows without a request.
func (j *Judge) CheckPart(ctx context.Context, c warden.PartCheck) (warden.Decision, error) {
	var judged string
	switch {
	case c.Part.Kind == warden.PartFinish:
		judged = c.Pending
	case c.Part.Kind == warden.PartText && j.Window == "sentence":
		judged = c.Pending[:stream.SentenceEnd(c.Pending)]
	}
	if strings.TrimSpace(judged) == "" {
		return warden.Allow(), nil
	}
	content := "Response so far:\n" + c.Released + judged
	if c.Released != "" {
		content = "Response so far (the part already shown, then the part to judge):\n" + c.Released + "\n---\n" + judged
	}
	return j.judge(ctx, content)
}

// Holdback keeps back what the judge has not approved yet: everything after the last sentence end, or the
// whole response.
func (j *Judge) Holdback(pending string) int {
	if j.Window == "sentence" {
		return len(pending) - stream.SentenceEnd(pending)
	}
	return len(pending)
}

func writeMessage(b *strings.Builder, m warden.Message) {
	b.WriteString("[" + string(m.Role) + "] " + m.Text() + "\n")
	for _, tc := range m.ToolCalls {
		b.WriteString("[tool call] " + tc.Name + " " + string(tc.Arguments) + "\n")
	}
}

type chatRequest struct {
	Model          string         `json:"model"`
	Messages       []chatMessage  `json:"messages"`
	ResponseFormat responseFormat `json:"response_format"`
	Temperature    float64        `json:"temperature"`
	MaxTokens      int            `json:"max_tokens"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type       string     `json:"type"`
	JSONSchema jsonSchema `json:"json_schema"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Strict bool            `json:"strict"`
	Schema json.RawMessage `json:"schema"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

func (j *Judge) judge(ctx context.Context, content string) (warden.Decision, error) {
	body, err := json.Marshal(chatRequest{
		Model:          j.Model,
		Messages:       []chatMessage{{Role: "system", Content: j.Prompt}, {Role: "user", Content: content}},
		ResponseFormat: responseFormat{Type: "json_schema", JSONSchema: jsonSchema{Name: "verdict", Strict: true, Schema: j.schema}},
		MaxTokens:      j.MaxTokens,
	})
	if err != nil {
		return warden.Decision{}, err
	}
	raw, err := httpjson.Post(ctx, j.client, j.url, body, j.Headers, func(req *http.Request) {
		if j.APIKey != "" {
			req.Header.Set("Authorization", "Bearer "+j.APIKey)
		}
	})
	var se *httpjson.StatusError
	switch {
	case errors.As(err, &se):
		return warden.Decision{}, fmt.Errorf("judge endpoint %s%s", se, providerMessage(se.Body))
	case err != nil:
		return warden.Decision{}, fmt.Errorf("judge request: %w", err)
	}
	var cr chatResponse
	if err := json.Unmarshal(raw, &cr); err != nil {
		return warden.Decision{}, fmt.Errorf("judge answer is not a chat completion: %v", err)
	}
	if len(cr.Choices) == 0 {
		return warden.Decision{}, errors.New("judge answer has no choices")
	}
	msg := cr.Choices[0].Message
	if msg.Refusal != nil && *msg.Refusal != "" {
		return warden.Decision{}, errors.New("the judge model refused to give a verdict")
	}
	if msg.Content == nil {
		return warden.Decision{}, fmt.Errorf("judge answer has no content (finish_reason %q)", cr.Choices[0].FinishReason)
	}
	var verdict map[string]any
	if err := json.Unmarshal([]byte(*msg.Content), &verdict); err != nil {
		return warden.Decision{}, fmt.Errorf("judge verdict is not a JSON object (finish_reason %q)", cr.Choices[0].FinishReason)
	}
	tripped, ok := verdict[j.TripField].(bool)
	if !ok {
		return warden.Decision{}, fmt.Errorf("judge verdict has no boolean %q", j.TripField)
	}
	var meta map[string]string
	if r, ok := verdict[j.ReasonField].(string); ok && r != "" {
		meta = map[string]string{"judge_reason": r}
	}
	if !tripped {
		return warden.Decision{Action: warden.ActionAllow, Metadata: meta}, nil
	}
	return warden.Decision{Action: j.action, Reasons: []warden.Reason{{Code: j.Code, Message: j.Message}}, Metadata: meta}, nil
}

// providerMessage extracts the message of an OpenAI-style error body, for a readable error.
func providerMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return ": " + e.Error.Message
	}
	return ""
}
