package mcpproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jsonobj"
)

// Upstream is one named server behind an aggregated session: its proxy (whose Config.Server is its name)
// and its connection.
type Upstream struct {
	Proxy *Proxy
	Conn  Conn
}

// codeUnsupportedVersion is MCP's error for a protocol version a server does not speak; its data lists
// the versions it does.
const codeUnsupportedVersion = -32022

// maxPages bounds the pages of one server's listing an aggregated listing reads.
const maxPages = 100

// maxToolName is the longest tool name clients accept (several reject longer ones): a server's tool
// whose aggregated name NAME__TOOL would be longer is left out of listings, with a log line.
const maxToolName = 64

// Aggregate serves one client session over several servers, as one server to the client: the servers'
// tools and prompts are listed as NAME__TOOL and NAME__PROMPT, their resources as they are, and each
// request goes to the server it names, where that server's proxy session judges it as it judges a
// single server's (tool calls as mcp__NAME__TOOL). initialize, server/discover, listings and
// logging/setLevel go to every server and their answers are merged; ping is answered here. It returns
// when the client ends, or when ctx ends.
//
// flows is the data-flow policy across the servers: a call whose arguments carry what another server's
// answer carried (a secret, by default; anything of a private server) is denied, as the tool result the
// model reads, with CodeCrossServerFlow.
func Aggregate(ctx context.Context, client Conn, upstreams []Upstream, flows Flows) error {
	if len(upstreams) == 0 {
		return errors.New("mcpproxy: no servers to aggregate")
	}
	a := &aggregate{client: client, flows: flows, nonce: newSessionID()[len("mcp-"):], servers: map[string]*member{}, owner: map[idKey]forwarded{},
		fromServer: map[idKey]serverRequest{}, uris: map[string]*member{}, ambiguous: map[string][]string{}, internal: map[idKey]chan *Message{},
		fanouts: map[idKey][]forwardedAs{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for _, u := range upstreams {
		name := u.Proxy.cfg.Server
		if strings.Contains(name, "__") {
			return fmt.Errorf("mcpproxy: server name %q: \"__\" separates a server's name from its tools'", name)
		}
		if a.servers[name] != nil {
			return fmt.Errorf("mcpproxy: two servers named %q", name)
		}
		m := &member{name: name, px: u.Proxy, a: a, in: make(chan []byte, 64), done: make(chan struct{})}
		a.servers[name] = m
		a.order = append(a.order, m)
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.Proxy.Serve(ctx, m, u.Conn)
			m.Close()
		}()
	}
	err := a.readClient(ctx)
	for _, m := range a.order {
		m.Close()
	}
	wg.Wait()
	return err
}

// aggregate is one client session over several servers.
type aggregate struct {
	client Conn
	// nonce makes the ids of the aggregate's own requests ones no client picks by chance or on purpose:
	// an answer to one of them must not be taken for a client's, nor a client's for one of them.
	nonce   string
	flows   Flows
	taints  taints
	servers map[string]*member
	order   []*member

	mu sync.Mutex
	// owner is the server each client request went to; fromServer maps the ids the client sees for the
	// servers' own requests to their server and id; uris is the server that listed each resource.
	owner      map[idKey]forwarded
	fromServer map[idKey]serverRequest
	uris       map[string]*member
	// ambiguous are the URIs more than one server listed, with the servers' names: a read of one is refused.
	ambiguous map[string][]string
	internal  map[idKey]chan *Message // answers to the aggregate's own requests (fan-outs)
	fanouts   map[idKey][]forwardedAs // a client request fanned out: each server and the id it got
	next      int
}

// forwarded is a client request sent to one server.
type forwarded struct {
	m      *member
	method string
}

// forwardedAs is a client request as one server got it, under an id of the aggregate's.
type forwardedAs struct {
	m  *member
	id json.RawMessage
}

type serverRequest struct {
	m  *member
	id json.RawMessage
}

// member is one server's side of the aggregate: the client Conn its proxy session reads from and writes
// to.
type member struct {
	name string
	px   *Proxy
	a    *aggregate
	in   chan []byte
	done chan struct{}
	once sync.Once
}

func (m *member) ReadMessage() ([]byte, error) {
	select {
	case b := <-m.in:
		return b, nil
	case <-m.done:
		return nil, io.EOF
	}
}

// WriteMessage is what the server's proxy session sends the client: the aggregate routes it.
func (m *member) WriteMessage(b []byte) error { return m.a.fromMember(m, b) }

func (m *member) Close() error {
	m.once.Do(func() { close(m.done) })
	return nil
}

func (m *member) send(b []byte) {
	select {
	case m.in <- b:
	case <-m.done:
	}
}

func (a *aggregate) toClient(b []byte) {
	a.client.WriteMessage(b)
}

// readClient routes the client's messages until it ends.
func (a *aggregate) readClient(ctx context.Context) error {
	for {
		data, err := a.client.ReadMessage()
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		msg, err := Parse(data)
		if err != nil {
			var pe *ParseError
			errors.As(err, &pe)
			a.toClient(encodeError(pe.ID, pe.Code, pe.Msg))
			continue
		}
		switch msg.Kind {
		case Response:
			a.mu.Lock()
			r, ok := a.fromServer[idKey(msg.ID)]
			delete(a.fromServer, idKey(msg.ID))
			a.mu.Unlock()
			if ok {
				r.m.send(withID(msg, r.id))
			}
		case Notification:
			a.notification(msg)
		case Request:
			go a.request(ctx, msg) // a fan-out waits for every server; the client's next messages must not
		}
	}
}

// notification routes a client notification: a cancellation to the server of the request, the others to
// every server.
func (a *aggregate) notification(msg *Message) {
	if msg.Method == "notifications/cancelled" {
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		json.Unmarshal(msg.Params, &p)
		a.mu.Lock()
		f, ok := a.owner[idKey(p.RequestID)]
		spread := a.fanouts[idKey(p.RequestID)]
		a.mu.Unlock()
		if ok {
			f.m.send(msg.Raw)
		}
		for _, sent := range spread {
			params, _ := json.Marshal(map[string]any{"requestId": sent.id})
			sent.m.send(encodeRequest(nil, "notifications/cancelled", params))
		}
		return
	}
	for _, m := range a.order {
		m.send(msg.Raw)
	}
}

// request routes a client request to the server it names, or to every server and merges the answers.
func (a *aggregate) request(ctx context.Context, msg *Message) {
	switch msg.Method {
	case "ping":
		b, _ := encodeResult(msg.ID, struct{}{})
		a.toClient(b)
	case "initialize", "server/discover":
		a.fanOut(ctx, msg, mergeInitialize)
	case "tools/list":
		a.fanOut(ctx, msg, a.mergeList("tools"))
	case "prompts/list":
		a.fanOut(ctx, msg, a.mergeList("prompts"))
	case "resources/list":
		a.fanOut(ctx, msg, a.mergeList("resources"))
	case "resources/templates/list":
		a.fanOut(ctx, msg, a.mergeList("resourceTemplates"))
	case "logging/setLevel":
		a.fanOut(ctx, msg, func(json.RawMessage, []answer) (any, error) { return struct{}{}, nil })
	case "subscriptions/listen":
		// Every server's notifications reach the client while the listen is open; it ends when the
		// servers end theirs, or when the client cancels it.
		a.fanOut(ctx, msg, func(json.RawMessage, []answer) (any, error) {
			return map[string]any{"resultType": "complete", "_meta": map[string]any{}}, nil
		})
	case "tools/call", "prompts/get":
		a.byName(ctx, msg, "name")
	case "completion/complete":
		a.completion(msg)
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		a.byURI(msg)
	default:
		a.toClient(encodeError(msg.ID, CodeMethodNotFound, fmt.Sprintf("method %q is not allowed through Warden's aggregated servers", msg.Method)))
	}
}

// forward sends msg, params rewritten, to server m, which answers the client itself.
func (a *aggregate) forward(m *member, msg *Message, params json.RawMessage) {
	a.mu.Lock()
	a.owner[idKey(msg.ID)] = forwarded{m: m, method: msg.Method}
	a.mu.Unlock()
	m.send(encodeRequest(msg.ID, msg.Method, params))
}

// byName routes a tools/call or prompts/get by its NAME__TOOL name, the server's own name restored.
func (a *aggregate) byName(ctx context.Context, msg *Message, key string) {
	obj, err := jsonobj.Parse(orEmpty(msg.Params))
	var name string
	if err == nil {
		raw, _ := obj.Get(key)
		name, _ = jsonobj.DecodeString(raw)
	}
	server, own, ok := strings.Cut(name, "__")
	m := a.servers[server]
	if !ok || m == nil || own == "" {
		a.toClient(encodeError(msg.ID, CodeInvalidParams, fmt.Sprintf("%q names no server's tool or prompt: names here are SERVER__NAME", name)))
		return
	}
	if msg.Method == "tools/call" {
		args, _ := obj.Get("arguments")
		if t, crosses := a.taints.crossing(argumentText(args), m.name); crosses {
			call := warden.ToolCall{ID: string(msg.ID), Name: ToolName(m.name, own), Arguments: args, Complete: true}
			out := m.px.cfg.Engine.DenyToolCall(ctx, warden.ToolCallCheck{Run: m.px.cfg.Run, Call: call}, CodeCrossServerFlow,
				"its arguments carry "+t.what+" read from server '"+t.server+"'; data read from one server is not sent to another")
			a.toClient(toolError(msg.ID, out.Message))
			return
		}
	}
	b, _ := json.Marshal(own)
	obj.Set(key, b)
	params, _ := obj.MarshalJSON()
	a.forward(m, msg, params)
}

// byURI routes a resource request to the server that listed the resource, or to the only server when
// there is one.
func (a *aggregate) byURI(msg *Message) {
	var p struct {
		URI string `json:"uri"`
	}
	json.Unmarshal(orEmpty(msg.Params), &p)
	a.mu.Lock()
	m := a.uris[p.URI]
	both := a.ambiguous[p.URI]
	a.mu.Unlock()
	if len(both) > 0 {
		slices.Sort(both)
		a.toClient(encodeError(msg.ID, CodeInvalidParams, fmt.Sprintf("resource %q is listed by more than one server (%s): Warden does not guess which one to read it from", p.URI, strings.Join(slices.Compact(both), ", "))))
		return
	}
	if m == nil && len(a.order) == 1 {
		m = a.order[0]
	}
	if m == nil {
		a.toClient(encodeError(msg.ID, CodeInvalidParams, fmt.Sprintf("resource %q was not listed by any server: list resources first", p.URI)))
		return
	}
	a.forward(m, msg, msg.Params)
}

// completion routes a completion by its reference: a prompt's NAME__PROMPT, or a resource's URI.
func (a *aggregate) completion(msg *Message) {
	var p struct {
		Ref struct {
			Type string `json:"type"`
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"ref"`
	}
	json.Unmarshal(orEmpty(msg.Params), &p)
	if p.Ref.Type == "ref/prompt" {
		server, own, ok := strings.Cut(p.Ref.Name, "__")
		if m := a.servers[server]; ok && m != nil {
			obj, _ := jsonobj.Parse(msg.Params)
			ref, _ := jsonobj.Parse(orEmpty(mustGet(obj, "ref")))
			b, _ := json.Marshal(own)
			ref.Set("name", b)
			rb, _ := ref.MarshalJSON()
			obj.Set("ref", rb)
			params, _ := obj.MarshalJSON()
			a.forward(m, msg, params)
			return
		}
	}
	a.mu.Lock()
	m := a.uris[p.Ref.URI]
	if len(a.ambiguous[p.Ref.URI]) > 0 {
		m = nil
	}
	a.mu.Unlock()
	if m == nil {
		a.toClient(encodeError(msg.ID, CodeInvalidParams, "the completion's reference names no server's prompt or resource, or one listed by several servers"))
		return
	}
	a.forward(m, msg, msg.Params)
}

// answer is one server's answer to a fan-out.
type answer struct {
	m      *member
	result json.RawMessage
	err    *Error
}

// fanOut sends msg to every server under ids of the aggregate's own, and answers the client with merge's
// merge of their answers: a server that fails is left out, and when every server fails the client gets
// the first error.
func (a *aggregate) fanOut(ctx context.Context, msg *Message, merge func(json.RawMessage, []answer) (any, error)) {
	pages := strings.HasSuffix(msg.Method, "/list")
	ask := func(m *member, params json.RawMessage) chan *Message {
		a.mu.Lock()
		a.next++
		id := json.RawMessage(fmt.Sprintf(`"warden-%s-%d"`, a.nonce, a.next))
		ch := make(chan *Message, 1)
		a.internal[idKey(id)] = ch
		a.fanouts[idKey(msg.ID)] = append(a.fanouts[idKey(msg.ID)], forwardedAs{m, id})
		a.mu.Unlock()
		m.send(encodeRequest(id, msg.Method, params))
		return ch
	}
	defer func() {
		a.mu.Lock()
		delete(a.fanouts, idKey(msg.ID))
		a.mu.Unlock()
	}()
	waits := make([]chan *Message, len(a.order))
	for i, m := range a.order {
		waits[i] = ask(m, msg.Params)
	}
	var answers []answer
	var firstErr *Error
	for i, m := range a.order {
		// A listing's every page: the client gets each server's whole list at once.
		for page, ch := 0, waits[i]; ch != nil && page < maxPages; page++ {
			var r *Message
			select {
			case r = <-ch:
			case <-m.done:
			case <-ctx.Done():
				return
			}
			ch = nil
			if r == nil {
				break
			}
			if r.Error != nil {
				if r.Error.Code == codeUnsupportedVersion || msg.Method == "server/discover" {
					// A client whose discovery fails falls back to initialize: every server must discover.
					// The client must choose a version every server speaks: it gets the refusal, with
					// the versions this server supports, and asks again.
					a.toClient(encodeErrorObject(msg.ID, r.Error))
					return
				}
				if firstErr == nil {
					firstErr = r.Error
				}
				break
			}
			answers = append(answers, answer{m: m, result: r.Result})
			var next struct {
				Cursor string `json:"nextCursor"`
			}
			if json.Unmarshal(r.Result, &next); pages && next.Cursor != "" {
				params, _ := json.Marshal(map[string]string{"cursor": next.Cursor})
				ch = ask(m, params)
			}
		}
	}
	if len(answers) == 0 {
		if firstErr == nil {
			firstErr = &Error{Code: CodeServerFault, Message: "no server answered"}
		}
		a.toClient(encodeError(msg.ID, firstErr.Code, firstErr.Message))
		return
	}
	merged, err := merge(msg.Params, answers)
	if err != nil {
		a.toClient(encodeError(msg.ID, CodeInternalError, err.Error()))
		return
	}
	b, err := encodeResult(msg.ID, merged)
	if err != nil {
		a.toClient(encodeError(msg.ID, CodeInternalError, err.Error()))
		return
	}
	a.toClient(b)
}

// fromMember routes what a server's proxy session sends the client.
func (a *aggregate) fromMember(m *member, b []byte) error {
	msg, err := Parse(b)
	if err != nil {
		return err
	}
	switch msg.Kind {
	case Response:
		a.mu.Lock()
		ch, internal := a.internal[idKey(msg.ID)]
		f, forwardedHere := a.owner[idKey(msg.ID)]
		delete(a.internal, idKey(msg.ID))
		delete(a.owner, idKey(msg.ID))
		a.mu.Unlock()
		if internal {
			ch <- msg
			return nil
		}
		if forwardedHere && msg.Result != nil {
			switch f.method {
			case "tools/call", "resources/read", "prompts/get":
				// What the client now holds of this server, which no other server may be sent.
				var r resultContent
				if json.Unmarshal(msg.Result, &r) == nil {
					a.flows.remember(&a.taints, m.name, r.text())
				}
			}
		}
		a.toClient(b)
	case Request:
		// The servers' request ids may collide: the client sees one of the aggregate's own.
		a.mu.Lock()
		a.next++
		id := json.RawMessage(fmt.Sprintf(`"%s-%s-%d"`, m.name, a.nonce, a.next))
		a.fromServer[idKey(id)] = serverRequest{m: m, id: msg.ID}
		a.mu.Unlock()
		a.toClient(withID(msg, id))
	case Notification:
		a.toClient(b)
	}
	return nil
}

// withID is msg with another id.
func withID(msg *Message, id json.RawMessage) []byte {
	if msg.Kind == Response {
		if msg.Error != nil {
			return encodeError(id, msg.Error.Code, msg.Error.Message)
		}
		b, _ := encodeResult(id, msg.Result)
		return b
	}
	return encodeRequest(id, msg.Method, msg.Params)
}

func orEmpty(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("{}")
	}
	return b
}

func orArray(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("[]")
	}
	return b
}

func mustGet(o *jsonobj.Object, key string) json.RawMessage {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	return v
}
