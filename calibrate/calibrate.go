// Package calibrate chooses each trace detector's decision threshold on labelled data and measures how
// well the detector does at it, so that the figures Warden publishes can be reproduced by anyone holding
// the same data: stratified k-fold cross-validation over a fixed threshold grid, pooled out-of-fold
// precision, recall and F1, percentile bootstrap intervals, and expected calibration error.
//
// Everything is deterministic: the same samples, options and seed give the same numbers on every
// platform (the shuffles use math/rand/v2's PCG seeded from the seed and the detector's name). The
// package never reads files or the network; package detect scores traces and cmd/warden does the I/O.
// The JSON shape of Report is stable within a major version.
package calibrate

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Sample is one labelled case: what the detector said and what it should have said.
type Sample struct {
	// Score is the detector's confidence when it fired, 0 when it did not.
	Score float64
	// Label is true when the detector should fire.
	Label bool
	// Difficulty is the author's easy / medium / hard, when given; results are broken down by it.
	Difficulty string
	// Source names where the case came from (a public dataset, the team's golden set): the unit of the
	// leave-one-source-out figure.
	Source string
}

// Options are the calibration's parameters; the zero value of a field means its default.
type Options struct {
	// Folds of the stratified cross-validation; default 5.
	Folds int
	// Bootstrap resamples for the 95 % intervals; default 1000.
	Bootstrap int
	// Seed of the shuffles; the same seed gives the same numbers.
	Seed uint64
	// Grid of candidate thresholds, ascending; default 0.10 to 0.90 in steps of 0.05.
	Grid []float64
}

// DefaultGrid is the threshold grid: 0.10 to 0.90 in steps of 0.05.
func DefaultGrid() []float64 {
	g := make([]float64, 0, 17)
	for i := 10; i <= 90; i += 5 {
		g = append(g, float64(i)/100)
	}
	return g
}

func (o Options) withDefaults() Options {
	if o.Folds == 0 {
		o.Folds = 5
	}
	if o.Bootstrap == 0 {
		o.Bootstrap = 1000
	}
	if len(o.Grid) == 0 {
		o.Grid = DefaultGrid()
	}
	return o
}

// Validate reports options that cannot work.
func (o Options) Validate() error {
	o = o.withDefaults()
	switch {
	case o.Folds < 2:
		return fmt.Errorf("folds must be at least 2, got %d", o.Folds)
	case o.Bootstrap < 1:
		return fmt.Errorf("bootstrap resamples must be at least 1, got %d", o.Bootstrap)
	}
	for i, t := range o.Grid {
		if t <= 0 || t > 1 || (i > 0 && t <= o.Grid[i-1]) {
			return errors.New("the threshold grid must be ascending values in (0, 1]")
		}
	}
	return nil
}

// Counts is a confusion matrix.
type Counts struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
	TN int `json:"tn"`
}

func (c *Counts) add(predicted, label bool) {
	switch {
	case predicted && label:
		c.TP++
	case predicted:
		c.FP++
	case label:
		c.FN++
	default:
		c.TN++
	}
}

