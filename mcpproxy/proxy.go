package mcpproxy

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/agentwarden/warden"
)

// Config is what a Proxy needs. Engine is required.
type Config struct {
	// Server names the MCP server behind the proxy: its tools reach the policy as mcp__<Server>__<tool>,
	// the way agents name MCP tools, so that one policy tells servers apart.
	Server string
	// Engine evaluates each stage.
	Engine *warden.Engine
	// Run attributes every evaluation of a session (agent, user, scope). A session gets its own RunID
	// when Run has none.
	Run warden.RunInfo
	// ShowDenied keeps in tools/list the tools a tool-call guardrail denies by name (an allowlist): by
	// default they are left out, so that the model does not plan with them. Their calls are denied either
	// way.
	ShowDenied bool
	// Pins, when set, pins each listed tool's title, description and schemas at its first listing, and
	// a listing that shows them changed is a rug pull (see PinStore and OnPinChange). Nil pins nothing.
	Pins PinStore
	// OnPinChange is what a tool whose listing differs from its pin gets: "block" (the default: left out of
	// the listing and its calls refused for the session) or "warn" (listed, and logged).
	OnPinChange string
	// Repin takes what the server lists now as the new pins: the user accepts the changes.
	Repin bool
	// RequestTimeout bounds the wait for the server's answer to a client's request; the progress the
	// server reports for the request restarts it. A request not answered in time gets an error, the server
	// a cancellation, and its late answer is dropped. Zero waits as long as the client does.
	RequestTimeout time.Duration
	// Logger gets the proxy's own events: faults of a peer, messages refused. Never content. Nil
	// discards them.
	Logger *slog.Logger
	// Approvals, with AskWait above zero, lets a tools/call a guardrail asked about wait for a person
	// (see approval.go): the call is held up to AskWait and checked again. Without them the call is
	// answered at once with a tool error naming the approval request (on_ask: deny).
	Approvals ApprovalWaiter
	AskWait   time.Duration
	// ApprovalPage gives the page where a person decides request id, for clients that take URL-mode
	// elicitation; nil, or "", sends none.
	ApprovalPage func(id string) string
	// StateKey seals the requestState of an input-required result (HMAC-SHA256); without it, clients of
	// the 2026-07-28 generation are held rather than sent the page.
	StateKey []byte
	// Methods lets through client methods MCP does not define (a server's own extension), each by name:
	// MethodAllow passes its requests and notifications as they are; MethodCheck judges each request with
	// the tool-call stage as mcp__<Server>__<method> (its params the arguments) and its answer with the
	// tool-result stage (the result's JSON as the text), and lets no notification of it through. Methods
	// not named are refused, as before. A method MCP defines cannot be named here.
	Methods map[string]string
}

// The rules Config.Methods takes.
const (
	MethodAllow = "allow"
	MethodCheck = "check"
)

// Proxy guards MCP sessions between clients and one server. It is immutable once made and safe for
// concurrent use: each Serve is one session.
type Proxy struct {
	cfg Config
	log *slog.Logger

	// withheld are the tools the latest listing of the server left out for their description (a
	// guardrail withheld it, or it changed since it was pinned), by the server's name of the tool, with
	// why: a call of one is refused, in every session, the stateless requests of 2026-07-28 included,
	// until a listing shows it clean again.
	mu       sync.Mutex
	withheld map[string]string
}

// New checks cfg and returns a proxy.
func New(cfg Config) (*Proxy, error) {
	if cfg.Engine == nil {
		return nil, errors.New("mcpproxy: no engine")
	}
	if cfg.Server == "" {
		return nil, errors.New("mcpproxy: the server needs a name")
	}
	if err := checkServerName(cfg.Server); err != nil {
		return nil, err
	}
	for method, rule := range cfg.Methods {
		if _, defined := clientRequests[method]; defined || clientNotifications[method] {
			return nil, fmt.Errorf("mcpproxy: methods: %q is a method MCP defines; its handling is not configurable", method)
		}
		if rule != MethodAllow && rule != MethodCheck {
			return nil, fmt.Errorf("mcpproxy: methods: %q: %q is not allow or check", method, rule)
		}
	}
	switch cfg.OnPinChange {
	case "":
		cfg.OnPinChange = "block"
	case "block", "warn":
	default:
		return nil, fmt.Errorf("mcpproxy: on a pin's change: %q is not block or warn", cfg.OnPinChange)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Proxy{cfg: cfg, log: log.With("server", cfg.Server), withheld: map[string]string{}}, nil
}

// checkServerName keeps a server's name to what a tool name may hold, so that mcp__<server>__<tool>
// is one name to every policy.
func checkServerName(name string) error {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("mcpproxy: server name %q: use letters, digits, '-' and '_' only", name)
		}
	}
	return nil
}

