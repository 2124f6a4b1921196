package mcpproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentwarden/warden/internal/jsonobj"
	"github.com/agentwarden/warden/wire/sse"
)

// HTTPConn is the proxy's connection to an MCP server over streamable HTTP, as a client of it: each
// message is POSTed to the server's endpoint, and what comes back (a JSON body, or the events of an SSE
// stream) is read as the server's messages, in both protocol generations: sessions (Mcp-Session-Id, a GET
// stream for the server's own messages) up to 2025-11-25, and the stateless requests of 2026-07-28
// (MCP-Protocol-Version, Mcp-Method and Mcp-Name derived from each message as sent, so that a header never
// disagrees with the body Warden forwards). A POST that fails is read as the server's error answer to the
// request it carried. It is safe for one reader and any number of writers.
type HTTPConn struct {
	url    string
	client *http.Client
	header http.Header // sent with every request (an Authorization the user configured)
	params *ParamHeaders
	max    int

	ctx    context.Context
	cancel context.CancelFunc

	incoming chan []byte
	wg       sync.WaitGroup

	mu        sync.Mutex
	sessionID string
	version   string // the protocol version negotiated, once known
	getOpen   bool   // the GET stream for the server's own messages was opened
	closed    bool
}

var _ Conn = (*HTTPConn)(nil)

// NewHTTPConn connects to the MCP endpoint at url through client (http.DefaultClient when nil), sending
// header with every request. params, shared by the connections to one server, learns which arguments
// travel as Mcp-Param-* headers; nil gives the connection a registry of its own.
func NewHTTPConn(url string, client *http.Client, header http.Header, params *ParamHeaders) *HTTPConn {
	if client == nil {
		client = http.DefaultClient
	}
	if params == nil {
		params = NewParamHeaders()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &HTTPConn{url: url, client: client, header: header.Clone(), params: params, max: DefaultMaxMessage,
		ctx: ctx, cancel: cancel, incoming: make(chan []byte, 64)}
}

// ReadMessage returns the server's next message; io.EOF once the connection is closed.
func (c *HTTPConn) ReadMessage() ([]byte, error) {
	select {
	case m := <-c.incoming:
		return m, nil
	case <-c.ctx.Done():
		return nil, io.EOF
	}
}

// WriteMessage POSTs msg to the server; what comes back is read on its own goroutine, so that a long call
// does not hold up the messages after it.
func (c *HTTPConn) WriteMessage(msg []byte) error {
	m, err := Parse(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errors.New("the connection to the MCP server is closed")
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		c.post(m)
	}()
	return nil
}

// post sends one message and reads what the server answers.
func (c *HTTPConn) post(m *Message) {
	if m.Method == "tools/call" {
		c.learnBindings(m)
	}
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, c.url, bytes.NewReader(m.Raw))
	if err != nil {
		c.fault(m, err.Error())
		return
	}
	c.setHeaders(req, m)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.client.Do(req)
	if err != nil {
		if c.ctx.Err() == nil {
			c.fault(m, "the MCP server cannot be reached: "+err.Error())
		}
		return
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.mu.Lock()
		c.sessionID = id
		c.mu.Unlock()
	}
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return
	case resp.StatusCode == http.StatusNotFound && c.session() != "":
		c.fault(m, "the MCP server ended the session (HTTP 404)")
		return
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		// A server that refuses a request over HTTP often says why in JSON-RPC (an unsupported protocol
		// version, with the ones it supports): that is its answer to the request.
		if r, err := Parse(body); err == nil && r.Kind == Response && r.Error != nil && m.Kind == Request && string(r.ID) == string(m.ID) {
			c.deliver(r.Raw)
			return
		}
		if len(body) > 512 {
			body = body[:512]
		}
		c.fault(m, fmt.Sprintf("the MCP server answered HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body))))
		return
	}
	c.read(resp, m)
	if m.Kind == Request && m.Method == "initialize" {
		c.openStream()
	}
}

// learnBindings reads the server's tool listing before a 2026-07-28 tools/call of a tool whose header
// arguments are not known yet (a stateless client need not list before it calls): the call's headers are
// derived from them. The listing is Warden's own request, with the call's _meta; its answer is learned
// from, never delivered.
func (c *HTTPConn) learnBindings(call *Message) {
	version := metaVersion(call)
	if version == "" {
		c.mu.Lock()
		version = c.version
		c.mu.Unlock()
	}
	if version < "2026-07-28" {
		return
	}
	if _, known := c.params.bindings(nameOf(call)); known {
		return
	}
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(call.Params, &p)
	cursor := ""
	for page := 0; page < maxPages; page++ {
		params := map[string]any{}
		if len(p.Meta) > 0 {
			params["_meta"] = p.Meta
		}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, _ := json.Marshal(params)
		list, _ := Parse(encodeRequest(json.RawMessage(fmt.Sprintf(`"warden-bindings-%d"`, page)), "tools/list", raw))
		result := c.ask(list)
		if result == nil {
			return
		}
		c.params.learn(result)
		var next struct {
			Cursor string `json:"nextCursor"`
		}
		if json.Unmarshal(result, &next); next.Cursor == "" {
			return
		}
		cursor = next.Cursor
	}
}

// ask POSTs one of Warden's own requests and gives the result of its answer, nil when there is none.
func (c *HTTPConn) ask(m *Message) json.RawMessage {
	req, err := http.NewRequestWithContext(c.ctx, http.MethodPost, c.url, bytes.NewReader(m.Raw))
	if err != nil {
		return nil
	}
	c.setHeaders(req, m)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var body []byte
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		body, _ = io.ReadAll(io.LimitReader(resp.Body, int64(c.max)))
	case "text/event-stream":
		r := sse.NewReader(resp.Body)
		r.SetMaxEventSize(c.max)
		for body == nil {
			ev, err := r.Next()
			if err != nil {
				return nil
			}
			if a, err := Parse([]byte(ev.Data)); err == nil && a.Kind == Response && string(a.ID) == string(m.ID) {
				body = []byte(ev.Data)
			}
		}
	}
	a, err := Parse(body)
	if err != nil || a.Kind != Response || a.Result == nil {
		return nil
	}
	return a.Result
}

