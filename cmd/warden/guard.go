package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/safety"
	"github.com/agentwarden/warden/wire/anthropic"
	"github.com/agentwarden/warden/wire/bedrock"
	"github.com/agentwarden/warden/wire/gemini"
	"github.com/agentwarden/warden/wire/openai"
	"github.com/agentwarden/warden/wire/sse"
	"github.com/spf13/cobra"
)

// guardFormats are the wire formats warden guard reads so far.
var guardFormats = []string{"openai-chat", "openai-responses", "anthropic", "gemini", "bedrock"}

// responseBody is a decoded provider response whose choices can be read and rewritten in the turn model.
type responseBody interface {
	Len() int
	Response(i int) warden.Response
	Set(i int, r warden.Response) error
	Encode() ([]byte, error)
}

// anthropicBody adapts an Anthropic message (one response) to responseBody.
type anthropicBody struct{ *anthropic.Message }

func (b anthropicBody) Len() int                           { return 1 }
func (b anthropicBody) Response(int) warden.Response       { return b.Message.Response() }
func (b anthropicBody) Set(_ int, r warden.Response) error { return b.Message.Set(r) }

// decoders read each format's body, and errorBodies answer a halt in that format's error shape.
var (
	decoders = map[string]func([]byte) (responseBody, error){
		"openai-chat":      func(b []byte) (responseBody, error) { return openai.DecodeChatResponse(b) },
		"openai-responses": func(b []byte) (responseBody, error) { return openai.DecodeResponse(b) },
		"anthropic": func(b []byte) (responseBody, error) {
			m, err := anthropic.DecodeMessage(b)
			if err != nil {
				return nil, err
			}
			return anthropicBody{m}, nil
		},
		"gemini":  func(b []byte) (responseBody, error) { return gemini.DecodeResponse(b) },
		"bedrock": func(b []byte) (responseBody, error) { return bedrock.DecodeResponse(b) },
	}
	// messageBodies answer an API-layer safety error as an assistant message (api_errors: as_message).
	messageBodies = map[string]func(text string) []byte{
		"openai-chat":      func(text string) []byte { return openai.MessageBody("warden-safety", "warden", text, "content_filter") },
		"openai-responses": func(text string) []byte { return openai.ResponseMessageBody("warden-safety", "warden", text) },
		"anthropic":        func(text string) []byte { return anthropic.MessageBody("warden-safety", "warden", text, "refusal") },
		"gemini":           func(text string) []byte { return gemini.MessageBody("warden", text, "SAFETY") },
		"bedrock":          func(text string) []byte { return bedrock.MessageBody(text, "content_filtered") },
	}
	errorBodies = map[string]func(msg, code string) []byte{
		"openai-chat":      func(msg, code string) []byte { return openai.ErrorBody(msg, "warden_guardrail", code) },
		"openai-responses": func(msg, code string) []byte { return openai.ErrorBody(msg, "warden_guardrail", code) },
		"anthropic":        func(msg, _ string) []byte { return anthropic.ErrorBody(msg, "permission_error") },
		"gemini":           func(msg, _ string) []byte { return gemini.ErrorBody(msg) },
		// Bedrock names the error in the x-amzn-ErrorType header (bedrock.ErrorType); the body holds the message.
		"bedrock": func(msg, _ string) []byte { return bedrock.ErrorBody(msg) },
	}
)

