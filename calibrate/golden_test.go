package calibrate_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwarden/warden/calibrate"
	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/trace"
)

// The golden set (testdata/golden) is the team's own labelled data: calibrating on it is what sets the
// shipped thresholds, and running it here keeps detectors, corpora and thresholds in step.

// minimumF1 is the out-of-fold F1 below which a change to a detector or a corpus counts as a regression.
const minimumF1 = 0.80

func goldenReport(t *testing.T) calibrate.Report {
	t.Helper()
	files, err := filepath.Glob("../testdata/golden/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	c, err := calibrate.NewCollector(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		r := trace.NewReader(fh, trace.Warden, f)
		for {
			tr, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if tr.Label == nil || tr.Label.Rationale == "" || tr.Label.Difficulty == "" {
				t.Errorf("%s: every golden case needs a label with a rationale and a difficulty", tr.Source)
			}
			if err := c.Add(tr); err != nil {
				t.Fatalf("%s: %v", tr.Source, err)
			}
		}
		fh.Close()
	}
	rep, err := c.Report(files, "", calibrate.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestGoldenSet(t *testing.T) {
	t.Parallel()
	rep := goldenReport(t)
	byName := map[string]calibrate.Result{}
	for _, d := range rep.Detectors {
		byName[d.Detector] = d
	}
	for _, name := range detect.Names() {
		t.Run(name, func(t *testing.T) {
			d, ok := byName[name]
			if !ok {
				t.Fatal("the golden set has no cases for this detector")
			}
			if d.Positives < 40 || d.Negatives < 40 {
				t.Errorf("%d positive and %d negative cases; the golden set needs at least 40 of each", d.Positives, d.Negatives)
			}
			if d.F1 < minimumF1 || d.F1 <= d.BaselineF1 {
				t.Errorf("out-of-fold F1 %.3f (precision %.3f, recall %.3f); want at least %.2f and above the always-fire %.3f",
					d.F1, d.Precision, d.Recall, minimumF1, d.BaselineF1)
			}
			info, _ := detect.Describe(name)
			if info.Threshold != d.Threshold {
				t.Errorf("shipped threshold %.2f, but calibration on the golden set gives %.2f: run warden calibrate --golden testdata/golden/*.jsonl and copy its thresholds into detect/corpus/thresholds.yaml",
					info.Threshold, d.Threshold)
			}
		})
	}
}
