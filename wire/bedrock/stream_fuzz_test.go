package bedrock_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/bedrock"
)

// FuzzGuardStream: any byte stream is guarded without panic, and when the decision changes nothing, a
// stream with no toolUse block (encoding/json reads keys without regard to case, hence the lowering)
// reaches the client exactly as it came.
func FuzzGuardStream(f *testing.F) {
	f.Add(conversation(f, "tool_use", "ls"))
	f.Add(conversation(f, "end_turn"))
	f.Add(conversation(f, "guardrail_intervened", "rm -rf /", "ls"))
	same := func(r warden.Response) (warden.Response, error) { return r, nil }
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if err := bedrock.GuardStream(bytes.NewReader(in), &out, nil, same, nil); err != nil {
			return
		}
		if !bytes.Equal(out.Bytes(), in) && !bytes.Contains(bytes.ToLower(in), []byte("tooluse")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}

// FuzzStreamReadings: whatever the guard lets through to its end, the AWS SDK reads the text, the tool
// calls and the stop reason the guard gave decide, as it came or rewritten (every call removed, a deny
// message appended).
func FuzzStreamReadings(f *testing.F) {
	f.Add(conversation(f, "tool_use", "ls"), false)
	f.Add(conversation(f, "tool_use", "ls", "go test ./..."), true)
	f.Add(conversation(f, "end_turn"), false)
	f.Fuzz(func(t *testing.T, in []byte, rewrite bool) {
		var decided []warden.Response
		decide := func(r warden.Response) (warden.Response, error) {
			if rewrite {
				r = pipelinetest.DenyAllCalls(r)
			}
			decided = append(decided, r)
			return r, nil
		}
		var out bytes.Buffer
		if err := bedrock.GuardStream(bytes.NewReader(in), &out, nil, decide, nil); err != nil || len(decided) != 1 {
			return
		}
		got := converseStream(t, out.Bytes())
		want := decided[0]
		var calls []string
		for _, c := range want.Message.ToolCalls {
			calls = append(calls, c.Name+string(c.Arguments))
		}
		if got.text != want.Message.Text() || strings.Join(got.calls, "\n") != strings.Join(calls, "\n") {
			t.Fatalf("the guard decided on text %q, calls %q; the AWS SDK reads text %q, calls %q\nstream %q",
				want.Message.Text(), calls, got.text, got.calls, in)
		}
	})
}
