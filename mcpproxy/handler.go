package mcpproxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentwarden/warden/internal/credential"
)

// CodeHeaderMismatch answers a streamable HTTP request whose Mcp-Method or Mcp-Name header disagrees with
// its body (MCP 2026-07-28): a gateway that routed or judged by the header would see another request
// than the server runs.
const CodeHeaderMismatch = -32020

// Handler serves MCP's streamable HTTP transport to clients and proxies each client session with its
// SessionFunc (a Proxy's Serve to one server, or Aggregate over several): a session opened by initialize (the generations up to 2025-11-25) lives until the
// client deletes it or the server ends it; a request without a session (2026-07-28's stateless
// requests, server/discover, subscriptions/listen) is a session of its own that ends with its answer.
// Answers are JSON, or an SSE stream when the client accepts one, which then also carries the server's
// messages while the request is open; a client's GET opens the stream for the server's own messages of its
// session. Handler is safe for concurrent use.
type Handler struct {
	serve  SessionFunc
	params *ParamHeaders
	// IdleTimeout ends a session no request has used for this long, as a client that went away without
	// a DELETE leaves it (its server connection, its command, its goroutines). Zero means DefaultIdleTimeout.
	// Set it before serving.
	IdleTimeout time.Duration
	// HaltFor is how long a guardrail's halt outlives the session or the stateless request it ended:
	// every request made with the same credential (a digest of its Authorization header) is refused that
	// long, whichever session it belongs to or opens. A halt ends a run, and a client of the stateless
	// generation has no session to end, nor does a client that simply opens another. Zero means
	// DefaultHaltFor; negative, the halt ends only its own session. Requests without an Authorization
	// header carry no credential, so their halts end only their own session. Set it before serving.
	HaltFor time.Duration

	mu       sync.Mutex
	sessions map[string]*httpSession
	halted   map[string]haltMark // by credential
}

// DefaultHaltFor is how long a halt refuses its credential's requests when Handler.HaltFor is zero.
const DefaultHaltFor = 30 * time.Minute

// haltMark is a credential's halt: why, and until when its requests are refused.
type haltMark struct {
	reason string
	until  time.Time
}

// DefaultIdleTimeout is how long a session may go unused before the Handler ends it.
const DefaultIdleTimeout = 30 * time.Minute

// SessionFunc proxies one client session until the client or the servers end it.
type SessionFunc func(ctx context.Context, client Conn) error

// To is the SessionFunc of px in front of the server dial connects to, a new connection for each
// session.
func (px *Proxy) To(dial func() Conn) SessionFunc {
	return func(ctx context.Context, client Conn) error { return px.Serve(ctx, client, dial()) }
}

// NewHandler serves clients, each session proxied by serve. params, when not nil, is the server's
// registry of Mcp-Param-* bindings (the one its HTTPConns share): a client's Mcp-Param-* header that
// disagrees with its body is refused.
func NewHandler(serve SessionFunc, params *ParamHeaders) *Handler {
	return &Handler{serve: serve, params: params, sessions: map[string]*httpSession{}, halted: map[string]haltMark{}}
}

// httpSession is one client session: the Conn its proxy session reads the client's messages from and
// writes the client's answers to.
type httpSession struct {
	id       string
	incoming chan []byte
	done     chan struct{}
	once     sync.Once

	mu      sync.Mutex
	used    time.Time             // when a request last used the session
	waiting map[idKey]chan []byte // an open request's POST, by id: its answer and the messages before it
	stream  chan []byte           // the GET stream, when the client has one open
	listen  chan []byte           // an open subscriptions/listen POST (2026-07-28), the stateless stream
	open    []chan []byte         // the open requests' POSTs, oldest first, for the server's messages
}

var _ Conn = (*httpSession)(nil)

func (s *httpSession) ReadMessage() ([]byte, error) {
	select {
	case m := <-s.incoming:
		return m, nil
	case <-s.done:
		return nil, io.EOF
	}
}

// WriteMessage routes a message for the client: an answer to the POST that asked, anything else (the
// server's requests and notifications) to the GET stream, or else to an open subscriptions/listen, or
// else to the most recent open POST.
func (s *httpSession) WriteMessage(msg []byte) error {
	m, err := Parse(msg)
	if err != nil {
		return err
	}
	s.mu.Lock()
	var to chan []byte
	if m.Kind == Response {
		to = s.waiting[idKey(m.ID)]
		delete(s.waiting, idKey(m.ID))
	} else if s.stream != nil {
		to = s.stream
	} else if s.listen != nil {
		to = s.listen
	} else if n := len(s.open); n > 0 {
		to = s.open[n-1]
	}
	s.mu.Unlock()
	if to == nil {
		return fmt.Errorf("no open stream to the client for a %s", m.Kind)
	}
	select {
	case to <- msg:
		return nil
	case <-s.done:
		return io.EOF
	}
}

