package shell

// AnalyzeWithParser and SplitPlain let the external tests hold the plain-line reading to the parser's.
func AnalyzeWithParser(src string) *Analysis { return analyzeWithParser(src, Limits{}.withDefaults()) }

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

// StepsOf returns how many steps of the budget a line's analysis takes.
func StepsOf(src string) int {
	l := Limits{}.withDefaults()
	z := newAnalyzer(l)
	if cmds, ok := splitPlain(src); ok {
		z = analyzePlainWith(z, cmds)
	} else {
		z.parse(src, nil, 0)
	}
	return l.MaxSteps - z.budget.left
}

// LoadPrograms and LoadCodeLangs load the embedded tables, for the test that walks them.
func LoadPrograms() error { _, err := loadPrograms(programsYAML); return err }

func LoadCodeLangs() error { _, err := loadCodeLangs(codeYAML); return err }
