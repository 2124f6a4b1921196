package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// wardenRecord is the JSONL shape of a Warden trace. Scope may be a string (its text) or an object.
type wardenRecord struct {
	ID       string          `json:"id"`
	System   string          `json:"system"`
	Scope    json.RawMessage `json:"scope"`
	Messages []Message       `json:"messages"`
	Events   json.RawMessage `json:"events"`
	Output   string          `json:"output"`
	Label    *Label          `json:"label"`
}

func fromWarden(raw []byte) (*Trace, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var rec wardenRecord
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("warden trace: %w", err)
	}
	t := &Trace{ID: rec.ID, System: rec.System, Messages: rec.Messages, Output: rec.Output, Label: rec.Label}
	if err := decodeScope(rec.Scope, &t.Scope); err != nil {
		return nil, err
	}
	if len(rec.Events) > 0 && string(rec.Events) != "null" {
		edec := json.NewDecoder(bytes.NewReader(rec.Events))
		edec.DisallowUnknownFields()
		if err := edec.Decode(&t.Events); err != nil {
			return nil, fmt.Errorf("events: %w", err)
		}
		t.EventsRecorded = true
		for i, e := range t.Events {
			if err := checkEvent(e); err != nil {
				return nil, fmt.Errorf("events[%d]: %w", i, err)
			}
		}
	}
	if t.Label != nil {
		if t.Label.Detector == "" {
			return nil, errors.New(`label: "detector" is required`)
		}
		if t.Label.Quality == "" {
			t.Label.Quality = "human"
		}
		t.Label.Human = t.Label.Human || strings.EqualFold(t.Label.Quality, "human")
	}
	return t, nil
}

func decodeScope(raw json.RawMessage, s *Scope) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &s.Text)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(s); err != nil {
		return fmt.Errorf("scope: %w", err)
	}
	return nil
}

func checkEvent(e Event) error {
	switch e.Type {
	case UserMessage, AgentThought, AgentMessage, ToolResult:
	case ToolCall:
		if e.Name == "" {
			return errors.New(`a tool_call needs a "name"`)
		}
	case "":
		return errors.New(`"type" is required`)
	default:
		return fmt.Errorf("unknown event type %q (known: user_message, agent_thought, tool_call, tool_result, agent_message)", e.Type)
	}
	return nil
}

// MarshalJSON writes the Warden JSONL shape: "events" only when they were recorded.
func (t *Trace) MarshalJSON() ([]byte, error) {
	type plain Trace
	if !t.EventsRecorded {
		return json.Marshal(&struct {
			*plain
			Events []Event `json:"events,omitempty"`
		}{plain: (*plain)(t)})
	}
	events := t.Events
	if events == nil {
		events = []Event{}
	}
	return json.Marshal(&struct {
		*plain
		Events []Event `json:"events"`
	}{plain: (*plain)(t), Events: events})
}

// evalRecord is the evaluation record format of shared/eval/README.md.
type evalRecord struct {
	ID       string          `json:"id"`
	Detector string          `json:"detector"`
	Input    string          `json:"input"`
	Output   string          `json:"output"`
	Events   json.RawMessage `json:"trace_events"`
	Scope    string          `json:"scope"`
	System   string          `json:"system"`
	Label    *bool           `json:"label"`
	Source   string          `json:"source"`
	Meta     evalMeta        `json:"meta"`
}

type evalMeta struct {
	LabelQuality string `json:"label_quality"`
	Ambiguous    bool   `json:"ambiguous"`
}

type evalEvent struct {
	Type      EventType       `json:"type"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func fromEval(raw []byte) (*Trace, error) {
	var rec evalRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("evaluation record: %w", err)
	}
	if rec.Label == nil || rec.Detector == "" {
		return nil, errors.New(`an evaluation record needs "detector" and "label"`)
	}
	t := &Trace{ID: rec.ID, System: rec.System, Scope: Scope{Text: rec.Scope}, Output: rec.Output}
	if rec.Input != "" {
		t.Messages = append(t.Messages, Message{Role: "user", Content: rec.Input})
	}
	if rec.Output != "" {
		t.Messages = append(t.Messages, Message{Role: "assistant", Content: rec.Output})
	}
	if len(rec.Events) > 0 && string(rec.Events) != "null" {
		var evs []evalEvent
		if err := json.Unmarshal(rec.Events, &evs); err != nil {
			return nil, fmt.Errorf("trace_events: %w", err)
		}
		t.EventsRecorded = true
		t.Events = make([]Event, 0, len(evs))
		for _, e := range evs {
			ev := Event{Type: e.Type, Name: e.Name, Content: textOf(e.Content), Arguments: evalArguments(e.Arguments)}
			t.Events = append(t.Events, ev)
		}
	}
	q := rec.Meta.LabelQuality
	t.Label = &Label{
		Detector:  rec.Detector,
		Expected:  *rec.Label,
		Quality:   q,
		Human:     strings.HasPrefix(q, "human") || strings.HasPrefix(q, "by construction"),
		Ambiguous: rec.Meta.Ambiguous,
		Source:    dataset(rec.Source),
	}
	return t, nil
}

// evalArguments turns {"_raw": "..."} (arguments that were not JSON) into a JSON string.
func evalArguments(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && len(m) == 1 && m["_raw"] != nil {
		return m["_raw"]
	}
	return raw
}

// textOf returns a JSON value as text: a string's value, the text of content blocks, or the raw JSON.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '[':
		var blocks []struct {
			Type    string          `json:"type"`
			Text    *string         `json:"text"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &blocks) == nil {
			var b strings.Builder
			for _, bl := range blocks {
				s := ""
				switch {
				case bl.Text != nil:
					s = *bl.Text
				case len(bl.Content) > 0:
					s = textOf(bl.Content)
				}
				if s == "" {
					continue
				}
				if b.Len() > 0 {
					b.WriteString("\n")
				}
				b.WriteString(s)
			}
			return b.String()
		}
	}
	return string(raw)
}

// dataset names a record's source without its version and path: github:owner/repo@commit:path is the
// dataset github:owner/repo.
func dataset(source string) string {
	if i := strings.IndexByte(source, '@'); i >= 0 {
		return source[:i]
	}
	return source
}
