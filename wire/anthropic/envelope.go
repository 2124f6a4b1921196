package anthropic

import "github.com/agentwarden/warden/internal/jsonobj"

// envelope is what the envelope check (jsonobj.Format.Envelope) knows of the Messages format: the member
// names its codec reads, which no member may spell in another case, and the members that hold the
// model's own keys, a tool use's input (server and MCP tool uses alike), which it leaves to the tool-call
// stage. TestEnvelopeDefinesEveryNameTheCodecReads holds the list to the code.
var envelope = jsonobj.NewFormat(envelopeNames, responseOpaque)

// envelopeNames are the member names the codec reads.
var envelopeNames = []string{
	"type", "id", "role", "model", "content", "text", "thinking", "signature", "name", "input", "tool_use_id",
	"is_error", "stop_reason", "stop_sequence", "content_block", "delta", "partial_json", "index", "message",
	"messages", "system", "tools", "stream", "metadata", "user_id",
}

// responseOpaque are the response members whose values the check does not look into (above).
var responseOpaque = []string{"input"}

// requestEnvelope is envelope for requests: tool uses' inputs in the conversation and tools' input
// schemas hold the user's own keys.
var requestEnvelope = jsonobj.NewFormat(envelopeNames, []string{"input", "input_schema"})
