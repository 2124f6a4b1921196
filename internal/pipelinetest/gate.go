package pipelinetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/config"
	_ "github.com/agentwarden/warden/guardrail/redact" // redact, for GateBehaviours
	_ "github.com/agentwarden/warden/guardrail/regex"  // regex, for TextGuardrails
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
// offending text sent. It ends with GateSplitInvariance.
func GateBehaviours(t *testing.T, f StreamFormat) {
	t.Helper()
	t.Run("split invariance", func(t *testing.T) { GateSplitInvariance(t, f) })
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

// GateSplitInvariance holds a format's stream guard, under the built-in text guardrails together, to the
// stream stage's promise through the wire: a client reading a stream whose text arrives one character per delta
// sees exactly what it sees when the text arrives in one delta.
func GateSplitInvariance(t *testing.T, f StreamFormat) {
	t.Helper()
	e := TextGuardrails(t)
	for _, text := range []string{
		"Mail bob@example.com or call +1 415 555 0100 about TICKET-1234.",
		"Card 4111 1111 1111 1111, key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD, done.",
		"ünïcödé 🙂 bob@example.com, plain prose. More prose!",
	} {
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			read := func(deltas []string) string {
				var out bytes.Buffer
				gate := (&stream.Runner{Engine: e}).Gate(context.Background(), stream.Info{}, "")
				if err := f.Guard(bytes.NewReader(f.Build(deltas...)), &out, nil, Decide(t), gate); err != nil {
					t.Fatal(err)
				}
				return f.Text(t, out.Bytes())
			}
			whole := read([]string{text})
			if whole == text {
				t.Fatal("the guardrails changed nothing; each text is meant to hold something they rewrite")
			}
			var runewise []string // JSON strings carry whole characters, so no provider cuts inside one
			for _, r := range text {
				runewise = append(runewise, string(r))
			}
			if got := read(runewise); got != whole {
				t.Errorf("one character per delta the client sees %q; in one delta %q", got, whole)
			}
		})
	}
}

// Gate returns a gate running one stream guardrail, use with its module config (flow-style YAML), or none
// when use is empty.
func Gate(t testing.TB, use, conf string) warden.TextGate {
	t.Helper()
	return (&stream.Runner{Engine: StreamEngine(t, use, conf)}).Gate(context.Background(), stream.Info{}, "")
}

// StreamEngine returns an engine running one stream guardrail, as Gate's.
func StreamEngine(t testing.TB, use, conf string) *warden.Engine {
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
	return e
}

// textGuardrails runs the built-in stream guardrails that read text, each one acting: redact (every type),
// blocked_terms halting on two phrases, regex redacting a ticket number.
const textGuardrails = `version: 1
audit: {sink: none}
guardrails:
  stream:
    - use: redact
    - use: blocked_terms
      config: {terms: [forbidden phrase, do not say this], action: halt}
    - use: regex
      config: {patterns: [{name: ticket, pattern: 'TICKET-[0-9]{4}', action: redact, replacement: '[TICKET]'}]}
`

// TextGuardrails returns an engine running the built-in text stream guardrails together (redact,
// blocked_terms, regex), for properties that must hold whatever they are combined with.
func TextGuardrails(t testing.TB) *warden.Engine {
	t.Helper()
	p, err := config.Parse("text-guardrails.yaml", []byte(textGuardrails))
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Build(context.Background(), config.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Engine
}

// BenchStream runs a recorded stream of the given number of events through a format's stream guard, in two
// sub-benchmarks reporting the cost per event: passthrough, with no gate, and redact, through a gate (a fresh
// one per stream, as a surface has) on the redact guardrail with every type — what stream guardrails add on
// the wire.
func BenchStream(b *testing.B, data []byte, events int, guard func(io.Reader, io.Writer, func(), func(warden.Response) (warden.Response, error), warden.TextGate) error) {
	keep := func(r warden.Response) (warden.Response, error) { return r, nil }
	for _, bench := range []struct {
		name string
		e    *warden.Engine
	}{{"passthrough", nil}, {"redact", StreamEngine(b, "redact", "")}} {
		b.Run(bench.name, func(b *testing.B) {
			runner := &stream.Runner{Engine: bench.e}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var gate warden.TextGate
				if bench.e != nil {
					gate = runner.Gate(context.Background(), stream.Info{}, "")
				}
				if err := guard(bytes.NewReader(data), io.Discard, nil, keep, gate); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(events), "ns/event")
		})
	}
}

// RetryGate is a gate that lets text through as it comes and fails, as a stream guardrail asking for a
// correction does, on a delta holding Word, or at the Finish call numbered AtFinish (1 for the first).
type RetryGate struct {
	Word     string
	AtFinish int
	finishes int
}

// ErrRetry is what RetryGate fails with.
var ErrRetry = errors.New("pipelinetest: a correction is asked for")

func (g *RetryGate) Text(delta string) (string, error) {
	if g.Word != "" && strings.Contains(delta, g.Word) {
		return "", ErrRetry
	}
	return delta, nil
}

func (g *RetryGate) Finish(warden.Part) (string, error) {
	g.finishes++
	if g.finishes == g.AtFinish {
		return "", ErrRetry
	}
	return "", nil
}

// Round is one provider stream of a client's stream: a testdata fixture (without .sse), and whether
// its decision is denied (as a denied tool call under on_deny retry leaves the round).
type Round struct {
	Fixture string
	Deny    bool
}

// GuardRounds guards the rounds one after the other into one client's stream through guard (a wire
// package's client stream), each decided by Decide or denied, and returns what the client got. Every round
// but the last must fail, as a denied round does, and the last must not.
func GuardRounds(t *testing.T, guard interface {
	Guard(io.Reader, io.Writer, func(), func(warden.Response) (warden.Response, error), warden.TextGate) error
}, rounds ...Round) []byte {
	t.Helper()
	deny := func(warden.Response) (warden.Response, error) { return warden.Response{}, errors.New("denied") }
	var out bytes.Buffer
	for i, r := range rounds {
		decide := Decide(t)
		if r.Deny {
			decide = deny
		}
		err := guard.Guard(bytes.NewReader(Testdata(t, r.Fixture+".sse")), &out, nil, decide, nil)
		if last := i == len(rounds)-1; last != (err == nil) {
			t.Fatalf("round %d: err = %v", i+1, err)
		}
	}
	return out.Bytes()
}
