// Package webhook is the HTTP tool-call guardrail: it POSTs each tool call as JSON to a policy service and
// applies the decision it answers. It fails closed like every guardrail: a timeout, a connection error, a
// non-2xx status, an answer that is not a decision — each is an error, which denies unless the guardrail is
// configured fail-open.
//
// The request and answer shapes follow DeerFlow's GuardrailRequest and GuardrailDecision (seed 001), so a
// provider written for it can serve Warden. With a secret, each request is signed (HMAC-SHA256 over the
// timestamp and the body) so the service can tell Warden's calls from others and refuse replays.
package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/httpjson"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.tool_call.http",
		New:     func() any { return new(Webhook) },
		Summary: "asks a policy service over HTTP to allow or deny each tool call",
	})
}

// Webhook is the HTTP guardrail's config and, once provisioned, the guardrail.
type Webhook struct {
	// URL receives a POST per tool call. Required; http or https.
	URL string `yaml:"url" json:"url"`
	// Timeout bounds one request. Default 2s.
	Timeout warden.Duration `yaml:"timeout" json:"timeout"`
	// Secret, when set, signs each request: X-Warden-Timestamp (Unix seconds) and X-Warden-Signature
	// ("sha256=" + hex HMAC-SHA256 of timestamp + "." + body). Write ${WARDEN_WEBHOOK_SECRET}.
	Secret string `yaml:"secret" json:"secret"`
	// Headers are added to every request (an Authorization header, say).
	Headers map[string]string `yaml:"headers" json:"headers"`

	client *http.Client
}

var (
	_ warden.ToolCallGuardrail = (*Webhook)(nil)
	_ warden.Provisioner       = (*Webhook)(nil)
	_ warden.Validator         = (*Webhook)(nil)
)

// Request is what the service receives: the tool call and who makes it.
type Request struct {
	Version    int               `json:"version"`
	ToolName   string            `json:"tool_name"`
	ToolInput  json.RawMessage   `json:"tool_input"`
	ToolCallID string            `json:"tool_call_id,omitempty"`
	AgentID    string            `json:"agent_id,omitempty"`
	Passport   string            `json:"passport,omitempty"`
	ThreadID   string            `json:"thread_id,omitempty"`
	RunID      string            `json:"run_id,omitempty"`
	UserID     string            `json:"user_id,omitempty"`
	IsSubagent bool              `json:"is_subagent"`
	Scope      string            `json:"scope,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
	Timestamp  string            `json:"timestamp"`
}

// Answer is what the service returns. Allow is required; Action, when given, refines a denial: reject
// (the default: the model is told) or halt (the run ends).
type Answer struct {
	Allow    *bool             `json:"allow"`
	Action   string            `json:"action"`
	Reasons  []warden.Reason   `json:"reasons"`
	PolicyID string            `json:"policy_id"`
	Metadata map[string]string `json:"metadata"`
}

// Provision sets defaults and builds the client.
func (w *Webhook) Provision(context.Context) error {
	if w.Timeout == 0 {
		w.Timeout = warden.Duration(2 * time.Second)
	}
	w.client = &http.Client{Timeout: w.Timeout.Std()}
	return nil
}

// Validate checks the URL.
func (w *Webhook) Validate() error {
	u, err := url.Parse(w.URL)
	if w.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url: want an http or https URL, got %q", w.URL)
	}
	return nil
}

// CheckToolCall asks the service.
func (w *Webhook) CheckToolCall(ctx context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	input := json.RawMessage(c.Call.Arguments)
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	body, err := json.Marshal(Request{
		Version: 1, ToolName: c.Call.Name, ToolInput: input, ToolCallID: c.Call.ID, AgentID: c.Run.AgentID,
		Passport: c.Run.Passport, ThreadID: c.Run.ThreadID, RunID: c.Run.RunID, UserID: c.Run.UserID,
		IsSubagent: c.Run.IsSubagent, Scope: c.Run.Scope, Attributes: c.Run.Attributes,
		Timestamp: c.Time.UTC().Format(time.RFC3339Nano),
	})
	if err != nil {
		return warden.Decision{}, err
	}
	raw, err := httpjson.Post(ctx, w.client, w.URL, body, w.Headers, func(req *http.Request) {
		if w.Secret != "" {
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			req.Header.Set("X-Warden-Timestamp", ts)
			req.Header.Set("X-Warden-Signature", Sign(w.Secret, ts, body))
		}
	})
	var se *httpjson.StatusError
	switch {
	case errors.As(err, &se):
		return warden.Decision{}, fmt.Errorf("policy service %w", err)
	case err != nil:
		return warden.Decision{}, fmt.Errorf("policy service: %w", err)
	}
	var a Answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return warden.Decision{}, errors.New("policy service answer is not a JSON decision")
	}
	if a.Allow == nil {
		return warden.Decision{}, errors.New(`policy service answer has no "allow"`)
	}
	d := warden.Decision{Reasons: a.Reasons, PolicyID: a.PolicyID, Metadata: a.Metadata}
	switch {
	case *a.Allow:
		d.Action = warden.ActionAllow
	case a.Action == "" || a.Action == "reject":
		d.Action = warden.ActionReject
	case a.Action == "halt":
		d.Action = warden.ActionHalt
	default:
		return warden.Decision{}, fmt.Errorf("policy service answered an unknown action %q", a.Action)
	}
	return d, nil
}

// Sign returns the X-Warden-Signature of a request body sent at timestamp ts, for services to verify:
// "sha256=" + hex(HMAC-SHA256(secret, ts + "." + body)).
func Sign(secret, ts string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}
