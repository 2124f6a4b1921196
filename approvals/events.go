package approvals

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"
)

// Multi tells each of its Events in turn.
type Multi []Events

var _ Events = Multi(nil)

// Filed implements Events.
func (m Multi) Filed(ctx context.Context, r Record) {
	for _, e := range m {
		e.Filed(ctx, r)
	}
}

// Decided implements Events.
func (m Multi) Decided(ctx context.Context, r Record) {
	for _, e := range m {
		e.Decided(ctx, r)
	}
}

// Webhook posts each new request to a URL, so that a person hears of it where they are: a JSON body of its
// own, or a Slack incoming-webhook message. It never sends the arguments: the page shows them to those who
// log in. A POST runs in the background, bounded by Timeout, so that no call waits for it; a failure is
// logged without content.
type Webhook struct {
	URL string
	// Slack sends {"text": ...} as Slack's incoming webhooks take it.
	Slack   bool
	Headers map[string]string
	// Timeout bounds one POST; zero means 5s.
	Timeout time.Duration
	// PageURL is the admin listener's base URL; the body links the request's page under it. SetPageURL
	// replaces it once the listener's address is known.
	PageURL string
	// Client sends the POSTs; nil means a plain http.Client.
	Client *http.Client
	// Logger hears of failures; nil means slog.Default().
	Logger *slog.Logger

	page atomic.Pointer[string] // set by SetPageURL, read by each post
}

// SetPageURL sets the base URL the posts link pages under: the address the admin listener got, when that
// is known only once it listens (a ":0" port, an --admin flag). Safe while posts are made.
func (w *Webhook) SetPageURL(base string) { w.page.Store(&base) }

func (w *Webhook) pageURL() string {
	if p := w.page.Load(); p != nil {
		return *p
	}
	return w.PageURL
}

var _ Events = (*Webhook)(nil)

// WebhookBody is the JSON body the webhook posts for a new request.
type WebhookBody struct {
	Type      string    `json:"type"` // "approval.requested"
	ID        string    `json:"id"`
	Tool      string    `json:"tool"`
	Principal string    `json:"principal"`
	Guardrail string    `json:"guardrail"`
	Code      string    `json:"code"`
	Reason    string    `json:"reason"`
	Created   time.Time `json:"created"`
	Expires   time.Time `json:"expires"`
	URL       string    `json:"url,omitempty"`
}

// Filed implements Events: it posts the request.
func (w *Webhook) Filed(_ context.Context, r Record) {
	body := w.body(r)
	go w.post(body)
}

// Decided implements Events; the webhook tells only of new requests.
func (w *Webhook) Decided(context.Context, Record) {}

// PageLink is where a request's page is under the admin listener's base URL.
func PageLink(base, id string) string {
	if base == "" {
		return ""
	}
	return base + "/approvals/" + url.PathEscape(id)
}

func (w *Webhook) body(r Record) []byte {
	link := PageLink(w.pageURL(), r.ID)
	var v any = WebhookBody{Type: "approval.requested", ID: r.ID, Tool: r.Tool, Principal: r.Principal, Guardrail: r.Guardrail,
		Code: r.Code, Reason: r.Reason, Created: r.Created, Expires: r.Expires, URL: link}
	if w.Slack {
		text := fmt.Sprintf("Warden: a call of tool `%s` for %s waits for approval (%s): %s. Expires %s.", r.Tool, r.Principal, r.Code, r.Reason, r.Expires.Format(time.RFC3339))
		if link != "" {
			text += fmt.Sprintf(" Decide: <%s|%s>", link, r.ID)
		} else {
			text += " Request " + r.ID + "."
		}
		v = map[string]string{"text": text}
	}
	b, _ := json.Marshal(v)
	return b
}

func (w *Webhook) post(body []byte) {
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		w.logger().Warn("approval webhook: bad request", "error", err)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range w.Headers {
		req.Header.Set(k, v)
	}
	client := w.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		w.logger().Warn("approval webhook failed", "error", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		w.logger().Warn("approval webhook refused", "status", resp.StatusCode)
	}
}

func (w *Webhook) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.Default()
}
