package gemini

import "github.com/agentwarden/warden/internal/jsonobj"

// envelope is what the envelope check (jsonobj.Format.Envelope) knows of the generateContent format: the
// member names its codec reads, which no member may spell in another case, and the members that hold the
// model's or the user's own keys, a function call's args and a function response's response, which it
// leaves to the tool-call and tool-result stages. TestEnvelopeDefinesEveryNameTheCodecReads holds the
// list to the code.
var envelope = jsonobj.NewFormat(envelopeNames, responseOpaque)

// envelopeNames are the member names the codec reads.
var envelopeNames = []string{
	"candidates", "content", "contents", "parts", "role", "text", "thought", "thoughtSignature", "functionCall",
	"function_call", "functionResponse", "function_response", "name", "id", "args", "response", "finishReason",
	"promptFeedback", "blockReason", "index", "tools", "error", "code", "message", "status", "inlineData",
	"inline_data", "fileData", "file_data",
}

// responseOpaque are the response members whose values the check does not look into (above).
var responseOpaque = []string{"args", "response"}

// requestEnvelope is envelope for requests: function calls' args and responses in the conversation,
// and the JSON schemas of function declarations and of structured output, hold the user's own keys.
var requestEnvelope = jsonobj.NewFormat(envelopeNames, []string{"args", "response", "parameters", "parametersJsonSchema", "responseSchema", "responseJsonSchema"})
