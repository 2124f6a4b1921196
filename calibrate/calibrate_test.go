package calibrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/detect/learn"
	"github.com/google/go-cmp/cmp"
)

// separable has positives scoring 0.6–0.9 and negatives 0–0.3: any threshold in (0.3, 0.6] is perfect.
func separable(n int) []Sample {
	var out []Sample
	for i := range n {
		out = append(out, Sample{Score: 0.6 + 0.3*float64(i%4)/3, Label: true})
		out = append(out, Sample{Score: 0.3 * float64(i%3) / 2, Label: false})
	}
	return out
}

// noisy mixes the classes: positives mostly score high, some negatives too.
func noisy(n int, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []Sample
	for range n {
		label := rng.IntN(2) == 0
		score := rng.Float64() * 0.6
		if label {
			score += 0.3
		}
		if rng.IntN(4) == 0 {
			score = 0 // did not fire
		}
		out = append(out, Sample{Score: score, Label: label})
	}
	return out
}

func TestCalibrate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		samples []Sample
		check   func(t *testing.T, r Result)
	}{
		{"separable cases are judged perfectly out of fold", separable(40), func(t *testing.T, r Result) {
			if r.F1 != 1 || r.Precision != 1 || r.Recall != 1 {
				t.Errorf("P/R/F1 = %v/%v/%v, want 1/1/1", r.Precision, r.Recall, r.F1)
			}
			if r.Threshold <= 0.3 || r.Threshold > 0.6 {
				t.Errorf("threshold = %v, want in (0.3, 0.6]", r.Threshold)
			}
		}},
		{"on a tie in F1 the threshold of higher precision wins", separable(40), func(t *testing.T, r Result) {
			// Every threshold in (0.3, 0.6] is perfect; the highest of them is the most conservative.
			if r.Threshold != 0.6 {
				t.Errorf("threshold = %v, want 0.6", r.Threshold)
			}
		}},
		{"the threshold is the mean of the folds' thresholds on the grid", noisy(300, 1), func(t *testing.T, r Result) {
			if len(r.FoldThresholds) != 5 {
				t.Fatalf("fold thresholds = %v, want 5", r.FoldThresholds)
			}
			if got := snap(mean(r.FoldThresholds), DefaultGrid()); got != r.Threshold {
				t.Errorf("threshold = %v, want %v", r.Threshold, got)
			}
		}},
		{"the counts cover every case once", noisy(300, 2), func(t *testing.T, r Result) {
			c := r.Counts
			if c.TP+c.FP+c.FN+c.TN != 300 || c.TP+c.FN != r.Positives {
				t.Errorf("counts %+v do not add up to %d cases, %d positive", c, r.Cases, r.Positives)
			}
		}},
		{"the intervals hold the pooled figures", noisy(300, 3), func(t *testing.T, r Result) {
			for name, v := range map[string]struct {
				x  float64
				ci Interval
			}{"precision": {r.Precision, r.CI.Precision}, "recall": {r.Recall, r.CI.Recall}, "f1": {r.F1, r.CI.F1}} {
				if v.ci.Low > v.x || v.ci.High < v.x || v.ci.Low == v.ci.High {
					t.Errorf("%s %v outside or at a point interval %+v", name, v.x, v.ci)
				}
			}
		}},
		{"noisy cases give imperfect but better-than-always-fire figures", noisy(300, 4), func(t *testing.T, r Result) {
			if r.F1 >= 1 || r.F1 <= r.BaselineF1 {
				t.Errorf("F1 %v, always-fire %v", r.F1, r.BaselineF1)
			}
		}},
		{"too few cases choose on all of them and say so", separable(3), func(t *testing.T, r Result) {
			if !strings.Contains(r.Note, "in-sample") || len(r.FoldThresholds) != 1 {
				t.Errorf("note %q, fold thresholds %v", r.Note, r.FoldThresholds)
			}
		}},
		{"the sweep has a point per grid threshold and the curve falls in threshold", noisy(200, 5), func(t *testing.T, r Result) {
			if len(r.Sweep) != 17 {
				t.Errorf("sweep has %d points", len(r.Sweep))
			}
			for i := 1; i < len(r.Curve); i++ {
				if r.Curve[i].Threshold >= r.Curve[i-1].Threshold || r.Curve[i].Recall < r.Curve[i-1].Recall {
					t.Fatalf("curve not ordered at %d: %+v then %+v", i, r.Curve[i-1], r.Curve[i])
				}
			}
		}},
		{"cases are broken down by difficulty, easiest first", []Sample{
			{Score: 0.9, Label: true, Difficulty: "hard"}, {Score: 0.8, Label: true, Difficulty: "easy"},
			{Score: 0, Label: false, Difficulty: "easy"}, {Score: 0, Label: false, Difficulty: "medium"}}, func(t *testing.T, r Result) {
			var got []string
			for _, d := range r.Difficulties {
				got = append(got, d.Difficulty)
			}
			if diff := cmp.Diff([]string{"easy", "medium", "hard"}, got); diff != "" {
				t.Errorf("difficulties (-want +got):\n%s", diff)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r, err := Calibrate("x", tt.samples, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

func TestCalibrateIsDeterministic(t *testing.T) {
	t.Parallel()
	a, _ := Calibrate("x", noisy(300, 9), Options{Seed: 42})
	b, _ := Calibrate("x", noisy(300, 9), Options{Seed: 42})
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("same seed, different result (-a +b):\n%s", diff)
	}
	c, _ := Calibrate("x", noisy(300, 9), Options{Seed: 43})
	if cmp.Equal(a.CI, c.CI) {
		t.Error("another seed gave the same bootstrap intervals; is the seed used?")
	}
}

func TestStratifiedFoldsShareEachClassEvenly(t *testing.T) {
	t.Parallel()
	samples := noisy(203, 11)
	pos, neg := splitByLabel(samples)
	fold := stratifiedFolds(len(samples), pos, neg, 5, rand.New(rand.NewPCG(1, 2)))
	for _, class := range [][]int{pos, neg} {
		per := make([]int, 5)
		for _, i := range class {
			per[fold[i]]++
		}
		lo, hi := per[0], per[0]
		for _, n := range per {
			lo, hi = min(lo, n), max(hi, n)
		}
		if hi-lo > 1 {
			t.Errorf("class of %d split unevenly: %v", len(class), per)
		}
	}
}

func TestCalibrateRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		samples []Sample
		opt     Options
		want    string
	}{
		{"cases of one class only", []Sample{{Score: 0.5, Label: true}, {Score: 0.7, Label: true}}, Options{}, "needs positive and negative cases; have 2 positive, 0 negative"},
		{"a single fold", separable(10), Options{Folds: 1}, "folds must be at least 2"},
		{"no bootstrap resamples", separable(10), Options{Bootstrap: -1}, "at least 1"},
		{"a grid out of order", separable(10), Options{Grid: []float64{0.5, 0.2}}, "ascending"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			_, err := Calibrate("x", tt.samples, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestExpectedCalibrationError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		samples []Sample
		want    float64
	}{
		{"silent on negatives is calibrated", []Sample{{Score: 0, Label: false}, {Score: 0, Label: false}}, 0},
		{"0.95 on certain positives is 0.05 off", []Sample{{Score: 0.95, Label: true}, {Score: 0.95, Label: true}}, 0.05},
		{"a confident miss weighs by its share", []Sample{{Score: 0.9, Label: false}, {Score: 0, Label: false}}, 0.45},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := ece(tt.samples, nil); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("ece = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSnapPrefersTheHigherGridValueOnATie(t *testing.T) {
	t.Parallel()
	g := DefaultGrid()
	for _, tt := range []struct{ x, want float64 }{{0.425, 0.45}, {0.41, 0.4}, {0.01, 0.1}, {0.99, 0.9}} {
		if got := snap(tt.x, g); got != tt.want {
			t.Errorf("snap(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
}

func TestLeaveOneSourceOut(t *testing.T) {
	t.Parallel()
	// Source a scores its positives 0.8 and negatives 0.1; source b, whose data differs, 0.4 and 0.1; source
	// c has only negatives at 0.5. Each is judged at a threshold chosen on the others.
	var samples []Sample
	add := func(src string, n int, score float64, label bool) {
		for range n {
			samples = append(samples, Sample{Source: src, Score: score, Label: label})
		}
	}
	add("a", 10, 0.8, true)
	add("a", 10, 0.1, false)
	add("b", 10, 0.4, true)
	add("b", 10, 0.1, false)
	add("c", 10, 0.5, false)
	r, err := Calibrate("d", samples, Options{Seed: 1, Bootstrap: 50})
	if err != nil {
		t.Fatal(err)
	}
	so := r.SourceOut
	if so == nil || len(so.Sources) != 3 {
		t.Fatalf("leave-one-source-out: %+v, want three sources", so)
	}
	byName := map[string]SourceFigure{}
	for _, f := range so.Sources {
		byName[f.Source] = f
	}
	// Without a, b's positives at 0.4 sit below c's negatives at 0.5: the best threshold on b and c lets
	// a's positives pass whatever it is.
	if f := byName["a"]; f.Counts.TP != 10 || f.Counts.FP != 0 {
		t.Errorf("source a held out: %+v", f)
	}
	// Without b, a and c choose a threshold above 0.5, which misses b's positives at 0.4: the figure a
	// user with b's data would see.
	if f := byName["b"]; f.Threshold <= 0.5 || f.Counts.FN != 10 {
		t.Errorf("source b held out: %+v, want a threshold above 0.5 that misses its positives", f)
	}
	if f := byName["c"]; f.Counts.TP+f.Counts.FN != 0 || f.Cases != 10 {
		t.Errorf("source c held out: %+v", f)
	}
	if so.Counts.TP+so.Counts.FN+so.Counts.FP+so.Counts.TN != len(samples) {
		t.Errorf("pooled counts %+v do not cover every case", so.Counts)
	}
	if so.F1 >= r.F1 {
		t.Errorf("leave-one-source-out F1 %.3f not below the pooled out-of-fold %.3f on data whose sources differ", so.F1, r.F1)
	}
}

func TestLeaveOneSourceOutNeedsTwoSourcesAndBothClasses(t *testing.T) {
	t.Parallel()
	var one []Sample
	for i := range 20 {
		one = append(one, Sample{Source: "a", Score: 0.9 * float64(i%2), Label: i%2 == 1})
	}
	r, err := Calibrate("d", one, Options{Seed: 1, Bootstrap: 50})
	if err != nil || r.SourceOut != nil {
		t.Errorf("one source: %+v (%v), want no leave-one-source-out figure", r.SourceOut, err)
	}
	// Positives from one source, negatives from another (injection's public data): neither can be judged.
	var split []Sample
	for i := range 20 {
		src := map[bool]string{true: "attacks", false: "benign"}[i%2 == 1]
		split = append(split, Sample{Source: src, Score: 0.9 * float64(i%2), Label: i%2 == 1})
	}
	r, err = Calibrate("d", split, Options{Seed: 1, Bootstrap: 50})
	if err != nil || r.SourceOut == nil {
		t.Fatalf("two sources: %+v (%v)", r.SourceOut, err)
	}
	for _, f := range r.SourceOut.Sources {
		if f.Note == "" {
			t.Errorf("source %s held out with one class on the other side: no note", f.Source)
		}
	}
	if r.SourceOut.Counts != (Counts{}) {
		t.Errorf("pooled counts %+v, want none", r.SourceOut.Counts)
	}
}

// TestLearned: the learned layer is measured out of fold and source by source, and the same data and seed
// give the same figures and weights.
func TestLearned(t *testing.T) {
	t.Parallel()
	var samples []Sample
	var features [][]learn.Feature
	add := func(src, text string, label bool, rule float64) {
		samples = append(samples, Sample{Source: src, Label: label, Score: rule})
		features = append(features, learn.Extract([]learn.Text{{Field: "o", Text: text}}, map[string]float64{"rule.score": rule}))
	}
	for i := range 20 {
		add("a", fmt.Sprintf("sorry I cannot help with request %d", i), true, 0.8)
		add("a", fmt.Sprintf("here is the answer to question %d", i), false, 0)
		add("b", fmt.Sprintf("I must decline task %d, I won't", i), true, 0.6)
		add("b", fmt.Sprintf("done: the result of task %d is ready", i), false, 0.1)
	}
	r, m, th, err := Learned("over_refusal", samples, features, Options{Seed: 3, Bootstrap: 50}, learn.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Counts.TP+r.Counts.FP+r.Counts.FN+r.Counts.TN != len(samples) || len(r.FoldThresholds) != 5 {
		t.Errorf("out-of-fold judgements %+v over %d folds, want every case once", r.Counts, len(r.FoldThresholds))
	}
	if r.F1 < 0.9 {
		t.Errorf("F1 %.3f on a separable task", r.F1)
	}
	if r.SourceOut == nil || len(r.SourceOut.Sources) != 2 {
		t.Fatalf("leave-one-source-out: %+v", r.SourceOut)
	}
	if m == nil || th <= 0 {
		t.Errorf("model %v, threshold %v", m != nil, th)
	}
	r2, m2, th2, _ := Learned("over_refusal", samples, features, Options{Seed: 3, Bootstrap: 50}, learn.Options{Seed: 3})
	if r2.F1 != r.F1 || th2 != th || !slices.Equal(m.Weights, m2.Weights) {
		t.Error("the same data and seed gave other figures or weights")
	}
	if _, _, _, err := Learned("x", samples[:6], features[:6], Options{Seed: 3}, learn.Options{}); err == nil {
		t.Error("training on too few cases was accepted")
	}
}

// TestLearnedWeighsOnlyWhatTheRuleFound: as learn.Detector uses it, a learned layer scores only the cases
// its rule fired on, so a positive the rule missed is a miss however plainly its words say so.
func TestLearnedWeighsOnlyWhatTheRuleFound(t *testing.T) {
	t.Parallel()
	var samples []Sample
	var features [][]learn.Feature
	add := func(text string, label bool, rule float64) {
		samples = append(samples, Sample{Source: "a", Label: label, Score: rule})
		features = append(features, learn.Extract([]learn.Text{{Field: "o", Text: text}}, map[string]float64{"rule.score": rule}))
	}
	missed := 0
	for i := range 30 {
		rule := 0.8
		if i%3 == 0 {
			rule, missed = 0, missed+1 // the rule missed this refusal
		}
		add(fmt.Sprintf("sorry I cannot help with request %d", i), true, rule)
		add(fmt.Sprintf("here is the answer to question %d", i), false, 0)
	}
	r, _, _, err := Learned("over_refusal", samples, features, Options{Seed: 1, Bootstrap: 20}, learn.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Counts.FN < missed || r.Counts.TP != 30-missed {
		t.Errorf("counts %+v: want the %d cases the rule missed among the misses, the %d it found found", r.Counts, missed, 30-missed)
	}
}

// TestLearnedWithImpliedNegatives: negatives another detector's labels imply are trained on, never judged
// as cases, and counted left out with their source: a layer that learned "declining is positive" from its
// own labels fires on declined harmful requests less once it trains on them.
func TestLearnedWithImpliedNegatives(t *testing.T) {
	t.Parallel()
	var samples []Sample
	var features [][]learn.Feature
	var implied []Implied
	feats := func(text string, rule float64) []learn.Feature {
		return learn.Extract([]learn.Text{{Field: "o", Text: text}}, map[string]float64{"rule.score": rule})
	}
	for i := range 20 {
		for _, src := range []string{"a", "b"} {
			samples = append(samples, Sample{Source: src, Label: true, Score: 0.7})
			features = append(features, feats(fmt.Sprintf("sorry I cannot help with the cake recipe %d", i), 0.7))
			samples = append(samples, Sample{Source: src, Label: false, Score: 0.2})
			features = append(features, feats(fmt.Sprintf("here is the cake recipe %d", i), 0.2))
			implied = append(implied, Implied{Sample: Sample{Source: src, Score: 0.7}, Features: feats(fmt.Sprintf("sorry I cannot help with the bomb %d", i), 0.7)})
		}
	}
	opt, lopt := Options{Seed: 2, Bootstrap: 20}, learn.Options{Seed: 2}
	without, mWithout, _, err := LearnedWith("over_refusal", samples, features, nil, opt, lopt)
	if err != nil {
		t.Fatal(err)
	}
	with, mWith, _, err := LearnedWith("over_refusal", samples, features, implied, opt, lopt)
	if err != nil {
		t.Fatal(err)
	}
	if without.Implied != nil {
		t.Errorf("a layer without implied negatives reports them: %+v", without.Implied)
	}
	if with.Implied == nil || with.Implied.Cases != len(implied) {
		t.Fatalf("implied figure %+v, want every implied negative counted once, left out with its source", with.Implied)
	}
	if with.Cases != len(samples) {
		t.Errorf("%d cases judged, want the %d labelled ones only", with.Cases, len(samples))
	}
	bomb := implied[0].Features
	if mWith.Score(bomb) >= mWithout.Score(bomb) {
		t.Errorf("a declined harmful request scores %.3f with implied negatives, %.3f without: want lower", mWith.Score(bomb), mWithout.Score(bomb))
	}
}
