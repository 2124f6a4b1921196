package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/pipeline"
	"github.com/agentwarden/warden/stream"
	"github.com/spf13/cobra"
)

func newGuardCommand(s streams) *cobra.Command {
	var format, configFile, decisions, user string
	var status int
	var streamed, request bool
	cmd := &cobra.Command{
		Use:   "guard --format FORMAT [FILE|-]",
		Short: "Run the gateway's pipeline on a recorded provider request, response or stream",
		Long: `Guard reads a recorded provider response body and runs what the gateway runs on it: the response
guardrails (safety-stop handling in the default config), then tool-call authorization of every tool call
left, and writes to stdout exactly what the gateway would send the client. A denied tool call is removed and
its deny message added to the assistant's text, so the model can choose another way. The evaluation records
go to --decisions as JSON lines (audit events: no arguments, no content).

Formats: openai-chat (OpenAI Chat Completions, also Azure, DeepSeek, GLM, Kimi and compatible endpoints),
openai-responses (OpenAI Responses API; function, custom and built-in client tool calls), anthropic
(Anthropic Messages), gemini (Gemini generateContent, Google AI and Vertex AI; a blocked prompt is treated as
a blank safety stop), bedrock (Amazon Bedrock Converse, JSON).

With --stream the input is a recorded stream (SSE; for bedrock, ConverseStream's AWS event-stream frames):
text deltas go through the stream guardrails (redact, blocked_terms, regex, judge, …) and pass as soon as
they have let them go — at once when none are configured; tool-call deltas are held until the finish (stop)
reason and released only for calls that pass; a safety stop releases none and adds the explanation as a
final text delta (an Anthropic text block). A stream guardrail that halts, or asks the model to correct
itself (which a recorded stream cannot do), ends the stream with the provider's error event.

With --status, the input is an upstream error body with that HTTP status: an API-layer safety error (Azure
or Kimi content_filter, GLM 1301, DashScope DataInspectionFailed, Ark risk detection) is recorded and passed
on unchanged, or, when the safety guardrail says api_errors: as_message, answered as an assistant message.

With --request, the input is a request body a client sent: the end-user ledger is consulted (the body's own
end-user field, else --user, which stands for the ledger's user_header), the input guardrails run on the new
user messages (those after the last assistant message) and the tool-result guardrails on the tool results
that answer the last assistant turn; stdout gets the body the gateway would send upstream, with rewritten
text and, with inject_end_user, the end-user id filled in.

Exit codes: 0 when a body was written for the client (or upstream), changed or not; 3 when Warden refused
(a guardrail halted, or the end user is blocked: stdout then holds the provider's error body); 1 on an
error.`,
		Example: `  warden guard --format openai-chat response.json
  warden guard --format openai-chat --decisions decisions.jsonl < response.json
  warden guard --format openai-chat --status 400 azure-filter-error.json
  warden guard --format openai-chat --stream recorded.sse
  warden guard --format anthropic --request --user u-42 request.json
  warden guard --format gemini generate-content.json`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := pipeline.Lookup(format)
			if err != nil {
				return usageError{fmt.Errorf("--format: %v", err)}
			}
			if request && (streamed || status != 0) {
				return usageError{errors.New("--request reads a request body; it does not go with --stream or --status")}
			}
			opts := config.Options{Stderr: s.err, Stdout: s.err, Recorder: warden.RecorderFunc(func(context.Context, *warden.Record) {}), Approvals: dryApprovals{}}
			if decisions != "" {
				file, err := os.OpenFile(decisions, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
				if err != nil {
					return err
				}
				defer file.Close()
				opts.Recorder = audit.NewRecorder(audit.NewJSONL(file))
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
			p := pipeline.New(l, nil)
			ctx, run := cmd.Context(), warden.RunInfo{UserID: user}
			var out []byte
			switch {
			case streamed:
				err = p.Stream(ctx, f, bytes.NewReader(body), s.out, nil, stream.Info{Run: run})
			case request:
				var prep pipeline.Prepared
				prep, err = p.Request(ctx, f, body, run)
				out = prep.Body
			default:
				out, err = p.Response(ctx, f, status, body, run)
			}
			return guardAnswer(s, name, out, err, streamed)
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "", "wire format of the input: "+strings.Join(pipeline.Names(), ", ")+" (required)")
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "config `file` (default: the embedded default)")
	cmd.Flags().StringVar(&decisions, "decisions", "", "write the evaluation records to this `file` as JSON lines")
	cmd.Flags().IntVar(&status, "status", 0, "treat the input as an upstream error body with this HTTP `status`")
	cmd.Flags().BoolVar(&streamed, "stream", false, "the input is a recorded response stream")
	cmd.Flags().BoolVar(&request, "request", false, "the input is a request body a client sent")
	cmd.Flags().StringVar(&user, "user", "", "the end `user` when the body names none, as the ledger's user_header would")
	_ = cmd.MarkFlagRequired("format")
	return cmd
}

// guardAnswer writes what the gateway would send and maps the outcome to an exit code: a refusal Warden
// answers in the provider's shape exits 3; a body it cannot read is an error naming the input.
func guardAnswer(s streams, name string, out []byte, err error, streamed bool) error {
	var r *pipeline.Refusal
	switch {
	case errors.As(err, &r) && (r.Status == http.StatusBadRequest || r.Status == http.StatusBadGateway) && r.Cause != nil:
		return fmt.Errorf("%s: %v", name, r.Cause)
	case errors.As(err, &r):
		if !streamed { // a stream's refusal was written as its final event
			if _, werr := s.out.Write(append(r.Body, '\n')); werr != nil {
				return werr
			}
		}
		return exitCodeError{code: exitDenied}
	case err != nil:
		return fmt.Errorf("%s: %v", name, err)
	case out != nil:
		_, err = s.out.Write(append(out, '\n'))
	}
	return err
}

func argOrStdin(args []string) string {
	if len(args) == 0 {
		return "-"
	}
	return args[0]
}
