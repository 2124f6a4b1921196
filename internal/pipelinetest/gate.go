package pipelinetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	_ "github.com/agentwarden/warden/guardrail/redact" // redact, for GateBehaviours
	_ "github.com/agentwarden/warden/guardrail/terms"  // blocked_terms, for GateBehaviours
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/stream"
)

// StreamFormat is what GateBehaviours needs of a wire format's stream guard.
type StreamFormat struct {
	// Build returns a recorded stream whose assistant text arrives in these deltas and then finishes
	// normally.
	Build func(deltas ...string) []byte
	// Guard is the format's stream guard.
	Guard func(in io.Reader, out io.Writer, flush func(), decide func(warden.Response) (warden.Response, error), gate warden.TextGate) error
	// Text reads, with the format's official SDK, the text a client sees in a guarded stream.
	Text func(t *testing.T, out []byte) string
}

// GateBehaviours holds a format's stream guard to what the stream guardrails promise through a gate: text
// nothing holds passes in its original bytes, a match split across deltas is rewritten before any byte of
// it is sent, held text comes out at the finish, and a halt or a retry ends the stream with none of the
// offending text sent.
func GateBehaviours(t *testing.T, f StreamFormat) {
	t.Helper()
	tests := []struct {
		desc       string
		use, conf  string // the stream guardrail; empty for none
		deltas     []string
		wantText   string
		wantSame   bool     // the output is the input, byte for byte
		wantAbsent []string // never in the output bytes
		wantErr    any      // a pointer to the error type Guard returns
	}{
		{desc: "without stream guardrails every byte passes as it came",
			deltas: []string{"Hello, ", "world."}, wantText: "Hello, world.", wantSame: true},
		{desc: "text no guardrail holds passes in its original bytes",
			use: "blocked_terms", conf: "{terms: [forbidden phrase], action: halt}",
			deltas: []string{"Hello, ", "world."}, wantText: "Hello, world.", wantSame: true},
		{desc: "a card number split over three deltas is redacted before any digit of it is sent",
			use: "redact", conf: "{types: [card]}",
			deltas: []string{"Pay with 4111 11", "11 1111 1", "111 today."}, wantText: "Pay with [CARD] today.",
			wantAbsent: []string{"4111", "1111"}},
		{desc: "text held at the end of the response is released at the finish",
			use: "redact", conf: "{types: [email]}",
			deltas: []string{"Write to bob@exa", "mple.com"}, wantText: "Write to [EMAIL]",
			wantAbsent: []string{"bob", "example"}},
		{desc: "a halting phrase ends the stream with a tripwire and none of it sent",
			use: "blocked_terms", conf: "{terms: [forbidden phrase], action: halt}",
			deltas:     []string{"This is a forbid", "den phrase here."},
			wantAbsent: []string{"forbid"}, wantErr: new(*warden.TripwireError)},
		{desc: "a phrase that asks for a correction ends the stream with a retry error and none of it sent",
			use: "blocked_terms", conf: "{terms: [forbidden phrase], action: retry, feedback: Let me rephrase.}",
			deltas:     []string{"This is a forbid", "den phrase here."},
			wantAbsent: []string{"forbid"}, wantErr: new(*stream.RetryError)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			in := f.Build(tt.deltas...)
			var out bytes.Buffer
			err := f.Guard(bytes.NewReader(in), &out, nil, Decide(t), Gate(t, tt.use, tt.conf))
			switch {
			case tt.wantErr != nil:
				if err == nil || !errors.As(err, tt.wantErr) {
					t.Fatalf("error = %v, want %T", err, tt.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			default:
				if got := f.Text(t, out.Bytes()); got != tt.wantText {
					t.Errorf("client text = %q, want %q", got, tt.wantText)
				}
			}
			if tt.wantSame && !bytes.Equal(out.Bytes(), in) {
				t.Errorf("output differs from input:\n got %s\nwant %s", out.Bytes(), in)
			}
			for _, s := range tt.wantAbsent {
				if strings.Contains(out.String(), s) {
					t.Errorf("output contains %q:\n%s", s, out.Bytes())
				}
			}
		})
	}
}

// Gate returns a gate running one stream guardrail, use with its module config (flow-style YAML), or none
// when use is empty.
func Gate(t testing.TB, use, conf string) warden.TextGate {
	t.Helper()
	e, err := warden.NewEngine(warden.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if use != "" {
		l, err := configtest.Load("stream", use, conf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		e = l.Engine
	}
	return (&stream.Runner{Engine: e}).Gate(context.Background(), stream.Info{}, "")
}
