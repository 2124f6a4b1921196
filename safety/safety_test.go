package safety_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/safety"
)

func resp(field, value string, calls []warden.ToolCall, parts ...warden.ContentPart) warden.Response {
	return warden.Response{Message: warden.Message{Role: warden.RoleAssistant, Content: parts, ToolCalls: calls}, Signal: warden.Signal{Field: field, Value: value}}
}

func text(s string) warden.ContentPart { return warden.ContentPart{Kind: warden.ContentText, Text: s} }

func detect(r warden.Response) (safety.Termination, bool) {
	for _, nd := range safety.DefaultDetectors() {
		if t, ok := nd.Detector.Detect(&r); ok {
			return t, true
		}
	}
	return safety.Termination{}, false
}

func TestDefaultDetectors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, field, value, want string // want: the detector, "" for none
	}{
		{"content_filter trips the OpenAI-compatible detector", "finish_reason", "content_filter", "openai_compatible_content_filter"},
		{"the match ignores case", "finish_reason", "CONTENT_FILTER", "openai_compatible_content_filter"},
		{"stop is not a safety stop", "finish_reason", "stop", ""},
		{"tool_calls is not a safety stop", "finish_reason", "tool_calls", ""},
		{"length is not a safety stop", "finish_reason", "length", ""},
		{"refusal trips the Anthropic detector", "stop_reason", "refusal", "anthropic_refusal"},
		{"end_turn does not", "stop_reason", "end_turn", ""},
		{"tool_use does not", "stop_reason", "tool_use", ""},
		{"max_tokens does not", "stop_reason", "max_tokens", ""},
		{"SAFETY trips the Gemini detector", "finishReason", "SAFETY", "gemini_safety"},
		{"BLOCKLIST trips it", "finishReason", "BLOCKLIST", "gemini_safety"},
		{"PROHIBITED_CONTENT trips it", "finishReason", "PROHIBITED_CONTENT", "gemini_safety"},
		{"SPII trips it", "finishReason", "SPII", "gemini_safety"},
		{"RECITATION trips it", "finishReason", "RECITATION", "gemini_safety"},
		{"IMAGE_SAFETY trips it", "finishReason", "IMAGE_SAFETY", "gemini_safety"},
		{"IMAGE_PROHIBITED_CONTENT trips it", "finishReason", "IMAGE_PROHIBITED_CONTENT", "gemini_safety"},
		{"IMAGE_RECITATION trips it", "finishReason", "IMAGE_RECITATION", "gemini_safety"},
		{"Gemini's native values through its OpenAI-compatible endpoint trip it", "finish_reason", "SAFETY", "gemini_safety"},
		{"STOP does not", "finishReason", "STOP", ""},
		{"MAX_TOKENS does not", "finishReason", "MAX_TOKENS", ""},
		{"LANGUAGE does not", "finishReason", "LANGUAGE", ""},
		{"NO_IMAGE does not", "finishReason", "NO_IMAGE", ""},
		{"OTHER does not", "finishReason", "OTHER", ""},
		{"IMAGE_OTHER does not", "finishReason", "IMAGE_OTHER", ""},
		{"MALFORMED_FUNCTION_CALL does not", "finishReason", "MALFORMED_FUNCTION_CALL", ""},
		{"UNEXPECTED_TOOL_CALL does not", "finishReason", "UNEXPECTED_TOOL_CALL", ""},
		{"FINISH_REASON_UNSPECIFIED does not", "finishReason", "FINISH_REASON_UNSPECIFIED", ""},
		{"a Gemini prompt block trips the prompt-block detector", "promptFeedback.blockReason", "PROHIBITED_CONTENT", "gemini_prompt_block"},
		{"an unspecified block reason does not", "promptFeedback.blockReason", "BLOCK_REASON_UNSPECIFIED", ""},
		{"a Responses content filter trips its detector", "incomplete_details.reason", "content_filter", "openai_responses_incomplete"},
		{"a Responses output limit does not", "incomplete_details.reason", "max_output_tokens", ""},
		{"a Bedrock guardrail intervention trips its detector", "stopReason", "guardrail_intervened", "bedrock_guardrail"},
		{"Bedrock content_filtered trips it", "stopReason", "content_filtered", "bedrock_guardrail"},
		{"a Bedrock end_turn does not", "stopReason", "end_turn", ""},
		{"Cohere ERROR_TOXIC trips its detector", "finish_reason", "ERROR_TOXIC", "cohere_toxic"},
		{"no signal, no stop", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, ok := detect(resp(tt.field, tt.value, nil))
			if tt.want == "" {
				if ok {
					t.Errorf("fired %+v", got)
				}
				return
			}
			if !ok || got.Detector != tt.want || got.Field != tt.field || got.Value != tt.value {
				t.Errorf("got %+v (%v), want %s on %s=%s with the value as received", got, ok, tt.want, tt.field, tt.value)
			}
		})
	}
}

