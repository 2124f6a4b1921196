package trace

import (
	"encoding/json"
	"errors"
	"fmt"
)

// transcriptMessage is a chat message in either provider's shape; the fields of both are listed.
type transcriptMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	// OpenAI
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	FunctionCall *struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function_call"`
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"`
}

// anthropicBlock is one content block of an Anthropic message.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// transcriptFormat tells Anthropic from OpenAI transcripts: Anthropic's block types or a top-level system
// string say Anthropic; anything else is read as OpenAI's (which plain role/content messages also are).
func transcriptFormat(msgs []json.RawMessage, keys map[string]json.RawMessage) Format {
	if s, ok := keys["system"]; ok && len(s) > 0 && (s[0] == '"' || s[0] == '[') {
		return Anthropic
	}
	for _, raw := range msgs {
		var m struct {
			Content []struct {
				Type string `json:"type"`
			} `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use", "tool_result", "thinking", "redacted_thinking":
				return Anthropic
			}
		}
	}
	return OpenAI
}

func fromTranscript(f Format, msgs []json.RawMessage, keys map[string]json.RawMessage) (*Trace, error) {
	t := &Trace{EventsRecorded: true, Events: []Event{}}
	if keys != nil {
		if id, ok := keys["id"]; ok {
			json.Unmarshal(id, &t.ID)
		}
		if s, ok := keys["system"]; ok {
			t.System = textOf(s)
		}
	}
	for i, raw := range msgs {
		var m transcriptMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		if m.Role == "" {
			return nil, fmt.Errorf(`messages[%d]: "role" is required`, i)
		}
		var err error
		if f == Anthropic {
			err = t.addAnthropic(m)
		} else {
			err = t.addOpenAI(m)
		}
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
	}
	for _, m := range t.Messages {
		if m.Role == "user" {
			t.Scope.Text = m.Content
			break
		}
	}
	if len(t.Messages) == 0 && len(t.Events) == 0 {
		return nil, errors.New("the transcript has no messages")
	}
	t.nameResults()
	return t, nil
}

func (t *Trace) say(role string, text string) {
	if text == "" {
		return
	}
	t.Messages = append(t.Messages, Message{Role: role, Content: text})
	switch role {
	case "user":
		t.Events = append(t.Events, Event{Type: UserMessage, Content: text})
	case "assistant":
		t.Events = append(t.Events, Event{Type: AgentMessage, Content: text})
	}
}

func (t *Trace) addOpenAI(m transcriptMessage) error {
	text := textOf(m.Content)
	switch m.Role {
	case "system", "developer":
		if t.System != "" {
			t.System += "\n\n"
		}
		t.System += text
	case "user":
		t.say("user", text)
	case "assistant":
		t.say("assistant", text)
		for _, c := range m.ToolCalls {
			t.Events = append(t.Events, Event{Type: ToolCall, Name: c.Function.Name, CallID: c.ID, Arguments: argumentsJSON(c.Function.Arguments)})
		}
		if fc := m.FunctionCall; fc != nil {
			t.Events = append(t.Events, Event{Type: ToolCall, Name: fc.Name, Arguments: argumentsJSON(fc.Arguments)})
		}
	case "tool", "function":
		t.Events = append(t.Events, Event{Type: ToolResult, Name: m.Name, CallID: m.ToolCallID, Content: text})
	default:
		return fmt.Errorf("unknown role %q", m.Role)
	}
	return nil
}

func (t *Trace) addAnthropic(m transcriptMessage) error {
	if m.Role != "user" && m.Role != "assistant" {
		if m.Role == "system" {
			t.System = textOf(m.Content)
			return nil
		}
		return fmt.Errorf("unknown role %q", m.Role)
	}
	if len(m.Content) > 0 && m.Content[0] == '"' {
		t.say(m.Role, textOf(m.Content))
		return nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return fmt.Errorf("content: %w", err)
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			t.say(m.Role, b.Text)
		case "thinking":
			t.Events = append(t.Events, Event{Type: AgentThought, Content: b.Thinking})
		case "tool_use", "server_tool_use":
			t.Events = append(t.Events, Event{Type: ToolCall, Name: b.Name, CallID: b.ID, Arguments: b.Input})
		case "tool_result":
			t.Events = append(t.Events, Event{Type: ToolResult, CallID: b.ToolUseID, Content: textOf(b.Content), IsError: b.IsError})
		}
	}
	return nil
}

// argumentsJSON keeps arguments that are JSON as they are, and quotes any others as a JSON string.
func argumentsJSON(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// nameResults gives tool results the name of the call they answer, where ids pair them.
func (t *Trace) nameResults() {
	names := map[string]string{}
	for _, e := range t.Events {
		if e.Type == ToolCall && e.CallID != "" {
			names[e.CallID] = e.Name
		}
	}
	for i, e := range t.Events {
		if e.Type == ToolResult && e.Name == "" && e.CallID != "" {
			t.Events[i].Name = names[e.CallID]
		}
	}
}
