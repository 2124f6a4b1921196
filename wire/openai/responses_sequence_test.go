package openai

import (
	"testing"
)

func TestSequenced(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc      string
		in        string
		next      int
		first     bool // no event was numbered before
		want      string
		wantCount bool
	}{
		{desc: "the first numbered event sets where the count starts", first: true,
			in: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":40}\n\n", want: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":40}\n\n"},
		{desc: "a number in a field other than data is not the event's", next: 3,
			in: "id: {\"sequence_number\":1}\n\n", want: "id: {\"sequence_number\":1}\n\n"},
		{desc: "a number with a leading zero is not JSON and is left alone", next: 3,
			in: "data: {\"sequence_number\":01}\n\n", want: "data: {\"sequence_number\":01}\n\n"},
		{desc: "a number already right is kept byte for byte", next: 4,
			in: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":4}\n\n", want: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":4}\n\n", wantCount: true},
		{desc: "a number out of place takes the client's", next: 12,
			in: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":4}\n\n", want: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":12}\n\n", wantCount: true},
		{desc: "a number before a CRLF end takes the client's", next: 1,
			in: "data: {\"type\":\"x\",\"sequence_number\":0 }\r\n\r\n", want: "data: {\"type\":\"x\",\"sequence_number\":1 }\r\n\r\n", wantCount: true},
		{desc: "a member that is not last is found by reading the event", next: 7,
			in: "event: x\ndata: {\"sequence_number\":2,\"type\":\"x\"}\n\n", want: "event: x\ndata: {\"sequence_number\":7,\"type\":\"x\"}\n\n", wantCount: true},
		{desc: "a member spaced after its colon is found by reading the event", next: 7,
			in: "event: x\ndata: {\"type\":\"x\",\"sequence_number\": 2}\n\n", want: "event: x\ndata: {\"type\":\"x\",\"sequence_number\":7}\n\n", wantCount: true},
		{desc: "a sequence_number inside a nested object is not the event's", next: 3,
			in: "event: x\ndata: {\"type\":\"x\",\"item\":{\"sequence_number\":1}}\n\n", want: "event: x\ndata: {\"type\":\"x\",\"item\":{\"sequence_number\":1}}\n\n"},
		{desc: "an event without one is not counted", next: 3,
			in: "event: x\ndata: {\"type\":\"x\"}\n\n", want: "event: x\ndata: {\"type\":\"x\"}\n\n"},
		{desc: "text quoting the member's name is not a member", next: 3,
			in: "data: {\"delta\":\"\\\"sequence_number\\\":1\"}\n\n", want: "data: {\"delta\":\"\\\"sequence_number\\\":1\"}\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			c := &ResponsesClientStream{seq: tt.next, numbered: !tt.first}
			got, err := c.sequenced([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if tt.first {
				if c.seq != 41 {
					t.Errorf("the count goes on at %d, want 41", c.seq)
				}
				return
			}
			if counted := c.seq == tt.next+1; counted != tt.wantCount {
				t.Errorf("counted = %v, want %v", counted, tt.wantCount)
			}
		})
	}
}
