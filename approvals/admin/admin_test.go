package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/approvals/admin"
)

const (
	aliceToken = "alice-token-0123456789"
	bobPass    = "bob-password-0123456789"
	sentinel   = "<script>alert('SENTINEL-ARGS')</script>"
)

type fixture struct {
	svc *approvals.Service
	srv *httptest.Server
	id  string // a pending request
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	svc, err := approvals.New(approvals.Config{Store: approvals.NewMemory()})
	if err != nil {
		t.Fatal(err)
	}
	h, err := admin.New(admin.Config{Service: svc, Tokens: map[string]string{"alice": aliceToken}, Users: map[string]string{"bob": bobPass},
		Key: []byte("0123456789abcdef0123456789abcdef"), BaseURL: "http://approvals.example"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	args, _ := json.Marshal(map[string]string{"command": sentinel})
	a, err := svc.Resolve(context.Background(), warden.ApprovalAsk{Run: warden.RunInfo{UserID: "u1"}, Call: warden.NewToolCall("c", "bash", args),
		Decision: warden.Ask("acme.ask", "needs a look"), Policy: "p"})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{svc: svc, srv: srv, id: a.ID}
}

type call struct {
	method, path, body string
	auth               func(*http.Request)
	header             map[string]string
}

func bearer(tok string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+tok) }
}

func basic(user, pass string) func(*http.Request) {
	return func(r *http.Request) { r.SetBasicAuth(user, pass) }
}

func (f *fixture) do(t *testing.T, c call) (int, string) {
	t.Helper()
	req, err := http.NewRequest(c.method, f.srv.URL+strings.ReplaceAll(c.path, "$ID", f.id), strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	if c.auth != nil {
		c.auth(req)
	}
	if strings.HasPrefix(c.body, "{") {
		req.Header.Set("Content-Type", "application/json")
	} else if c.body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		desc string
		c    call
		want int
	}{
		{"the API without credentials is refused", call{method: "GET", path: "/api/approvals"}, 401},
		{"the page without credentials is refused", call{method: "GET", path: "/approvals"}, 401},
		{"a wrong token is refused", call{method: "GET", path: "/api/approvals", auth: bearer("alice-token-0123456780")}, 401},
		{"a user's password under another name is refused", call{method: "GET", path: "/approvals", auth: basic("alice", bobPass)}, 401},
		{"a token as a basic password is refused", call{method: "GET", path: "/approvals", auth: basic("alice", aliceToken)}, 401},
		{"a token reads the API", call{method: "GET", path: "/api/approvals", auth: bearer(aliceToken)}, 200},
		{"a login reads the page", call{method: "GET", path: "/approvals", auth: basic("bob", bobPass)}, 200},
		{"an unauthenticated decision is refused", call{method: "POST", path: "/api/approvals/$ID/approve"}, 401},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got, body := f.do(t, tt.c); got != tt.want {
				t.Errorf("status %d, want %d (%s)", got, tt.want, body)
			}
		})
	}
	if rec, _ := f.svc.Get(context.Background(), f.id); rec.Status != approvals.StatusPending {
		t.Errorf("after refused requests the request is %s, want pending", rec.Status)
	}
}

