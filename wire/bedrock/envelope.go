package bedrock

import "github.com/agentwarden/warden/internal/jsonobj"

// envelope is what the envelope check (jsonobj.Format.Envelope) knows of the Converse format: the member
// names its codec reads, which no member may spell in another case, and the members that hold the
// model's or the model provider's own keys, a tool use's input (judged by the tool-call stage) and the
// fields a model returns beyond Converse's own, which it does not look into.
// TestEnvelopeDefinesEveryNameTheCodecReads holds the list to the code.
var envelope = jsonobj.NewFormat([]string{
	"output", "message", "role", "content", "text", "toolUse", "toolUseId", "name", "input", "toolResult",
	"status", "stopReason", "reasoningContent", "reasoningText", "contentBlockIndex", "delta", "start",
	"messages", "system", "toolConfig",
}, []string{"input", "additionalModelResponseFields"})
