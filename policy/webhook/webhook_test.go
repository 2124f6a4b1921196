package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/policy/webhook"
)

type service struct {
	*httptest.Server
	mu      sync.Mutex
	body    []byte
	headers http.Header
}

func newService(t *testing.T, answer func(w http.ResponseWriter)) *service {
	t.Helper()
	s := &service{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.body, s.headers = b, r.Header.Clone()
		s.mu.Unlock()
		answer(w)
	}))
	t.Cleanup(s.Close)
	return s
}

func says(body string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { _, _ = w.Write([]byte(body)) }
}

func provisioned(t *testing.T, w *webhook.Webhook) *webhook.Webhook {
	t.Helper()
	if err := w.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	return w
}

var bash = warden.ToolCallCheck{
	Run:  warden.RunInfo{AgentID: "agent-1", ThreadID: "th", RunID: "run", UserID: "u-1", IsSubagent: true, Scope: "fix the build"},
	Call: warden.NewToolCall("call_7", "bash", []byte(`{"command":"ls"}`)),
	Time: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC),
}

func TestAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc       string
		answer     func(http.ResponseWriter)
		timeout    time.Duration
		wantAction warden.Action
		wantCode   string
		wantErr    string
	}{
		{desc: "allow allows", answer: says(`{"allow": true, "reasons": [{"code": "oap.allowed"}]}`), wantAction: warden.ActionAllow},
		{desc: "a denial rejects with the service's reason", answer: says(`{"allow": false, "reasons": [{"code": "oap.blocked_pattern", "message": "pattern rm -rf"}], "policy_id": "system.command.execute.v1"}`),
			wantAction: warden.ActionReject, wantCode: "oap.blocked_pattern"},
		{desc: "a denial without reasons rejects", answer: says(`{"allow": false}`), wantAction: warden.ActionReject},
		{desc: "a denial may halt the run", answer: says(`{"allow": false, "action": "halt", "reasons": [{"code": "acme.kill"}]}`), wantAction: warden.ActionHalt, wantCode: "acme.kill"},
		{desc: "an unknown action is an error", answer: says(`{"allow": false, "action": "explode"}`), wantErr: `unknown action "explode"`},
		{desc: "an answer without allow is an error", answer: says(`{"reasons": []}`), wantErr: `has no "allow"`},
		{desc: "garbage is an error", answer: says(`<html>bad gateway</html>`), wantErr: "not a JSON decision"},
		{desc: "a failing service is an error", answer: func(w http.ResponseWriter) { w.WriteHeader(http.StatusServiceUnavailable) }, wantErr: "503 Service Unavailable"},
		{desc: "a slow service times out", answer: func(w http.ResponseWriter) { time.Sleep(300 * time.Millisecond); says(`{"allow": true}`)(w) },
			timeout: 50 * time.Millisecond, wantErr: "policy service"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			s := newService(t, tt.answer)
			w := provisioned(t, &webhook.Webhook{URL: s.URL, Timeout: warden.Duration(tt.timeout)})
			d, err := w.CheckToolCall(context.Background(), bash)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || d.Action != tt.wantAction {
				t.Fatalf("decision %s (%v), want %s", d.Action, err, tt.wantAction)
			}
			if tt.wantCode != "" && d.FirstReason().Code != tt.wantCode {
				t.Errorf("code = %s, want %s", d.FirstReason().Code, tt.wantCode)
			}
		})
	}
}

func TestRequest(t *testing.T) {
	t.Parallel()
	s := newService(t, says(`{"allow": true}`))
	w := provisioned(t, &webhook.Webhook{URL: s.URL, Secret: "s3cret", Headers: map[string]string{"Authorization": "Bearer t"}})
	if _, err := w.CheckToolCall(context.Background(), bash); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var got map[string]any
	if err := json.Unmarshal(s.body, &got); err != nil {
		t.Fatal(err)
	}
	ts := s.headers.Get("X-Warden-Timestamp")
	tests := []struct {
		desc string
		ok   bool
	}{
		{"names the tool and passes the arguments as they were", got["tool_name"] == "bash" && got["tool_input"].(map[string]any)["command"] == "ls"},
		{"carries the call id and attribution", got["tool_call_id"] == "call_7" && got["agent_id"] == "agent-1" && got["thread_id"] == "th" && got["run_id"] == "run" && got["user_id"] == "u-1"},
		{"carries the subagent flag and scope", got["is_subagent"] == true && got["scope"] == "fix the build"},
		{"carries the evaluation time", got["timestamp"] == "2026-11-21T12:00:00Z"},
		{"is versioned", got["version"] == float64(1)},
		{"adds the configured headers", s.headers.Get("Authorization") == "Bearer t"},
		{"signs the timestamp and body", ts != "" && s.headers.Get("X-Warden-Signature") == webhook.Sign("s3cret", ts, s.body)},
	}
	for _, tt := range tests {
		if !tt.ok {
			t.Errorf("%s: body %s headers %v", tt.desc, s.body, s.headers)
		}
	}
}

func TestThroughTheEngine(t *testing.T) {
	t.Parallel()
	down := newService(t, func(w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) })
	tests := []struct {
		desc    string
		extra   []string
		want    string
		allowed bool
	}{
		{"a service that is down fails closed with the seed's text", nil, "Guardrail denied: tool 'bash' was blocked (oap.evaluator_error). Reason: guardrail provider error (fail-closed). Choose an alternative approach.", false},
		{"fail_closed: false lets the call through", []string{"fail_closed: false"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			l, err := configtest.Load("tool_call", "http", "{url: '"+down.URL+"'}", tt.extra...)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			out, err := l.Engine.CheckToolCall(context.Background(), bash)
			var tw *warden.TripwireError
			if errors.As(err, &tw) || out.Allowed() != tt.allowed || out.Message != tt.want {
				t.Errorf("allowed %v, message %q, err %v", out.Allowed(), out.Message, err)
			}
		})
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, config, want string }{
		{"a missing url fails", "{}", "url: want an http or https URL"},
		{"a non-http url fails", "{url: 'ftp://x'}", "url: want an http or https URL"},
		{"an unknown key fails", "{url: 'http://x', secrett: y}", `unknown key "secrett"`},
		{"a bad timeout fails", "{url: 'http://x', timeout: soon}", `invalid duration "soon"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := configtest.Load("tool_call", "http", tt.config)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
