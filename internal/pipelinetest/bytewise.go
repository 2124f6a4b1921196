package pipelinetest

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/agentwarden/warden"
)

// GuardBytewise guards a stream, changing nothing in the decision, as it comes whole and as it comes one
// byte a read (a CRLF two), fails the test unless the client gets the same bytes and the same error both
// ways, and returns them. Byte by byte no event is ever buffered whole, so none takes a guard's peeked
// path (the reader's PeekData and PeekEvent): a fuzz test that guards through this holds that path to the
// general one, and every guard to an answer that does not depend on where the network splits a stream.
//
// A CRLF is not split: a CR that a read ends with ends its line at once, and the LF after it goes with the
// next event's bytes, so that a guard that holds, drops or fails on one of the two events sends the LF
// elsewhere. The bytes all go or are all held as before, and clients read the events alike.
func GuardBytewise(t testing.TB, in []byte, guard func(io.Reader, io.Writer, func(), func(warden.Response) (warden.Response, error), warden.TextGate) error) (*bytes.Buffer, error) {
	t.Helper()
	same := func(r warden.Response) (warden.Response, error) { return r, nil }
	var whole, bytewise bytes.Buffer
	err := guard(bytes.NewReader(in), &whole, nil, same, nil)
	errBytewise := guard(&bytewiseReader{in: in}, &bytewise, nil, same, nil)
	if fmt.Sprint(err) != fmt.Sprint(errBytewise) || !bytes.Equal(whole.Bytes(), bytewise.Bytes()) {
		t.Fatalf("the stream guarded whole and byte by byte differ:\n in %q\nwhole    %q, %v\nbytewise %q, %v", in, whole.Bytes(), err, bytewise.Bytes(), errBytewise)
	}
	return &whole, err
}

// bytewiseReader reads one byte a call, or a CRLF's two.
type bytewiseReader struct{ in []byte }

func (r *bytewiseReader) Read(p []byte) (int, error) {
	if len(r.in) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(r.in) > 1 && len(p) > 1 && r.in[0] == '\r' && r.in[1] == '\n' {
		n = 2
	}
	n = copy(p, r.in[:n])
	r.in = r.in[n:]
	return n, nil
}