func (s *httpSession) Close() error {
	s.once.Do(func() { close(s.done) })
	return nil
}

// ServeHTTP implements the streamable HTTP transport's POST, GET and DELETE.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		s := h.session(r.Header.Get("Mcp-Session-Id"))
		if s == nil {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		h.end(s)
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (h *Handler) session(id string) *httpSession {
	if id == "" {
		return nil
	}
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s != nil {
		s.mu.Lock()
		s.used = time.Now()
		s.mu.Unlock()
	}
	return s
}

// sweep ends the sessions no request has used for IdleTimeout, unless a request or a stream is open in
// them. It runs as a session starts, so that the sessions of clients gone for good do not pile up.
func (h *Handler) sweep() {
	idle := h.IdleTimeout
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	h.mu.Lock()
	var stale []*httpSession
	for _, s := range h.sessions {
		s.mu.Lock()
		if time.Since(s.used) > idle && len(s.open) == 0 && s.stream == nil {
			stale = append(stale, s)
		}
		s.mu.Unlock()
	}
	now := time.Now()
	for cred, mark := range h.halted {
		if !now.Before(mark.until) {
			delete(h.halted, cred)
		}
	}
	h.mu.Unlock()
	for _, s := range stale {
		h.end(s)
	}
}

// start opens a proxy session to the server; kept, it is found again by its id.
func (h *Handler) start(keep bool, r *http.Request) *httpSession {
	var b [16]byte
	rand.Read(b[:])
	s := &httpSession{id: hex.EncodeToString(b[:]), incoming: make(chan []byte, 16), done: make(chan struct{}),
		waiting: map[idKey]chan []byte{}, used: time.Now()}
	if keep {
		h.sweep()
		h.mu.Lock()
		h.sessions[s.id] = s
		h.mu.Unlock()
	}
	// The session belongs to the credential that opened it: approvals and budgets count by it, and its
	// halt refuses the credential's later requests.
	cred := credential.Of(r)
	ctx := WithCredential(context.Background(), cred)
	if cred != "" && h.HaltFor >= 0 {
		ctx = context.WithValue(ctx, haltNoticeKey{}, func(reason string) { h.markHalted(cred, reason) })
	}
	go func() {
		h.serve(ctx, s)
		h.end(s)
	}()
	return s
}

type credentialKey struct{}

// haltNoticeKey carries the func a session calls when a guardrail halts it (see Handler.HaltFor).
type haltNoticeKey struct{}

// markHalted refuses a credential's requests for HaltFor.
func (h *Handler) markHalted(cred, reason string) {
	d := h.HaltFor
	if d == 0 {
		d = DefaultHaltFor
	}
	h.mu.Lock()
	h.halted[cred] = haltMark{reason: reason, until: time.Now().Add(d)}
	h.mu.Unlock()
}

// haltOf returns the halt that refuses a credential's requests now, if any; an expired one is dropped.
func (h *Handler) haltOf(cred string) (haltMark, bool) {
	if cred == "" {
		return haltMark{}, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	mark, ok := h.halted[cred]
	if ok && !time.Now().Before(mark.until) {
		delete(h.halted, cred)
		return haltMark{}, false
	}
	return mark, ok
}

// WithCredential gives the sessions served under ctx a credential (warden.RunInfo.Credential) when the
// proxy's Config.Run names none: the Handler passes a digest of the Authorization that opened each session.
func WithCredential(ctx context.Context, credential string) context.Context {
	if credential == "" {
		return ctx
	}
	return context.WithValue(ctx, credentialKey{}, credential)
}

// Close ends every session: their server connections close (a remote server's session is deleted, a
// command's input closed). Requests that arrive after it start new sessions.
func (h *Handler) Close() error {
	h.mu.Lock()
	all := make([]*httpSession, 0, len(h.sessions))
	for _, s := range h.sessions {
		all = append(all, s)
	}
	h.mu.Unlock()
	for _, s := range all {
		h.end(s)
	}
	return nil
}

func (h *Handler) end(s *httpSession) {
	h.mu.Lock()
	delete(h.sessions, s.id)
	h.mu.Unlock()
	s.Close()
}

// writeRPCError answers a POST with a JSON-RPC error and an HTTP status.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(encodeError(id, code, msg))
}

func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, DefaultMaxMessage+1))
	if err != nil || len(body) > DefaultMaxMessage {
		writeRPCError(w, http.StatusBadRequest, nil, CodeInvalidRequest, "the request body could not be read whole")
		return
	}
	m, err := Parse(body)
	if err != nil {
		pe, _ := err.(*ParseError)
		writeRPCError(w, http.StatusBadRequest, pe.ID, pe.Code, pe.Msg)
		return
	}
	if msg := h.headerMismatch(r.Header, m); msg != "" {
		writeRPCError(w, http.StatusBadRequest, m.ID, CodeHeaderMismatch, msg)
		return
	}
	if mark, ok := h.haltOf(credential.Of(r)); ok && m.Kind == Request {
		writeRPCError(w, http.StatusOK, m.ID, CodeHalted, fmt.Sprintf("Warden halted this client's run: %s; its requests are refused until %s",
			mark.reason, mark.until.UTC().Format(time.RFC3339)))
		return
	}
	s := h.session(r.Header.Get("Mcp-Session-Id"))
	switch {
	case s == nil && r.Header.Get("Mcp-Session-Id") != "":
		writeRPCError(w, http.StatusNotFound, m.ID, CodeInvalidRequest, "no such session: it ended or never was")
		return
	case s == nil && m.Kind == Request && m.Method == "initialize":
		s = h.start(true, r)
		w.Header().Set("Mcp-Session-Id", s.id)
	case s == nil && m.Kind == Request:
		s = h.start(false, r) // a stateless request: a session of its own
		defer h.end(s)
	case s == nil:
		w.WriteHeader(http.StatusAccepted) // a notification or answer of no session has no one to reach
		return
	}
	if m.Kind != Request {
		select {
		case s.incoming <- m.Raw:
			w.WriteHeader(http.StatusAccepted)
		case <-s.done:
			http.Error(w, "the session ended", http.StatusNotFound)
		}
		return
	}
	answers := make(chan []byte, 16)
	s.mu.Lock()
	if _, open := s.waiting[idKey(m.ID)]; open {
		s.mu.Unlock()
		writeRPCError(w, http.StatusBadRequest, m.ID, CodeInvalidRequest, "a request with this id is still open")
		return
	}
	s.waiting[idKey(m.ID)] = answers
	s.open = append(s.open, answers)
	if m.Method == "subscriptions/listen" {
		s.listen = answers
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiting, idKey(m.ID))
		s.open = slices.DeleteFunc(s.open, func(c chan []byte) bool { return c == answers })
		if s.listen == answers {
			s.listen = nil
		}
		s.mu.Unlock()
	}()
	select {
	case s.incoming <- m.Raw:
	case <-s.done:
		writeRPCError(w, http.StatusNotFound, m.ID, CodeServerFault, "the session ended")
		return
	}
	h.answer(w, r, s, m, answers)
}

