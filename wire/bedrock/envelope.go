package bedrock

import "github.com/agentwarden/warden/internal/jsonobj"

// envelope is what the envelope check (jsonobj.Format.Envelope) knows of the Converse format: the member
// names its codec reads, which no member may spell in another case, and the members that hold the
// model's or the model provider's own keys, a tool use's input (judged by the tool-call stage) and the
// fields a model returns beyond Converse's own, which it does not look into.
// TestEnvelopeDefinesEveryNameTheCodecReads holds the list to the code.
var envelope = jsonobj.NewFormat(envelopeNames, responseOpaque)

// envelopeNames are the member names the codec reads.
var envelopeNames = []string{
	"output", "message", "role", "content", "text", "toolUse", "toolUseId", "name", "input", "toolResult",
	"status", "stopReason", "reasoningContent", "reasoningText", "contentBlockIndex", "delta", "start",
	"messages", "system", "toolConfig",
}

// responseOpaque are the response members whose values the check does not look into (above).
var responseOpaque = []string{"input", "additionalModelResponseFields"}

// requestEnvelope is envelope for requests: tool uses' inputs, tools' JSON schemas and the fields a
// request passes to the model beyond Converse's own hold the user's own keys.
var requestEnvelope = jsonobj.NewFormat(envelopeNames, []string{"input", "json", "additionalModelRequestFields", "requestMetadata", "promptVariables"})
