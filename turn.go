package warden

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"strings"
)

// Role is who authored a message.
type Role string

// The roles of the turn model. Providers' own role names are mapped onto these by the wire codecs.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ContentKind says what a ContentPart holds.
type ContentKind string

// Content kinds. Media parts keep only their type and a reference; guardrails that inspect text skip them.
const (
	ContentText      ContentKind = "text"
	ContentReasoning ContentKind = "reasoning"
	ContentMedia     ContentKind = "media"
)

// ContentPart is one piece of a message's content.
type ContentPart struct {
	Kind ContentKind
	// Text holds the text of text and reasoning parts.
	Text string
	// MediaType and Ref describe media parts (for example "image/png" and a URL or a content hash).
	MediaType string
	Ref       string
}

// Message is one message of a conversation in the turn model.
//
// A Message is a value; guardrails must not modify the slices it holds and return a replacement instead.
type Message struct {
	Role    Role
	Content []ContentPart
	// ToolCalls are the tool calls an assistant message asks for, in the order the provider sent them.
	ToolCalls []ToolCall
	// ToolCallID links a tool-role message to the call it answers.
	ToolCallID string
	// Name is the tool name of a tool-role message, or a participant name where the provider has one.
	Name string
	// IsError marks a tool-role message that reports a failure, where the provider says so.
	IsError bool
}

// TextMessage returns a message with a single text part.
func TextMessage(role Role, text string) Message {
	return Message{Role: role, Content: []ContentPart{{Kind: ContentText, Text: text}}}
}

// Text returns the message's text parts joined, without reasoning or media.
func (m Message) Text() string {
	switch len(m.Content) {
	case 0:
		return ""
	case 1:
		if m.Content[0].Kind == ContentText {
			return m.Content[0].Text
		}
		return ""
	}
	var b strings.Builder
	for _, p := range m.Content {
		if p.Kind == ContentText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// LogValue reports the message's shape, never its content, so a message can be logged safely.
func (m Message) LogValue() slog.Value {
	text := m.Text()
	return slog.GroupValue(
		slog.String("role", string(m.Role)),
		slog.Int("parts", len(m.Content)),
		slog.Int("text_len", len(text)),
		slog.String("text_sha256", shortHash(text)),
		slog.Int("tool_calls", len(m.ToolCalls)),
	)
}

// ToolCall is a model's request to run a tool.
type ToolCall struct {
	// ID is the provider's call id; tool results refer to it.
	ID   string
	Name string
	// Arguments is the raw JSON the model produced, unparsed and unmodified.
	Arguments json.RawMessage
	// Complete is false when the arguments were cut off (a length or safety stop) or do not parse.
	// A policy must never authorize an incomplete call; the engine denies it before any guardrail runs.
	Complete bool
}

// NewToolCall returns a call whose Complete flag says whether the arguments are one valid JSON value.
// Empty arguments count as an empty object, as providers send them for tools without parameters.
func NewToolCall(id, name string, arguments []byte) ToolCall {
	complete := len(arguments) == 0 || json.Valid(arguments)
	return ToolCall{ID: id, Name: name, Arguments: json.RawMessage(arguments), Complete: complete}
}

// LogValue reports the call's name, id and the size and hash of its arguments, never the arguments.
func (c ToolCall) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("id", c.ID),
		slog.String("name", c.Name),
		slog.Int("args_len", len(c.Arguments)),
		slog.String("args_sha256", shortHash(string(c.Arguments))),
		slog.Bool("complete", c.Complete),
	)
}

// ToolResult is what a tool returned for one call.
type ToolResult struct {
	CallID  string
	Name    string
	Content string
	// IsError marks a result that reports a failure (including a guardrail's deny message).
	IsError bool
}

// LogValue reports the result's shape, never its content.
func (r ToolResult) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("call_id", r.CallID),
		slog.String("name", r.Name),
		slog.Int("content_len", len(r.Content)),
		slog.String("content_sha256", shortHash(r.Content)),
		slog.Bool("is_error", r.IsError),
	)
}

// FinishReason is a provider's reason for ending generation, normalized.
type FinishReason string

// Normalized finish reasons. The provider's own value is kept in Response.Signal.
const (
	FinishUnknown   FinishReason = ""
	FinishStop      FinishReason = "stop"
	FinishLength    FinishReason = "length"
	FinishToolCalls FinishReason = "tool_calls"
	// FinishSafety is a provider safety stop: the output was interrupted and its tool calls must not run.
	FinishSafety FinishReason = "safety"
	FinishError  FinishReason = "error"
)

// Signal is a raw provider field and its value as received, e.g. {"finish_reason", "content_filter"} or
// {"promptFeedback.blockReason", "SAFETY"}. Field names are the provider's own JSON paths.
type Signal struct {
	Field string
	Value string
}

// Response is one model response in the turn model.
type Response struct {
	Message      Message
	FinishReason FinishReason
	// Signal is the provider field the finish reason came from.
	Signal Signal
	// Signals are further provider signals a safety detector may read: a prompt block, incomplete details,
	// a stop reason in a second field. The wire codecs fill them in.
	Signals []Signal
}

// AllSignals returns the response's signals, Signal first, for detectors that read by field name.
func (r *Response) AllSignals() []Signal {
	if r.Signal.Field == "" {
		return r.Signals
	}
	return append([]Signal{r.Signal}, r.Signals...)
}

// PartKind says what a stream Part carries.
type PartKind uint8

// Stream part kinds.
const (
	PartText PartKind = iota + 1
	PartReasoning
	PartToolCallDelta
	PartFinish
	PartError
)

var partKindNames = [...]string{PartText: "text", PartReasoning: "reasoning", PartToolCallDelta: "tool_call_delta", PartFinish: "finish", PartError: "error"}

func (k PartKind) String() string {
	if int(k) < len(partKindNames) && partKindNames[k] != "" {
		return partKindNames[k]
	}
	return "unknown"
}

// ToolCallDelta is a fragment of a streamed tool call. Index identifies the call within the response;
// ID and Name usually arrive in the first fragment only.
type ToolCallDelta struct {
	Index          int
	ID             string
	Name           string
	ArgumentsDelta string
}

// Part is one element of a model's output stream.
type Part struct {
	Kind PartKind
	// Text is the delta of a text or reasoning part.
	Text     string
	ToolCall ToolCallDelta
	// Finish and Signal are set on a finish part.
	Finish FinishReason
	Signal Signal
	// Err is set on an error part.
	Err error
}

// LogValue reports the part's kind and size, never its text.
func (p Part) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("kind", p.Kind.String()),
		slog.Int("text_len", len(p.Text)+len(p.ToolCall.ArgumentsDelta)),
		slog.String("finish", string(p.Finish)),
	)
}

// shortHash identifies content in logs without revealing it: 12 hex digits of its SHA-256.
func shortHash(s string) string {
	if s == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