// ToolName is the name a server's tool has in the policy.
func ToolName(server, tool string) string { return "mcp__" + server + "__" + tool }

// Serve proxies one session: messages from client go to server and back, each judged on the way (see
// the package doc). It returns when the client ends (after closing the server's side and letting the
// server end) or the server ends (after answering every request still open with an error), or when ctx
// ends, which closes both.
func (p *Proxy) Serve(ctx context.Context, client, server Conn) error {
	s := &session{p: p, client: client, server: server,
		fromClient: map[idKey]*pending{}, fromServer: map[idKey]string{}}
	s.run = p.cfg.Run
	if s.run.RunID == "" {
		s.run.RunID = newSessionID()
	}
	if c, ok := ctx.Value(credentialKey{}).(string); ok && s.run.Credential == "" {
		s.run.Credential = c
	}
	s.onHalt, _ = ctx.Value(haltNoticeKey{}).(func(reason string))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { client.Close(); server.Close() })
	defer stop()
	serverDone, clientDone := make(chan error, 1), make(chan error, 1)
	go func() { serverDone <- s.readServer(ctx) }()
	go func() { clientDone <- s.readClient(ctx) }()
	select {
	case err := <-clientDone:
		// The client is gone: close the server's input, as a stdio client does, and let it end.
		server.Close()
		if serverErr := <-serverDone; err == nil {
			err = serverErr
		}
		return err
	case err := <-serverDone:
		// The server is gone and its open requests were answered. The client's reader ends with its
		// connection; a reader blocked on a process's standard input is left to the process's end.
		client.Close()
		return err
	}
}

func newSessionID() string {
	var b [8]byte
	rand.Read(b[:])
	return "mcp-" + hex.EncodeToString(b[:])
}

// session is one client's conversation with the server through the proxy.
type session struct {
	p              *Proxy
	client, server Conn
	run            warden.RunInfo

	mu sync.Mutex
	// fromClient are the client's requests the server has yet to answer; fromServer the server's
	// requests the client has yet to answer, by id.
	fromClient map[idKey]*pending
	fromServer map[idKey]string
	halted     *warden.TripwireError
	onHalt     func(reason string) // told of the halt, when the session's transport keeps halts (Handler.HaltFor)
	// caps is what the client said it can do at initialize; held the tools/call requests waiting for a
	// person, by id, with what ends the wait.
	caps clientCaps
	held map[idKey]context.CancelFunc
	// own are the proxy's own requests to the client (the elicitation of an approval page), by id.
	own    map[idKey]chan string
	ownSeq int
}

// pending is a client request forwarded to the server: what its answer must be checked as.
type pending struct {
	method string
	call   warden.ToolCall // for tools/call
	// timer answers the request with an error when the server takes longer than Config.RequestTimeout;
	// progress reported under the request's progressToken restarts it.
	timer    *time.Timer
	progress string // the request's progress token, as JSON text; "" when it has none
}

// readClient handles the client's messages until it ends; io.EOF is a clean end.
func (s *session) readClient(ctx context.Context) error {
	for {
		data, err := s.client.ReadMessage()
		if errors.Is(err, errTooLong) {
			s.p.log.Warn("mcp: refused a client message", "reason", err.Error())
			s.toClient(encodeError(nil, CodeInvalidRequest, err.Error()))
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("reading from the client: %w", err)
		}
		m, err := Parse(data)
		if err != nil {
			var pe *ParseError
			errors.As(err, &pe)
			s.p.log.Warn("mcp: refused a client message", "reason", pe.Msg)
			s.toClient(encodeError(pe.ID, pe.Code, pe.Msg))
			continue
		}
		s.fromClientMessage(ctx, m)
	}
}

