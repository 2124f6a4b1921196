package pipelinetest

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"testing/iotest"

	"github.com/agentwarden/warden"
)

// GuardBytewise guards a stream, changing nothing in the decision, as it comes whole and as it comes one
// byte a read, fails the test unless the guard returns the same error both ways and, for a stream without
// a CR, the client gets the same bytes, and returns them. Byte by byte no event is ever buffered whole, so
// none takes a guard's peeked path (the reader's PeekData and PeekEvent): a fuzz test that guards through
// this holds that path to the general one, and every guard to an answer that does not depend on where the
// network splits a stream.
func GuardBytewise(t testing.TB, in []byte, guard func(io.Reader, io.Writer, func(), func(warden.Response) (warden.Response, error), warden.TextGate) error) (*bytes.Buffer, error) {
	t.Helper()
	same := func(r warden.Response) (warden.Response, error) { return r, nil }
	var whole, bytewise bytes.Buffer
	err := guard(bytes.NewReader(in), &whole, nil, same, nil)
	errBytewise := guard(iotest.OneByteReader(bytes.NewReader(in)), &bytewise, nil, same, nil)
	// A CR that a read ends with ends its line at once, and the LF that may follow goes with the next
	// event's bytes: a guard that holds, drops or fails on one of the two events sends the LF elsewhere.
	sameBytes := bytes.IndexByte(in, '\r') >= 0 || bytes.Equal(whole.Bytes(), bytewise.Bytes())
	if fmt.Sprint(err) != fmt.Sprint(errBytewise) || !sameBytes {
		t.Fatalf("the stream guarded whole and byte by byte differ:\n in %q\nwhole    %q, %v\nbytewise %q, %v", in, whole.Bytes(), err, bytewise.Bytes(), errBytewise)
	}
	return &whole, err
}
