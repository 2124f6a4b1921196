package openai

import "testing"

// BenchmarkSequenced: the sequence-number check on a text delta event whose number is already the
// client's, which is what every event of a stream Warden did not rearrange costs.
func BenchmarkSequenced(b *testing.B) {
	raw := []byte("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"token 12 \",\"logprobs\":[],\"sequence_number\":7}\n\n")
	b.ReportAllocs()
	for b.Loop() {
		c := ResponsesClientStream{seq: 7, numbered: true}
		if _, err := c.sequenced(raw); err != nil {
			b.Fatal(err)
		}
	}
}
