package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/internal/credential"
	"github.com/agentwarden/warden/pipeline"
	"github.com/agentwarden/warden/stream"
	"github.com/agentwarden/warden/wire/openai"
)

// Reason codes of the gateway's own errors, beside the pipeline's.
const (
	CodeNotFound     = "warden.not_found"
	CodeTooLarge     = "warden.request_too_large"
	CodeBodyTimeout  = "warden.request_timeout"
	CodeUpstream     = pipeline.CodeUpstreamError
	CodeTimeout      = pipeline.CodeUpstreamTimeout
	CodeBadUpstream  = pipeline.CodeBadUpstream
	CodeStreamBroken = pipeline.CodeStreamBroken
	CodeNeedsSSE     = "warden.needs_sse"
)

// exchange is one guarded request and its answer.
type exchange struct {
	g     *Gateway
	w     http.ResponseWriter
	r     *http.Request
	rt    route
	f     *pipeline.Format
	t     *tally
	start time.Time
	// body is the request last sent upstream: the client's (as the pipeline let it through), or a follow-up.
	body []byte
	// retries counts follow-ups sent after denied tool calls, corrections the continuations sent after a
	// stream guardrail's retry.
	retries, corrections int
	// upstreamWait is the time spent waiting for the upstream (its headers, its body), which the added
	// latency metric leaves out; streamed says the answer was a stream.
	upstreamWait time.Duration
	streamed     bool
	// status and code are what the client got, for the log line.
	status int
	code   string
	// flushAudit writes the exchange's audit events, kept until then, in one write: before a whole
	// answer is written, and at the end of a stream (audit.Batch).
	flushAudit func(context.Context)
}

func (g *Gateway) serveProvider(w http.ResponseWriter, r *http.Request) {
	rt, ok := g.route(r)
	if !ok {
		g.notFound(w, r)
		return
	}
	if rt.format == nil {
		g.passthrough(w, r, rt)
		return
	}
	growStack()
	x := &exchange{g: g, w: w, r: r, rt: rt, f: rt.format, t: &tally{}, start: time.Now()}
	x.serve()
	x.logLine()
	g.cfg.Metrics.exchangeDone(x)
}

