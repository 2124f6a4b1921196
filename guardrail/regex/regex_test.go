package regex_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/guardrail/regex"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/internal/streamtest"
)

// run streams text cut at cuts through the config's regex guardrail, one retry allowed, whose attempt says
// " Rephrased.".
func run(t *testing.T, moduleConfig, text string, cuts []int) (string, error) {
	t.Helper()
	l, err := configtest.Load("stream", "regex", moduleConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return streamtest.Run(l.Engine, text, cuts, 1, " Rephrased.")
}

func TestRegex(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, config, text string
		want               string // with every cut
		wantHalt           bool
	}{
		{desc: "a redaction inside the window is whole however the text is cut",
			config: "{patterns: [{name: ticket, pattern: 'TKT-[0-9]{6}', action: redact, replacement: '[TICKET]'}]}",
			text:   "See TKT-123456 and TKT-654321 today.", want: "See [TICKET] and [TICKET] today."},
		{desc: "groups can be kept in the replacement",
			config: "{patterns: [{name: host, pattern: '([a-z]+)\\.internal\\.corp', action: redact, replacement: '$1.example'}]}",
			text:   "Connect to db.internal.corp now.", want: "Connect to db.example now."},
		{desc: "a retry pattern corrects the response",
			config: `{patterns: [{name: promise, pattern: '(?i)\bguarantee', feedback: 'I cannot promise that.'}]}`,
			text:   "We GUARANTEE results.", want: " I cannot promise that. Rephrased."},
		{desc: "a halt pattern ends the stream", config: "{patterns: [{name: sql, pattern: 'DROP TABLE', action: halt}]}",
			text: "Run DROP TABLE users;", wantHalt: true},
		{desc: "a sentence window holds to the sentence end", config: "{window: sentence, patterns: [{name: n, pattern: 'secret plan', action: redact}]}",
			text: "Here is the secret plan. Done.", want: "Here is the [REDACTED]. Done."},
		{desc: "a response window sees the whole response at once", config: "{window: response, patterns: [{name: n, pattern: 'a.*z', action: redact}]}",
			text: "a long way to z!", want: "[REDACTED]!"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			for _, cuts := range [][]int{nil, streamtest.EveryCut(tt.text)} {
				got, err := run(t, tt.config, tt.text, cuts)
				var tw *warden.TripwireError
				if tt.wantHalt != errors.As(err, &tw) || !tt.wantHalt && err != nil {
					t.Fatalf("cuts %v: err = %v", cuts, err)
				}
				if !tt.wantHalt && got != tt.want {
					t.Errorf("cuts %v:\n got %q\nwant %q", cuts, got, tt.want)
				}
			}
		})
	}
}

func TestHoldback(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		window, pending string
		want            int
	}{
		{"8", "a long text here", 8},
		{"8", "abc", 3},
		{"line", "one\ntwo", 3},
		{"sentence", "One. Two? Thr", 3},
		{"response", "everything", 10},
	} {
		r := &regex.Regex{Window: tt.window, Patterns: []regex.Pattern{{Name: "x", Pattern: "x"}}}
		if err := r.Provision(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := r.Holdback(tt.pending); got != tt.want {
			t.Errorf("window %s: Holdback(%q) = %d, want %d", tt.window, tt.pending, got, tt.want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for config, want := range map[string]string{
		"{}":                                                     "patterns: at least one",
		"{patterns: [{name: a, pattern: '('}]}":                  "patterns[0].pattern: error parsing regexp",
		"{patterns: [{name: a, pattern: 'x*'}]}":                 "matches the empty string",
		"{patterns: [{pattern: 'x'}]}":                           "patterns[0].name: missing",
		"{patterns: [{name: a, pattern: x, action: block}]}":     `patterns[0].action: "block"`,
		"{window: paragraph, patterns: [{name: a, pattern: x}]}": `window: "paragraph"`,
		"{patterns: [{name: a, pattern: x, flags: i}]}":          `unknown key "flags"`,
	} {
		if _, err := configtest.Load("stream", "regex", config); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", config, err, want)
		}
	}
}