// Precision is TP / (TP + FP), 0 when nothing was predicted positive.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP / (TP + FN), 0 when there are no positives.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F1 is the harmonic mean of precision and recall, 0 when either is.
func (c Counts) F1() float64 { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

// FalsePositiveRate is FP / (FP + TN).
func (c Counts) FalsePositiveRate() float64 { return ratio(c.FP, c.FP+c.TN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Interval is a 95 % percentile bootstrap interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Point is one operating point: the threshold and what the detector scores there.
type Point struct {
	Threshold float64 `json:"threshold"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// Breakdown is how the out-of-fold predictions fared on one difficulty level.
type Breakdown struct {
	Difficulty string  `json:"difficulty"`
	Counts     Counts  `json:"counts"`
	Accuracy   float64 `json:"accuracy"`
}

// Result is one detector's calibration.
type Result struct {
	Detector  string `json:"detector"`
	Cases     int    `json:"cases"`
	Positives int    `json:"positives"`
	Negatives int    `json:"negatives"`
	// Threshold is the calibrated threshold: the mean of the folds' thresholds, snapped to the grid.
	Threshold      float64   `json:"threshold"`
	FoldThresholds []float64 `json:"fold_thresholds"`
	// CannotJudge counts the cases the detector could not judge (deception without recorded events): they
	// are left out of every figure.
	CannotJudge int `json:"cannot_judge"`
	// Counts, Precision, Recall and F1 pool every fold's held-out predictions, each made at the threshold
	// chosen without that fold.
	Counts    Counts  `json:"counts"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// FalsePositiveRate is FP / (FP + TN) of the pooled held-out predictions.
	FalsePositiveRate float64 `json:"false_positive_rate"`
	// CI holds the 95 % bootstrap intervals of the pooled figures.
	CI struct {
		Precision Interval `json:"precision"`
		Recall    Interval `json:"recall"`
		F1        Interval `json:"f1"`
	} `json:"ci"`
	// ECE is the expected calibration error of the scores as probabilities (ten equal bins), averaged over
	// the held-out folds.
	ECE float64 `json:"ece"`
	// BaselineF1 is the F1 of a detector that always fires: a detector must beat it to be worth running.
	BaselineF1 float64 `json:"baseline_f1"`
	// Sweep is every grid threshold scored on all cases (in-sample): the threshold chart.
	Sweep []Point `json:"sweep"`
	// Curve is the precision-recall curve over every distinct score (in-sample), highest threshold first.
	Curve []Point `json:"curve"`
	// Difficulties breaks the held-out predictions down by the cases' difficulty, when the data says.
	Difficulties []Breakdown `json:"difficulties,omitempty"`
	// Note says what limited the calibration ("too few cases: threshold chosen on all of them").
	Note string `json:"note,omitempty"`
	// SourceOut is the leave-one-source-out figure, when the cases come from two sources or more.
	SourceOut *SourceOut `json:"leave_one_source_out,omitempty"`
	// Implied, for a learned layer trained with negatives another detector's labels imply, counts where it
	// and its rules fire on them, each scored left out with its source.
	Implied *ImpliedFigure `json:"implied_negatives,omitempty"`
}

// Calibrate chooses a detector's threshold on samples and measures it. It needs at least one positive
// and one negative; with fewer than Folds of either, it chooses on all samples and says so in Note.
func Calibrate(detector string, samples []Sample, opt Options) (Result, error) {
	if err := opt.Validate(); err != nil {
		return Result{}, err
	}
	opt = opt.withDefaults()
	r := Result{Detector: detector, Cases: len(samples)}
	pos, neg := splitByLabel(samples)
	r.Positives, r.Negatives = len(pos), len(neg)
	if len(pos) == 0 || len(neg) == 0 {
		return r, fmt.Errorf("%s: calibration needs positive and negative cases; have %d positive, %d negative", detector, len(pos), len(neg))
	}
	rng := rand.New(rand.NewPCG(opt.Seed, nameStream(detector)))
	predicted := make([]bool, len(samples))
	if len(pos) < opt.Folds || len(neg) < opt.Folds {
		t := bestThreshold(samples, nil, opt.Grid)
		r.FoldThresholds = []float64{t}
		for i, s := range samples {
			predicted[i] = s.Score >= t
		}
		r.ECE = ece(samples, nil)
		r.Note = fmt.Sprintf("fewer than %d positive or negative cases: the threshold was chosen on all cases, so the figures are in-sample", opt.Folds)
	} else {
		fold := stratifiedFolds(len(samples), pos, neg, opt.Folds, rng)
		var eces float64
		for f := range opt.Folds {
			train := func(i int) bool { return fold[i] != f }
			t := bestThreshold(samples, train, opt.Grid)
			r.FoldThresholds = append(r.FoldThresholds, t)
			for i, s := range samples {
				if fold[i] == f {
					predicted[i] = s.Score >= t
				}
			}
			eces += ece(samples, func(i int) bool { return fold[i] == f })
		}
		r.ECE = eces / float64(opt.Folds)
	}
	r.judged(samples, samples, predicted, opt, rng)
	r.SourceOut = leaveOneSourceOut(samples, opt, rng)
	return r, nil
}

// judged fills in the figures of the held-out predictions (one per sample, each made at a threshold and,
// for a learned layer, by a model chosen without it) and the charts of the scores they were made from.
func (r *Result) judged(samples, scored []Sample, predicted []bool, opt Options, rng *rand.Rand) {
	r.Threshold = snap(mean(r.FoldThresholds), opt.Grid)
	for i, s := range samples {
		r.Counts.add(predicted[i], s.Label)
	}
	r.Precision, r.Recall, r.F1 = r.Counts.Precision(), r.Counts.Recall(), r.Counts.F1()
	r.FalsePositiveRate = r.Counts.FalsePositiveRate()
	r.BaselineF1 = Counts{TP: r.Positives, FP: r.Negatives}.F1()
	r.CI.Precision, r.CI.Recall, r.CI.F1 = bootstrap(samples, predicted, opt.Bootstrap, rng)
	r.Sweep = sweep(scored, opt.Grid)
	r.Curve = curve(scored)
	r.Difficulties = byDifficulty(samples, predicted)
}

// splitByLabel returns the indexes of the positive and of the negative samples.
func splitByLabel(samples []Sample) (pos, neg []int) {
	for i, s := range samples {
		if s.Label {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	return pos, neg
}

// nameStream gives each detector its own random stream, so adding a detector changes no other's numbers.
func nameStream(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// stratifiedFolds assigns every sample a fold so that each fold holds a near-equal share of the positives
// and of the negatives.
func stratifiedFolds(n int, pos, neg []int, k int, rng *rand.Rand) []int {
	fold := make([]int, n)
	for _, class := range [][]int{pos, neg} {
		order := slices.Clone(class)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for j, i := range order {
			fold[i] = j % k
		}
	}
	return fold
}

// bestThreshold is the grid threshold of highest F1 on the samples in (nil: all); ties go to the higher
// precision, then to the higher threshold, the more conservative operating point.
func bestThreshold(samples []Sample, in func(int) bool, grid []float64) float64 {
	best, bestF1, bestP := grid[0], -1.0, -1.0
	for _, t := range grid {
		var c Counts
		for i, s := range samples {
			if in == nil || in(i) {
				c.add(s.Score >= t, s.Label)
			}
		}
		f1, p := c.F1(), c.Precision()
		if f1 > bestF1 || (f1 == bestF1 && p >= bestP) {
			best, bestF1, bestP = t, f1, p
		}
	}
	return best
}

// snap returns the grid value nearest x (the higher one on a tie).
func snap(x float64, grid []float64) float64 {
	best := grid[0]
	for _, t := range grid {
		if math.Abs(t-x) <= math.Abs(best-x)+1e-12 {
			best = t
		}
	}
	return best
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// ece is the expected calibration error over ten equal-width score bins of the samples in (nil: all):
// the bins' size-weighted gap between mean score and the share of positives.
func ece(samples []Sample, in func(int) bool) float64 {
	var n [10]int
	var conf, pos [10]float64
	total := 0
	for i, s := range samples {
		if in != nil && !in(i) {
			continue
		}
		b := min(int(s.Score*10), 9)
		n[b]++
		conf[b] += s.Score
		if s.Label {
			pos[b]++
		}
		total++
	}
	if total == 0 {
		return 0
	}
	var e float64
	for b := range n {
		if n[b] > 0 {
			e += math.Abs(conf[b]-pos[b]) / float64(total)
		}
	}
	return e
}

// bootstrap resamples the held-out predictions with replacement and returns the 2.5th and 97.5th
// percentiles of precision, recall and F1.
func bootstrap(samples []Sample, predicted []bool, resamples int, rng *rand.Rand) (p, r, f Interval) {
	n := len(samples)
	ps, rs, fs := make([]float64, resamples), make([]float64, resamples), make([]float64, resamples)
	for b := range resamples {
		var c Counts
		for range n {
			i := rng.IntN(n)
			c.add(predicted[i], samples[i].Label)
		}
		ps[b], rs[b], fs[b] = c.Precision(), c.Recall(), c.F1()
	}
	return percentiles(ps), percentiles(rs), percentiles(fs)
}

func percentiles(xs []float64) Interval {
	slices.Sort(xs)
	lo := int(math.Floor(0.025 * float64(len(xs))))
	hi := int(math.Ceil(0.975*float64(len(xs)))) - 1
	return Interval{Low: xs[lo], High: xs[max(hi, lo)]}
}

func sweep(samples []Sample, grid []float64) []Point {
	out := make([]Point, len(grid))
	for j, t := range grid {
		out[j] = pointAt(samples, t)
	}
	return out
}

func pointAt(samples []Sample, t float64) Point {
	var c Counts
	for _, s := range samples {
		c.add(s.Score >= t, s.Label)
	}
	return Point{Threshold: t, Precision: c.Precision(), Recall: c.Recall(), F1: c.F1()}
}

// curve is the precision-recall curve: one point at each distinct positive score, highest first.
func curve(samples []Sample) []Point {
	var scores []float64
	for _, s := range samples {
		if s.Score > 0 {
			scores = append(scores, s.Score)
		}
	}
	slices.SortFunc(scores, func(a, b float64) int { return cmp.Compare(b, a) })
	scores = slices.Compact(scores)
	out := make([]Point, 0, len(scores))
	for _, t := range scores {
		out = append(out, pointAt(samples, t))
	}
	return out
}

func byDifficulty(samples []Sample, predicted []bool) []Breakdown {
	idx := map[string]int{}
	var out []Breakdown
	for i, s := range samples {
		if s.Difficulty == "" {
			continue
		}
		j, ok := idx[s.Difficulty]
		if !ok {
			j = len(out)
			idx[s.Difficulty] = j
			out = append(out, Breakdown{Difficulty: s.Difficulty})
		}
		out[j].Counts.add(predicted[i], s.Label)
	}
	for j := range out {
		c := out[j].Counts
		out[j].Accuracy = ratio(c.TP+c.TN, c.TP+c.TN+c.FP+c.FN)
	}
	slices.SortFunc(out, func(a, b Breakdown) int {
		return cmp.Compare(difficultyRank(a.Difficulty), difficultyRank(b.Difficulty))
	})
	return out
}

func difficultyRank(d string) string {
	switch d {
	case "easy":
		return "0"
	case "medium":
		return "1"
	case "hard":
		return "2"
	}
	return "3" + d
}
