package shell

// AnalyzeWithParser and SplitPlain let the external tests hold the plain-line reading to the parser's.
var AnalyzeWithParser = analyzeWithParser

// SplitPlain returns the word values of each command of a plain line, a command that pipes into the next
// followed by "|"; false when the line needs the parser.
func SplitPlain(src string) ([][]string, bool) {
	cmds, ok := splitPlain(src)
	if !ok {
		return nil, false
	}
	var out [][]string
	for _, c := range cmds {
		var words []string
		for _, w := range c.words {
			words = append(words, w.Value)
		}
		if c.pipes {
			words = append(words, "|")
		}
		out = append(out, words)
	}
	return out, true
}
