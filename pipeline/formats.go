package pipeline

import (
	"encoding/json"
	"fmt"
	"github.com/agentwarden/warden/internal/usage"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/anthropic"
	"github.com/agentwarden/warden/wire/bedrock"
	"github.com/agentwarden/warden/wire/gemini"
	"github.com/agentwarden/warden/wire/openai"
	"github.com/agentwarden/warden/wire/sse"
)

// Request is a decoded provider request: its conversation in the turn model, whose text guardrails may
// rewrite.
type Request interface {
	Messages() []warden.Message
	// Tools names the tools the request offers the model.
	Tools() []string
	SetText(i int, text string) error
	Encode() ([]byte, error)
}

// Response is a decoded provider response body: one or more responses (choices, candidates) in the turn
// model, each of which may be rewritten.
type Response interface {
	Len() int
	Response(i int) warden.Response
	Set(i int, r warden.Response) error
	Encode() ([]byte, error)
}

// Decide is what a stream guard asks once a streamed response is complete: the response as the pipeline
// lets it through.
type Decide = func(warden.Response) (warden.Response, error)

// Format is one provider wire format: how to read and rewrite its bodies and streams, and how to answer in
// its own shapes. A Format is immutable once registered and safe for concurrent use.
type Format struct {
	// Name is the format's config and flag name: openai-chat, openai-responses, anthropic, gemini, bedrock.
	Name string
	// Title is a human name for messages and docs.
	Title         string
	DecodeRequest func(body []byte) (Request, error)
	// DecodeResponse reads a whole response body; the Response may keep body, which the pipeline does not
	// change.
	DecodeResponse func(body []byte) (Response, error)
	// GuardStream copies a response stream from in to out, holding tool calls until decide has seen the whole
	// response; flush, when set, is called whenever what was written must reach the client now: before
	// the guard may wait (for more of in, for a stream guardrail, for decide), and as soon as the events of
	// one read of in are handled, so that a paced stream's event goes out when it is written and a burst's
	// events in one flush. A format may flush after every write instead, at the cost of a write to the
	// client's connection an event.
	GuardStream func(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error
	// ErrorBody is an error Warden answers itself (HTTP 403), in the provider's shape; code is Warden's
	// reason code.
	ErrorBody func(message, code string) []byte
	// StatusError is an error Warden answers itself with another HTTP status (a body too large, an upstream
	// that failed), in the provider's shape for that status; code is Warden's reason code.
	StatusError func(status int, message, code string) []byte
	// StreamError ends a stream with an error event clients of the format read.
	StreamError func(message, code string) []byte
	// MessageBody is a whole response carrying text Warden wrote (an API-layer safety error as a message).
	MessageBody func(text string) []byte
	// PreviousID reads the id of the stored response a request continues from ("" for none), and
	// WithPreviousID writes another; nil in formats whose requests carry their whole conversation.
	PreviousID     func(body []byte) string
	WithPreviousID func(body []byte, id string) ([]byte, error)
	// MessageStream is a provider stream of one message carrying text Warden wrote, ended as a finished
	// answer: the explanation of a denied call whose follow-up the provider did not take, which the
	// format's JoinStreams guard joins after the stream before it. Nil when the format cannot join streams.
	MessageStream func(text string) []byte
	// KeepAlive is what a stream may carry between events that every client of the format ignores: an SSE
	// comment. Nil when the format has none: Bedrock's binary event stream, and Gemini's, whose Go SDK
	// fails on a comment line.
	KeepAlive []byte
	// Usage reads the token counts a whole response body, or one event of a stream (an SSE event's data,
	// an event-stream message's payload), reports; false when it reports none. Nil when the format reports
	// none.
	Usage func(data []byte) (warden.Usage, bool)
	// EventStream says the format's streams are AWS event streams (binary frames), not server-sent events.
	EventStream bool
	// EndUser reads the end-user id the request body names; nil when the format has no such field.
	EndUser func(body []byte) (string, error)
	// WithEndUser fills that field when the body names no end user; nil when the format has no such field.
	WithEndUser func(body []byte, id string) ([]byte, error)
	// FollowUp continues request req by a tool round: the model's message (from the whole response body
	// resp, or msg for a stream, when resp is nil) and a result for each of its calls. Nil when the format
	// has none; on_deny retry then explains.
	FollowUp func(req, resp []byte, msg warden.Message, results []string) ([]byte, error)
	// JoinStreams returns a new client stream into which on_deny retry joins a follow-up's stream after
	// the stream whose call was denied (whose end was not written): each Guard call guards one provider
	// stream, written to the client as the rounds before it left off. Nil when the format's streams cannot
	// be joined; on_deny retry then explains in streams.
	JoinStreams func() StreamGuard
	// Continue continues request req from partial, the assistant's message so far ending with a stream
	// guardrail's feedback, for a self-correction: the model's next stream goes on after it. Nil when the
	// format has none; a stream guardrail's retry then ends the stream with its error event.
	Continue func(req []byte, partial string) ([]byte, error)
}

// StreamGuard guards the provider streams one client's stream is made of, one Guard call each, as
// Format.GuardStream guards one. Not safe for concurrent use.
type StreamGuard interface {
	Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error
}

// StreamBody is a StreamGuard that can give the response of its last round, when that round's decide
// failed (a denied call), as one whole provider body as Format.FollowUp reads it: with what only the
// provider's bytes hold (reasoning items, thinking and thought signatures), which a follow-up built from the
// turn model would leave out, and which providers require back with a tool result. Nil when it has none.
type StreamBody interface {
	Body() []byte
}

// StreamGuardFunc is a StreamGuard for a format whose events each stand alone (Chat Completions, Gemini):
// a follow-up's stream goes on after the rounds before it as it is, each round guarded by the function.
type StreamGuardFunc func(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error

func (f StreamGuardFunc) Guard(in io.Reader, out io.Writer, flush func(), decide Decide, gate warden.TextGate) error {
	return f(in, out, flush, decide, gate)
}

var (
	formatsMu sync.RWMutex
	formats   = map[string]*Format{}
)

// Register makes a format available by name. It panics on a nil format, an empty name, a missing codec or
// a duplicate name: those are wiring mistakes.
func Register(f *Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	switch {
	case f == nil || f.Name == "":
		panic("pipeline: Register of a nil or unnamed format")
	case f.DecodeRequest == nil || f.DecodeResponse == nil || f.GuardStream == nil || f.ErrorBody == nil || f.StatusError == nil || f.StreamError == nil || f.MessageBody == nil:
		panic("pipeline: format " + f.Name + " lacks a codec")
	case formats[f.Name] != nil:
		panic("pipeline: Register called twice for format " + f.Name)
	}
	formats[f.Name] = f
}

// Lookup returns the format registered under name.
func Lookup(name string) (*Format, error) {
	formatsMu.RLock()
	f := formats[name]
	formatsMu.RUnlock()
	if f == nil {
		return nil, fmt.Errorf("%q is not supported (supported: %s)", name, strings.Join(Names(), ", "))
	}
	return f, nil
}

// Names lists the registered formats: the built-in ones in their documented order, then others sorted.
func Names() []string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	var out, extra []string
	for _, n := range builtinOrder {
		if formats[n] != nil {
			out = append(out, n)
		}
	}
	for n := range formats {
		if !builtin(n) {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

var builtinOrder = []string{"openai-chat", "openai-responses", "anthropic", "gemini", "bedrock"}

func builtin(name string) bool {
	for _, n := range builtinOrder {
		if n == name {
			return true
		}
	}
	return false
}

// errorType is the error type of Warden's own errors in OpenAI's shape.
const errorType = "warden_guardrail"

// Reason codes of faults on the provider's side, which a surface answers with.
const (
	CodeUpstreamError   = "warden.upstream_error"
	CodeUpstreamTimeout = "warden.upstream_timeout"
	CodeBadUpstream     = "warden.bad_upstream"
	CodeStreamBroken    = "warden.upstream_stream_broken"
)

// upstreamFault says whether a reason code is a fault on the provider's side: a stream error event that
// carries one takes the format's server-error shape, which clients read as retryable, and not a refusal's
// (a permission error reads as a problem with the client's key).
func upstreamFault(code string) bool {
	switch code {
	case CodeUpstreamError, CodeUpstreamTimeout, CodeBadUpstream, CodeStreamBroken:
		return true
	}
	return false
}

func init() {
	openaiEndUser := func(body []byte) (string, error) {
		id, _, err := openai.EndUser(body)
		return id, err
	}
	Register(&Format{
		Name:           "openai-chat",
		KeepAlive:      sseComment,
		Usage:          usageOf(usage.Fields{Paths: [][]string{{"usage"}}, In: []string{"prompt_tokens"}, Out: []string{"completion_tokens"}}),
		Title:          "OpenAI Chat Completions",
		DecodeRequest:  func(b []byte) (Request, error) { return openai.DecodeChatRequest(b) },
		DecodeResponse: func(b []byte) (Response, error) { return openai.DecodeChatResponse(b) },
		GuardStream: func(in io.Reader, out io.Writer, flush func(), d Decide, gate warden.TextGate) error {
			return openai.GuardChatStream(in, out, flush, d, gate)
		},
		ErrorBody:   func(msg, code string) []byte { return openai.ErrorBody(msg, errorType, code) },
		StatusError: openaiStatusError,
		StreamError: func(msg, code string) []byte {
			typ := errorType
			if upstreamFault(code) {
				typ = "server_error"
			}
			return sse.Data(string(openai.ErrorBody(msg, typ, code))).Encode()
		},
		MessageBody: func(text string) []byte {
			return openai.MessageBody("warden-safety", "warden", text, "content_filter")
		},
		MessageStream: func(text string) []byte { return openai.ChatMessageStream("chatcmpl-warden", "warden", text) },
		EndUser:       openaiEndUser,
		WithEndUser:   openai.WithEndUser,
		FollowUp:      openai.ChatFollowUp,
		JoinStreams:   func() StreamGuard { return new(openai.ChatClientStream) },
		Continue:      openai.ChatContinue,
	})
	Register(&Format{
		Name:           "openai-responses",
		KeepAlive:      sseComment,
		Usage:          usageOf(usage.Fields{Paths: [][]string{{"usage"}, {"response", "usage"}}, In: []string{"input_tokens"}, Out: []string{"output_tokens"}}),
		Title:          "OpenAI Responses",
		DecodeRequest:  func(b []byte) (Request, error) { return openai.DecodeResponsesRequest(b) },
		DecodeResponse: func(b []byte) (Response, error) { return openai.DecodeResponse(b) },
		GuardStream: func(in io.Reader, out io.Writer, flush func(), d Decide, gate warden.TextGate) error {
			return openai.GuardResponsesStream(in, out, flush, d, gate)
		},
		ErrorBody:   func(msg, code string) []byte { return openai.ErrorBody(msg, errorType, code) },
		StatusError: openaiStatusError,
		// A Responses stream reports errors as an error event.
		StreamError: func(msg, code string) []byte {
			if upstreamFault(code) {
				code = "server_error" // a server error, which clients may retry; Warden's code is in X-Warden-Reason
			}
			b, _ := json.Marshal(map[string]any{"type": "error", "code": code, "message": msg, "param": nil})
			return sse.Named("error", string(b)).Encode()
		},
		MessageBody:    func(text string) []byte { return openai.ResponseMessageBody("warden-safety", "warden", text) },
		MessageStream:  func(text string) []byte { return openai.ResponsesMessageStream("resp_warden", "warden", text) },
		PreviousID:     openai.PreviousResponseID,
		WithPreviousID: openai.WithPreviousResponseID,
		EndUser:        openaiEndUser,
		WithEndUser:    openai.WithEndUser,
		FollowUp:       openai.ResponsesFollowUp,
		JoinStreams:    func() StreamGuard { return new(openai.ResponsesClientStream) },
		Continue:       openai.ResponsesContinue,
	})
	Register(&Format{
		Name:          "anthropic",
		KeepAlive:     sseComment,
		Usage:         usageOf(usage.Fields{Paths: [][]string{{"usage"}, {"message", "usage"}}, In: []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}, Out: []string{"output_tokens"}}),
		Title:         "Anthropic Messages",
		DecodeRequest: func(b []byte) (Request, error) { return anthropic.DecodeRequest(b) },
		DecodeResponse: func(b []byte) (Response, error) {
			m, err := anthropic.DecodeMessage(b)
			if err != nil {
				return nil, err
			}
			return anthropicResponse{m}, nil
		},
		GuardStream: func(in io.Reader, out io.Writer, flush func(), d Decide, gate warden.TextGate) error {
			return anthropic.GuardStream(in, out, flush, d, gate)
		},
		ErrorBody: func(msg, _ string) []byte { return anthropic.ErrorBody(msg, "permission_error") },
		StatusError: func(status int, msg, _ string) []byte {
			typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
				404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error", 504: "timeout_error"}[status]
			if typ == "" {
				typ = "api_error"
			}
			return anthropic.ErrorBody(msg, typ)
		},
		StreamError: func(msg, code string) []byte {
			typ := "permission_error"
			if upstreamFault(code) {
				typ = "api_error" // a server error, which clients may retry, not a key problem
			}
			return sse.Named("error", string(anthropic.ErrorBody(msg, typ))).Encode()
		},
		MessageBody:   func(text string) []byte { return anthropic.MessageBody("warden-safety", "warden", text, "refusal") },
		MessageStream: func(text string) []byte { return anthropic.MessageStream("msg_warden", "warden", text) },
		EndUser:       anthropic.EndUser,
		WithEndUser:   anthropic.WithEndUser,
		FollowUp:      anthropic.FollowUp,
		JoinStreams:   func() StreamGuard { return new(anthropic.ClientStream) },
		Continue:      anthropic.Continue,
	})
	Register(&Format{
		Name:           "gemini",
		Usage:          usageOf(usage.Fields{Paths: [][]string{{"usageMetadata"}}, In: []string{"promptTokenCount"}, Out: []string{"candidatesTokenCount", "thoughtsTokenCount"}}),
		Title:          "Gemini generateContent",
		DecodeRequest:  func(b []byte) (Request, error) { return gemini.DecodeRequest(b) },
		DecodeResponse: func(b []byte) (Response, error) { return gemini.DecodeResponse(b) },
		GuardStream: func(in io.Reader, out io.Writer, flush func(), d Decide, gate warden.TextGate) error {
			return gemini.GuardStream(in, out, flush, d, gate)
		},
		ErrorBody:   func(msg, _ string) []byte { return gemini.ErrorBody(msg) },
		StatusError: func(status int, msg, _ string) []byte { return gemini.StatusErrorBody(status, msg) },
		// \r\n as Gemini writes: a client that splits on either blank line reads it apart from the events before.
		StreamError: func(msg, code string) []byte {
			body := gemini.ErrorBody(msg)
			if upstreamFault(code) {
				status := http.StatusBadGateway
				if code == CodeUpstreamTimeout {
					status = http.StatusGatewayTimeout
				}
				body = gemini.StatusErrorBody(status, msg) // a server error, which clients may retry
			}
			return sse.Data(string(body)).EncodeLines("\r\n")
		},
		MessageBody:   func(text string) []byte { return gemini.MessageBody("warden", text, "SAFETY") },
		MessageStream: func(text string) []byte { return gemini.MessageStream("warden", text) },
		FollowUp:      gemini.FollowUp,
		JoinStreams:   func() StreamGuard { return new(gemini.ClientStream) },
		Continue:      gemini.Continue,
	})
	Register(&Format{
		Name:           "bedrock",
		EventStream:    true,
		Usage:          usageOf(usage.Fields{Paths: [][]string{{"usage"}}, In: []string{"inputTokens", "cacheReadInputTokens", "cacheWriteInputTokens"}, Out: []string{"outputTokens"}}),
		Title:          "Amazon Bedrock Converse",
		DecodeRequest:  func(b []byte) (Request, error) { return bedrock.DecodeRequest(b) },
		DecodeResponse: func(b []byte) (Response, error) { return bedrock.DecodeResponse(b) },
		GuardStream: func(in io.Reader, out io.Writer, flush func(), d Decide, gate warden.TextGate) error {
			return bedrock.GuardStream(in, out, flush, d, gate)
		},
		// Bedrock names the error in the x-amzn-ErrorType header (bedrock.ErrorType); the body holds the message.
		ErrorBody:   func(msg, _ string) []byte { return bedrock.ErrorBody(msg) },
		StatusError: func(_ int, msg, _ string) []byte { return bedrock.ErrorBody(msg) },
		StreamError: func(msg, _ string) []byte { return bedrock.StreamException(msg) },
		MessageBody: func(text string) []byte { return bedrock.MessageBody(text, "content_filtered") },
	})
}

// openaiStatusError is OpenAI's error shape with the type OpenAI uses for the status class.
func openaiStatusError(status int, msg, code string) []byte {
	typ := "invalid_request_error"
	switch {
	case status == 403:
		typ = errorType
	case status >= 500:
		typ = "server_error"
	}
	return openai.ErrorBody(msg, typ, code)
}

// anthropicResponse adapts an Anthropic message, which is one response, to Response.
type anthropicResponse struct{ *anthropic.Message }

func (r anthropicResponse) Len() int                           { return 1 }
func (r anthropicResponse) Response(int) warden.Response       { return r.Message.Response() }
func (r anthropicResponse) Set(_ int, x warden.Response) error { return r.Message.Set(x) }

// usageOf reads usage where f says a format reports it.
func usageOf(f usage.Fields) func([]byte) (warden.Usage, bool) {
	return func(data []byte) (warden.Usage, bool) { return usage.Read(data, f) }
}

// sseComment is a server-sent events comment: "Any line that starts with a colon is ignored."
var sseComment = []byte(": waiting for a person's approval\n\n")
