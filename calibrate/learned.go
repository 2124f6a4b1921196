package calibrate

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/agentwarden/warden/detect/learn"
)

// innerFolds is the cross-validation inside a training set that chooses a learned model's threshold on
// scores the model was not trained on.
const innerFolds = 3

// Learned trains a detector's learned layer on samples (each with its features, the rule's score among
// them) and measures it without ever judging a case with a model or a threshold that saw it. The model
// scores only the cases the rule fired on, as learn.Detector uses it; it is trained on all of them.
//
//   - out of fold: folds stratified by source and label; each fold is scored by a model trained on the
//     others, at a threshold chosen by an inner cross-validation on those others;
//   - leave one source out: each source is scored by a model trained on the other sources, at a threshold
//     chosen the same way on them.
//
// It returns the figures and the model trained on every sample, with its threshold chosen by an inner
// cross-validation on all of them: what a user ships.
func Learned(detector string, samples []Sample, features [][]learn.Feature, opt Options, lopt learn.Options) (Result, *learn.Model, float64, error) {
	return LearnedWith(detector, samples, features, nil, opt, lopt)
}

// LearnedWith is Learned with negatives the detector's labels never show but another's imply (Implied):
// every model also trains on those of the sources it trains on, and none is ever judged as a case. Left
// out source by source, each held-out source's implied negatives are scored by its model, and the figure
// says how many the layer fires on against its rules (Result.Implied).
func LearnedWith(detector string, samples []Sample, features [][]learn.Feature, implied []Implied, opt Options, lopt learn.Options) (Result, *learn.Model, float64, error) {
	if err := opt.Validate(); err != nil {
		return Result{}, nil, 0, err
	}
	opt = opt.withDefaults()
	r := Result{Detector: detector, Cases: len(samples)}
	pos, neg := splitByLabel(samples)
	r.Positives, r.Negatives = len(pos), len(neg)
	if len(pos) < opt.Folds || len(neg) < opt.Folds {
		return r, nil, 0, fmt.Errorf("%s: training needs %d positive and %d negative cases at least; have %d and %d", detector, opt.Folds, opt.Folds, len(pos), len(neg))
	}
	rng := rand.New(rand.NewPCG(opt.Seed, nameStream(detector)))
	all := make([]int, len(samples))
	for i := range all {
		all[i] = i
	}
	fold := sourceFolds(samples, all, opt.Folds, rng)
	scored := slices.Clone(samples)
	predicted := make([]bool, len(samples))
	for f := range opt.Folds {
		var train, test []int
		for i := range samples {
			if fold[i] == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		m, t := fit(samples, features, implied, train, opt, lopt, rng)
		r.FoldThresholds = append(r.FoldThresholds, t)
		for _, i := range test {
			scored[i].Score = rescore(samples[i], m, features[i])
			predicted[i] = scored[i].Score >= t
		}
	}
	r.judged(samples, scored, predicted, opt, rng)
	r.ECE = ece(scored, nil)
	r.SourceOut, r.Implied = learnedSourceOut(samples, features, implied, opt, lopt, rng)
	m, t := fit(samples, features, implied, all, opt, lopt, rng)
	m.Fields = learn.FieldsFor(detector) // what the features were read from
	return r, m, t, nil
}

// fit trains on the samples in train and chooses the threshold of highest F1 on scores of an inner
// cross-validation over them.
func fit(samples []Sample, features [][]learn.Feature, implied []Implied, train []int, opt Options, lopt learn.Options, rng *rand.Rand) (*learn.Model, float64) {
	inner := sourceFolds(samples, train, innerFolds, rng)
	oof := make([]Sample, 0, len(train))
	for f := range innerFolds {
		var fitOn, judge []int
		for k, i := range train {
			if inner[k] == f {
				judge = append(judge, i)
			} else {
				fitOn = append(fitOn, i)
			}
		}
		m := learn.Train(append(examples(samples, features, fitOn), impliedOf(implied, samples, fitOn)...), lopt)
		for _, i := range judge {
			s := samples[i]
			s.Score = rescore(s, m, features[i])
			oof = append(oof, s)
		}
	}
	return learn.Train(append(examples(samples, features, train), impliedOf(implied, samples, train)...), lopt), bestThreshold(oof, nil, opt.Grid)
}

// impliedOf returns the implied negatives of the sources the training cases come from, as examples.
func impliedOf(implied []Implied, samples []Sample, train []int) []learn.Example {
	if len(implied) == 0 {
		return nil
	}
	sources, labelled := map[string]bool{}, map[string]bool{}
	for _, i := range train {
		sources[samples[i].Source] = true
	}
	for _, s := range samples {
		labelled[s.Source] = true
	}
	var out []learn.Example
	for _, im := range implied {
		// a source the detector has labels from is trained on when its labels are; one it has none from,
		// always (it is never held out)
		if sources[im.Sample.Source] || !labelled[im.Sample.Source] {
			out = append(out, learn.Example{Features: im.Features, Label: false})
		}
	}
	return out
}

func examples(samples []Sample, features [][]learn.Feature, idx []int) []learn.Example {
	out := make([]learn.Example, len(idx))
	for k, i := range idx {
		out[k] = learn.Example{Features: features[i], Label: samples[i].Label}
	}
	return out
}

// sourceFolds assigns the samples in idx (by position in idx) to k folds, each holding a near-equal share
// of every source's positives and of its negatives.
func sourceFolds(samples []Sample, idx []int, k int, rng *rand.Rand) []int {
	groups := map[string][]int{}
	for pos, i := range idx {
		key := fmt.Sprintf("%t\x00%s", samples[i].Label, samples[i].Source)
		groups[key] = append(groups[key], pos)
	}
	fold := make([]int, len(idx))
	next := 0
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		g := groups[key]
		rng.Shuffle(len(g), func(a, b int) { g[a], g[b] = g[b], g[a] })
		for _, pos := range g {
			fold[pos] = next % k
			next++
		}
	}
	return fold
}

