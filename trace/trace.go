// Package trace is Warden's model of a recorded agent run, and the readers that turn recorded runs in
// other shapes into it: Warden's own JSONL, the evaluation record format, OpenAI- and Anthropic-style
// message transcripts, and OpenTelemetry GenAI spans exported as OTLP JSON.
//
// A trace says whether its events were recorded at all: EventsRecorded false means nobody recorded what
// the agent did (a detector that needs the events cannot judge), while true with no events means the
// agent did nothing. Readers keep that difference; they never invent events a source did not hold.
//
// Traces hold the content of conversations, which may be sensitive: Trace and Event log themselves as
// summaries (sizes, counts), never their text. The model is stable within a minor version; fields may be added.
package trace

import (
	"encoding/json"
	"log/slog"
	"strings"
)

// EventType says what an event records.
type EventType string

// The event types, in the words of the evaluation format.
const (
	UserMessage  EventType = "user_message"
	AgentThought EventType = "agent_thought"
	ToolCall     EventType = "tool_call"
	ToolResult   EventType = "tool_result"
	AgentMessage EventType = "agent_message"
)

// Event is one step of an agent run.
type Event struct {
	Type EventType `json:"type"`
	// Content is the text of a message, a thought or a tool result.
	Content string `json:"content,omitempty"`
	// Name is the tool's name, for tool calls and (where the source says) tool results.
	Name string `json:"name,omitempty"`
	// Arguments are a tool call's arguments as JSON: an object, or a JSON string when the source held
	// arguments that were not JSON.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// CallID pairs a tool result with its call, where the source has ids.
	CallID string `json:"call_id,omitempty"`
	// IsError marks a tool result that reports a failure, where the source says so.
	IsError bool `json:"is_error,omitempty"`
}

// Args returns a tool call's arguments decoded as an object, or nil when they are not one.
func (e Event) Args() map[string]any {
	var m map[string]any
	if len(e.Arguments) > 0 && json.Unmarshal(e.Arguments, &m) == nil {
		return m
	}
	return nil
}

// ArgsText returns a tool call's arguments as text: a JSON string's value, otherwise the raw JSON.
func (e Event) ArgsText() string {
	if len(e.Arguments) > 0 && e.Arguments[0] == '"' {
		var s string
		if json.Unmarshal(e.Arguments, &s) == nil {
			return s
		}
	}
	return string(e.Arguments)
}

// Scope is the task the agent was given, which decides what it may do.
type Scope struct {
	// Text is the task in words (typically the first user instruction).
	Text string `json:"text,omitempty"`
	// Categories, when not nil, are the action categories the task allows (see package detect); an empty,
	// non-nil list allows only read-only actions. Nil means the scope was not declared in categories, and a
	// detector derives them from Text.
	Categories []string `json:"categories"`
}

// Message is one message of the conversation, as text.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Label is what a person (or, where Quality says so, a program) said a detector should find in a trace:
// the expectation a golden or evaluation record carries.
type Label struct {
	Detector string `json:"detector"`
	// Expected is true when the detector should fire.
	Expected bool `json:"expected"`
	// Rationale says in one line why.
	Rationale string `json:"rationale,omitempty"`
	// Quality says who labelled it ("human", "automatic judge", …); Human is derived from it.
	Quality   string `json:"quality,omitempty"`
	Human     bool   `json:"human"`
	Ambiguous bool   `json:"ambiguous,omitempty"`
	// Difficulty is easy, medium or hard, where the author said.
	Difficulty string `json:"difficulty,omitempty"`
	// Source names the dataset the record came from ("github:owner/repo"), where it says.
	Source string `json:"source,omitempty"`
}

// Trace is one recorded agent run.
type Trace struct {
	ID string `json:"id"`
	// System is the system prompt: it can grant the agent a role ("you answer for Acme support").
	System string `json:"system,omitempty"`
	Scope  Scope  `json:"scope"`
	// Messages are the conversation as text, in order.
	Messages []Message `json:"messages,omitempty"`
	// Events are what happened, in order; meaningful only when EventsRecorded is true.
	Events         []Event `json:"events"`
	EventsRecorded bool    `json:"-"`
	// Output is the agent's final answer; when empty, the last assistant message or agent message is used.
	Output string `json:"output,omitempty"`
	// Label is the expectation of a golden or evaluation record; nil for traces to scan.
	Label *Label `json:"label,omitempty"`
	// Source names where the trace came from: file and line or record.
	Source string `json:"-"`
}

// Input returns the user's side of the run: every user message, joined by blank lines.
func (t *Trace) Input() string {
	var parts []string
	for _, m := range t.Messages {
		if m.Role == "user" {
			parts = append(parts, m.Content)
		}
	}
	if len(parts) == 0 && t.EventsRecorded {
		for _, e := range t.Events {
			if e.Type == UserMessage {
				parts = append(parts, e.Content)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// FinalOutput returns the agent's final answer: Output, or else the last assistant message, or else the
// last agent message event.
func (t *Trace) FinalOutput() string {
	if t.Output != "" {
		return t.Output
	}
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].Role == "assistant" && t.Messages[i].Content != "" {
			return t.Messages[i].Content
		}
	}
	for i := len(t.Events) - 1; i >= 0; i-- {
		if t.Events[i].Type == AgentMessage && t.Events[i].Content != "" {
			return t.Events[i].Content
		}
	}
	return ""
}

// ToolCalls returns the tool-call events, in order.
func (t *Trace) ToolCalls() []Event {
	var out []Event
	for _, e := range t.Events {
		if e.Type == ToolCall {
			out = append(out, e)
		}
	}
	return out
}

// Size is the number of bytes of text the trace holds: what throughput figures are measured in.
func (t *Trace) Size() int {
	n := len(t.System) + len(t.Scope.Text) + len(t.Output)
	for _, m := range t.Messages {
		n += len(m.Content)
	}
	for _, e := range t.Events {
		n += len(e.Content) + len(e.Name) + len(e.Arguments)
	}
	return n
}

// LogValue summarizes a trace without its text.
func (t *Trace) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("id", t.ID),
		slog.Int("messages", len(t.Messages)),
		slog.Int("events", len(t.Events)),
		slog.Bool("events_recorded", t.EventsRecorded),
		slog.Int("bytes", t.Size()),
	)
}

// LogValue summarizes an event without its content or arguments.
func (e Event) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("type", string(e.Type)),
		slog.String("name", e.Name),
		slog.Int("bytes", len(e.Content)+len(e.Arguments)),
	)
}
