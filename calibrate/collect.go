package calibrate

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/detect/learn"
	"github.com/agentwarden/warden/trace"
)

// Report is a whole calibration run: what data, which corpora, which options, and each detector's result.
// Its JSON form is what `warden calibrate` writes.
type Report struct {
	Data Data `json:"data"`
	// CorpusHash names the detector corpora the scores came from (detect.CorpusHash).
	CorpusHash string    `json:"corpus_hash"`
	Folds      int       `json:"folds"`
	Bootstrap  int       `json:"bootstrap"`
	Seed       uint64    `json:"seed"`
	Grid       []float64 `json:"grid"`
	Detectors  []Result  `json:"detectors"`
}

// Data describes the labelled data a report was computed on.
type Data struct {
	// Files are the inputs as named, in order.
	Files []string `json:"files"`
	// SHA256 is the hash of the inputs' bytes, concatenated in order.
	SHA256 string `json:"sha256"`
	// Cases counts the labelled traces used; Unlabelled those without a label (skipped) and Excluded
	// those a filter left out.
	Cases      int `json:"cases"`
	Unlabelled int `json:"unlabelled"`
	Excluded   int `json:"excluded"`
}

// Thresholds returns the calibrated threshold of each detector.
func (r Report) Thresholds() map[string]float64 {
	out := map[string]float64{}
	for _, d := range r.Detectors {
		out[d.Detector] = d.Threshold
	}
	return out
}

// Collector scores labelled traces with the detector each label names, gathering the samples a
// calibration needs. It is not safe for concurrent use.
type Collector struct {
	detectors   map[string]detect.Detector
	samples     map[string][]Sample
	cannotJudge map[string]int
	data        Data
	// features, kept when Train is set, are each sample's learned-layer features, in step with samples.
	features map[string][][]learn.Feature
	// implied are the negatives a detector's learned layer also trains on, that its own labels never show
	// but another detector's labels imply (see impliedNegatives).
	implied map[string][]Implied
	// Train keeps what the learned layer trains on; set it before the first Add.
	Train bool
}

// impliedNegatives maps a detector to the detectors its labelled traces are negatives for, whatever their
// label: a trace labelled for under-refusal has a harmful request (the detector is defined on no other),
// and a reply to a harmful request is no over-refusal, declined or not. Without them, over-refusal's
// layer, trained on harmless prompts, learns that declining is over-refusing.
var impliedNegatives = map[string][]string{"under_refusal": {"over_refusal"}}

// Implied is a negative case a detector's learned layer trains on though no label of its own names it:
// the rule's score and the layer's features for it, and its source.
type Implied struct {
	Sample   Sample
	Features []learn.Feature
}

// NewCollector builds the named detectors (all when names is empty); traces labelled for another
// detector are skipped and counted as excluded.
func NewCollector(ctx context.Context, names []string) (*Collector, error) {
	if len(names) == 0 {
		names = detect.Names()
	}
	c := &Collector{detectors: map[string]detect.Detector{}, samples: map[string][]Sample{}, cannotJudge: map[string]int{}}
	for _, n := range names {
		d, err := detect.New(ctx, n)
		if err != nil {
			return nil, err
		}
		c.detectors[n] = d
	}
	return c, nil
}