// learnedSourceOut is leaveOneSourceOut for a learned layer: the held-out source's model and threshold
// both come from the other sources only.
func learnedSourceOut(samples []Sample, features [][]learn.Feature, implied []Implied, opt Options, lopt learn.Options, rng *rand.Rand) (*SourceOut, *ImpliedFigure) {
	var fig *ImpliedFigure
	if len(implied) > 0 {
		fig = &ImpliedFigure{}
	}
	so := sourcesOut(samples, opt, rng, innerFolds, "too few to train without this source", func(train []int) (func(int) float64, float64) {
		m, t := fit(samples, features, implied, train, opt, lopt, rng)
		if fig != nil {
			in, labelled := map[string]bool{}, map[string]bool{}
			for _, i := range train {
				in[samples[i].Source] = true
			}
			for _, s := range samples {
				labelled[s.Source] = true
			}
			ruleT := bestThreshold(samples, func(i int) bool { return in[samples[i].Source] }, opt.Grid)
			for _, im := range implied {
				if in[im.Sample.Source] || !labelled[im.Sample.Source] {
					continue // trained on: not judged
				}
				fig.Cases++
				if im.Sample.Score > 0 && im.Sample.Score >= ruleT {
					fig.RuleFires++
				}
				if rescore(im.Sample, m, im.Features) >= t && im.Sample.Score > 0 {
					fig.LayerFires++
				}
			}
		}
		return func(i int) float64 { return rescore(samples[i], m, features[i]) }, t
	})
	return so, fig
}

// ImpliedFigure counts, over the negatives other detectors' labels imply, each scored left out with its
// source, the cases the learned layer fires on and the cases its rules fire on.
type ImpliedFigure struct {
	Cases      int `json:"cases"`
	LayerFires int `json:"layer_fires"`
	RuleFires  int `json:"rule_fires"`
}

// rescore is a learned layer's score of a case, as learn.Detector gives it: the model's where the rule
// found something (its score is above 0), none where it did not.
func rescore(s Sample, m *learn.Model, fs []learn.Feature) float64 {
	if s.Score == 0 {
		return 0
	}
	return m.Score(fs)
}
