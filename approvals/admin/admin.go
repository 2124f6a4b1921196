// Package admin serves the approvals page and its JSON API on the admin listener: where a person sees the
// tool calls that wait for them and approves or denies each, and what `warden approvals` talks to.
//
// Every route needs an approver: a bearer token (the API, the CLI) or an HTTP basic login (the page), each
// named in config. The page is plain server-rendered HTML with no script. Its forms carry a token bound to
// the approver and the request, and cross-origin writes are refused (net/http.CrossOriginProtection), so a
// page elsewhere cannot approve through a logged-in browser. The arguments of a call are shown on its page,
// the one place they appear; they are never logged and the API does not return them.
package admin

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/agentwarden/warden/approvals"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// Config configures the handler.
type Config struct {
	Service *approvals.Service
	// Tokens are bearer tokens by approver name.
	Tokens map[string]string
	// Users are basic-auth passwords by approver name.
	Users map[string]string
	// Key signs the page's form tokens.
	Key []byte
	// BaseURL is how people reach this listener; the API's records link their pages under it.
	BaseURL string
	Logger  *slog.Logger
}

// Handler serves the admin routes. It is safe for concurrent use.
type Handler struct {
	cfg Config
	mux *http.ServeMux
	h   http.Handler
}

// New returns the admin handler. It refuses a config that names no approver: the page decides what runs.
func New(cfg Config) (*Handler, error) {
	switch {
	case cfg.Service == nil:
		return nil, errors.New("admin: no approvals service")
	case len(cfg.Tokens) == 0 && len(cfg.Users) == 0:
		return nil, errors.New("admin: no tokens or users: the approvals page is never served without authentication")
	case len(cfg.Key) < 32:
		return nil, errors.New("admin: the form key must have 32 bytes or more")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	h := &Handler{cfg: cfg, mux: http.NewServeMux()}
	h.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/approvals", http.StatusSeeOther) })
	h.mux.HandleFunc("GET /approvals", h.listPage)
	h.mux.HandleFunc("GET /approvals/{id}", h.requestPage)
	h.mux.HandleFunc("POST /approvals/{id}/{verdict}", h.decideForm)
	h.mux.HandleFunc("GET /api/approvals", h.listAPI)
	h.mux.HandleFunc("GET /api/approvals/{id}", h.getAPI)
	h.mux.HandleFunc("POST /api/approvals/{id}/{verdict}", h.decideAPI)
	h.h = http.NewCrossOriginProtection().Handler(h.authenticated(h.mux))
	return h, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	h.h.ServeHTTP(w, r)
}

type approverKey struct{}

// authenticated finds the approver of a request or answers 401.
func (h *Handler) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		who := h.approver(r)
		if who == "" {
			if len(h.cfg.Users) > 0 {
				w.Header().Set("WWW-Authenticate", `Basic realm="Warden approvals", charset="UTF-8"`)
			}
			if strings.HasPrefix(r.URL.Path, "/api/") {
				writeJSONError(w, http.StatusUnauthorized, "unauthenticated: send Authorization: Bearer TOKEN (approvals.admin.tokens)")
				return
			}
			http.Error(w, "unauthenticated", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r.WithContext(contextWith(r, who)))
	})
}

// approver is the name a request authenticates as, or "".
func (h *Handler) approver(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if token, ok := strings.CutPrefix(auth, "Bearer "); ok {
		return match(h.cfg.Tokens, "", token)
	}
	if user, pass, ok := r.BasicAuth(); ok {
		return match(h.cfg.Users, user, pass)
	}
	return ""
}

// match compares a secret against every entry (or the named one) in constant time per entry.
func match(secrets map[string]string, name, secret string) string {
	found := ""
	for who, want := range secrets {
		if name != "" && who != name {
			continue
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(secret)) == 1 {
			found = who
		}
	}
	return found
}

func (h *Handler) csrf(approver, id string) string {
	m := hmac.New(sha256.New, h.cfg.Key)
	fmt.Fprintf(m, "warden admin form\x00%s\x00%s", approver, id)
	return hex.EncodeToString(m.Sum(nil))
}

type listView struct {
	Approver        string
	Pending, Recent []approvals.Record
}

func (h *Handler) listPage(w http.ResponseWriter, r *http.Request) {
	pending, recent, err := h.lists(r)
	if err != nil {
		h.failed(w, r, err)
		return
	}
	h.render(w, "list.html", listView{Approver: approverOf(r), Pending: pending, Recent: recent})
}

// lists reads the pending requests and the recent decisions.
func (h *Handler) lists(r *http.Request) (pending, recent []approvals.Record, err error) {
	if pending, err = h.cfg.Service.List(r.Context(), approvals.Query{Pending: true, Limit: 200}); err != nil {
		return nil, nil, err
	}
	all, err := h.cfg.Service.List(r.Context(), approvals.Query{Limit: 200})
	if err != nil {
		return nil, nil, err
	}
	for _, rec := range all {
		if !rec.Decided.IsZero() {
			recent = append(recent, rec)
		}
	}
	return pending, recent[:min(len(recent), 50)], nil
}

type requestView struct {
	Record    approvals.Record
	Status    approvals.Status
	Arguments string
	CSRF      string
}

func (h *Handler) requestPage(w http.ResponseWriter, r *http.Request) {
	rec, err := h.cfg.Service.Get(r.Context(), r.PathValue("id"))
	if errors.Is(err, approvals.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		h.failed(w, r, err)
		return
	}
	h.render(w, "request.html", requestView{Record: rec, Status: rec.StatusAt(time.Now()), Arguments: prettyJSON(rec.Arguments),
		CSRF: h.csrf(approverOf(r), rec.ID)})
}

