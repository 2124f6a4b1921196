package mcpproxy

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/internal/jsonobj"
)

// A tools/call that a guardrail asks about (warden.ActionAsk) waits for a person. How the client hears of
// it depends on what it can do:
//
//   - A client of the 2026-07-28 generation that takes URL-mode elicitation gets an input-required result
//     whose one input request is a URL-mode elicitation of the request's approval page, and a requestState
//     sealed with the approvals key. When it retries with that state, the call is held until a person
//     decides (Config.AskWait) and checked again.
//   - A client of an earlier generation that takes URL-mode elicitation is sent elicitation/create of the
//     page while its call is held; once a person decides, notifications/elicitation/complete, and the
//     call's answer.
//   - Any other client's call is held until a person decides, up to Config.AskWait, and checked again;
//     with no AskWait it is answered at once with a tool error that names the request (on_ask: deny).
//
// The check after the wait consumes the approval (the call is forwarded, once) or finds the denial (a
// tool error with the approver's note). A call nobody decided on in time is a tool error.

// ApprovalWaiter waits for a person's decision on an approval request (approvals.Service is one).
type ApprovalWaiter interface {
	Await(ctx context.Context, id string) (approvals.Record, error)
}

// CodeApprovalTimeout is the reason code of a call nobody decided on in time.
const CodeApprovalTimeout = "warden.approval_timeout"

const (
	approvalInput     = "warden_approval" // the id of the input request of an input-required result
	newGeneration     = "2026-07-28"
	stateTTLMarginDur = time.Minute
)

// askState is what a requestState carries: the approval request, sealed against change.
type askState struct {
	ID      string `json:"id"`
	Digest  string `json:"digest"`
	Expires int64  `json:"exp"` // unix seconds
}

func (p *Proxy) seal(st askState) string {
	body, _ := json.Marshal(st)
	m := hmac.New(sha256.New, p.cfg.StateKey)
	m.Write(body)
	return base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// errStateExpired is a requestState that verifies but is past its expiry.
var errStateExpired = errors.New("the approval state expired")

// open verifies a requestState and returns what it carries.
func (p *Proxy) open(token string, now time.Time) (askState, error) {
	b64, sig, ok := strings.Cut(token, ".")
	body, err1 := base64.RawURLEncoding.DecodeString(b64)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return askState{}, errors.New("the approval state is malformed")
	}
	m := hmac.New(sha256.New, p.cfg.StateKey)
	m.Write(body)
	if !hmac.Equal(mac, m.Sum(nil)) {
		return askState{}, errors.New("the approval state does not verify")
	}
	var st askState
	if err := json.Unmarshal(body, &st); err != nil || st.ID == "" {
		return askState{}, errors.New("the approval state is malformed")
	}
	if now.Unix() > st.Expires {
		return st, errStateExpired
	}
	return st, nil
}

// clientCaps is what a client said it can do, as far as approval needs.
type clientCaps struct {
	urlElicitation bool
}

