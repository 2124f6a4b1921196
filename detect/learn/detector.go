package learn

import (
	"cmp"
	"slices"

	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/trace"
)

// FeaturesOf are what a detector's learned layer reads of a trace: its texts in fields (TextsOf;
// FieldsFor), hashed, beside the rule detector's own verdict on it (whether it fired, and its score; with
// the field RuleSignals, also the measures the rules made it from). Training and scanning both use it, and
// a model records its fields, so a model always reads what it was trained on.
func FeaturesOf(t *trace.Trace, rule detect.Result, fields []string) []Feature {
	return Extract(TextsOf(t, fields), ruleSignals(rule, fields))
}

// ruleSignals are the rule's verdict as a layer of those fields reads it.
func ruleSignals(rule detect.Result, fields []string) map[string]float64 {
	signals := map[string]float64{"rule.fired": 0, "rule.score": 0}
	if rule.Detected {
		signals["rule.fired"], signals["rule.score"] = 1, rule.Score
		if slices.Contains(fields, RuleSignals) {
			for name, v := range rule.Signals {
				signals["rule."+name] = v
			}
		}
	}
	return signals
}

// Contribution is a word of a trace that pushed a model's score up: where it stands and by how much.
type Contribution struct {
	// Where and Start, End place the word as detect.Evidence does ("messages[0]", "output", "system",
	// "events[3].arguments", "events[4].content").
	Where      string
	Start, End int
	Weight     float64
}

// Explain returns the k words of t whose features weigh most toward m's finding, heaviest first: what a
// finding of the learned layer points at. Only words that push the score up, in the texts m reads, are
// returned.
func Explain(m *Model, t *trace.Trace, k int) []Contribution {
	_, contributions := extract(TextsOf(t, m.Fields), nil, m)
	return heaviest(contributions, k)
}

// heaviest returns the k heaviest contributions, heaviest first; of equal weights, the earlier word.
func heaviest(cs []Contribution, k int) []Contribution {
	slices.SortStableFunc(cs, func(a, b Contribution) int { return cmp.Compare(b.Weight, a.Weight) })
	return cs[:min(k, len(cs))]
}

// explained is how many words a finding of the learned layer points at.
const explained = 3

// Layer is a detector's learned layer in use: where the detector's rules found something, the model,
// reading the trace and the rules' verdict, gives the score. The model weighs again what the rules found;
// it never finds what they did not, so a finding still rests on the rules' evidence places, and the model
// adds the words that weighed most toward it. Measured leave one source out, a model that may also fire
// on its own generalizes worse (docs/detectors.md). It implements detect.Layer, is immutable and is safe
// for concurrent use.
type Layer struct {
	name  string
	model *Model
}

var _ detect.Layer = (*Layer)(nil)

// NewLayer makes model the learned layer of the detector of that name.
func NewLayer(name string, model *Model) *Layer { return &Layer{name: name, model: model} }

// Weigh implements detect.Layer. A trace the rule cannot judge, the model does not judge either: its
// features would lack what the rule lacked. A trace where the rule found nothing, the model leaves alone.
func (l *Layer) Weigh(t *trace.Trace, r detect.Result) detect.Result {
	if r.CannotJudge != "" || !Weighs(r) {
		return r
	}
	features, contributions := extract(TextsOf(t, l.model.Fields), ruleSignals(r, l.model.Fields), l.model)
	out := detect.Result{Detected: true, Score: l.model.Score(features), Severity: r.Severity,
		Evidence: slices.Clone(r.Evidence)}
	if out.Severity == "" {
		info, _ := detect.Describe(l.name)
		out.Severity = info.Severity
	}
	for _, c := range heaviest(contributions, explained) {
		out.Evidence = append(out.Evidence, detect.Evidence{Where: c.Where, Start: c.Start, End: c.End,
			Rule: "learned." + l.name, Note: "a word the learned model weighs toward the finding"})
	}
	return out
}

// Detector is a rule detector with its learned layer over it, as one detect.Detector.
type Detector struct {
	rule  detect.Detector
	layer *Layer
}

var _ detect.Detector = (*Detector)(nil)

// NewDetector puts model over the rule detector of that name.
func NewDetector(name string, rule detect.Detector, model *Model) *Detector {
	return &Detector{rule: rule, layer: NewLayer(name, model)}
}

// Detect implements detect.Detector.
func (d *Detector) Detect(t *trace.Trace) detect.Result { return d.layer.Weigh(t, d.rule.Detect(t)) }

// Weighs reports whether a learned layer weighs a rule's result again: only where the rule found
// something.
func Weighs(rule detect.Result) bool { return rule.Detected && rule.Score > 0 }