func newGuardCommand(s streams) *cobra.Command {
	var format, configFile, decisions string
	var status int
	var stream bool
	cmd := &cobra.Command{
		Use:   "guard --format FORMAT [FILE|-]",
		Short: "Run the response pipeline on a recorded provider response",
		Long: `Guard reads a recorded provider response body and runs what the gateway runs on it: the response
guardrails (safety-stop handling in the default config), then tool-call authorization of every tool call
left, and writes to stdout exactly what the gateway would send the client. A denied tool call is removed and
its deny message added to the assistant's text, so the model can choose another way. The evaluation records
go to --decisions as JSON lines (audit events: no arguments, no content).

Formats: openai-chat (OpenAI Chat Completions, also Azure, DeepSeek, GLM, Kimi and compatible endpoints),
openai-responses (OpenAI Responses API; function, custom and built-in client tool calls), anthropic (Anthropic Messages), gemini (Gemini generateContent, Google AI and Vertex AI; a blocked prompt
is treated as a blank safety stop), bedrock (Amazon Bedrock Converse, JSON). With --stream the input is a recorded stream (SSE; for bedrock, ConverseStream's AWS event-stream frames): text deltas pass at once, tool-call deltas are held until the finish (stop) reason and released only for
calls that pass; a safety stop releases none and adds the explanation as a final text delta (an Anthropic text
block).

With --status, the input is an upstream error body with that HTTP status: an API-layer safety error (Azure or
Kimi content_filter, GLM 1301, DashScope DataInspectionFailed, Ark risk detection) is recorded and passed on
unchanged, or, when the safety guardrail says api_errors: as_message, answered as an assistant message.

Exit codes: 0 when a response was written (changed or not), 3 when a guardrail halted the run (stdout then
holds the provider's error body), 1 on an error.`,
		Example: `  warden guard --format openai-chat response.json
  warden guard --format openai-chat --decisions decisions.jsonl < response.json
  warden guard --format openai-chat --status 400 azure-filter-error.json
  warden guard --format openai-chat --stream recorded.sse
  warden guard --format anthropic --stream recorded.sse
  warden guard --format gemini generate-content.json`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if decoders[format] == nil {
				return usageError{fmt.Errorf("--format: %q is not supported (supported: %s)", format, strings.Join(guardFormats, ", "))}
			}
			opts := config.Options{Stderr: s.err, Stdout: s.err, Recorder: warden.RecorderFunc(func(context.Context, *warden.Record) {})}
			if decisions != "" {
				f, err := os.OpenFile(decisions, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
				if err != nil {
					return err
				}
				defer f.Close()
				opts.Recorder = audit.NewRecorder(audit.NewJSONL(f))
			}
			l, err := config.Load(cmd.Context(), configFile, opts)
			if err != nil {
				return err
			}
			defer l.Close()
			name, body, err := readInput(s, argOrStdin(args))
			if err != nil {
				return err
			}
			if stream {
				return guardStream(cmd.Context(), l.Engine, format, body, s)
			}
			var out []byte
			var halted bool
			if status != 0 && status/100 != 2 {
				out, halted, err = guardError(cmd.Context(), l.Engine, format, status, body)
			} else {
				out, halted, err = guardBody(cmd.Context(), l.Engine, format, body)
			}
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			if _, err := s.out.Write(append(out, '\n')); err != nil {
				return err
			}
			if halted {
				return exitCodeError{code: exitDenied}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "", "wire format of the input: "+strings.Join(guardFormats, ", ")+" (required)")
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "config `file` (default: the embedded default)")
	cmd.Flags().StringVar(&decisions, "decisions", "", "write the evaluation records to this `file` as JSON lines")
	cmd.Flags().IntVar(&status, "status", 0, "treat the input as an upstream error body with this HTTP `status`")
	cmd.Flags().BoolVar(&stream, "stream", false, "the input is a recorded SSE stream (openai-chat)")
	_ = cmd.MarkFlagRequired("format")
	return cmd
}

func argOrStdin(args []string) string {
	if len(args) == 0 {
		return "-"
	}
	return args[0]
}

// guardBody runs the response stage and tool-call authorization on every response of a body.
func guardBody(ctx context.Context, e *warden.Engine, format string, body []byte) ([]byte, bool, error) {
	r, err := decoders[format](body)
	if err != nil {
		return nil, false, err
	}
	for i := range r.Len() {
		resp, err := guardResponse(ctx, e, r.Response(i))
		var tw *warden.TripwireError
		if errors.As(err, &tw) {
			reason := tw.Decision.FirstReason()
			msg := fmt.Sprintf("Warden stopped this response: %s guardrail %q (%s): %s", tw.Stage, tw.Guardrail, reason.Code, reason.Message)
			return errorBodies[format](msg, reason.Code), true, nil
		}
		if err != nil {
			return nil, false, err
		}
		if err := r.Set(i, resp); err != nil {
			return nil, false, err
		}
	}
	out, err := r.Encode()
	return out, false, err
}

// guardStream runs the stream guard on a recorded SSE stream and writes what the client would receive. A halt
// ends the stream with an error event in OpenAI's encoding, as the gateway does.
// streamGuards copy a recorded stream of each format through its stream guard, and streamErrors end a stream
// with the error event that format's clients read.
var (
	streamGuards = map[string]func(in io.Reader, out io.Writer, decide func(warden.Response) (warden.Response, error)) error{
		"openai-chat": func(in io.Reader, out io.Writer, decide func(warden.Response) (warden.Response, error)) error {
			return openai.GuardChatStream(in, out, nil, decide)
		},
		"anthropic": func(in io.Reader, out io.Writer, decide func(warden.Response) (warden.Response, error)) error {
			return anthropic.GuardStream(in, out, nil, decide)
		},
		"gemini": func(in io.Reader, out io.Writer, decide func(warden.Response) (warden.Response, error)) error {
			return gemini.GuardStream(in, out, nil, decide)
		},
		"openai-responses": func(in io.Reader, out io.Writer, decide func(warden.Response) (warden.Response, error)) error {
			return openai.GuardResponsesStream(in, out, nil, decide)
		},
		"bedrock": func(in io.Reader, out io.Writer, decide func(warden.Response) (warden.Response, error)) error {
			return bedrock.GuardStream(in, out, nil, decide)
		},
	}
	streamErrors = map[string]func(msg, code string) []byte{
		"openai-chat": func(msg, code string) []byte { return sse.Data(string(errorBodies["openai-chat"](msg, code))).Encode() },
		"anthropic": func(msg, code string) []byte {
			return sse.Named("error", string(errorBodies["anthropic"](msg, code))).Encode()
		},
		"gemini":  func(msg, code string) []byte { return sse.Data(string(errorBodies["gemini"](msg, code))).Encode() },
		"bedrock": func(msg, _ string) []byte { return bedrock.StreamException(msg) },
		// A Responses stream reports errors as an error event.
		"openai-responses": func(msg, code string) []byte {
			b, _ := json.Marshal(map[string]any{"type": "error", "code": code, "message": msg, "param": nil})
			return sse.Named("error", string(b)).Encode()
		},
	}
)

func guardStream(ctx context.Context, e *warden.Engine, format string, body []byte, s streams) error {
	err := streamGuards[format](bytes.NewReader(body), s.out, func(r warden.Response) (warden.Response, error) {
		return guardResponse(ctx, e, r)
	})
	var tw *warden.TripwireError
	if errors.As(err, &tw) {
		reason := tw.Decision.FirstReason()
		msg := fmt.Sprintf("Warden stopped this response: %s guardrail %q (%s): %s", tw.Stage, tw.Guardrail, reason.Code, reason.Message)
		if _, werr := s.out.Write(streamErrors[format](msg, reason.Code)); werr != nil {
			return werr
		}
		return exitCodeError{code: exitDenied}
	}
	return err
}

// guardError runs the response stage on an upstream error: an API-layer safety error is recorded and passed
// on as it came, or, with the safety guardrail's api_errors: as_message, answered as an assistant message.
func guardError(ctx context.Context, e *warden.Engine, format string, status int, body []byte) ([]byte, bool, error) {
	out, err := e.CheckResponse(ctx, warden.ResponseCheck{Response: safety.ErrorResponse(status, body)})
	var tw *warden.TripwireError
	if errors.As(err, &tw) {
		reason := tw.Decision.FirstReason()
		return errorBodies[format](fmt.Sprintf("Warden stopped this response: %s (%s)", reason.Message, reason.Code), reason.Code), true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if out.Decision.Action == warden.ActionModify {
		return messageBodies[format](out.Value.Message.Text()), false, nil
	}
	return body, false, nil
}

// guardResponse is the pipeline on one response: the response stage, then every tool call left; a denied
// call is removed and its deny message added to the text.
func guardResponse(ctx context.Context, e *warden.Engine, resp warden.Response) (warden.Response, error) {
	out, err := e.CheckResponse(ctx, warden.ResponseCheck{Response: resp})
	if err != nil {
		return resp, err
	}
	resp = out.Value
	var kept []warden.ToolCall
	var denied []string
	for _, call := range resp.Message.ToolCalls {
		tc, err := e.CheckToolCall(ctx, warden.ToolCallCheck{Call: call})
		if err != nil {
			return resp, err
		}
		if tc.Allowed() {
			kept = append(kept, tc.Value)
		} else {
			denied = append(denied, tc.Message)
		}
	}
	if len(denied) == 0 && len(kept) == len(resp.Message.ToolCalls) {
		return resp, nil
	}
	resp.Message.ToolCalls = kept
	text := strings.Join(denied, "\n")
	if resp.Message.Text() != "" {
		text = "\n\n" + text
	}
	resp.Message.Content = append(append([]warden.ContentPart(nil), resp.Message.Content...), warden.ContentPart{Kind: warden.ContentText, Text: text})
	return resp, nil
}
