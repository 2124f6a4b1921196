// Package recovery is the error_recovery stream guardrail: when a stream carries an error about the model's
// own tool call — a tool that does not exist, arguments that are not JSON or do not match the schema, a
// call the provider could not produce, a tool call when none was allowed — it turns the error into a
// self-correction whose feedback, in the model's voice, says what went wrong and what to use instead. Any
// other error passes on unchanged and ends the stream (no retry can fix it).
//
// It matches the typed *warden.ToolCallError first, then falls back to the wording providers use (seed
// 003's seven rules, case-sensitive as there). A tool the model invented that is really a skill is
// recognised by name without regard to case, spaces, dashes or underscores, and the feedback points to the
// skill's instructions; otherwise the feedback lists the tools and the closest name.
package recovery

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.stream.error_recovery",
		New:     func() any { return new(Recovery) },
		Summary: "turns errors about the model's own tool calls into self-corrections that name the tools to use",
	})
}

// Recovery has no configuration.
type Recovery struct{}

var _ warden.StreamGuardrail = (*Recovery)(nil)

// The reason code of every correction it asks for.
const Code = "error_recovery.tool_call"

var (
	toolName     = regexp.MustCompile(`tool '([^']+)'`)
	schemaTool   = regexp.MustCompile(`parameters for tool (\w+)`)
	schemaErrors = regexp.MustCompile(`errors: \[([^\]]+)\]`)
)

// CheckPart asks for a correction on a recoverable error part and allows everything else.
func (Recovery) CheckPart(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
	if c.Part.Kind != warden.PartError || c.Part.Err == nil {
		return warden.Allow(), nil
	}
	tce := classify(c.Part.Err)
	if tce == nil {
		return warden.Allow(), nil // not recoverable: the error goes on to the client
	}
	return warden.Retry(Code, feedback(tce, c.Tools, c.Skills)), nil
}

// classify reads an error as a tool-call error: the typed error when there is one, else by its wording.
func classify(err error) *warden.ToolCallError {
	var tce *warden.ToolCallError
	if errors.As(err, &tce) {
		return tce
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "Tool choice is none"):
		return &warden.ToolCallError{Kind: warden.ToolChoiceNone}
	case strings.Contains(msg, "not in request.tools") || strings.Contains(msg, "tool") && strings.Contains(msg, "not found"):
		name := "unknown"
		if m := toolName.FindStringSubmatch(msg); m != nil {
			name = m[1]
		}
		return &warden.ToolCallError{Kind: warden.NoSuchTool, Tool: name}
	case strings.Contains(msg, "Failed to parse tool call arguments") || strings.Contains(msg, "parse tool call") || strings.Contains(msg, "invalid JSON"):
		return &warden.ToolCallError{Kind: warden.InvalidArguments}
	case strings.Contains(msg, "validation failed") && strings.Contains(msg, "did not match schema"):
		e := &warden.ToolCallError{Kind: warden.SchemaMismatch}
		if m := schemaTool.FindStringSubmatch(msg); m != nil {
			e.Tool = m[1]
		}
		if m := schemaErrors.FindStringSubmatch(msg); m != nil {
			e.Detail = m[1]
		}
		return e
	case strings.Contains(msg, "Parsing failed"):
		return &warden.ToolCallError{Kind: warden.MalformedResponse}
	case strings.Contains(msg, "Failed to call a function") || strings.Contains(msg, "failed_generation"):
		return &warden.ToolCallError{Kind: warden.MalformedCall}
	}
	return nil
}

const noTools = "Let me respond with plain text instead."

// feedback is the correction in the model's voice.
func feedback(e *warden.ToolCallError, tools []string, skills []warden.Skill) string {
	list := strings.Join(tools, ", ")
	switch e.Kind {
	case warden.ToolChoiceNone:
		if len(tools) == 0 {
			return "I tried to call a tool, but no tools are available. " + noTools
		}
		return "I tried to call a tool that doesn't exist. Available tools: " + list + ". Let me use one of these instead."
	case warden.NoSuchTool:
		name := e.Tool
		if name == "" {
			name = "unknown"
		}
		for _, s := range skills {
			if normalize(s.Name) == normalize(name) {
				return fmt.Sprintf("%q is a skill, not a tool. There is no separate invoke action for it. Read the skill at %s and follow the instructions there.", s.Name, s.Path)
			}
		}
		if len(tools) == 0 {
			return fmt.Sprintf("I tried to call %q but it doesn't exist, and no tools are available. %s", name, noTools)
		}
		msg := fmt.Sprintf("I tried to call %q but it doesn't exist. Available tools: %s.", name, list)
		if near := closest(name, tools, skills); near != "" {
			msg += fmt.Sprintf(" The closest is %q.", near)
		}
		return msg + " Let me use one of these instead."
	case warden.InvalidArguments:
		return "I generated malformed JSON for the tool arguments. Let me format my tool call properly with valid JSON."
	case warden.SchemaMismatch:
		return fmt.Sprintf("I called %q with invalid parameters. Schema errors: %s. Let me fix the parameters and try again.", e.Tool, e.Detail)
	case warden.MalformedCall:
		if len(tools) == 0 {
			return "My function call was malformed, and no tools are available. " + noTools
		}
		return "My function call was malformed. Available tools: " + list + ". Let me format my tool call correctly."
	case warden.MalformedResponse:
		return "My response format was invalid. Let me try again with a properly formatted response."
	}
	return "My tool call failed (" + e.Error() + "). Let me try again differently."
}

// normalize compares names the way a model confuses them: case, spaces, dashes and underscores aside.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r != ' ' && r != '-' && r != '_' && r != '.' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// closest returns the offered tool (or skill) nearest to name, when one is near enough to be a slip:
// an edit distance of at most a third of the name's length.
func closest(name string, tools []string, skills []warden.Skill) string {
	best, bestD := "", len(name)/3+1
	try := func(c string) {
		if d := distance(normalize(name), normalize(c)); d < bestD {
			best, bestD = c, d
		}
	}
	for _, t := range tools {
		try(t)
	}
	for _, s := range skills {
		try(s.Name)
	}
	return best
}

// distance is the Levenshtein distance between two strings, by bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