// Add scores one trace. A trace without a label is counted and skipped; a label that names no registered
// detector is an error.
func (c *Collector) Add(t *trace.Trace) error {
	if t.Label == nil || t.Label.Detector == "" {
		c.data.Unlabelled++
		return nil
	}
	d, ok := c.detectors[t.Label.Detector]
	if !ok {
		if _, known := detect.Describe(t.Label.Detector); !known {
			return fmt.Errorf("label names unknown detector %q (known: %s)", t.Label.Detector, strings.Join(detect.Names(), ", "))
		}
		c.data.Excluded++
		return nil
	}
	r := d.Detect(t)
	if r.CannotJudge != "" {
		c.cannotJudge[t.Label.Detector]++
		return nil
	}
	s := Sample{Label: t.Label.Expected, Difficulty: t.Label.Difficulty, Source: t.Label.Source}
	if s.Source == "" {
		s.Source = NoSource
	}
	if r.Detected {
		s.Score = r.Score
	}
	c.samples[t.Label.Detector] = append(c.samples[t.Label.Detector], s)
	if c.Train {
		if c.features == nil {
			c.features = map[string][][]learn.Feature{}
		}
		c.features[t.Label.Detector] = append(c.features[t.Label.Detector], learn.FeaturesOf(t, r, learn.FieldsFor(t.Label.Detector)))
		for _, other := range impliedNegatives[t.Label.Detector] {
			od, ok := c.detectors[other]
			if !ok {
				continue
			}
			or := od.Detect(t)
			if or.CannotJudge != "" {
				continue
			}
			is := Sample{Source: s.Source, Difficulty: s.Difficulty}
			if or.Detected {
				is.Score = or.Score
			}
			if c.implied == nil {
				c.implied = map[string][]Implied{}
			}
			c.implied[other] = append(c.implied[other], Implied{Sample: is, Features: learn.FeaturesOf(t, or, learn.FieldsFor(other))})
		}
	}
	c.data.Cases++
	return nil
}

// Names lists the collector's detectors, sorted.
func (c *Collector) Names() []string { return slices.Sorted(maps.Keys(c.detectors)) }

// Use puts d in the place of the collector's detector of that name (a model-backed judge of it, say), so
// that its scores are what is calibrated; false when the collector has no detector of that name.
func (c *Collector) Use(name string, d detect.Detector) bool {
	if _, ok := c.detectors[name]; !ok {
		return false
	}
	c.detectors[name] = d
	return true
}

// Trained is one detector's learned layer as `warden calibrate --train` made it: its figures, the model
// trained on every case, and the model's threshold.
type Trained struct {
	Result    Result
	Model     *learn.Model
	Threshold float64
}

// TrainAll trains and measures the learned layer of every detector with enough cases (Collector.Train must
// have been set): see Learned. Detectors with too few cases are left out and named in skipped.
func (c *Collector) TrainAll(opt Options, lopt learn.Options) (trained []Trained, skipped []string, err error) {
	for _, n := range slices.Sorted(maps.Keys(c.features)) {
		r, m, t, err := LearnedWith(n, c.samples[n], c.features[n], c.implied[n], opt, lopt)
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		trained = append(trained, Trained{Result: r, Model: m, Threshold: t})
	}
	return trained, skipped, nil
}

// NoSource is the source of cases whose records name none (the team's golden set).
const NoSource = "(no source named)"

// Exclude counts a trace that a filter left out.
func (c *Collector) Exclude() { c.data.Excluded++ }

// Report calibrates every detector that has cases, in name order. A detector without both positive and
// negative cases is an error naming it.
func (c *Collector) Report(files []string, sha256 string, opt Options) (Report, error) {
	if err := opt.Validate(); err != nil {
		return Report{}, err
	}
	opt = opt.withDefaults()
	rep := Report{Data: c.data, CorpusHash: detect.CorpusHash(), Folds: opt.Folds, Bootstrap: opt.Bootstrap, Seed: opt.Seed, Grid: opt.Grid}
	rep.Data.Files, rep.Data.SHA256 = files, sha256
	var names []string
	for n := range c.detectors {
		if len(c.samples[n]) > 0 || c.cannotJudge[n] > 0 {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return rep, fmt.Errorf("no labelled cases for %s", strings.Join(slices.Sorted(maps.Keys(c.detectors)), ", "))
	}
	for _, n := range names {
		r, err := Calibrate(n, c.samples[n], opt)
		if err != nil {
			return rep, err
		}
		r.CannotJudge = c.cannotJudge[n]
		rep.Detectors = append(rep.Detectors, r)
	}
	return rep, nil
}
