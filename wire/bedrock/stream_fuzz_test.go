package bedrock_test

import (
	"bytes"
	"testing"

	"github.com/agentwarden/warden"
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
