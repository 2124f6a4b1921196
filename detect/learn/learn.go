// Package learn is the detectors' learned layer: a small linear model per detector over hashed words and
// word pairs of a trace's request, reply and tool traffic, beside the rule detector's own score.
//
// Texts never enter a model: features are hashed into a fixed number of buckets, so the weights a model
// ships hold no phrase of the data it was trained on. Training is logistic regression with L2
// regularisation by AdaGrad in a fixed number of passes over a seeded shuffle: the same data and seed give
// the same weights, bit for bit.
package learn

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/trace"
)

// Bits is the log2 of the number of feature buckets.
const Bits = 16

const buckets = 1 << Bits

// Feature is one coordinate of a sparse feature vector.
type Feature struct {
	Index uint32
	Value float32
}

// Text is one text of a trace the features are read from: its field, the prefix that keeps its features
// apart from another field's ("i" the request, "o" the reply, "t" tool calls and results), and where it
// stands, as detect.Evidence places it ("messages[0]", "events[3].arguments"; empty when no evidence can
// point into it). Word pairs do not cross from one text to the next.
type Text struct {
	Field string
	Where string
	Text  string
}

// maxText bounds how much of one field is read: features of the first 16 KiB say what a text is about.
const maxText = 16 << 10

// Extract turns texts and named signals (a rule detector's score, say) into a sparse feature vector:
// lowercased word unigrams and bigrams, per field, counted and scaled to unit length; signals are added as
// they are, under their names. The result is sorted by index, with each index once.
func Extract(texts []Text, signals map[string]float64) []Feature {
	fs, _ := extract(texts, signals, nil)
	return fs
}

// extract is Extract that also, when m is not nil, returns each word (of a text that has a place) whose
// features push m's score up, with how much: a learned layer's finding and its explanation in one pass.
func extract(texts []Text, signals map[string]float64, m *Model) ([]Feature, []Contribution) {
	counts := make(map[uint32]float64, 128) // room for a short trace's features: growing cost a third of a layer's time
	var contributions []Contribution
	for _, t := range texts {
		eachWord(t.Field, t.Text, func(sp [2]int, feats []Feature) {
			var sum float64
			for _, f := range feats {
				counts[f.Index] += float64(f.Value)
				if m != nil {
					sum += float64(m.Weights[f.Index]) * float64(f.Value)
				}
			}
			if sum > 0 && t.Where != "" {
				contributions = append(contributions, Contribution{Where: t.Where, Start: sp[0], End: sp[1], Weight: sum})
			}
		})
	}
	var norm float64
	for k, v := range counts {
		v = 1 + math.Log(v) // damp repeats: a word said ten times is not ten times the evidence
		counts[k] = v
		norm += v * v
	}
	norm = math.Sqrt(norm)
	out := make([]Feature, 0, len(counts)+len(signals))
	for k, v := range counts {
		out = append(out, Feature{Index: k, Value: float32(v / norm)})
	}
	for name, v := range signals {
		out = append(out, Feature{Index: hash("s", "", name), Value: float32(v)})
	}
	slices.SortFunc(out, func(a, b Feature) int { return int(a.Index) - int(b.Index) })
	return merge(out), contributions
}

// merge adds up features that hashed to one index.
func merge(fs []Feature) []Feature {
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && out[n-1].Index == f.Index {
			out[n-1].Value += f.Value
			continue
		}
		out = append(out, f)
	}
	return out
}

// eachWord calls f with the byte span of each word of a field's text (its first maxText bytes) and the
// features the word adds, in order. The features are valid only during the call.
func eachWord(field, text string, f func(span [2]int, feats []Feature)) {
	if len(text) > maxText {
		text = text[:maxText]
	}
	k := kindsOf(field)
	prev := ""
	var buf []Feature
	for _, sp := range wordSpans(text) {
		w := strings.ToLower(text[sp[0]:sp[1]])
		buf = k.wordFeatures(buf[:0], prev, w)
		f(sp, buf)
		prev = w
	}
}

// kinds holds a field's hash states after its field and kind prefix, for words (w) and bigrams (b): the
// prefix is hashed once per text, not once per feature.
type kinds struct{ w, b uint32 }

