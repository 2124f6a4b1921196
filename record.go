package warden

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"
)

// Recorder receives the evaluations of every stage the engine runs: the audit hook. Record is called
// synchronously, after the stage decided and before the stage returns; a Recorder that does I/O should
// buffer. The context is never cancelled, so a record is written even when the caller has gone.
//
// A Recorder must be safe for concurrent use. It must not keep rec after Record returns.
type Recorder interface {
	Record(ctx context.Context, rec *Record)
}

// RecorderFunc adapts a function to Recorder.
type RecorderFunc func(ctx context.Context, rec *Record)

// Record calls f.
func (f RecorderFunc) Record(ctx context.Context, rec *Record) { f(ctx, rec) }

// Record is what one stage did with one subject.
type Record struct {
	Time        time.Time
	Stage       Stage
	Run         RunInfo
	ToolName    string
	ToolCallID  string
	Decision    Decision
	Evaluations []Evaluation
	// subject is what the stage checked; it is kept only to scrub content out of messages and errors.
	subject   any
	sensitive []string
}

// minScrubLen keeps very short content (a bare "ls") from mangling unrelated words when scrubbing.
const minScrubLen = 4

// Scrub removes the checked subject's content from s: every text, argument string, argument object and
// tool result of the subject that occurs in s is replaced by "[redacted]". Audit sinks pass reason messages
// and error texts through it, because a guardrail may quote what it filtered.
func (r *Record) Scrub(s string) string {
	if s == "" {
		return s
	}
	if r.sensitive == nil {
		r.sensitive = sensitiveStrings(r.subject)
	}
	for _, x := range r.sensitive {
		if strings.Contains(s, x) {
			s = strings.ReplaceAll(s, x, "[redacted]")
		}
	}
	return s
}

func record[C any](e *Engine, ctx context.Context, s Stage, run RunInfo, d Decision, evs []Evaluation, c C) {
	if e.recorder == nil {
		return
	}
	rec := &Record{Time: time.Now().UTC(), Stage: s, Run: run, Decision: d, Evaluations: evs, subject: c}
	switch v := any(c).(type) {
	case ToolCallCheck:
		rec.ToolName, rec.ToolCallID = v.Call.Name, v.Call.ID
	case ToolResultCheck:
		rec.ToolName, rec.ToolCallID = v.Call.Name, v.Call.ID
	}
	e.recorder.Record(context.WithoutCancel(ctx), rec)
}

// sensitiveStrings lists the content of a subject, longest first so that a longer match is replaced whole.
func sensitiveStrings(subject any) []string {
	var out []string
	add := func(s string) {
		if len(s) >= minScrubLen {
			out = append(out, s)
		}
	}
	addCall := func(c ToolCall) {
		add(string(c.Arguments))
		var v any
		if json.Unmarshal(c.Arguments, &v) == nil {
			jsonStrings(v, add)
		}
	}
	addMsg := func(m Message) {
		for _, p := range m.Content {
			add(p.Text)
		}
		for _, c := range m.ToolCalls {
			addCall(c)
		}
	}
	switch v := subject.(type) {
	case InputCheck:
		for _, m := range v.Messages {
			addMsg(m)
		}
	case ResponseCheck:
		addMsg(v.Response.Message)
	case ToolCallCheck:
		addCall(v.Call)
	case ToolResultCheck:
		addCall(v.Call)
		add(v.Result.Content)
	case OutputCheck:
		addMsg(v.Output)
	case PartCheck:
		add(v.Part.Text)
		add(v.Part.ToolCall.ArgumentsDelta)
		add(v.Pending)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	if out == nil {
		out = []string{}
	}
	return out
}

// jsonStrings calls add for every string value in a decoded JSON value. Keys are names, not content.
func jsonStrings(v any, add func(string)) {
	switch x := v.(type) {
	case string:
		add(x)
	case map[string]any:
		for _, e := range x {
			jsonStrings(e, add)
		}
	case []any:
		for _, e := range x {
			jsonStrings(e, add)
		}
	}
}