func TestAPI(t *testing.T) {
	t.Parallel()
	t.Run("the list names pending requests without their arguments", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		code, body := f.do(t, call{method: "GET", path: "/api/approvals", auth: bearer(aliceToken)})
		if code != 200 || !strings.Contains(body, f.id) || !strings.Contains(body, `"tool":"bash"`) || !strings.Contains(body, "http://approvals.example/approvals/"+f.id) {
			t.Errorf("list: %d %s", code, body)
		}
		if strings.Contains(body, "SENTINEL-ARGS") {
			t.Error("the API returned the call's arguments")
		}
	})
	t.Run("an approval names the token's approver and carries the note", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		code, body := f.do(t, call{method: "POST", path: "/api/approvals/$ID/approve", body: `{"note":"looks fine"}`, auth: bearer(aliceToken)})
		if code != 200 || !strings.Contains(body, `"status":"approved"`) || !strings.Contains(body, `"approver":"alice"`) {
			t.Errorf("approve: %d %s", code, body)
		}
		rec, _ := f.svc.Get(context.Background(), f.id)
		if rec.Approver != "alice" || rec.Note != "looks fine" {
			t.Errorf("record: %+v", rec)
		}
	})
	t.Run("a denial without a body is taken", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		if code, body := f.do(t, call{method: "POST", path: "/api/approvals/$ID/deny", auth: bearer(aliceToken)}); code != 200 || !strings.Contains(body, `"status":"denied"`) {
			t.Errorf("deny: %d %s", code, body)
		}
	})
	t.Run("a second decision conflicts", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.do(t, call{method: "POST", path: "/api/approvals/$ID/deny", auth: bearer(aliceToken)})
		if code, body := f.do(t, call{method: "POST", path: "/api/approvals/$ID/approve", auth: bearer(aliceToken)}); code != 409 {
			t.Errorf("second decision: %d %s, want 409", code, body)
		}
	})
	t.Run("an unknown request is not found", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		if code, _ := f.do(t, call{method: "POST", path: "/api/approvals/apr_nope/approve", auth: bearer(aliceToken)}); code != 404 {
			t.Errorf("status %d, want 404", code)
		}
	})
	t.Run("an unknown verdict is not found", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		if code, _ := f.do(t, call{method: "POST", path: "/api/approvals/$ID/maybe", auth: bearer(aliceToken)}); code != 404 {
			t.Errorf("status %d, want 404", code)
		}
	})
	t.Run("a body with unknown keys is refused", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		if code, _ := f.do(t, call{method: "POST", path: "/api/approvals/$ID/approve", body: `{"approver":"mallory"}`, auth: bearer(aliceToken)}); code != 400 {
			t.Errorf("status %d, want 400", code)
		}
	})
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func TestPage(t *testing.T) {
	t.Parallel()
	t.Run("the request's page shows its arguments, escaped", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		code, body := f.do(t, call{method: "GET", path: "/approvals/$ID", auth: basic("bob", bobPass)})
		if code != 200 || !strings.Contains(body, "SENTINEL-ARGS") {
			t.Fatalf("page: %d, arguments shown: %v", code, strings.Contains(body, "SENTINEL-ARGS"))
		}
		if strings.Contains(body, "<script>") {
			t.Error("the arguments reached the page unescaped")
		}
	})
	tests := []struct {
		desc   string
		csrf   func(page string) string
		header map[string]string
		want   approvals.Status
	}{
		{"a form with the page's token decides", func(p string) string { return p }, nil, approvals.StatusApproved},
		{"a form without a token is refused", func(string) string { return "" }, nil, approvals.StatusPending},
		{"a form with a forged token is refused", func(p string) string { return strings.Repeat("0", len(p)) }, nil, approvals.StatusPending},
		{"a cross-site form is refused even with the token", func(p string) string { return p }, map[string]string{"Sec-Fetch-Site": "cross-site"}, approvals.StatusPending},
		{"a form from another origin is refused even with the token", func(p string) string { return p }, map[string]string{"Origin": "http://evil.example"}, approvals.StatusPending},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			_, page := f.do(t, call{method: "GET", path: "/approvals/$ID", auth: basic("bob", bobPass)})
			m := csrfField.FindStringSubmatch(page)
			if m == nil {
				t.Fatal("the page has no form token")
			}
			form := url.Values{"csrf": {tt.csrf(m[1])}, "note": {"ok by me"}}
			f.do(t, call{method: "POST", path: "/approvals/$ID/approve", body: form.Encode(), auth: basic("bob", bobPass), header: tt.header})
			rec, _ := f.svc.Get(context.Background(), f.id)
			if rec.Status != tt.want {
				t.Errorf("request is %s, want %s", rec.Status, tt.want)
			}
			if tt.want == approvals.StatusApproved && (rec.Approver != "bob" || rec.Note != "ok by me") {
				t.Errorf("decided by %q with note %q, want bob's", rec.Approver, rec.Note)
			}
		})
	}
	t.Run("another approver's token does not pass", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		_, page := f.do(t, call{method: "GET", path: "/approvals/$ID", auth: basic("bob", bobPass)})
		m := csrfField.FindStringSubmatch(page)
		form := url.Values{"csrf": {m[1]}}
		// alice (through the API token, which a browser never sends by itself) posts bob's form token
		f.do(t, call{method: "POST", path: "/approvals/$ID/approve", body: form.Encode(), auth: bearer(aliceToken)})
		if rec, _ := f.svc.Get(context.Background(), f.id); rec.Status != approvals.StatusPending {
			t.Errorf("request is %s, want pending", rec.Status)
		}
	})
}

func TestNewRefusesAnUnauthenticatedListener(t *testing.T) {
	t.Parallel()
	svc, _ := approvals.New(approvals.Config{Store: approvals.NewMemory()})
	if _, err := admin.New(admin.Config{Service: svc, Key: make([]byte, 32)}); err == nil {
		t.Error("an admin listener without tokens or users was built")
	}
}