func TestDefaultDetectorsAreFreshEachCall(t *testing.T) {
	t.Parallel()
	a, b := safety.DefaultDetectors(), safety.DefaultDetectors()
	if len(a) != 11 || a[0].Name != "openai_compatible_content_filter" || a[1].Name != "anthropic_refusal" || a[2].Name != "gemini_safety" {
		t.Fatalf("defaults = %v", a)
	}
	a[0].Detector.(*safety.FieldDetector).Values = []string{"x"}
	if b[0].Detector.(*safety.FieldDetector).Values != nil {
		t.Error("changing one list changed another")
	}
}

const explainSuppressed = "The model provider stopped this response with a safety-related signal (finish_reason='content_filter', detector='openai_compatible_content_filter'). Any tool calls produced in this turn were suppressed because their arguments may be truncated and unsafe to execute. Please rephrase the request or ask for a narrower output."

func provisioned(t *testing.T, g *safety.Guardrail) *safety.Guardrail {
	t.Helper()
	if err := g.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGuardrail(t *testing.T) {
	t.Parallel()
	writeFile := warden.NewToolCall("call_1", "write_file", []byte(`{"path":"a.md","content":"# Title\nSome tex`))
	bash := warden.NewToolCall("call_2", "bash", []byte(`{"command":"ls"}`))
	reasoning := warden.ContentPart{Kind: warden.ContentReasoning, Text: "thinking"}
	tests := []struct {
		desc       string
		in         warden.Response
		wantAction warden.Action
		wantText   string // the message's text afterwards, "" to skip
		wantCalls  int
		wantMeta   map[string]string
	}{
		{desc: "a safety stop with tool calls clears them, keeps the text and explains",
			in: resp("finish_reason", "content_filter", []warden.ToolCall{writeFile, bash}, text("Here is the file")), wantAction: warden.ActionModify,
			wantText: "Here is the file\n\n" + explainSuppressed, wantCalls: 0,
			wantMeta: map[string]string{"suppressed_tool_call_count": "2", "suppressed_tool_call_names": "write_file,bash", "suppressed_tool_call_ids": "call_1,call_2", "reason_value": "content_filter"}},
		{desc: "with tool calls and no content, the explanation is the content",
			in: resp("finish_reason", "content_filter", []warden.ToolCall{bash}), wantAction: warden.ActionModify, wantText: explainSuppressed},
		{desc: "a safety stop with text and no tool calls changes nothing but is recorded",
			in: resp("finish_reason", "content_filter", nil, text("A partial answer")), wantAction: warden.ActionAllow, wantText: "A partial answer",
			wantMeta: map[string]string{"suppressed_tool_call_count": "0"}},
		{desc: "a blank safety stop is backfilled without claiming a suppression",
			in: resp("finish_reason", "content_filter", nil), wantAction: warden.ActionModify,
			wantText: "The model provider stopped this response with a safety-related signal (finish_reason='content_filter', detector='openai_compatible_content_filter') and returned no content. Please rephrase your request or start a new conversation.",
			wantMeta: map[string]string{"suppressed_tool_call_count": "0", "suppressed_tool_call_names": ""}},
		{desc: "whitespace-only content counts as blank", in: resp("finish_reason", "content_filter", nil, text("  \n")), wantAction: warden.ActionModify},
		{desc: "an Anthropic refusal with blank content is backfilled", in: resp("stop_reason", "refusal", nil), wantAction: warden.ActionModify},
		{desc: "a Gemini SAFETY stop with a function call clears it", in: resp("finishReason", "SAFETY", []warden.ToolCall{bash}), wantAction: warden.ActionModify, wantCalls: 0},
		{desc: "incomplete tool calls are cleared too",
			in: resp("finish_reason", "content_filter", []warden.ToolCall{warden.NewToolCall("c", "write_file", []byte(`{"path":`))}), wantAction: warden.ActionModify, wantCalls: 0},
		{desc: "reasoning parts are kept and the explanation added after them",
			in: resp("finish_reason", "content_filter", []warden.ToolCall{bash}, reasoning), wantAction: warden.ActionModify, wantText: "\n\n" + explainSuppressed},
		{desc: "blank content with a normal stop is left alone", in: resp("finish_reason", "stop", nil), wantAction: warden.ActionAllow},
		{desc: "healthy tool calls are left alone", in: resp("finish_reason", "tool_calls", []warden.ToolCall{bash}), wantAction: warden.ActionAllow, wantCalls: 1},
		{desc: "tool calls with a normal stop are left alone", in: resp("finish_reason", "stop", []warden.ToolCall{bash}), wantAction: warden.ActionAllow, wantCalls: 1},
		{desc: "a length stop removes only the calls it cut off",
			in: warden.Response{Message: warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{bash, warden.NewToolCall("c3", "write_file", []byte(`{"content":"abc`))}},
				FinishReason: warden.FinishLength, Signal: warden.Signal{Field: "finish_reason", Value: "length"}},
			wantAction: warden.ActionModify, wantCalls: 1, wantMeta: map[string]string{"suppressed_tool_call_names": "write_file", "suppressed_tool_call_ids": "c3"}},
		{desc: "a length stop with complete calls is left alone",
			in: warden.Response{Message: warden.Message{Role: warden.RoleAssistant, ToolCalls: []warden.ToolCall{bash}}, FinishReason: warden.FinishLength}, wantAction: warden.ActionAllow, wantCalls: 1},
	}
	g := provisioned(t, &safety.Guardrail{})
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			d, err := g.CheckResponse(context.Background(), warden.ResponseCheck{Response: tt.in})
			if err != nil || d.Action != tt.wantAction {
				t.Fatalf("decision %s (%v), want %s", d.Action, err, tt.wantAction)
			}
			out := tt.in
			if d.Action == warden.ActionModify {
				out = d.Replacement.(warden.Response)
				if out.Signal != tt.in.Signal || out.FinishReason != tt.in.FinishReason {
					t.Errorf("the provider's finish reason changed: %+v", out.Signal)
				}
			}
			if tt.wantText != "" && out.Message.Text() != tt.wantText {
				t.Errorf("text = %q\nwant   %q", out.Message.Text(), tt.wantText)
			}
			if len(out.Message.ToolCalls) != tt.wantCalls {
				t.Errorf("tool calls = %d, want %d", len(out.Message.ToolCalls), tt.wantCalls)
			}
			for k, v := range tt.wantMeta {
				if d.Metadata[k] != v {
					t.Errorf("metadata %s = %q, want %q", k, d.Metadata[k], v)
				}
			}
		})
	}
}