// notFound answers a path no upstream serves, in OpenAI's error shape (the commonest client), naming the
// paths that are served.
func (g *Gateway) notFound(w http.ResponseWriter, r *http.Request) {
	msg := fmt.Sprintf("Warden serves no %s %s. Guarded: POST /v1/chat/completions, /v1/responses, /v1/messages, /v1beta/models/{model}:generateContent and :streamGenerateContent; other /v1/ and /v1beta/ paths pass to the provider", r.Method, r.URL.Path)
	if len(g.prefixed) > 0 {
		var ps []string
		for _, up := range g.prefixed {
			ps = append(ps, up.Prefix+"/")
		}
		msg += "; prefixed upstreams: " + strings.Join(ps, ", ")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	w.Write(openai.ErrorBody(msg, "invalid_request_error", CodeNotFound))
	g.log.Info("no route", "method", r.Method, "path", r.URL.Path, "status", http.StatusNotFound)
}

func (x *exchange) serve() {
	base, flushAudit := audit.Batch(withTally(x.r.Context(), x.t))
	x.flushAudit = flushAudit
	defer flushAudit(x.r.Context()) // a stream's, before its response ends; a no-op after a whole answer's
	ctx, cancel := context.WithTimeout(base, x.rt.up.Timeout)
	defer cancel()
	if x.rt.streamPath && x.r.URL.Query().Get("alt") != "sse" {
		x.fail(http.StatusBadRequest, CodeNeedsSSE, "Warden guards Gemini streams as server-sent events: call :streamGenerateContent with ?alt=sse (the Google SDKs do)")
		return
	}
	// The body has BodyTimeout to arrive, counted from the exchange's start; the deadline is lifted once it
	// has, so that it never bounds the answer (a response writer that cannot set one, as in tests, is read
	// without). A body that failed keeps its deadline and is closed: the server would otherwise wait, with
	// no deadline, for the rest of it before answering.
	rc := http.NewResponseController(x.w)
	_ = rc.SetReadDeadline(x.start.Add(x.g.cfg.BodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(x.w, x.r.Body, x.g.cfg.MaxBodyBytes))
	if err == nil {
		_ = rc.SetReadDeadline(time.Time{})
	} else {
		x.r.Body.Close()
	}
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			x.fail(http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the request body is larger than the %d bytes Warden accepts (gateway max_body_bytes)", tooLarge.Limit))
			return
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			x.fail(http.StatusRequestTimeout, CodeBodyTimeout, fmt.Sprintf("the request body did not arrive within %s (gateway read_body_timeout)", x.g.cfg.BodyTimeout))
			return
		}
		x.fail(http.StatusBadRequest, pipeline.CodeBadRequest, "Warden could not read the request body")
		return
	}
	run := warden.RunInfo{}
	if h := x.g.cfg.UserHeader; h != "" {
		run.UserID = x.r.Header.Get(h)
	}
	// Who the request is for when it names no end user: approvals, budgets and rate limits count by it.
	run.Credential = credential.Of(x.r)
	prep, err := x.g.cfg.Pipeline.Request(ctx, x.f, body, run)
	if err != nil {
		x.refused(err)
		return
	}
	defer prep.Close()
	run.UserID = prep.UserID
	x.body = x.continuing(prep.Body)
	// Parallel input guardrails run on while the request goes upstream (their halt cancels it); nothing
	// of the answer is read or written until they have passed.
	resp, err := x.forward(prep.Context(ctx), x.body)
	if werr := prep.Wait(ctx); werr != nil {
		if err == nil {
			resp.Body.Close()
		}
		// A halt is known before its stage is recorded (the record waits for the stage's other parallel
		// guardrails, cancelled by the halt): wait for it, so that the answer's tally counts them. The
		// client loses nothing by it, since the answer leaves when the handler returns, after Close.
		prep.Close()
		x.refused(werr)
		return
	}
	if err != nil {
		x.upstreamFailed(ctx, err)
		return
	}
	if isEventStream(resp.Header) {
		x.relayStream(ctx, resp, stream.Info{Run: run, Tools: prep.Tools})
		return
	}
	defer resp.Body.Close()
	x.relayWhole(ctx, resp, run)
}

// deciding is the pipeline for the next response: under the configured on_deny while retries are left,
// explaining once they are spent.
func (x *exchange) deciding() *pipeline.Pipeline {
	if x.retries >= x.g.cfg.DenyRetries {
		return x.g.explaining
	}
	return x.g.deciding
}

// followable returns the denial a follow-up can answer: one the pipeline returned under retry, not a
// refusal it wrote.
func followable(err error) *pipeline.DeniedError {
	if err == nil {
		return nil // most exchanges: spare errors.As its allocations
	}
	var r *pipeline.Refusal
	var d *pipeline.DeniedError
	if errors.As(err, &r) || !errors.As(err, &d) {
		return nil
	}
	return d
}

// followUp sends the follow-up that answers a denial: the last request plus the model's message (from
// the whole response body resp, which for a stream is what its guard assembled, or d's when there is
// none) and a result for each of its calls. It returns the upstream's answer when it is a success of the
// kind asked for (a stream or not); otherwise nil, and the caller answers the denial without it.
func (x *exchange) followUp(ctx context.Context, resp []byte, d *pipeline.DeniedError, wantStream bool) *http.Response {
	next, err := x.f.FollowUp(x.body, resp, d.Response.Message, d.Results)
	up := x.reissue(ctx, "the follow-up to a denied tool call", next, err, wantStream)
	if up != nil {
		x.retries++
		x.t.newAnswer()
	}
	return up
}

// reissue sends body, a request Warden built (err when it could not), in place of the last one, and
// returns the upstream's answer when it is a success of the kind asked for (a stream or not); otherwise
// nil. Why not is logged as about what, never the content.
func (x *exchange) reissue(ctx context.Context, what string, body []byte, err error, wantStream bool) *http.Response {
	if err != nil {
		x.g.log.Warn("could not build "+what, "format", x.f.Name, "err", err)
		return nil
	}
	up, err := x.forward(ctx, body)
	if err != nil {
		x.g.log.Warn(what+" failed", "upstream", x.rt.up.Name, "err", redactURLError(err))
		return nil
	}
	if up.StatusCode/100 != 2 || isEventStream(up.Header) != wantStream {
		up.Body.Close()
		x.g.log.Warn("the provider did not accept "+what, "upstream", x.rt.up.Name, "status", up.StatusCode)
		return nil
	}
	x.body = body
	return up
}

// forward sends the (possibly rewritten) body upstream with the client's headers, less hop-by-hop ones
// and with the credential injected when the upstream holds one.
func (x *exchange) forward(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.rt.upstreamURL(x.r.URL), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	copyRequestHeaders(req.Header, x.r.Header)
	injectKey(req.Header, x.rt.up)
	start := time.Now()
	resp, err := x.g.client.Do(req)
	x.upstreamWait += time.Since(start)
	return resp, err
}

// relayWhole reads a whole upstream body, runs the response side on it and writes the result. A denied
// tool call under retry sends a follow-up and answers with its response instead, round after round until
// one passes or the retries are spent; a follow-up the provider does not take leaves the last response
// explained.
func (x *exchange) relayWhole(ctx context.Context, resp *http.Response, run warden.RunInfo) {
	body, ok := x.readWhole(ctx, resp)
	if !ok {
		return
	}
	var out []byte
	for {
		var err error
		out, err = x.deciding().Response(ctx, x.f, resp.StatusCode, body, run)
		if d := followable(err); d != nil {
			next := x.followUp(ctx, body, d, false)
			if next == nil {
				out, err = x.g.explaining.Response(ctx, x.f, resp.StatusCode, body, run)
			} else {
				resp = next
				body, ok = x.readWhole(ctx, next)
				next.Body.Close()
				if !ok {
					return
				}
				continue
			}
		}
		if err != nil {
			x.refused(err)
			return
		}
		break
	}
	h := x.w.Header()
	copyResponseHeaders(h, resp.Header)
	h.Set("Content-Length", strconv.Itoa(len(out)))
	x.t.deliver()
	x.setTally(h)
	x.status = resp.StatusCode
	x.flushAudit(ctx) // the exchange's events are written before its answer
	x.w.WriteHeader(resp.StatusCode)
	x.w.Write(out)
}

// readWhole reads a whole upstream body within the configured limit; on failure it has answered the client.
func (x *exchange) readWhole(ctx context.Context, resp *http.Response) ([]byte, bool) {
	start := time.Now()
	body, err := io.ReadAll(io.LimitReader(resp.Body, x.g.cfg.MaxResponseBytes+1))
	x.upstreamWait += time.Since(start)
	switch {
	case err != nil:
		x.upstreamFailed(ctx, err)
		return nil, false
	case int64(len(body)) > x.g.cfg.MaxResponseBytes:
		x.fail(http.StatusBadGateway, CodeBadUpstream, fmt.Sprintf("the provider's response is larger than the %d bytes Warden reads (gateway max_response_bytes)", x.g.cfg.MaxResponseBytes))
		return nil, false
	}
	return body, true
}

// relayStream copies an upstream event stream through the pipeline's stream guard. The tally so far (the
// request side) goes in the headers, the final one in trailers. A stream that breaks off or cannot be read
// ends with the format's error event; what was held is never released.
func (x *exchange) relayStream(ctx context.Context, resp *http.Response, info stream.Info) {
	h := x.w.Header()
	copyResponseHeaders(h, resp.Header)
	h.Del("Content-Length")
	// Nothing about the answer is decided before it has streamed: the headers say so, and the trailers say
	// what was (a client that cannot read trailers finds it in the audit log).
	h.Set(HeaderDecision, DecisionPending)
	h.Set("Trailer", HeaderEvaluated+", "+HeaderDecision+", "+HeaderReason)
	x.status = resp.StatusCode
	x.w.WriteHeader(resp.StatusCode)
	flush := flusherOf(x.w)
	x.streamed = true
	out := &flushBeforeRead{w: x.w, flush: flush, clock: time.Now()}
	out.holdHead(headHold)
	defer out.endHold() // the timer must not flush after the handler returned, a panic included
	err := x.streamRounds(ctx, resp, out, info)
	x.upstreamWait += out.waited
	out.endHold() // before the writes below, which go around out
	var refusal *pipeline.Refusal
	var correction *pipeline.CorrectionError
	denied := followable(err)
	switch {
	case err == nil:
		x.t.deliver()
	case errors.As(err, &correction):
		// The continuation failed: the stream ends after the feedback, with the guardrail's reason.
		x.code = correction.Code
		x.w.Write(x.f.StreamError(fmt.Sprintf("Warden stopped this response: stream guardrail %q asked the model to correct itself and the provider did not answer Warden's continuation", correction.Guardrail), x.code))
		flush()
	case denied != nil:
		// The follow-up failed: the stream ends without the denied call or anything held beside it.
		x.code = denied.Decision.FirstReason().Code
		x.w.Write(x.f.StreamError("Warden stopped this response: a tool call was denied and the provider did not answer Warden's follow-up", x.code))
		flush()
	case errors.As(err, &refusal):
		x.code = refusal.Code // the pipeline wrote the error event
	case x.r.Context().Err() != nil:
		x.code = "client_gone"
	default:
		x.code = CodeStreamBroken
		msg := "Warden ended this stream: the provider's stream broke off or could not be read; nothing it held back was released"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			x.code, msg = CodeTimeout, fmt.Sprintf("Warden ended this stream: the provider did not finish within the upstream timeout (%s)", x.rt.up.Timeout)
		}
		x.w.Write(x.f.StreamError(msg, x.code))
		flush()
		x.g.log.Warn("stream ended with an error", "upstream", x.rt.up.Name, "format", x.f.Name, "err", err)
	}
	evaluated, decision := x.t.values()
	h.Set(HeaderEvaluated, evaluated)
	h.Set(HeaderDecision, decision)
	if x.code != "" && x.code != "client_gone" {
		h.Set(HeaderReason, x.code)
	}
}

