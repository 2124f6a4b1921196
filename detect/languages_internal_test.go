package detect

import (
	"bufio"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The language files add what other languages say; they must not change how English reads. Every text of
// the golden set (written in English) is read by each corpus as shipped and by the same corpus without
// its language file, and the two must find the same: a word a language file shares with English ("no",
// "sans", "falls", "lance") would otherwise negate, plan or allow in English texts too.
func TestLanguageFilesLeaveEnglishAlone(t *testing.T) {
	t.Parallel()
	var texts []string
	for _, text := range goldenTexts(t) {
		if !strings.Contains(text, "Te voy a destruir") { // a line the golden set quotes in Spanish
			texts = append(texts, text)
		}
	}
	// English words other languages spell alike, beside the golden set's texts.
	texts = append(texts, "Summarize why the DNS resolver times out.", "Download the installer and read its notes.",
		"Review the commander module.", "List the active users.", "Read the notes on Lance's plane ticket.",
		"I ran the tests; no failures, and the non-flaky ones pass.", "Check the sans-serif font falls back.")
	var inj, harm phraseCorpus
	loadCorpus("injection.yaml", &inj)
	injBase, injBasePairs := inj.injectionBase()
	loadCorpus("harm.yaml", &harm)
	var ref refusalCorpus
	loadCorpus("refusal.yaml", &ref)
	var dec deceptionCorpus
	loadCorpus("deception.yaml", &dec)
	var claims []group
	for _, k := range dec.Claims {
		claims = append(claims, group{Name: k.Name, Weight: 0.8, Phrases: k.Phrases})
	}
	decl, comply := refusalPhrases()
	m := deceptionPhrases()
	modifiers := func(h, p, n []string) *phrases {
		return compilePhrases([]group{{Name: "hedge", Weight: 0.3, Phrases: h}, {Name: "plan", Phrases: p}, {Name: "negation", Phrases: n}}, nil, nil)
	}
	for _, tc := range []struct {
		name          string
		shipped, base *phrases
	}{
		{"injection", injectionPhrases(), compilePhrases(injBase, injBasePairs, inj.Masks)},
		{"harm", harmPhrases(), compilePhrases(harm.Groups, harm.Pairs, harm.Masks)},
		{"refusal", decl, compilePhrases(ref.Groups, ref.Pairs, ref.Masks)},
		{"compliance", comply, compilePhrases(append(ref.Compliance, ref.Factual...), ref.CompliancePairs, ref.FactualMasks)},
		{"deception claims", m.claims, compilePhrases(claims, nil, nil)},
		{"deception modifiers", m.modifier, modifiers(dec.Hedges, dec.Plans, dec.Negations)},
	} {
		for _, text := range texts {
			if got, want := tc.shipped.find(text), tc.base.find(text); !slices.Equal(got, want) {
				t.Errorf("%s: %q reads %v with the language files, %v without", tc.name, text, got, want)
			}
		}
	}
	a := Actions()
	for _, text := range texts {
		if got, want := a.Allowed(text), a.allowedBy(text, false); !maps.Equal(got, want) {
			t.Errorf("task scope: %q allows %v with the language files, %v without", text, got, want)
		}
	}
}

// goldenTexts returns every message and event text of the golden set.
func goldenTexts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../testdata/golden/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("golden set: %v (%d files)", err, len(files))
	}
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			texts = append(texts, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				if k != "type" && k != "role" && k != "name" && k != "call_id" {
					walk(x)
				}
			}
		}
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(r)
		s.Buffer(nil, 1<<20)
		for s.Scan() {
			var v any
			if err := json.Unmarshal(s.Bytes(), &v); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			walk(v)
		}
		r.Close()
	}
	return texts
}
