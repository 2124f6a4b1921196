package openai

import (
	"bytes"
	"strings"
	"testing"
)

func TestPassSameShape(t *testing.T) {
	t.Parallel()
	delta := func(text string, seq string) string {
		return "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"" +
			text + "\",\"logprobs\":[],\"sequence_number\":" + seq + "}\n\n"
	}
	tests := []struct {
		desc    string
		next    string // the delta after the learned one (sequence_number 5)
		decided bool
		want    bool // passed on as it came, unscanned
	}{
		{desc: "a delta shaped as the last passes as it came", next: delta(" world", "6"), want: true},
		{desc: "a delta with text beyond ASCII passes as it came", next: delta(" wörld ✓", "6"), want: true},
		{desc: "an empty delta passes as it came", next: delta("", "6"), want: true},
		{desc: "a delta with an escape is left to the scan", next: delta(`say \"hi\"`, "6")},
		{desc: "a delta whose sequence_number is not the client's next is left to be renumbered", next: delta("x", "9")},
		{desc: "a sequence_number with a leading zero is left to the scan", next: delta("x", "06")},
		{desc: "a delta of another output index is left to the scan", next: strings.Replace(delta("x", "6"), `"output_index":0`, `"output_index":1`, 1)},
		{desc: "a delta with a member after its sequence_number is left to the scan", next: strings.Replace(delta("x", "6"), "6}", `6,"output_index":1}`, 1)},
		{desc: "a delta with a member after its text is left to the scan", next: strings.Replace(delta("x", "6"), `"x",`, `"x","Output_Index":1,`, 1)},
		{desc: "a delta after the decision is left to the general path", next: delta("x", "6"), decided: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			g := &responsesStreamGuard{out: &out, items: map[int]*streamItem{0: {typ: "message", out: 0, openPart: -1}},
				c: &ResponsesClientStream{numbered: true, seq: 5}}
			first := delta("Hello", "5")
			if taken, err := g.passPeeked([]byte(first), peekedData(first)); !taken || err != nil {
				t.Fatalf("the first delta was not passed peeked: %v, %v", taken, err)
			}
			if len(g.shape.head) == 0 {
				t.Fatal("the first delta's shape was not learned")
			}
			g.decided = tt.decided
			taken, err := g.passSameShape([]byte(tt.next))
			if err != nil || taken != tt.want {
				t.Fatalf("passSameShape = %v, %v; want %v", taken, err, tt.want)
			}
			if want := first + map[bool]string{true: tt.next}[tt.want]; out.String() != want {
				t.Errorf("the client got %q, want %q", out.String(), want)
			}
			if wantSeq := 6 + map[bool]int{true: 1}[tt.want]; g.c.seq != wantSeq {
				t.Errorf("the client's next sequence_number is %d, want %d", g.c.seq, wantSeq)
			}
		})
	}
}

// peekedData is the data PeekEvent gives for one event of one data line: the line's value.
func peekedData(event string) string {
	at := strings.Index(event, "data: ") + len("data: ")
	return strings.TrimSuffix(event[at:], "\n\n")
}