// streamRounds guards the stream resp carries and, under retry, each follow-up's stream after a denied
// call, into the client's one stream: the first stream's end (its finish, the held calls) is never written,
// and the follow-up's events go on after its text, renumbered where the format numbers them. It returns
// the last round's error; a *DeniedError whose follow-up the provider did not take, unwritten.
//
// A stream guardrail's retry, while corrections are left, shows its feedback in the client's stream and
// sends a continuation: the request as it was before the message's first correction, with the assistant's
// message as the client has it (ending with the feedback) last, so that the model goes on from it. It
// returns a *pipeline.CorrectionError whose continuation the provider did not take.
func (x *exchange) streamRounds(ctx context.Context, resp *http.Response, out *flushBeforeRead, info stream.Info) error {
	rounds := pipeline.Rounds{Corrections: x.g.cfg.StreamRetries}
	var base []byte // the request before the current message's first correction
	explained := false
	for {
		// The guard flushes once it has handled the events of a read, as soon as the last one is written;
		// out's reader flushes before each read whatever a guard left written.
		err := x.deciding().StreamRound(ctx, x.f, &rounds, out.reader(resp.Body), out, out.Flush, info)
		resp.Body.Close()
		if err == nil {
			if !explained {
				x.remember(&rounds) // Warden's own explanation is stored nowhere
			}
			return nil
		}
		var next *http.Response
		var c *pipeline.CorrectionError
		if errors.As(err, &c) {
			out.Flush() // the feedback reaches the client while the continuation is asked for
			if base == nil {
				base = x.body
			}
			next = x.continueStream(ctx, base, c)
		} else if d := followable(err); d != nil {
			out.Flush()
			base = nil // the follow-up's answer is a message of its own
			next = x.followUp(ctx, d.Body, d, true)
			if next == nil && x.f.MessageStream != nil {
				// The provider did not take the follow-up: the stream ends as on_deny explain ends it, with
				// the denied call's explanation and a finish, as a whole answer does (its reason stays in
				// X-Warden-Reason).
				x.code = d.Decision.FirstReason().Code
				next = &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(x.f.MessageStream(d.Explanation())))}
				explained = true
			}
		}
		if next == nil {
			return err
		}
		resp = next
	}
}

