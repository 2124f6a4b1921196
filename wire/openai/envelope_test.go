package openai

import (
	"testing"

	"github.com/agentwarden/warden/internal/jsontest"
)

// Every member name the codec reads is one the envelope check knows, so that no spelling of it in another
// case passes the check to be read by encoding/json as the name.
func TestEnvelopeDefinesEveryNameTheCodecReads(t *testing.T) {
	t.Parallel()
	names := jsontest.NamesRead(t, ".")
	if len(names) < 10 {
		t.Fatalf("found %d names the codec reads, want the dozens it does: is NamesRead still reading the code?", len(names))
	}
	for _, name := range names {
		if !envelope.Defines(name) {
			t.Errorf("the codec reads %q, which the envelope's list in envelope.go lacks", name)
		}
	}
}
