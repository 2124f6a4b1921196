package terms_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/guardrail/terms"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/internal/streamtest"
)

// run streams text cut at cuts through the config's blocked_terms guardrail, one retry allowed, whose attempt says
// " Rephrased.".
func run(t *testing.T, moduleConfig, text string, cuts []int) (string, error) {
	t.Helper()
	l, err := configtest.Load("stream", "blocked_terms", moduleConfig)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return streamtest.Run(l.Engine, text, cuts, 1, " Rephrased.")
}

func TestBlockedTerms(t *testing.T) {
	t.Parallel()
	const cfg = "{terms: [internal-only, Project Falcon]}"
	tests := []struct {
		desc, config, text string
		want               string
		wantHalt           bool
	}{
		{desc: "a phrase asks for a correction; the delta holding it is dropped whole",
			config: cfg, text: "The roadmap for project falcon is ready.",
			want: " I used a phrase I must not use here. Let me rephrase that without it. Rephrased."},
		{desc: "text with no phrase passes whole", config: cfg, text: "The roadmap is ready.", want: "The roadmap is ready."},
		{desc: "a near miss at the end is released at the finish", config: cfg, text: "It is internal", want: "It is internal"},
		{desc: "halt stops the stream", config: "{terms: [internal-only], action: halt}", text: "This is INTERNAL-ONLY.", want: "", wantHalt: true},
		{desc: "custom feedback is used", config: "{terms: [secret sauce], feedback: 'Let me keep that private.'}", text: "The secret sauce is",
			want: " Let me keep that private. Rephrased."},
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
				if cuts == nil && got != tt.want {
					t.Errorf("one delta:\n got %q\nwant %q", got, tt.want)
				}
				if l := strings.ToLower(got); strings.Contains(l, "falcon") || strings.Contains(l, "internal-") || strings.Contains(l, "secret sauce") {
					t.Errorf("cuts %v: a phrase reached the client: %q", cuts, got)
				}
			}
		})
	}
}

func TestHoldbackIsExact(t *testing.T) {
	t.Parallel()
	b := &terms.BlockedTerms{Terms: []string{"internal-only"}}
	if err := b.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	for pending, want := range map[string]int{"nothing to see ": 0, "this is inter": 5, "this is INTERNAL-": 9, "in": 2} {
		if got := b.Holdback(pending); got != want {
			t.Errorf("Holdback(%q) = %d, want %d", pending, got, want)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for config, want := range map[string]string{
		"{}":                          "terms: at least one phrase",
		"{terms: [a, ' ']}":           "terms[1]: empty",
		"{terms: [a], action: block}": `action: "block" (want retry or halt)`,
		"{terms: [a], phrases: [b]}":  `unknown key "phrases"`,
		"{terms: [a, " + strings.Repeat("b", 70000) + "]}": "terms[1]: 70000 bytes (at most 65535)",
	} {
		if _, err := configtest.Load("stream", "blocked_terms", config); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", config, err, want)
		}
	}
}
