package approvals_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
)

const argSentinel = "SENTINEL-ARGUMENT-9f3"

// TestWebhook: each new request is posted, as JSON or as a Slack message, with its page and never its
// arguments; a request waited on again is not posted twice.
func TestWebhook(t *testing.T) {
	t.Parallel()
	for _, slack := range []bool{false, true} {
		name := map[bool]string{false: "json", true: "slack"}[slack]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := make(chan []byte, 4)
			headers := make(chan http.Header, 4)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got <- b
				headers <- r.Header
			}))
			defer srv.Close()
			hook := &approvals.Webhook{URL: srv.URL, Slack: slack, Headers: map[string]string{"Authorization": "Bearer hook"}, PageURL: "https://warden.example"}
			svc := newService(t, approvals.NewMemory(), approvals.Config{Events: hook})
			e := engineWith(t, svc, "v1")
			out := check(t, e, "u1", `{"secret":"`+argSentinel+`"}`)
			check(t, e, "u1", `{"secret":"`+argSentinel+`"}`) // the same request again: not posted again
			var body []byte
			select {
			case body = <-got:
			case <-time.After(10 * time.Second):
				t.Fatal("the webhook was not called")
			}
			if h := <-headers; h.Get("Authorization") != "Bearer hook" || h.Get("Content-Type") != "application/json" {
				t.Errorf("headers %v", h)
			}
			if strings.Contains(string(body), argSentinel) {
				t.Error("the webhook carried the call's arguments")
			}
			link := "https://warden.example/approvals/" + out.Approval.ID
			if slack {
				var v struct{ Text string }
				if json.Unmarshal(body, &v) != nil || !strings.Contains(v.Text, link) || !strings.Contains(v.Text, "`git_push`") {
					t.Errorf("slack body %s", body)
				}
			} else {
				var v approvals.WebhookBody
				if json.Unmarshal(body, &v) != nil || v.Type != "approval.requested" || v.ID != out.Approval.ID || v.Tool != "git_push" ||
					v.Principal != "user:u1" || v.Code != "x.ask_push" || v.URL != link {
					t.Errorf("json body %s", body)
				}
			}
			select {
			case b := <-got:
				t.Errorf("a second post: %s", b)
			case <-time.After(100 * time.Millisecond):
			}
		})
	}
}

// TestWebhookFailureChangesNothing: a webhook that cannot be reached does not keep the call from waiting.
func TestWebhookFailureChangesNothing(t *testing.T) {
	t.Parallel()
	hook := &approvals.Webhook{URL: "http://127.0.0.1:1/unreachable", Timeout: 100 * time.Millisecond}
	svc := newService(t, approvals.NewMemory(), approvals.Config{Events: hook})
	out := check(t, engineWith(t, svc, "v1"), "u1", `{}`)
	if out.Decision.Action != warden.ActionAsk || out.Approval == nil {
		t.Errorf("with the webhook down: %s", out.Decision.Action)
	}
}