// answer writes what the session sends for the request: its answer as JSON, or, when the client accepts
// an event stream, the server's messages while the request is open and then its answer.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, s *httpSession, m *Message, answers chan []byte) {
	streaming := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	rc := http.NewResponseController(w)
	for first := true; ; first = false {
		var msg []byte
		select {
		case msg = <-answers:
		case <-s.done:
			msg = encodeError(m.ID, CodeServerFault, "the session ended before the server answered")
		case <-r.Context().Done():
			return
		}
		final := isAnswerTo(msg, m.ID)
		if !streaming {
			if !final {
				continue // a client that takes JSON only gets the answer
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(msg)
			return
		}
		if first {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusOK)
		}
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
		rc.Flush()
		if final {
			return
		}
	}
}

func isAnswerTo(msg []byte, id json.RawMessage) bool {
	m, err := Parse(msg)
	return err == nil && m.Kind == Response && string(m.ID) == string(id)
}

// get opens the session's stream for the server's own messages.
func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	s := h.session(r.Header.Get("Mcp-Session-Id"))
	if s == nil {
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "a stream needs a session: initialize first", http.StatusMethodNotAllowed)
		return
	}
	stream := make(chan []byte, 16)
	s.mu.Lock()
	if s.stream != nil {
		s.mu.Unlock()
		http.Error(w, "the session's stream is already open", http.StatusConflict)
		return
	}
	s.stream = stream
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.stream = nil
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.Flush()
	keepAlive := time.NewTicker(25 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case msg := <-stream:
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
			rc.Flush()
		case <-keepAlive.C:
			io.WriteString(w, ": keep-alive\n\n")
			rc.Flush()
		case <-s.done:
			return
		case <-r.Context().Done():
			return
		}
	}
}

// headerMismatch says how the request's Mcp-Method or Mcp-Name header disagrees with its body, when one
// is sent: a gateway that routes or judges by them would see another request than the server runs.
func (hd *Handler) headerMismatch(h http.Header, m *Message) string {
	if method := h.Get("Mcp-Method"); method != "" && method != m.Method {
		return fmt.Sprintf("header Mcp-Method %q disagrees with the body's method %q", method, m.Method)
	}
	if name := h.Get("Mcp-Name"); name != "" {
		decoded, ok := decodeHeader(name)
		if body := nameOf(m); !ok || decoded != body {
			return fmt.Sprintf("header Mcp-Name %q disagrees with the body's %q", name, body)
		}
	}
	if m.Method == "tools/call" && hd.params != nil {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		json.Unmarshal(m.Params, &p)
		return hd.params.mismatch(h, nameOf(m), p.Arguments)
	}
	return ""
}