// fromClientMessage decides on one message of the client's.
func (s *session) fromClientMessage(ctx context.Context, m *Message) {
	switch m.Kind {
	case Response:
		if s.ownAnswer(m) {
			return
		}
		if _, ok := take(s, s.fromServer, m.ID); !ok {
			s.p.log.Warn("mcp: dropped a client response to no request of the server's", "id", string(m.ID))
			return
		}
		s.toServer(m.Raw)
	case Notification:
		if !clientNotifications[m.Method] && s.p.cfg.Methods[m.Method] != MethodAllow {
			s.p.log.Warn("mcp: dropped a client notification of an unknown method", "method", m.Method)
			return
		}
		if m.Method == "notifications/cancelled" && s.cancelHeld(m.Params) {
			return // the server never saw the request
		}
		s.toServer(m.Raw)
	case Request:
		s.fromClientRequest(ctx, m)
	}
}

func (s *session) fromClientRequest(ctx context.Context, m *Message) {
	s.mu.Lock()
	halted := s.halted
	_, dup := s.fromClient[idKey(m.ID)]
	s.mu.Unlock()
	switch {
	case halted != nil:
		s.toClient(encodeError(m.ID, CodeHalted, "Warden halted this session: "+haltReason(halted)))
		return
	case dup || s.isHeld(m.ID):
		s.toClient(encodeError(m.ID, CodeInvalidRequest, "a request with this id is still open"))
		return
	}
	if m.Method == "initialize" {
		s.noteInitialize(m)
	}
	handling, known := s.p.handlingOf(m.Method)
	if !known {
		s.p.log.Warn("mcp: refused a request of an unknown method", "method", m.Method)
		s.toClient(encodeError(m.ID, CodeMethodNotFound, fmt.Sprintf("method %q is not allowed through Warden", m.Method)))
		return
	}
	p := &pending{method: m.Method}
	out, ok := m.Raw, true
	switch handling {
	case checkToolCall:
		out, ok = s.authorize(ctx, m, p)
	case checkRead, checkRequest, checkCustom:
		ok = s.authorizeRequest(ctx, m)
	}
	if !ok {
		return
	}
	s.forward(m, p, out)
}

// forward sends a client's request on to the server and opens it: its answer is awaited and checked.
func (s *session) forward(m *Message, p *pending, out []byte) {
	if s.p.cfg.RequestTimeout > 0 {
		p.progress = progressToken(m.Params)
	}
	s.mu.Lock()
	s.fromClient[idKey(m.ID)] = p
	if d := s.p.cfg.RequestTimeout; d > 0 && m.Method != "subscriptions/listen" { // a listen lasts as long as the session
		id := m.ID
		p.timer = time.AfterFunc(d, func() { s.timedOut(id, d) })
	}
	s.mu.Unlock()
	if err := s.server.WriteMessage(out); err != nil {
		if p, ok := take(s, s.fromClient, m.ID); ok && p.timer != nil {
			p.timer.Stop()
		}
		s.toClient(encodeError(m.ID, CodeServerFault, "the MCP server cannot be reached: "+err.Error()))
	}
}

// timedOut answers a request the server did not answer in time with an error, tells the server the
// request is cancelled, and drops the answer should it come later.
func (s *session) timedOut(id json.RawMessage, d time.Duration) {
	if _, ok := take(s, s.fromClient, id); !ok {
		return // answered meanwhile
	}
	s.p.log.Warn("mcp: the server did not answer in time", "id", string(id), "timeout", d.String())
	s.toClient(encodeError(id, CodeServerFault, fmt.Sprintf("the MCP server did not answer within %v", d)))
	params, _ := json.Marshal(map[string]any{"requestId": id, "reason": "Warden's request timeout"})
	s.toServer(encodeRequest(nil, "notifications/cancelled", params))
}

// progressToken is the progress token a request's params carry in _meta, as JSON text.
func progressToken(params json.RawMessage) string {
	var v struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if len(params) == 0 || json.Unmarshal(params, &v) != nil {
		return ""
	}
	return string(v.Meta.Token)
}

// progressed restarts the timer of the open request whose progress token a progress notification
// carries: a server that reports progress is working.
func (s *session) progressed(m *Message) {
	var v struct {
		Token json.RawMessage `json:"progressToken"`
	}
	if s.p.cfg.RequestTimeout <= 0 || json.Unmarshal(m.Params, &v) != nil || len(v.Token) == 0 {
		return
	}
	token := string(v.Token)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.fromClient {
		if p.progress == token && p.timer != nil {
			p.timer.Reset(s.p.cfg.RequestTimeout)
		}
	}
}

