package gemini

import (
	"testing"

	"github.com/agentwarden/warden/internal/jsontest"
)

// Every member name the codec reads is one the envelope check knows, so that no spelling of it in another
// case passes the check to be read by encoding/json as the name.
func TestEnvelopeDefinesEveryNameTheCodecReads(t *testing.T) {
	t.Parallel()
	jsontest.DefinesEveryNameRead(t, ".", envelope.Defines)
}
