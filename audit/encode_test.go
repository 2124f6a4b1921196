package audit

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/agentwarden/warden"
)

func sampleEvent() Event {
	return Event{V: Version, Time: time.Date(2026, 11, 27, 21, 3, 4, 123456789, time.UTC), Kind: "evaluation", Stage: "tool_call",
		Guardrail: "commands", Module: "guardrail.tool_call.commands", Mode: "enforce", Status: "evaluated", Action: "reject",
		Effect: "reject", Reasons: []warden.Reason{{Code: "warden.destructive_delete", Message: "recursive deletion outside the working directory"}},
		PolicyID: "commands/destructive-delete", DurationUS: 4.217, Decision: "reject", RunID: "run_1", ToolName: "bash", ToolCallID: "call_1"}
}

// The hand-written encoder writes what encoding/json writes, whatever the event holds.
func TestAppendEventMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	berlin := time.FixedZone("CET", 3600)
	tests := []struct {
		desc string
		edit func(e *Event)
	}{
		{"a denied call's event", func(*Event) {}},
		{"an allowed call's event with nothing optional", func(e *Event) {
			e.Module, e.Action, e.Reasons, e.PolicyID, e.RunID, e.ToolName, e.ToolCallID = "", "", nil, "", "", "", ""
		}},
		{"flags set", func(e *Event) { e.WouldBlock, e.IsSubagent = true, true }},
		{"a reason without a message", func(e *Event) { e.Reasons = []warden.Reason{{Code: "x"}, {Code: "y", Message: "z"}} }},
		{"HTML and control characters are escaped", func(e *Event) { e.Error = "<a href='x'>&</a>\n\t\r\b\f\x01\x1f \"quoted\" back\\slash" }},
		{"line and paragraph separators are escaped", func(e *Event) { e.Skip = "a\u2028b\u2029c" }},
		{"invalid UTF-8 becomes U+FFFD", func(e *Event) { e.Guardrail = "bad\xff\xfebyte\xc3" }},
		{"non-ASCII passes as it is", func(e *Event) { e.ThreadID = "thread · 日本語 ✓ 😀" }},
		{"a whole-microsecond duration", func(e *Event) { e.DurationUS = 12 }},
		{"a tiny duration in exponent notation", func(e *Event) { e.DurationUS = 1.5e-7 }},
		{"a huge duration in exponent notation", func(e *Event) { e.DurationUS = 3e21 }},
		{"a zero duration", func(e *Event) { e.DurationUS = 0 }},
		{"a time in another zone", func(e *Event) { e.Time = e.Time.In(berlin) }},
		{"a time without fractional seconds", func(e *Event) { e.Time = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }},
		{"the zero time", func(e *Event) { e.Time = time.Time{} }},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			e := sampleEvent()
			tc.edit(&e)
			want, wantErr := json.Marshal(&e)
			got, err := appendEvent(nil, &e)
			if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
				t.Errorf("appendEvent:\n%s (err %v)\njson.Marshal:\n%s (err %v)", got, err, want, wantErr)
			}
		})
	}
}

func FuzzAppendEvent(f *testing.F) {
	f.Add("commands", "recursive <deletion> & \"more\"", "run\u2028x", 4.217, int64(1764277384123456789), false)
	f.Add("\xff\xfe", "\x00\x1f", "", 1e-7, int64(0), true)
	f.Fuzz(func(t *testing.T, name, message, id string, dur float64, unixNano int64, flag bool) {
		e := sampleEvent()
		e.Guardrail, e.Reasons[0].Message, e.RunID, e.DurationUS, e.WouldBlock = name, message, id, dur, flag
		e.Time = time.Unix(0, unixNano).UTC()
		want, wantErr := json.Marshal(&e)
		got, err := appendEvent(nil, &e)
		if (err != nil) != (wantErr != nil) || wantErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("appendEvent:\n%s (err %v)\njson.Marshal:\n%s (err %v)", got, err, want, wantErr)
		}
	})
}

// What encoding one event costs, by hand and with encoding/json.
func BenchmarkEncodeEvent(b *testing.B) {
	e := sampleEvent()
	b.Run("appendEvent", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf, _ = appendEvent(buf[:0], &e)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(&e)
		}
	})
}

// TestAppendEventWritesEveryField sets every field of the event, so that a field added to Event and
// forgotten by the hand-written encoder cannot go unseen (approval_id and approver once were).
func TestAppendEventWritesEveryField(t *testing.T) {
	t.Parallel()
	e := sampleEvent()
	v := reflect.ValueOf(&e).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("value of " + v.Type().Field(i).Name)
		case reflect.Bool:
			f.SetBool(true)
		}
	}
	want, _ := json.Marshal(&e)
	got, err := appendEvent(nil, &e)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("appendEvent:\n%s (err %v)\njson.Marshal:\n%s", got, err, want)
	}
}