// continuing returns the request continuing from the stored response the client's id stands for, when
// the client holds an id Warden gave a stream in place of the one the provider stored (continuity.go).
func (x *exchange) continuing(body []byte) []byte {
	if x.f.PreviousID == nil {
		return body
	}
	id := x.f.PreviousID(body)
	if id == "" {
		return body
	}
	stored, ok := x.g.continued.get(id, time.Now())
	if !ok {
		return body
	}
	b, err := x.f.WithPreviousID(body, stored)
	if err != nil {
		x.g.log.Warn("could not continue from the stored response", "format", x.f.Name, "err", err)
		return body
	}
	return b
}

// remember notes, after a stream whose last round was a provider's follow-up, the stored response the id
// the client holds stands for.
func (x *exchange) remember(rounds *pipeline.Rounds) {
	ids, ok := rounds.Joined().(interface {
		ResponseIDs() (opened, stored string)
	})
	if !ok {
		return
	}
	if opened, stored := ids.ResponseIDs(); opened != "" && stored != "" && stored != opened {
		x.g.continued.put(opened, stored, time.Now())
	}
}

// continueStream sends the continuation a self-correction asks for: request base continued from the
// message the client has. It returns the upstream's stream, or nil when there is none.
func (x *exchange) continueStream(ctx context.Context, base []byte, c *pipeline.CorrectionError) *http.Response {
	body, err := x.f.Continue(base, c.Partial)
	up := x.reissue(ctx, "the continuation of a stream guardrail's correction", body, err, true)
	if up != nil {
		x.corrections++
	}
	return up
}