func kindsOf(field string) kinds { return kinds{w: prefix(field, "w"), b: prefix(field, "b")} }

// wordFeatures appends the features one word adds, unscaled: itself and the bigram it ends (after prev,
// when there is one). Character n-grams within words were read too, once: they added nothing a layer
// kept on data it was not trained on (leave one source out, seeds 1-3, every detector within 0.01) and
// were four features in five.
func (k kinds) wordFeatures(out []Feature, prev, w string) []Feature {
	out = append(out, Feature{Index: bucket(fnvAdd(k.w, w)), Value: 1})
	if prev != "" {
		out = append(out, Feature{Index: bucket(fnvAdd(fnvAdd(fnvAdd(k.b, prev), " "), w)), Value: 1})
	}
	return out
}

// wordSpans returns the byte spans of the words of s: runs of letters, digits and apostrophes.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\''
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// hash is the bucket of a feature: the 32-bit FNV-1a hash of its field, a zero byte, its kind, a zero
// byte and its text, masked to the buckets. It is written out rather than taken from hash/fnv because
// extraction hashes every word of a trace: hash/fnv's interface and byte-slice
// conversions, and hashing the same prefix again for every feature, took half of a learned layer's time
// (BenchmarkLearnedDetector, when character n-grams were read too).
func hash(field, kind, text string) uint32 { return bucket(fnvAdd(prefix(field, kind), text)) }

// prefix is the hash state after a feature's field and kind.
func prefix(field, kind string) uint32 {
	h := fnvAdd(offset32, field)
	h = (h ^ 0) * prime32
	h = fnvAdd(h, kind)
	return (h ^ 0) * prime32
}

func bucket(h uint32) uint32 { return h & (buckets - 1) }

const (
	offset32 = 2166136261
	prime32  = 16777619
)

func fnvAdd(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= prime32
	}
	return h
}

// Example is one labelled feature vector.
type Example struct {
	Features []Feature
	Label    bool
}

// Options are the training's parameters; zero means the default.
type Options struct {
	// Epochs over the data; default 5.
	Epochs int
	// Rate is AdaGrad's step; default 0.5.
	Rate float64
	// L2 is the regularisation per example step; default 1e-2. Strong on purpose: words a dataset happens
	// to use are what a model learns first, and they do not carry over to another dataset.
	L2 float64
	// Seed orders the examples of each pass.
	Seed uint64
}

// Model is a trained logistic regression: a bias and a weight per bucket. It is immutable once trained and
// safe for concurrent use.
type Model struct {
	Bias    float64
	Weights []float32 // len buckets
	// Fields are the texts of a trace the model reads (Texts); empty means all of them.
	Fields []string
}