// capsOf reads capabilities.elicitation.url from initialize params or a request's _meta clientCapabilities.
func capsOf(raw json.RawMessage) clientCaps {
	var v struct {
		Elicitation *struct {
			URL json.RawMessage `json:"url"`
		} `json:"elicitation"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Elicitation == nil {
		return clientCaps{}
	}
	return clientCaps{urlElicitation: len(v.Elicitation.URL) > 0 && string(v.Elicitation.URL) != "null"}
}

// noteInitialize keeps what an initialize request says the client can do.
func (s *session) noteInitialize(m *Message) {
	var v struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(m.Params, &v) == nil {
		caps := capsOf(v.Capabilities)
		s.mu.Lock()
		s.caps = caps
		s.mu.Unlock()
	}
}

// requestCaps is what the client of one request can do: a 2026-07-28 request says so in its _meta, a
// session's client said so at initialize.
func (s *session) requestCaps(m *Message, version string) clientCaps {
	if version >= newGeneration {
		var v struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		if json.Unmarshal(m.Params, &v) == nil {
			return capsOf(v.Meta["io.modelcontextprotocol/clientCapabilities"])
		}
		return clientCaps{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// ask answers, or holds, a tools/call that a guardrail asked about. It returns what authorize returns:
// the message to forward and true, or false when the request was answered or is held (forward then
// runs later, from the hold).
func (s *session) ask(ctx context.Context, m *Message, p *pending, params *jsonobj.Object, out warden.Outcome[warden.ToolCall]) ([]byte, bool) {
	cfg := &s.p.cfg
	a := out.Approval
	page := ""
	if cfg.ApprovalPage != nil {
		page = cfg.ApprovalPage(a.ID)
	}
	version := metaVersion(m)
	caps := s.requestCaps(m, version)
	state, hasState := params.Get("requestState")
	switch {
	case cfg.Approvals == nil || cfg.AskWait <= 0:
		s.toClient(toolError(m.ID, out.Message))
		return nil, false
	case hasState && version >= newGeneration:
		token, _ := jsonobj.DecodeString(state)
		st, err := s.p.open(token, time.Now())
		if err != nil || st.ID != a.ID {
			why := "the approval state does not name this call's request"
			if err != nil {
				why = err.Error()
			}
			s.toClient(toolError(m.ID, "Guardrail refused the call of tool '"+p.call.Name+"': "+why+"."))
			return nil, false
		}
	case page != "" && caps.urlElicitation && version >= newGeneration && len(cfg.StateKey) > 0:
		s.inputRequired(m, a, page, out.Message)
		return nil, false
	case page != "" && caps.urlElicitation:
		s.elicit(ctx, m, p, params, a, page, out.Message)
		return nil, false
	}
	s.holdUntil(ctx, m, p, params, a.ID, nil)
	return nil, false
}

// pageElicitation is a URL-mode elicitation of the approval page.
func pageElicitation(a *warden.Approval, page, message string) map[string]any {
	return map[string]any{"mode": "url", "elicitationId": a.ID, "url": page,
		"message": message + " Open the page to see the call and ask a person who may approve it."}
}

// inputRequired answers a 2026-07-28 call with an input-required result: the approval page to open, and
// the sealed state to retry with.
func (s *session) inputRequired(m *Message, a *warden.Approval, page, message string) {
	st := askState{ID: a.ID, Digest: a.Digest, Expires: a.Expires.Add(stateTTLMarginDur).Unix()}
	result := map[string]any{
		"resultType":    "input_required",
		"inputRequests": map[string]any{approvalInput: map[string]any{"method": "elicitation/create", "params": pageElicitation(a, page, message)}},
		"requestState":  s.p.seal(st),
	}
	b, err := encodeResult(m.ID, result)
	if err != nil {
		s.toClient(encodeError(m.ID, CodeInternalError, "encoding the approval request: "+err.Error()))
		return
	}
	s.toClient(b)
}

// elicit asks an earlier generation's client, through elicitation/create in URL mode, to show a person the
// approval page, and holds the call meanwhile. The client's answer says whether it showed it: declined or
// cancelled, the call is refused at once; accepted, the call waits for the decision as any held call does.
// Once a person has decided, the client is sent notifications/elicitation/complete.
func (s *session) elicit(ctx context.Context, m *Message, p *pending, params *jsonobj.Object, a *warden.Approval, page, message string) {
	answer := make(chan string, 1) // the client's action: accept, decline, cancel, or "" for an error
	s.mu.Lock()
	s.ownSeq++
	id, _ := json.Marshal(fmt.Sprintf("warden-approval-%d", s.ownSeq))
	if s.own == nil {
		s.own = map[idKey]chan string{}
	}
	s.own[idKey(id)] = answer
	s.mu.Unlock()
	body, _ := json.Marshal(pageElicitation(a, page, message))
	s.toClient(encodeRequest(id, "elicitation/create", body))
	waiter := s.p.cfg.Approvals
	go func() {
		if _, err := waiter.Await(ctx, a.ID); err != nil {
			return // the session ended, or the request is gone: nobody to tell
		}
		note, _ := json.Marshal(map[string]string{"elicitationId": a.ID})
		s.toClient(encodeRequest(nil, "notifications/elicitation/complete", note))
	}()
	s.holdUntil(ctx, m, p, params, a.ID, answer)
}

// ownAnswer takes the client's answer to an elicitation the proxy itself sent; false when the response
// answers no request of the proxy's.
func (s *session) ownAnswer(m *Message) bool {
	s.mu.Lock()
	ch, ok := s.own[idKey(m.ID)]
	delete(s.own, idKey(m.ID))
	s.mu.Unlock()
	if !ok {
		return false
	}
	var r struct {
		Action string `json:"action"`
	}
	if m.Error == nil {
		_ = json.Unmarshal(m.Result, &r)
	}
	ch <- r.Action
	return true
}

// holdUntil keeps the call from the server until a person decides or AskWait passes, then checks it again
// and forwards it or answers. The request's id stays taken meanwhile, and the client's cancellation ends
// the hold. shown, when set, brings the client's answer to the elicitation of the page: a decline or a
// cancel refuses the call at once.
func (s *session) holdUntil(ctx context.Context, m *Message, p *pending, params *jsonobj.Object, approvalID string, shown <-chan string) {
	hctx, cancel := context.WithTimeout(ctx, s.p.cfg.AskWait)
	s.mu.Lock()
	if s.held == nil {
		s.held = map[idKey]context.CancelFunc{}
	}
	s.held[idKey(m.ID)] = cancel
	s.mu.Unlock()
	go func() {
		defer cancel()
		decided := make(chan struct{})
		go func() {
			_, _ = s.p.cfg.Approvals.Await(hctx, approvalID)
			close(decided)
		}()
		refused := ""
		select {
		case <-decided:
		case action := <-shown:
			if action != "accept" {
				refused = map[string]string{"decline": "declined"}[action]
				if refused == "" {
					refused = "cancelled"
				}
				cancel()
			}
			<-decided
		}
		s.mu.Lock()
		_, stillHeld := s.held[idKey(m.ID)]
		delete(s.held, idKey(m.ID))
		s.mu.Unlock()
		switch {
		case !stillHeld || ctx.Err() != nil:
			return // cancelled by the client, or the session ended
		case refused != "":
			s.toClient(toolError(m.ID, "Guardrail held the call of tool '"+p.call.Name+"' for a person's approval, and the approval page was "+refused+" (request "+approvalID+")."))
			return
		}
		s.release(ctx, m, p, params)
	}()
}

// release checks a held call again once its wait is over: forwarded when approved, answered otherwise.
func (s *session) release(ctx context.Context, m *Message, p *pending, params *jsonobj.Object) {
	out, err := s.p.cfg.Engine.CheckToolCall(ctx, warden.ToolCallCheck{Run: s.run, Call: p.call})
	var tw *warden.TripwireError
	switch {
	case errors.As(err, &tw):
		s.halt(m.ID, tw)
		return
	case err != nil:
		s.toClient(toolError(m.ID, "Guardrail could not check the call of tool '"+p.call.Name+"': "+err.Error()))
		return
	case out.Decision.Action == warden.ActionAsk:
		d := warden.Decision{Action: warden.ActionReject, Reasons: []warden.Reason{{Code: CodeApprovalTimeout,
			Message: "nobody approved the call within " + s.p.cfg.AskWait.String() + " (request " + out.Approval.ID + ")"}}}
		s.toClient(toolError(m.ID, warden.DenyMessage(p.call.Name, d)))
		return
	case !out.Allowed():
		s.toClient(toolError(m.ID, out.Message))
		return
	}
	s.stripOwnState(params)
	if string(out.Value.Arguments) != string(p.call.Arguments) {
		p.call = out.Value
		params.Set("arguments", out.Value.Arguments)
	}
	body, err := params.MarshalJSON()
	if err != nil {
		s.toClient(encodeError(m.ID, CodeInternalError, "rewriting the call: "+err.Error()))
		return
	}
	s.forward(m, p, encodeRequest(m.ID, m.Method, body))
}

// cancelHeld ends the hold of a request the client cancelled; false when the request is not held.
func (s *session) cancelHeld(params json.RawMessage) bool {
	var v struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &v) != nil || len(v.RequestID) == 0 {
		return false
	}
	s.mu.Lock()
	cancel, ok := s.held[idKey(v.RequestID)]
	delete(s.held, idKey(v.RequestID))
	s.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// isHeld reports whether a request id is held for approval.
func (s *session) isHeld(id json.RawMessage) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.held[idKey(id)]
	return ok
}

// stripOwnState removes from a retried call's params the round-trip fields of the proxy's own approval
// (a requestState it sealed, the response to its input request), so that the server sees the call as the
// client first made it. A state the server itself asked for passes on untouched.
func (s *session) stripOwnState(params *jsonobj.Object) {
	raw, ok := params.Get("requestState")
	if !ok || len(s.p.cfg.StateKey) == 0 {
		return
	}
	token, _ := jsonobj.DecodeString(raw)
	if _, err := s.p.open(token, time.Now()); err != nil && !errors.Is(err, errStateExpired) {
		return // not ours
	}
	params.Delete("requestState")
	responses, ok := params.Get("inputResponses")
	if !ok {
		return
	}
	obj, err := jsonobj.Parse(responses)
	if err != nil {
		return
	}
	obj.Delete(approvalInput)
	if obj.Len() == 0 {
		params.Delete("inputResponses")
		return
	}
	if b, err := obj.MarshalJSON(); err == nil {
		params.Set("inputResponses", b)
	}
}