// refused answers a pipeline refusal (or any pipeline error) in the format's shape.
func (x *exchange) refused(err error) {
	var r *pipeline.Refusal
	if !errors.As(err, &r) {
		x.fail(http.StatusInternalServerError, "warden.error", "Warden could not check this exchange, so it was stopped")
		x.g.log.Error("pipeline error", "format", x.f.Name, "err", err)
		return
	}
	h := x.w.Header()
	h.Set("Content-Type", "application/json")
	if r.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int((r.RetryAfter+time.Second-1)/time.Second)))
	}
	x.setTally(h)
	if _, d := x.t.values(); r.Status < 500 && d == warden.ActionAllow.String() {
		h.Set(HeaderDecision, warden.ActionReject.String()) // Warden itself refused (a blocked user, a bad body)
	}
	h.Set(HeaderReason, r.Code)
	x.status, x.code = r.Status, r.Code
	x.flushAudit(x.r.Context())
	x.w.WriteHeader(r.Status)
	x.w.Write(r.Body)
}

// upstreamFailed answers an upstream that could not be reached or read.
func (x *exchange) upstreamFailed(ctx context.Context, err error) {
	switch {
	case x.r.Context().Err() != nil:
		x.status, x.code = 499, "client_gone" // nobody to answer
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		x.fail(http.StatusGatewayTimeout, CodeTimeout, fmt.Sprintf("the provider (%s) did not answer within the upstream timeout (%s)", x.rt.up.Name, x.rt.up.Timeout))
	default:
		x.fail(http.StatusBadGateway, CodeUpstream, fmt.Sprintf("Warden could not reach or read the provider (%s): %s", x.rt.up.Name, redactURLError(err)))
	}
}