// Train fits a model to examples. Positives and negatives are weighted to count equally, so a detector
// trained on a skewed set does not learn the skew.
func Train(examples []Example, opt Options) *Model {
	if opt.Epochs == 0 {
		opt.Epochs = 5
	}
	if opt.Rate == 0 {
		opt.Rate = 0.5
	}
	if opt.L2 == 0 {
		opt.L2 = 1e-2
	}
	var pos int
	for _, e := range examples {
		if e.Label {
			pos++
		}
	}
	neg := len(examples) - pos
	wPos, wNeg := 1.0, 1.0
	if pos > 0 && neg > 0 {
		wPos, wNeg = float64(len(examples))/(2*float64(pos)), float64(len(examples))/(2*float64(neg))
	}
	w := make([]float64, buckets)
	g2 := make([]float64, buckets) // AdaGrad's sums of squared gradients
	var b, gb float64
	order := make([]int, len(examples))
	for i := range order {
		order[i] = i
	}
	state := opt.Seed*0x9E3779B97F4A7C15 + 1
	next := func() uint64 { // splitmix64: a fixed, dependency-free stream
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for range opt.Epochs {
		for i := len(order) - 1; i > 0; i-- {
			j := int(next() % uint64(i+1))
			order[i], order[j] = order[j], order[i]
		}
		for _, k := range order {
			e := examples[k]
			z := b
			for _, f := range e.Features {
				z += w[f.Index] * float64(f.Value)
			}
			p := sigmoid(z)
			y, cw := 0.0, wNeg
			if e.Label {
				y, cw = 1, wPos
			}
			g := cw * (p - y)
			for _, f := range e.Features {
				gi := g*float64(f.Value) + opt.L2*w[f.Index]
				g2[f.Index] += gi * gi
				w[f.Index] -= opt.Rate * gi / (math.Sqrt(g2[f.Index]) + 1e-8)
			}
			gb += g * g
			b -= opt.Rate * g / (math.Sqrt(gb) + 1e-8)
		}
	}
	m := &Model{Bias: b, Weights: make([]float32, buckets)}
	for i, v := range w {
		m.Weights[i] = float32(v)
	}
	return m
}

// Score is the model's probability that the features show the detector's failure.
func (m *Model) Score(fs []Feature) float64 {
	z := m.Bias
	for _, f := range fs {
		z += float64(m.Weights[f.Index]) * float64(f.Value)
	}
	return sigmoid(z)
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// RuleSignals is the field of the rules' own measures (detect.Result.Signals): how clearly the reply
// declines, how harmful the request reads. A model reads them only when its fields name it.
const RuleSignals = "r"

// FieldsFor are what a detector's learned layer reads. The refusal detectors' layers read the reply and
// the opening of the request ("q"): whether a reply declines or complies is in the reply, and what was
// asked is in the request's first words; kilobytes of a long prompt add cost, not evidence, and the rules'
// verdict beside them has read it all. Held out, over-refusal's layer does as well this way as with every
// text. The reply alone is not enough: it cannot tell a refusal of a bomb recipe from a refusal of a cake
// recipe.
//
// Under-refusal's layer also reads the rules' measures, which raise it held out by about 0.015.
// Over-refusal's does not: trained where refusals of harmful requests are right, it learns that a harm
// reading means a right refusal, and held out, where harmless prompts borrow harm words, it fell by 0.03
// to 0.10 with them. The other detectors' layers read every text. docs/detectors.md has the figures.
func FieldsFor(detector string) []string {
	switch detector {
	case "under_refusal":
		return []string{"q", "o", RuleSignals}
	case "over_refusal", "jailbreak_compliance":
		return []string{"q", "o"}
	}
	return nil
}

// requestOpening is how much of the request the "q" field holds.
const requestOpening = 512

// TextsOf are the texts of t a model of those fields reads, each with its place: the user's messages
// ("i"), the first of them cut to its first 512 bytes ("q"), the reply ("o"), the system prompt ("s"), and
// the tool traffic ("t": each call's name and arguments, each result's content). No fields means i, o, s
// and t. The rules' measures (RuleSignals) are no text and add none.
func TextsOf(t *trace.Trace, fields []string) []Text {
	if len(fields) == 0 {
		fields = everyText
	}
	user, final := detect.Places(t)
	var out []Text
	for _, f := range fields {
		switch f {
		case "i":
			for _, u := range user {
				out = append(out, Text{Field: "i", Where: u.Where, Text: u.Text})
			}
		case "q":
			if len(user) > 0 {
				u := user[0]
				out = append(out, Text{Field: "q", Where: u.Where, Text: u.Text[:min(len(u.Text), requestOpening)]})
			}
		case "o":
			if final.Text != "" {
				out = append(out, Text{Field: "o", Where: final.Where, Text: final.Text})
			}
		case "s":
			if t.System != "" {
				out = append(out, Text{Field: "s", Where: "system", Text: t.System})
			}
		case "t":
			for i, e := range t.Events {
				switch e.Type {
				case trace.ToolCall:
					out = append(out, Text{Field: "t", Text: e.Name},
						Text{Field: "t", Where: fmt.Sprintf("events[%d].arguments", i), Text: string(e.Arguments)})
				case trace.ToolResult:
					out = append(out, Text{Field: "t", Where: fmt.Sprintf("events[%d].content", i), Text: e.Content})
				}
			}
		}
	}
	return out
}

// everyText are the fields a model reads when its file names none.
var everyText = []string{"i", "o", "s", "t"}