// read delivers the messages of a response body: one JSON message, or an SSE stream's.
func (c *HTTPConn) read(resp *http.Response, m *Message) {
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "application/json":
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.max)+1))
		if err != nil || len(body) > c.max {
			c.fault(m, "the MCP server's answer could not be read")
			return
		}
		c.deliverFor(body, m)
	case "text/event-stream":
		r := sse.NewReader(resp.Body)
		r.SetMaxEventSize(c.max)
		for {
			ev, err := r.Next()
			if err != nil {
				return // the stream ended; an answer it did not carry is the session's to time out
			}
			if ev.HasData && strings.TrimSpace(ev.Data) != "" {
				c.deliverFor([]byte(ev.Data), m)
			}
		}
	default:
		if m != nil && m.Kind == Request {
			c.fault(m, fmt.Sprintf("the MCP server answered with %q, not JSON or an event stream", mediaType))
		}
	}
}

// deliver hands a message to the reader.
func (c *HTTPConn) deliver(msg []byte) {
	select {
	case c.incoming <- msg:
	case <-c.ctx.Done():
	}
}

// deliverFor delivers a message read in answer to m, learning the tools' header bindings from a
// tools/list answer and the negotiated version from an initialize answer.
func (c *HTTPConn) deliverFor(msg []byte, m *Message) {
	switch {
	case m == nil:
	case m.Method == "tools/list":
		if r, err := Parse(msg); err == nil && r.Kind == Response && r.Result != nil && string(r.ID) == string(m.ID) {
			c.params.learn(r.Result)
		}
	case m.Method == "initialize":
		// The version the session speaks, sent on every request after.
		if v := negotiatedVersion(msg); v != "" {
			c.mu.Lock()
			c.version = v
			c.mu.Unlock()
		}
	}
	c.deliver(msg)
}

// negotiatedVersion is the protocolVersion of an initialize result, "" for any other message.
func negotiatedVersion(msg []byte) string {
	var v struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      any    `json:"serverInfo"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &v) != nil || v.Result.ServerInfo == nil {
		return ""
	}
	return v.Result.ProtocolVersion
}

// fault reads a failed POST as the server's error answer to the request it carried; a failed
// notification or response has no one to answer.
func (c *HTTPConn) fault(m *Message, reason string) {
	if m == nil || m.Kind != Request {
		return
	}
	c.deliver(encodeError(m.ID, CodeServerFault, reason))
}

func (c *HTTPConn) session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// setHeaders sets the headers every request carries: the configured ones, the session's, the protocol
// version, and for the 2026-07-28 generation the method and name the body holds.
func (c *HTTPConn) setHeaders(req *http.Request, m *Message) {
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	c.mu.Lock()
	session, version := c.sessionID, c.version
	c.mu.Unlock()
	if v := metaVersion(m); v != "" {
		version = v
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
	if m == nil || m.Method == "" || version < "2026-07-28" {
		return // the standard headers are the 2026-07-28 generation's
	}
	req.Header.Set("Mcp-Method", m.Method)
	if name := nameOf(m); name != "" {
		req.Header.Set("Mcp-Name", encodeHeader(name))
	}
	if m.Method == "tools/call" {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		json.Unmarshal(m.Params, &p)
		for k, v := range c.params.headers(nameOf(m), p.Arguments) {
			req.Header.Set(k, v)
		}
	}
}

// metaVersion is the protocol version a 2026-07-28 request carries in its _meta.
func metaVersion(m *Message) string {
	if m == nil || len(m.Params) == 0 {
		return ""
	}
	var v struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(m.Params, &v) != nil {
		return ""
	}
	for _, key := range []string{"io.modelcontextprotocol/protocolVersion", "protocolVersion"} {
		if s, ok := jsonobj.DecodeString(v.Meta[key]); ok && s != "" {
			return s
		}
	}
	return ""
}

// nameOf is what the Mcp-Name header mirrors: the tool's or prompt's name, the resource's URI.
func nameOf(m *Message) string {
	key := map[string]string{"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}[m.Method]
	if key == "" || len(m.Params) == 0 || m.Params[0] != '{' {
		return ""
	}
	obj, err := jsonobj.Parse(m.Params)
	if err != nil {
		return ""
	}
	raw, _ := obj.Get(key)
	s, _ := jsonobj.DecodeString(raw)
	return s
}

// openStream opens, once a session is initialized, the GET stream on which a server of the session
// generation sends its own requests and notifications; a server without one answers 405, which is fine.
func (c *HTTPConn) openStream() {
	c.mu.Lock()
	if c.getOpen || c.closed || c.sessionID == "" {
		c.mu.Unlock()
		return
	}
	c.getOpen = true
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, c.url, nil)
		if err != nil {
			return
		}
		c.setHeaders(req, nil)
		req.Header.Set("Accept", "text/event-stream")
		resp, err := c.client.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			c.read(resp, nil)
		}
	}()
}

// Close ends the session (DELETE, when the server gave one), stops every request in flight, and ends
// ReadMessage.
func (c *HTTPConn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	session := c.sessionID
	c.mu.Unlock()
	if session != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
		if err == nil {
			c.setHeaders(req, nil)
			if resp, err := c.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
	}
	c.cancel()
	c.wg.Wait()
	return nil
}
