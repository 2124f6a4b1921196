package openai_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/pipelinetest"
	"github.com/agentwarden/warden/wire/openai"
	"github.com/agentwarden/warden/wire/sse"
)

// FuzzGuardResponsesStream: any stream is guarded without panic, as it is when it comes byte by byte (no
// event is then buffered whole, so none passes peeked: the general path reads each), and when the decision changes nothing,
// a stream with no item added (so none held or renumbered) and no sequence number reaches the client
// exactly as it came. Of a stream whose object events are all JSON (a malformed event is passed on
// unnoticed, as the scanners document): the events the client gets that carry a sequence_number count up
// by one, and when they already did, an unchanged stream with no item added reaches the client as it came.
func FuzzGuardResponsesStream(f *testing.F) {
	for _, name := range []string{"responses_stream_function_call", "responses_stream_content_filter", "responses_stream_denied_first_call"} {
		if b, err := os.ReadFile("testdata/" + name + ".sse"); err == nil {
			f.Add(b)
		}
	}
	// Deltas shaped alike, and some not quite (an escape, a number out of turn, a member more), after a
	// message item: the seed that leads into passSameShape.
	added := "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"m\",\"type\":\"message\",\"content\":[]},\"sequence_number\":0}\n\n"
	delta := "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"%s\",\"logprobs\":[],\"sequence_number\":%s}\n\n"
	f.Add([]byte(added + fmt.Sprintf(delta, "a", "1") + fmt.Sprintf(delta, "b", "2") + fmt.Sprintf(delta, `c\"`, "3") +
		fmt.Sprintf(delta, "d", "7") + fmt.Sprintf(delta, "e", `8,"output_index":1`) + fmt.Sprintf(delta, "f", "9")))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := pipelinetest.GuardBytewise(t, in, openai.GuardResponsesStream)
		if err != nil {
			return
		}
		added := bytes.Contains(bytes.ToLower(in), []byte("output_item.added"))
		if !bytes.Equal(out.Bytes(), in) && !added && !bytes.Contains(in, []byte("sequence_number")) {
			t.Fatalf("an unchanged stream came out different:\n in %q\nout %q", in, out.Bytes())
		}
		if !objectsAreJSON(in) {
			return
		}
		if !countsUp(out.Bytes()) {
			t.Fatalf("the client's sequence numbers do not count up by one:\n in %q\nout %q", in, out.Bytes())
		}
		if !bytes.Equal(out.Bytes(), in) && !added && countsUp(in) {
			t.Fatalf("an unchanged stream whose events count up came out different:\n in %q\nout %q", in, out.Bytes())
		}
	})
}

// objectsAreJSON reports whether every event of a stream whose data starts as an object is JSON.
func objectsAreJSON(stream []byte) bool {
	rd := sse.NewReader(bytes.NewReader(stream))
	for {
		ev, err := rd.Next()
		if err != nil {
			return true
		}
		if d := strings.TrimSpace(ev.Data); strings.HasPrefix(d, "{") && !json.Valid([]byte(d)) {
			return false
		}
	}
}

// countsUp reports whether the events of a stream that carry a sequence_number (as encoding/json reads
// one) count up by one.
func countsUp(stream []byte) bool {
	rd := sse.NewReader(bytes.NewReader(stream))
	next := -1
	for {
		ev, err := rd.Next()
		if err != nil {
			return true
		}
		var e struct {
			Seq *int `json:"sequence_number"`
		}
		if !ev.HasData || json.Unmarshal([]byte(ev.Data), &e) != nil || e.Seq == nil {
			continue
		}
		if next >= 0 && *e.Seq != next {
			return false
		}
		next = *e.Seq + 1
	}
}
