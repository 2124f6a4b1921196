package detect

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The corpora compile, every script's automaton included, within a memory budget: a template that
// expanded to a cross product of its choices once took the injection automaton alone to 4 GB and 20 s
// at load, and full rows for every state took all of them to 451 MiB (41 MiB with rows for the shallow
// states only). maxTemplatePhrases stops one template; this stops many growing together, or a table
// that grows with them. The budget is a guard, not a target: each category of harm read costs about
// 0.2 KB a phrase, and it was raised from 72 to 80 MiB when the families of ten more usage-policy
// categories and of claimed consent took the automata to 72 MiB.
func TestCompiledCorporaFitTheirBudget(t *testing.T) {
	t.Parallel()
	const budget = 80 << 20
	decline, comply := refusalPhrases()
	sets := []struct {
		name string
		p    *phrases
	}{
		{"refusal", decline}, {"compliance", comply}, {"harm", harmPhrases()},
		{"harmless framing", harmlessFramingPhrases()}, {"injection", injectionPhrases()},
		{"deception claims", deceptionPhrases().claims}, {"impersonation", impersonationPhrases().assert},
	}
	total := 0
	var parts []string
	for _, s := range sets {
		size := s.p.m.Size()
		for _, sm := range s.p.scripts {
			size += sm.m().Size()
		}
		total += size
		parts = append(parts, s.name+" "+mib(size))
	}
	t.Logf("compiled corpora take %s (%d bytes): %s", mib(total), total, strings.Join(parts, ", "))
	if total > budget {
		t.Errorf("compiled corpora take %s (budget %s): %s", mib(total), mib(budget), strings.Join(parts, ", "))
	}
}

func TestExpandTemplateRefusesACrossProductTooLarge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		template string
		panics   bool
	}{
		{"a template of a few choices expands", "{a|b} {c|d} {e|f}", false},
		{"a template at the bound expands", "{" + choices(60) + "} {" + choices(100) + "}", false},
		{"a template one over the bound panics", "{" + choices(60) + "} {" + choices(100) + "|z}", true},
		{"a template of a million phrases panics", strings.Repeat("{"+choices(10)+"} ", 6), true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			defer func() {
				if r := recover(); (r != nil) != tt.panics {
					t.Errorf("expandTemplate panicked: %v, want panic %v", r, tt.panics)
				}
			}()
			expandTemplate(tt.template)
		})
	}
}

func choices(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = "w" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	return strings.Join(w, "|")
}

func mib(n int) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

// BenchmarkCompileInjection is what loading the largest corpus costs (injection.yaml with its languages,
// their ASCII automaton and every script's): the wait before a process's first scan, or the injection
// guardrail's provisioning.
func BenchmarkCompileInjection(b *testing.B) {
	var c phraseCorpus
	loadCorpus("injection.yaml", &c)
	base, basePairs := c.injectionBase()
	l := loadLanguages("injection_languages.yaml")
	groups, pairs := withLanguages(l, base, basePairs, func(e languageEntry) ([]group, []pair) { return e.Groups, e.Pairs })
	masks := l.masks(c.Masks)
	b.ReportAllocs()
	for b.Loop() {
		p := compilePhrases(groups, pairs, masks)
		for _, sm := range p.scripts {
			sm.m()
		}
	}
}

