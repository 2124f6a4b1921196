package gateway_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

var responseIDPattern = regexp.MustCompile(`"id":"(resp_[^"]+)"`)

// firstResponseID is the first response id a recorded stream or body names.
func firstResponseID(t *testing.T, b []byte) string {
	t.Helper()
	m := responseIDPattern.FindSubmatch(b)
	if m == nil {
		t.Fatal("no response id in the recording")
	}
	return string(m[1])
}

// A Responses stream whose denied call was followed up keeps the id it announced, and a conversation
// continued from that id continues from the follow-up's stored response, the one the client was answered
// with; an id Warden did not stand in for passes as it is.
func TestResponsesStreamKeepsItsIDAndContinuesFromTheAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "")
	denied := fixture(t, "openai", "responses_stream_denied_first_call.sse")
	followUp := roundIDs(fixture(t, "openai", "responses_stream_text.sse"), 1)
	opened, stored := firstResponseID(t, denied), firstResponseID(t, followUp)
	h.up.answer(reply{contentType: "text/event-stream", body: denied}, reply{contentType: "text/event-stream", body: followUp})
	_, out := h.post(t, "/v1/responses", "application/json", `{"model":"gpt-5.1","input":"clean up","stream":true,"tools":[{"type":"function","name":"bash","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}]}`, nil)
	ids := map[string]bool{}
	for _, m := range responseIDPattern.FindAllStringSubmatch(out, -1) {
		ids[m[1]] = true
	}
	if len(ids) != 1 || !ids[opened] {
		t.Fatalf("response ids in the client's stream: %v, want only %s", ids, opened)
	}

	tests := []struct {
		desc, previous, want string
	}{
		{"the id the stream announced continues from the follow-up's stored response", opened, stored},
		{"an id Warden did not stand in for is sent as it is", "resp_other", "resp_other"},
	}
	for _, tc := range tests {
		h.up.answer(reply{body: fixture(t, "openai", "responses_healthy_text.json")})
		h.post(t, "/v1/responses", "application/json", `{"model":"gpt-5.1","input":"and then?","previous_response_id":"`+tc.previous+`"}`, nil)
		_, _, _, body, _ := h.up.sent()
		var sent struct {
			Previous string `json:"previous_response_id"`
		}
		if err := json.Unmarshal(body, &sent); err != nil {
			t.Fatal(err)
		}
		if sent.Previous != tc.want {
			t.Errorf("%s: the provider was sent previous_response_id %q, want %q", tc.desc, sent.Previous, tc.want)
		}
	}
	if strings.Contains(out, "rm -rf") {
		t.Error("the denied call reached the client")
	}
}
