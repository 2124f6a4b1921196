package openai

import "github.com/agentwarden/warden/internal/jsonobj"

// envelope is what the envelope check (jsonobj.Format.Envelope) knows of the Chat Completions and Responses
// formats: the member names their codecs read, which no member may spell in another case, and the
// members that hold the user's own keys, echoed from a request (metadata, prompt variables, the JSON
// schemas of tools and of structured output), which it does not look into. A function call's arguments
// are a string, which the tool-call stage judges. TestEnvelopeDefinesEveryNameTheCodecReads holds the
// list to the code.
var envelope = jsonobj.NewFormat(envelopeNames, responseOpaque)

// envelopeNames are the member names the codec reads.
var envelopeNames = []string{
	// Chat Completions
	"choices", "index", "message", "delta", "role", "content", "refusal", "reasoning_content", "tool_calls",
	"ToolCalls", "function_call", "function", "name", "arguments", "custom", "input", "finish_reason", "logprobs",
	"audio", "annotations", "tool_call_id", "messages", "tools", "user", "safety_identifier", "previous_response_id", "model", "stream",
	"object", "id", "type", "text",
	// Responses
	"output", "status", "incomplete_details", "reason", "call_id", "item", "item_id", "output_index",
	"content_index", "part", "response", "sequence_number", "encrypted_content", "instructions", "store",
	"server_label", "action", "operation",
}

// responseOpaque are the response members whose values the check does not look into (above).
var responseOpaque = []string{"metadata", "variables", "parameters", "schema", "input_schema"}

// requestEnvelope is envelope for requests: what holds the user's own keys there is tools' parameters,
// JSON schemas for structured output, metadata, prompt variables, MCP servers' headers and logit bias.
var requestEnvelope = jsonobj.NewFormat(envelopeNames, []string{"metadata", "variables", "parameters", "schema", "input_schema", "headers", "logit_bias"})