// fail answers an error of Warden's own in the format's shape.
func (x *exchange) fail(status int, code, msg string) {
	h := x.w.Header()
	h.Set("Content-Type", "application/json")
	x.setTally(h)
	h.Set(HeaderReason, code)
	if _, d := x.t.values(); status < 500 && d == warden.ActionAllow.String() {
		h.Set(HeaderDecision, warden.ActionReject.String()) // Warden refused the request itself (too large, too slow, unreadable)
	}
	x.status, x.code = status, code
	x.flushAudit(x.r.Context())
	x.w.WriteHeader(status)
	x.w.Write(x.f.StatusError(status, msg, code))
}

func (x *exchange) setTally(h http.Header) {
	evaluated, decision := x.t.values()
	h.Set(HeaderEvaluated, evaluated)
	h.Set(HeaderDecision, decision)
}

// logLine logs the exchange without content: route, status, reason code, tally and duration.
func (x *exchange) logLine() {
	level := slog.LevelInfo
	if x.status >= 500 {
		level = slog.LevelWarn
	}
	if !x.g.log.Enabled(x.r.Context(), level) {
		return // spare the arguments' allocations
	}
	evaluated, decision := x.t.values()
	x.g.log.Log(x.r.Context(), level, "exchange", "upstream", x.rt.up.Name, "format", x.f.Name, "path", x.r.URL.Path,
		"status", x.status, "code", x.code, "evaluated", evaluated, "decision", decision, "deny_retries", x.retries, "corrections", x.corrections, "duration", time.Since(x.start))
}

// upstreamURL is the upstream's base URL joined with the route's path and the client's query; a key in
// the query (Gemini's ?key=) is dropped when the upstream injects its own.
func (rt route) upstreamURL(client *url.URL) string {
	u := *rt.up.URL
	u.Path = strings.TrimSuffix(u.Path, "/") + rt.path
	u.RawPath = ""
	u.RawQuery = client.RawQuery
	if rt.up.APIKey != "" && u.RawQuery != "" {
		q := client.Query()
		if q.Has("key") {
			q.Del("key")
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

func isEventStream(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && mt == "text/event-stream"
}

// copyRequestHeaders copies the client's headers for the upstream request, less the hop-by-hop ones a
// proxy must not forward (RFC 9110 §7.6.1) and what the transport sets itself.
func copyRequestHeaders(dst, src http.Header) { copyHeaders(dst, src, false) }

// copyResponseHeaders copies the upstream's headers for the client, less the hop-by-hop ones and
// Content-Encoding: the transport decompressed the body.
func copyResponseHeaders(dst, src http.Header) { copyHeaders(dst, src, true) }

// copyHeaders copies src into dst but for the headers a proxy drops, with every value in one allocation,
// as http.Header.Clone does. Keys are compared as they are: net/http gives canonical ones, and deleting
// the canonical names is all http.Header.Del would do.
func copyHeaders(dst, src http.Header, response bool) {
	n := 0
	for _, vs := range src {
		n += len(vs)
	}
	values := make([]string, n)
	for k, vs := range src {
		if dropped(k) || response && k == "Content-Encoding" {
			continue
		}
		n := copy(values, vs)
		dst[k] = values[:n:n]
		values = values[n:]
	}
}

// dropped says whether a proxy drops the header: a hop-by-hop one, or one the transport sets itself.
func dropped(canonical string) bool {
	switch canonical {
	case "Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
		"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Host", "Content-Length", "Accept-Encoding":
		return true
	}
	return false
}

// credentialHeaders are where the providers read a key; an injected key replaces all of them.
var credentialHeaders = []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Api-Key"}

// injectKey puts the upstream's own key where its provider reads it, in place of the client's.
func injectKey(h http.Header, up *Upstream) {
	if up.APIKey == "" {
		return
	}
	for _, k := range credentialHeaders {
		h.Del(k)
	}
	switch up.Provider {
	case ProviderAnthropic:
		h.Set("X-Api-Key", up.APIKey)
	case ProviderGemini:
		h.Set("X-Goog-Api-Key", up.APIKey)
	default:
		h.Set("Authorization", "Bearer "+up.APIKey)
	}
}

// redactURLError keeps an upstream error's reason without the URL, whose query may carry a key.
func redactURLError(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner.Error()
		}
	}
	return err.Error()
}
