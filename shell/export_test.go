package shell

// AnalyzeWithParser and SplitPlain let the external tests hold the plain-line reading to the parser's.
var (
	AnalyzeWithParser = analyzeWithParser
	SplitPlain        = splitPlain
)
