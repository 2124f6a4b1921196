package shell

import (
	"encoding/json"

	"go.yaml.in/yaml/v3"
)

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
func LoadPrograms() error {
	t, err := loadPrograms(programsYAML, figJSON)
	if err != nil {
		return err
	}
	return t.decodeAllFig()
}

func LoadCodeLangs() error { _, err := loadCodeLangs(codeYAML); return err }

// TableSizes returns how many programs the reviewed table and Fig's grammars list, and how many the loaded
// table holds.
func TableSizes() (reviewed, fig, loaded int) {
	var r struct {
		Programs map[string]any `yaml:"programs"`
	}
	if err := yaml.Unmarshal(programsYAML, &r); err != nil {
		panic(err)
	}
	var f struct{ Programs map[string]any }
	if err := json.Unmarshal(figJSON, &f); err != nil {
		panic(err)
	}
	t := programs()
	loaded = len(t.byName)
	for name := range t.figAt {
		if _, reviewed := t.byName[name]; !reviewed && t.figProgram(name) != nil && t.lookup(name) == t.figProgram(name) {
			loaded++
		}
	}
	return len(r.Programs), len(f.Programs), loaded
}

// LoadTablesAtStart is what Prepare does: the reviewed table loaded and compiled, Fig's entries located.
func LoadTablesAtStart() error {
	_, err := loadPrograms(programsYAML, figJSON)
	if err == nil {
		_, err = loadCodeLangs(codeYAML)
	}
	return err
}

// AnalyzeBash is Analyze's bash reading alone, plain or parsed, without the Windows readings a line that
// looks like PowerShell's or cmd's also gets: what the plain reading is held to.
func AnalyzeBash(src string) *Analysis {
	l := Limits{}.withDefaults()
	if cmds, ok := splitPlain(src); ok {
		return analyzePlain(cmds, l)
	}
	return analyzeWithParser(src, l)
}
