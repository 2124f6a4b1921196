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

// leaveOneSourceOut judges each source at the threshold chosen on the others. It returns nil when the
// samples come from fewer than two sources. A source whose others lack positives or negatives cannot be
// judged so (no threshold can be chosen without it) and is listed with a note, outside the pooled figures.
func leaveOneSourceOut(samples []Sample, opt Options, rng *rand.Rand) *SourceOut {
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
		in := bySource[src]
		f := SourceFigure{Source: src, Cases: len(in)}
		trainPos, trainNeg := 0, 0
		for _, s := range samples {
			if s.Source == src {
				if s.Label {
					f.Positives++
				} else {
					f.Negatives++
				}
				continue
			}
			if s.Label {
				trainPos++
			} else {
				trainNeg++
			}
		}
		if trainPos == 0 || trainNeg == 0 {
			f.Note = fmt.Sprintf("the other sources have %d positive and %d negative cases: no threshold can be chosen without this source", trainPos, trainNeg)
			out.Sources = append(out.Sources, f)
			continue
		}
		f.Threshold = bestThreshold(samples, func(i int) bool { return samples[i].Source != src }, opt.Grid)
		var mine []Sample
		var minePred []bool
		for _, i := range in {
			p := samples[i].Score >= f.Threshold
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
	if len(held) == 0 {
		return out
	}
	out.Precision, out.Recall, out.F1 = out.Counts.Precision(), out.Counts.Recall(), out.Counts.F1()
	out.FalsePositiveRate = out.Counts.FalsePositiveRate()
	out.CI.Precision, out.CI.Recall, out.CI.F1 = bootstrap(held, predicted, opt.Bootstrap, rng)
	return out
}