func TestRewrittenResponseIsStable(t *testing.T) {
	t.Parallel()
	g := provisioned(t, &safety.Guardrail{})
	in := resp("finish_reason", "content_filter", []warden.ToolCall{warden.NewToolCall("c", "bash", []byte(`{}`))}, text("partial"))
	d1, _ := g.CheckResponse(context.Background(), warden.ResponseCheck{Response: in})
	once := d1.Replacement.(warden.Response)
	d2, _ := g.CheckResponse(context.Background(), warden.ResponseCheck{Response: once})
	if d2.Action != warden.ActionAllow {
		t.Errorf("a second pass changed the rewritten response: %s", d2.Action)
	}
}

type panicky struct{}

func (panicky) Detect(*warden.Response) (safety.Termination, bool) { panic("boom") }

type always struct{ name string }

func (a always) Detect(*warden.Response) (safety.Termination, bool) {
	return safety.Termination{Detector: a.name, Field: "x", Value: "y"}, true
}

func init() {
	warden.Register(warden.ModuleInfo{ID: safety.DetectorModuleID("test_panicky"), New: func() any { return panicky{} }})
	warden.Register(warden.ModuleInfo{ID: safety.DetectorModuleID("test_first"), New: func() any { return always{"test_first"} }})
	warden.Register(warden.ModuleInfo{ID: safety.DetectorModuleID("test_second"), New: func() any { return always{"test_second"} }})
}

