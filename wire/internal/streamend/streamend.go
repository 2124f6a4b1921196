// Package streamend is the rule every stream guard applies to what it may pass of a provider's stream,
// and how the stream may end: with the finish its format defines (a finish reason, a stop reason, a
// terminal event), or with an error. A stream that stops cleanly before its finish, an event with a line
// SSE does not define, data that is not the format's JSON, or an event the stream broke off in the middle
// of before the finish: each is an error, so that the guard releases nothing it held and the surface ends
// the client's stream with the format's error event, where a client would otherwise read a stream that
// just stops, or bytes Warden did not read. It never writes anything itself.
package streamend

import (
	"errors"

	"github.com/agentwarden/warden/wire/sse"
)

// ErrUnfinished is a stream that ended cleanly before its finish.
var ErrUnfinished = errors.New("the provider's stream ended before its finish")

// ErrNotJSON is a data event whose data is not the JSON object the format sends.
var ErrNotJSON = errors.New("a data event of the provider's stream is not a JSON object")

// Event says whether a guard may read and pass ev: not when it holds a line that is neither a comment nor
// an SSE field (a client ignores it, so Warden would pass bytes it did not read), nor when the stream broke
// off in the middle of it before the guard decided the response (finished). After the finish, a last event
// without its blank line is passed as it came.
func Event(ev sse.Event, finished bool) error {
	switch {
	case ev.Unknown:
		return errors.New("the provider's stream has a line that is not a server-sent event field")
	case ev.Incomplete && !finished:
		return errors.New("the provider's stream broke off in the middle of an event")
	}
	return nil
}

// End is what a guard returns when its stream ended cleanly: nil after the finish, ErrUnfinished before.
func End(finished bool) error {
	if finished {
		return nil
	}
	return ErrUnfinished
}