func TestWithChoicesPutsNamedChoicesInPlace(t *testing.T) {
	t.Parallel()
	const head = "choices:\n  verb: [help, assist]\n  modal: [\"can't\", won't]\n"
	tests := []struct {
		desc, text, want, err string
	}{
		{"a file without choices is left as it is", "phrases:\n  - \"i {can't|won't} help\"\n", "phrases:\n  - \"i {can't|won't} help\"\n", ""},
		{"a named choice becomes its words as a choice", head + "p: \"i {$modal} {$verb}\"\n", head + "p: \"i {can't|won't} {help|assist}\"\n", ""},
		{"a named choice nests inside a choice", head + "p: \"{do|{$verb}}\"\n", head + "p: \"{do|{help|assist}}\"\n", ""},
		{"a comment line keeps its text", head + "# {$name} stands for a choice\np: \"{$verb}\"\n", head + "# {$name} stands for a choice\np: \"{help|assist}\"\n", ""},
		{"an unknown name is an error that lists the known ones", head + "p: \"{$verbs}\"\n", "", `line 4: unknown choice "verbs" (choices: modal, verb)`},
		{"an unclosed name is an error", head + "p: i {$verb\n", "", "line 4: unclosed choice"},
		{"a choice's word may name another choice", "choices:\n  adj: [black, deaf]\n  groups: [women, \"{$adj} {people|tenants}\"]\np: \"{$groups}\"\n",
			"choices:\n  adj: [black, deaf]\n  groups: [women, \"{black|deaf} {people|tenants}\"]\np: \"{women|{black|deaf} {people|tenants}}\"\n", ""},
		{"a choice named two levels down is an error", "choices:\n  a: [x]\n  b: [\"{$a}\"]\n  c: [\"{$b}\"]\np: \"{$c}\"\n", "", "one level of naming only"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, err := withChoices(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("withChoices = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCompoundsSpellEveryJoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc string
		in   []string
		want []string
	}{
		{"a phrase without a plus is kept", []string{"make a bomb"}, []string{"make a bomb"}},
		{"a compound is written apart, hyphenated, closed and with an underscore", []string{"a pipe+bomb"},
			[]string{"a pipe bomb", "a pipe-bomb", "a pipebomb", "a pipe_bomb"}},
		{"two compounds give every pairing", []string{"x+y z+w"},
			[]string{"x y z w", "x y z-w", "x y zw", "x y z_w", "x-y z w", "x-y z-w", "x-y zw", "x-y z_w",
				"xy z w", "xy z-w", "xy zw", "xy z_w", "x_y z w", "x_y z-w", "x_y zw", "x_y z_w"}},
	} {
		if got := compounds(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%s: compounds(%q) = %q, want %q", tc.desc, tc.in, got, tc.want)
		}
	}
}

// A pair that is a long phrase written as its halves (pair.Phrase) reports its hits as its group's, so
// it weighs as the group's phrases do; a pair of its own is a group of its own.
func TestPhrasePairHitsAreItsGroups(t *testing.T) {
	t.Parallel()
	groups := []group{{Name: "decline", Weight: 0.9, Phrases: []string{"i refuse"}}}
	tests := []struct {
		desc   string
		phrase bool
		want   []int
	}{
		{"counts a phrase pair's hit as its group's", true, []int{0, 0}},
		{"counts a pair of its own as a group of its own", false, []int{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			p := compilePhrases(groups, []pair{{Name: "decline", Weight: 0.9, Window: 1, Phrase: tc.phrase, First: []string{"i won't"}, Second: []string{"{help|assist}"}}}, nil)
			var got []int
			for _, h := range p.find("I refuse. I won't help.") {
				got = append(got, h.group)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("groups of the hits = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPhrasePairWithoutItsGroupPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("a phrase pair whose group the corpus lacks compiled")
		}
	}()
	compilePhrases(nil, []pair{{Name: "decline", Weight: 0.9, Window: 1, Phrase: true, First: []string{"i won't"}, Second: []string{"help"}}}, nil)
}

// A harmless framing that names the harms it lowers names harm groups that exist: a misspelled name
// would lower nothing, silently.
func TestHarmlessFramingLowersHarmGroups(t *testing.T) {
	t.Parallel()
	c := harmCorpus()
	names := map[string]bool{}
	for _, g := range c.Groups {
		names[g.Name] = true
	}
	for _, p := range c.Pairs {
		names[p.Name] = true
	}
	lowers := map[string][]string{}
	for _, f := range c.HarmlessFraming {
		lowers[f.Name] = append(lowers[f.Name], f.Lowers...)
	}
	for _, f := range c.HarmlessFramingPairs {
		lowers[f.Name] = append(lowers[f.Name], f.Lowers...)
	}
	for name, ls := range lowers {
		for _, l := range ls {
			if !names[l] {
				t.Errorf("harmless framing %q lowers %q, which is no harm group", name, l)
			}
		}
	}
}