func TestDetectorList(t *testing.T) {
	t.Parallel()
	twoSignals := warden.Response{Message: warden.Message{Role: warden.RoleAssistant},
		Signal:  warden.Signal{Field: "finish_reason", Value: "content_filter"},
		Signals: []warden.Signal{{Field: "promptFeedback.blockReason", Value: "SAFETY"}}}
	list := func(uses ...string) *[]safety.DetectorConfig {
		var out []safety.DetectorConfig
		for _, u := range uses {
			out = append(out, safety.DetectorConfig{Use: u})
		}
		return &out
	}
	tests := []struct {
		desc      string
		detectors *[]safety.DetectorConfig
		in        warden.Response
		want      string // detector that fired, "" none
	}{
		{"detectors run in order and the first hit wins", list("test_first", "test_second"), resp("", "", nil), "test_first"},
		{"a detector that panics is skipped and the next one fires", list("test_panicky", "test_second"), resp("", "", nil), "test_second"},
		{"a replaced list no longer has the defaults", list("anthropic_refusal"), resp("finish_reason", "content_filter", nil), ""},
		{"configured values replace a detector's defaults", &[]safety.DetectorConfig{{Use: "openai_compatible_content_filter", Values: []string{"sensitive", "violation"}}},
			resp("finish_reason", "sensitive", nil), "openai_compatible_content_filter"},
		{"and its default value no longer matches", &[]safety.DetectorConfig{{Use: "openai_compatible_content_filter", Values: []string{"sensitive"}}},
			resp("finish_reason", "content_filter", nil), ""},
		{"list order wins over signal order", list("gemini_prompt_block", "openai_compatible_content_filter"), twoSignals, "gemini_prompt_block"},
		{"and the other way round", list("openai_compatible_content_filter", "gemini_prompt_block"), twoSignals, "openai_compatible_content_filter"},
		{"a field detector before a detector that reads any field fires first", list("openai_compatible_content_filter", "test_first"), twoSignals, "openai_compatible_content_filter"},
		{"a detector that reads any field before a field detector fires first", list("test_first", "openai_compatible_content_filter"), twoSignals, "test_first"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			g := provisioned(t, &safety.Guardrail{Detectors: tt.detectors})
			d, _ := g.CheckResponse(context.Background(), warden.ResponseCheck{Response: tt.in})
			if got := d.Metadata["detector"]; got != tt.want {
				t.Errorf("detector = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, config, want string }{
		{"an empty detector list points to enabled: false", "{detectors: []}", "write enabled: false"},
		{"an unknown detector lists the registered ones", "{detectors: [{use: nope}]}", `unknown detector "nope" (registered: `},
		{"an unknown key fails", "{detector: []}", `unknown key "detector"`},
		{"an unknown key in a detector fails", "{detectors: [{use: anthropic_refusal, stop_reasons: [x]}]}", `unknown key "stop_reasons"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("response", "safety", tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("enabled: false skips the guardrail", func(t *testing.T) {
		t.Parallel()
		l, err := configtest.Load("response", "safety", "{enabled: false}")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		out, _ := l.Engine.CheckResponse(context.Background(), warden.ResponseCheck{Response: resp("finish_reason", "content_filter", nil)})
		if out.Evaluations[0].Status != warden.StatusSkipped || out.Decision.Action != warden.ActionAllow {
			t.Errorf("evaluation %s, decision %s", out.Evaluations[0].Status, out.Decision.Action)
		}
	})
}

func TestAuditRecordsTheStopWithoutArguments(t *testing.T) {
	t.Parallel()
	const sentinel = "SENTINEL-filtered-tool-arguments"
	var buf bytes.Buffer
	e, err := warden.NewEngine(warden.Spec{
		Response: []warden.Entry{{Name: "safety", Guardrail: provisioned(t, &safety.Guardrail{})}},
		Recorder: audit.NewRecorder(audit.NewJSONL(&buf)),
	})
	if err != nil {
		t.Fatal(err)
	}
	in := resp("finish_reason", "content_filter", []warden.ToolCall{warden.NewToolCall("call_9", "write_file", []byte(`{"content":"`+sentinel))}, text("partial "+sentinel))
	out, err := e.CheckResponse(context.Background(), warden.ResponseCheck{Run: warden.RunInfo{ThreadID: "t1"}, Response: in})
	if err != nil || out.Decision.Action != warden.ActionModify {
		t.Fatalf("decision %s (%v)", out.Decision.Action, err)
	}
	got := buf.String()
	for _, want := range []string{`"code":"warden.safety_stop"`, "finish_reason='content_filter'", "write_file", "call_9", `"thread_id":"t1"`} {
		if !strings.Contains(got, want) {
			t.Errorf("audit lacks %s:\n%s", want, got)
		}
	}
	if strings.Contains(got, sentinel) {
		t.Errorf("audit carries the filtered content:\n%s", got)
	}
}
