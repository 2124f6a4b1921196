package trace

import (
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
)

// OTLP JSON (the OpenTelemetry protocol's JSON encoding) as exporters write it.
type otlpExport struct {
	ResourceSpans []struct {
		ScopeSpans []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
	ScopeSpans []struct {
		Spans []otlpSpan `json:"spans"`
	} `json:"scopeSpans"`
	Spans []otlpSpan `json:"spans"`
}

type otlpSpan struct {
	TraceID   string          `json:"traceId"`
	SpanID    string          `json:"spanId"`
	Name      string          `json:"name"`
	Start     json.RawMessage `json:"startTimeUnixNano"` // a string (OTLP JSON) or a number
	Attrs     []otlpAttr      `json:"attributes"`
	startNano uint64
}

type otlpAttr struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

type otlpValue struct {
	String *string                       `json:"stringValue"`
	Int    json.RawMessage               `json:"intValue"`
	Bool   *bool                         `json:"boolValue"`
	Array  *struct{ Values []otlpValue } `json:"arrayValue"`
}

func (v otlpValue) text() string {
	switch {
	case v.String != nil:
		return *v.String
	case len(v.Int) > 0:
		return string(v.Int)
	case v.Bool != nil:
		return strconv.FormatBool(*v.Bool)
	}
	return ""
}

// The parts of gen_ai.input.messages / gen_ai.output.messages / gen_ai.system_instructions.
type genaiMessage struct {
	Role  string      `json:"role"`
	Parts []genaiPart `json:"parts"`
}

type genaiPart struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
}

// fromOTel groups the spans of an export by trace id and reads each trace's GenAI spans in start order:
// inference spans (gen_ai.input.messages, gen_ai.output.messages, gen_ai.system_instructions) and tool
// execution spans (gen_ai.tool.name, gen_ai.tool.call.arguments, gen_ai.tool.call.result).
func fromOTel(keys map[string]json.RawMessage) ([]*Trace, error) {
	raw, err := json.Marshal(keys)
	if err != nil {
		return nil, err
	}
	var ex otlpExport
	if err := json.Unmarshal(raw, &ex); err != nil {
		return nil, err
	}
	var spans []otlpSpan
	for _, rs := range ex.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			spans = append(spans, ss.Spans...)
		}
	}
	for _, ss := range ex.ScopeSpans {
		spans = append(spans, ss.Spans...)
	}
	spans = append(spans, ex.Spans...)
	if len(spans) == 0 {
		var one otlpSpan
		if json.Unmarshal(raw, &one) == nil && one.SpanID != "" {
			spans = append(spans, one)
		}
	}
	for i := range spans {
		var s string
		if json.Unmarshal(spans[i].Start, &s) != nil {
			s = string(spans[i].Start)
		}
		spans[i].startNano, _ = strconv.ParseUint(s, 10, 64)
	}
	slices.SortStableFunc(spans, func(a, b otlpSpan) int { return cmp.Compare(a.startNano, b.startNano) })
	var order []string
	byTrace := map[string]*otelBuilder{}
	for _, sp := range spans {
		b := byTrace[sp.TraceID]
		if b == nil {
			b = &otelBuilder{t: &Trace{ID: sp.TraceID, Events: []Event{}}, calls: map[string]bool{}, results: map[string]bool{}}
			byTrace[sp.TraceID] = b
			order = append(order, sp.TraceID)
		}
		b.span(sp)
	}
	var out []*Trace
	for _, id := range order {
		b := byTrace[id]
		if !b.genai {
			continue
		}
		b.t.EventsRecorded = true
		b.t.nameResults()
		out = append(out, b.t)
	}
	if len(out) == 0 {
		return nil, errors.New("no GenAI spans (gen_ai.* attributes) in the export")
	}
	return out, nil
}

type otelBuilder struct {
	t       *Trace
	genai   bool
	users   int // user messages seen in input histories
	calls   map[string]bool
	results map[string]bool
}

func (b *otelBuilder) span(sp otlpSpan) {
	attrs := map[string]string{}
	for _, a := range sp.Attrs {
		attrs[a.Key] = a.Value.text()
	}
	op := attrs["gen_ai.operation.name"]
	if op == "" && attrs["gen_ai.input.messages"] == "" && attrs["gen_ai.tool.name"] == "" {
		return
	}
	b.genai = true
	if s := attrs["gen_ai.system_instructions"]; s != "" && b.t.System == "" {
		var parts []genaiPart
		if json.Unmarshal([]byte(s), &parts) == nil {
			for _, p := range parts {
				b.t.System += textOf(p.Content)
			}
		} else {
			b.t.System = s
		}
	}
	if in := attrs["gen_ai.input.messages"]; in != "" {
		var msgs []genaiMessage
		if json.Unmarshal([]byte(in), &msgs) == nil {
			users := 0
			for _, m := range msgs {
				b.message(m, true, &users)
			}
			b.users = max(b.users, users)
		}
	}
	if op == "execute_tool" || attrs["gen_ai.tool.name"] != "" {
		id := attrs["gen_ai.tool.call.id"]
		if id == "" || !b.calls[id] {
			b.calls[id] = id != ""
			b.t.Events = append(b.t.Events, Event{Type: ToolCall, Name: attrs["gen_ai.tool.name"], CallID: id, Arguments: argumentsJSON(attrs["gen_ai.tool.call.arguments"])})
		}
		if r, ok := attrs["gen_ai.tool.call.result"]; ok && (id == "" || !b.results[id]) {
			b.results[id] = id != ""
			b.t.Events = append(b.t.Events, Event{Type: ToolResult, Name: attrs["gen_ai.tool.name"], CallID: id, Content: r})
		}
	}
	if out := attrs["gen_ai.output.messages"]; out != "" {
		var msgs []genaiMessage
		if json.Unmarshal([]byte(out), &msgs) == nil {
			for _, m := range msgs {
				b.message(m, false, nil)
			}
		}
	}
}

// message adds a GenAI message's parts. An inference span's input history repeats every earlier message,
// so from an input only user texts beyond the ones seen (users counts them) and assistant texts not yet
// recorded are new.
func (b *otelBuilder) message(m genaiMessage, fromInput bool, users *int) {
	for _, p := range m.Parts {
		switch p.Type {
		case "text":
			text := textOf(p.Content)
			switch m.Role {
			case "system":
				if b.t.System == "" {
					b.t.System = text
				}
			case "user":
				if fromInput {
					*users++
				}
				if !fromInput || *users > b.users {
					b.t.say("user", text)
					if b.t.Scope.Text == "" {
						b.t.Scope.Text = text
					}
				}
			case "assistant":
				if !fromInput || !b.said(text) {
					b.t.say("assistant", text)
				}
			}
		case "reasoning":
			b.t.Events = append(b.t.Events, Event{Type: AgentThought, Content: textOf(p.Content)})
		case "tool_call":
			if p.ID == "" || !b.calls[p.ID] {
				b.calls[p.ID] = p.ID != ""
				b.t.Events = append(b.t.Events, Event{Type: ToolCall, Name: p.Name, CallID: p.ID, Arguments: p.Arguments})
			}
		case "tool_call_response":
			if p.ID == "" || !b.results[p.ID] {
				b.results[p.ID] = p.ID != ""
				b.t.Events = append(b.t.Events, Event{Type: ToolResult, CallID: p.ID, Content: textOf(p.Response)})
			}
		}
	}
}

// said reports whether the assistant already said a text.
func (b *otelBuilder) said(text string) bool {
	for _, m := range b.t.Messages {
		if m.Role == "assistant" && m.Content == text {
			return true
		}
	}
	return false
}