// prettyJSON indents the arguments for reading; anything that is not JSON is shown as it is.
func prettyJSON(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(b)
}

func (h *Handler) decideForm(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	approve, ok := verdictOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	who := approverOf(r)
	if !hmac.Equal([]byte(r.PostForm.Get("csrf")), []byte(h.csrf(who, id))) {
		http.Error(w, "the form's token does not match: reload the page and decide again", http.StatusForbidden)
		return
	}
	_, err := h.cfg.Service.Decide(r.Context(), id, approvals.Verdict{Approve: approve, Approver: who, Note: strings.TrimSpace(r.PostForm.Get("note"))})
	switch {
	case errors.Is(err, approvals.ErrNotFound):
		http.NotFound(w, r)
		return
	case errors.Is(err, approvals.ErrDecided), errors.Is(err, approvals.ErrExpired):
		// The page shows where the request stands now.
	case err != nil:
		h.failed(w, r, err)
		return
	}
	http.Redirect(w, r, "/approvals/"+id, http.StatusSeeOther)
}

func verdictOf(r *http.Request) (approve, ok bool) {
	switch r.PathValue("verdict") {
	case "approve":
		return true, true
	case "deny":
		return false, true
	}
	return false, false
}

// APIRecord is a request as the API returns it: everything but the arguments.
type APIRecord struct {
	ID        string           `json:"id"`
	Tool      string           `json:"tool"`
	Principal string           `json:"principal"`
	Guardrail string           `json:"guardrail"`
	Code      string           `json:"code"`
	Reason    string           `json:"reason"`
	Status    approvals.Status `json:"status"`
	Created   time.Time        `json:"created"`
	Expires   time.Time        `json:"expires"`
	Approver  string           `json:"approver,omitempty"`
	Note      string           `json:"note,omitempty"`
	Decided   time.Time        `json:"decided,omitzero"`
	URL       string           `json:"url,omitempty"`
}

func (h *Handler) apiRecord(rec approvals.Record) APIRecord {
	return APIRecord{ID: rec.ID, Tool: rec.Tool, Principal: rec.Principal, Guardrail: rec.Guardrail, Code: rec.Code, Reason: rec.Reason,
		Status: rec.StatusAt(time.Now()), Created: rec.Created, Expires: rec.Expires, Approver: rec.Approver, Note: rec.Note, Decided: rec.Decided,
		URL: approvals.PageLink(h.cfg.BaseURL, rec.ID)}
}

func (h *Handler) listAPI(w http.ResponseWriter, r *http.Request) {
	q := approvals.Query{Limit: 200}
	switch r.URL.Query().Get("status") {
	case "", "pending":
		q.Pending = true
	case "all":
	default:
		writeJSONError(w, http.StatusBadRequest, "status: want pending (default) or all")
		return
	}
	recs, err := h.cfg.Service.List(r.Context(), q)
	if err != nil {
		h.failedJSON(w, r, err)
		return
	}
	out := struct {
		Approvals []APIRecord `json:"approvals"`
	}{Approvals: []APIRecord{}}
	for _, rec := range recs {
		out.Approvals = append(out.Approvals, h.apiRecord(rec))
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) getAPI(w http.ResponseWriter, r *http.Request) {
	rec, err := h.cfg.Service.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		h.failedJSON(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h.apiRecord(rec))
}

func (h *Handler) decideAPI(w http.ResponseWriter, r *http.Request) {
	approve, ok := verdictOf(r)
	if !ok {
		writeJSONError(w, http.StatusNotFound, "want /api/approvals/ID/approve or /api/approvals/ID/deny")
		return
	}
	var body struct {
		Note string `json:"note"`
	}
	if r.ContentLength != 0 {
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&body); err != nil {
			writeJSONError(w, http.StatusBadRequest, "body: want {\"note\": \"...\"} or none")
			return
		}
	}
	rec, err := h.cfg.Service.Decide(r.Context(), r.PathValue("id"), approvals.Verdict{Approve: approve, Approver: approverOf(r), Note: strings.TrimSpace(body.Note)})
	if err != nil {
		h.failedJSON(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, h.apiRecord(rec))
}

func (h *Handler) failedJSON(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, approvals.ErrNotFound):
		writeJSONError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, approvals.ErrDecided), errors.Is(err, approvals.ErrExpired):
		writeJSONError(w, http.StatusConflict, err.Error())
	default:
		h.cfg.Logger.ErrorContext(r.Context(), "approvals store failed", "error", err)
		writeJSONError(w, http.StatusInternalServerError, "the approvals store failed; see the server's log")
	}
}

func (h *Handler) failed(w http.ResponseWriter, r *http.Request, err error) {
	h.cfg.Logger.ErrorContext(r.Context(), "approvals store failed", "error", err)
	http.Error(w, "the approvals store failed; see the server's log", http.StatusInternalServerError)
}

func (h *Handler) render(w http.ResponseWriter, name string, v any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pages.ExecuteTemplate(w, name, v); err != nil {
		h.cfg.Logger.Error("approvals page failed", "page", name, "error", err)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeJSONError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func contextWith(r *http.Request, who string) context.Context {
	return context.WithValue(r.Context(), approverKey{}, who)
}

func approverOf(r *http.Request) string {
	who, _ := r.Context().Value(approverKey{}).(string)
	return who
}