// readServer handles the server's messages until it ends, then answers what it left open.
func (s *session) readServer(ctx context.Context) error {
	for {
		data, err := s.server.ReadMessage()
		if err != nil && !errors.Is(err, errTooLong) {
			reason := "the MCP server ended before answering"
			if ctx.Err() == nil && !errors.Is(err, io.EOF) {
				reason = "the MCP server's output broke: " + err.Error()
			}
			s.failPending(reason)
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("reading from the server: %w", err)
		}
		var m *Message
		if err == nil {
			m, err = Parse(data)
		}
		if err != nil {
			// An answer that cannot be read cannot be matched to its request or checked: every request
			// open now is answered with an error, and the server's later answers to them are dropped.
			s.p.log.Warn("mcp: the server sent a message that is not JSON-RPC", "reason", err.Error())
			s.failPending("the MCP server sent a message that is not JSON-RPC; its answer cannot be checked")
			continue
		}
		s.fromServerMessage(ctx, m)
	}
}

// take removes the open request with id from open and gives it: an answer is matched once.
func take[V any](s *session, open map[idKey]V, id json.RawMessage) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := open[idKey(id)]
	delete(open, idKey(id))
	return v, ok
}

// failPending answers every request still open with a server-fault error.
func (s *session) failPending(reason string) {
	s.mu.Lock()
	open := s.fromClient
	s.fromClient = map[idKey]*pending{}
	s.mu.Unlock()
	for id, p := range open {
		if p.timer != nil {
			p.timer.Stop()
		}
		s.toClient(encodeError(json.RawMessage(id), CodeServerFault, reason))
	}
}

func (s *session) fromServerMessage(ctx context.Context, m *Message) {
	switch m.Kind {
	case Response:
		p, ok := take(s, s.fromClient, m.ID)
		if ok && p.timer != nil {
			p.timer.Stop()
		}
		if !ok {
			s.p.log.Warn("mcp: dropped a server response to no open request", "id", string(m.ID))
			return
		}
		s.toClient(s.checkAnswer(ctx, p, m))
	case Notification:
		if !serverNotifications[m.Method] {
			s.p.log.Warn("mcp: dropped a server notification of an unknown method", "method", m.Method)
			return
		}
		if m.Method == "notifications/progress" {
			s.progressed(m)
		}
		s.toClient(m.Raw)
	case Request:
		if !serverRequests[m.Method] {
			s.p.log.Warn("mcp: refused a server request of an unknown method", "method", m.Method)
			s.toServer(encodeError(m.ID, CodeMethodNotFound, fmt.Sprintf("method %q is not allowed through Warden", m.Method)))
			return
		}
		if !s.checkServerRequest(ctx, m) {
			return
		}
		s.mu.Lock()
		s.fromServer[idKey(m.ID)] = m.Method
		s.mu.Unlock()
		s.toClient(m.Raw)
	}
}

// handlingOf is how the proxy handles a client request of a method: MCP's own methods as MCP defines
// them, then those Config.Methods names; false for any other.
func (px *Proxy) handlingOf(method string) (handling, bool) {
	if h, ok := clientRequests[method]; ok {
		return h, true
	}
	switch px.cfg.Methods[method] {
	case MethodAllow:
		return forward, true
	case MethodCheck:
		return checkCustom, true
	}
	return 0, false
}

// checkAnswer is the answer the client gets for its request p: the server's, once the stage for its
// method has judged it.
func (s *session) checkAnswer(ctx context.Context, p *pending, m *Message) []byte {
	h, _ := s.p.handlingOf(p.method)
	switch h {
	case checkToolCall:
		return s.checkToolResult(ctx, p, m)
	case checkRead:
		return s.checkContent(ctx, p, m)
	case checkCustom:
		return s.checkRawAnswer(ctx, p, m)
	case checkListing:
		return s.checkListing(ctx, m)
	}
	return m.Raw
}

func (s *session) toClient(msg []byte) {
	if err := s.client.WriteMessage(msg); err != nil {
		s.p.log.Warn("mcp: writing to the client failed", "error", err.Error())
	}
}

func (s *session) toServer(msg []byte) {
	if err := s.server.WriteMessage(msg); err != nil {
		s.p.log.Warn("mcp: writing to the server failed", "error", err.Error())
	}
}

func haltReason(tw *warden.TripwireError) string {
	r := tw.Decision.FirstReason()
	return r.Code + ": " + r.Message
}
