// Package regex is the regex stream guardrail: user patterns, each with an action — retry with feedback,
// halt, or redact — over a window of text the guardrail declares: a fixed number of trailing bytes, up to
// the last sentence or line end, or the whole response. Patterns are RE2 (Go regexp), compiled once.
//
// A pattern is checked on all the text not yet released. With a byte window, a match longer than the
// window may be released in part before it is complete; choose the window from the longest match you need
// to catch, or a sentence, line or response window. Matched text never enters a decision or a log.
package regex

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/stream"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.stream.regex",
		New:     func() any { return new(Regex) },
		Summary: "retries, halts or redacts on user regular expressions over a declared window of streamed text",
	})
}

// Regex checks streamed text against user patterns.
type Regex struct {
	// Patterns are checked in order; the first retry or halt wins, and every redaction applies.
	Patterns []Pattern `yaml:"patterns" json:"patterns"`
	// Window is how much trailing text is held back for the patterns to see whole: a byte count ("64"),
	// "sentence" (up to the last . ! or ? followed by a space), "line" (up to the last newline) or
	// "response" (everything, until the stream's finish). Default 64.
	Window string `yaml:"window" json:"window"`

	compiled []*regexp.Regexp
	bytes    int
}

// Pattern is one regular expression and what a match does.
type Pattern struct {
	// Name identifies the pattern in decisions: the reason code is regex.<name>.
	Name string `yaml:"name" json:"name"`
	// Pattern is an RE2 regular expression.
	Pattern string `yaml:"pattern" json:"pattern"`
	// Action is retry (default), halt or redact.
	Action string `yaml:"action" json:"action"`
	// Feedback is what the model and the user see on a retry.
	Feedback string `yaml:"feedback" json:"feedback"`
	// Replacement replaces a match for redact; $1 and ${name} refer to groups. Default "[REDACTED]".
	Replacement string `yaml:"replacement" json:"replacement"`
}

var (
	_ warden.StreamGuardrail = (*Regex)(nil)
	_ warden.StreamHoldback  = (*Regex)(nil)
	_ warden.Provisioner     = (*Regex)(nil)
)

// Provision compiles the patterns and reads the window; every problem is reported.
func (r *Regex) Provision(context.Context) error {
	var errs []error
	if len(r.Patterns) == 0 {
		errs = append(errs, errors.New("patterns: at least one"))
	}
	r.compiled = make([]*regexp.Regexp, len(r.Patterns))
	for i := range r.Patterns {
		p := &r.Patterns[i]
		where := fmt.Sprintf("patterns[%d]", i)
		if p.Name == "" {
			errs = append(errs, fmt.Errorf("%s.name: missing", where))
		}
		re, err := regexp.Compile(p.Pattern)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s.pattern: %v", where, err))
		} else if re.MatchString("") {
			errs = append(errs, fmt.Errorf("%s.pattern: matches the empty string, so it would match everywhere", where))
		}
		r.compiled[i] = re
		switch p.Action {
		case "":
			p.Action = "retry"
		case "retry", "halt", "redact":
		default:
			errs = append(errs, fmt.Errorf("%s.action: %q (want retry, halt or redact)", where, p.Action))
		}
		if p.Feedback == "" {
			p.Feedback = "I wrote something I must not write here. Let me rephrase that."
		}
		if p.Replacement == "" {
			p.Replacement = "[REDACTED]"
		}
	}
	switch r.Window {
	case "":
		r.bytes = 64
	case "sentence", "line", "response":
	default:
		n, err := strconv.Atoi(r.Window)
		if err != nil || n < 0 {
			errs = append(errs, fmt.Errorf("window: %q (want a byte count, sentence, line or response)", r.Window))
		}
		r.bytes = n
	}
	return errors.Join(errs...)
}

// CheckPart checks the pending text. Redactions apply to matches that end before the held window (at the
// finish, to every match), so that a match still growing is replaced whole.
func (r *Regex) CheckPart(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
	final := c.Part.Kind == warden.PartFinish
	if c.Part.Kind != warden.PartText && !final {
		return warden.Allow(), nil
	}
	text := c.Pending
	settled := len(text)
	if !final {
		settled -= r.Holdback(text)
	}
	var redacted []string
	for i, re := range r.compiled {
		p := r.Patterns[i]
		if p.Action != "redact" {
			if re.MatchString(text) {
				code := "regex." + p.Name
				if p.Action == "halt" {
					return warden.Halt(code, "the response matches pattern "+p.Name), nil
				}
				return warden.Retry(code, p.Feedback), nil
			}
			continue
		}
		var b strings.Builder
		last, n := 0, 0
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			if m[1] > settled {
				break
			}
			b.WriteString(text[last:m[0]])
			b.Write(re.ExpandString(nil, p.Replacement, text, m))
			last, n = m[1], n+1
		}
		if n == 0 {
			continue
		}
		b.WriteString(text[last:])
		shift := len(text) - settled
		text = b.String()
		settled = len(text) - shift
		redacted = append(redacted, fmt.Sprintf("%d %s", n, p.Name))
	}
	if redacted == nil {
		return warden.Allow(), nil
	}
	return warden.Modify(warden.Part{Kind: warden.PartText, Text: text},
		warden.Reason{Code: "regex.redacted", Message: "redacted " + strings.Join(redacted, ", ")}), nil
}

// Holdback keeps back the declared window.
func (r *Regex) Holdback(pending string) int {
	switch r.Window {
	case "response":
		return len(pending)
	case "line":
		return len(pending) - (strings.LastIndexByte(pending, '\n') + 1)
	case "sentence":
		return len(pending) - stream.SentenceEnd(pending)
	}
	return min(r.bytes, len(pending))
}
