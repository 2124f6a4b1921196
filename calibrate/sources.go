package calibrate

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
)

// SourceFigure is one held-out source of a leave-one-source-out run: its cases judged at the threshold
// chosen on every other source.
type SourceFigure struct {
	Source    string  `json:"source"`
	Cases     int     `json:"cases"`
	Positives int     `json:"positives"`
	Negatives int     `json:"negatives"`
	Threshold float64 `json:"threshold"`
	Counts    Counts  `json:"counts"`
	F1        float64 `json:"f1"`
	// F1CI and RecallCI are the 95 % bootstrap intervals of the source's own figures.
	F1CI     Interval `json:"f1_ci"`
	RecallCI Interval `json:"recall_ci"`
	// Note says why the source is left out of the pooled figures, when it is.
	Note string `json:"note,omitempty"`
}

// SourceOut is the leave-one-source-out figure: each source judged at a threshold chosen without it, the
// held-out judgements pooled. It is the figure that predicts a user's data, which comes from none of the
// sources a detector was tuned on.
type SourceOut struct {
	Sources           []SourceFigure `json:"sources"`
	Counts            Counts         `json:"counts"`
	Precision         float64        `json:"precision"`
	Recall            float64        `json:"recall"`
	F1                float64        `json:"f1"`
	FalsePositiveRate float64        `json:"false_positive_rate"`
	CI                struct {
		Precision Interval `json:"precision"`
		Recall    Interval `json:"recall"`
		F1        Interval `json:"f1"`
	} `json:"ci"`
}

// sourceJudge scores the cases of one held-out source, from the indexes of every other source's cases: it
// returns each case's score and the threshold to judge them at, both made without the held-out source.
type sourceJudge func(train []int) (score func(i int) float64, threshold float64)

// leaveOneSourceOut judges each source at the threshold chosen on the others, by the detector's own scores.
func leaveOneSourceOut(samples []Sample, opt Options, rng *rand.Rand) *SourceOut {
	return sourcesOut(samples, opt, rng, 1, "no threshold can be chosen without this source", func(train []int) (func(int) float64, float64) {
		in := make(map[int]bool, len(train))
		for _, i := range train {
			in[i] = true
		}
		return func(i int) float64 { return samples[i].Score }, bestThreshold(samples, func(i int) bool { return in[i] }, opt.Grid)
	})
}

// sourcesOut holds each source out in turn and pools its judgements (see SourceOut). It returns nil when
// the samples come from fewer than two sources. A source whose others have fewer than minPerClass
// positives or negatives cannot be judged so, and is listed with a note (why), outside the pooled figures.
func sourcesOut(samples []Sample, opt Options, rng *rand.Rand, minPerClass int, why string, judge sourceJudge) *SourceOut {
	bySource := map[string][]int{}
	for i, s := range samples {
		bySource[s.Source] = append(bySource[s.Source], i)
	}
	if len(bySource) < 2 {
		return nil
	}
	out := &SourceOut{}
	var held []Sample
	var predicted []bool
	for _, src := range slices.Sorted(maps.Keys(bySource)) {
		f := SourceFigure{Source: src, Cases: len(bySource[src])}
		var train []int
		trainPos, trainNeg := 0, 0
		for i, s := range samples {
			switch {
			case s.Source == src && s.Label:
				f.Positives++
			case s.Source == src:
				f.Negatives++
			default:
				train = append(train, i)
				if s.Label {
					trainPos++
				} else {
					trainNeg++
				}
			}
		}
		if trainPos < minPerClass || trainNeg < minPerClass {
			f.Note = fmt.Sprintf("the other sources have %d positive and %d negative cases: %s", trainPos, trainNeg, why)
			out.Sources = append(out.Sources, f)
			continue
		}
		score, threshold := judge(train)
		f.Threshold = threshold
		var mine []Sample
		var minePred []bool
		for _, i := range bySource[src] {
			p := score(i) >= threshold
			f.Counts.add(p, samples[i].Label)
			out.Counts.add(p, samples[i].Label)
			held = append(held, samples[i])
			predicted = append(predicted, p)
			mine, minePred = append(mine, samples[i]), append(minePred, p)
		}
		f.F1 = f.Counts.F1()
		_, f.RecallCI, f.F1CI = bootstrap(mine, minePred, opt.Bootstrap, rng)
		out.Sources = append(out.Sources, f)
	}
	if len(held) > 0 {
		out.Precision, out.Recall, out.F1 = out.Counts.Precision(), out.Counts.Recall(), out.Counts.F1()
		out.FalsePositiveRate = out.Counts.FalsePositiveRate()
		out.CI.Precision, out.CI.Recall, out.CI.F1 = bootstrap(held, predicted, opt.Bootstrap, rng)
	}
	return out
}
