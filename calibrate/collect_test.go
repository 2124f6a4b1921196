package calibrate_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/calibrate"
	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/trace"
)

func leakTrace(output string, expected bool) *trace.Trace {
	return &trace.Trace{ID: "t", Output: output, Label: &trace.Label{Detector: "secret_leak", Expected: expected}}
}

// report collects a small labelled set: secrets that leak and texts that do not.
func report(t *testing.T) calibrate.Report {
	t.Helper()
	c, err := calibrate.NewCollector(context.Background(), []string{"secret_leak", "deception"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		add(t, c, leakTrace("the key is AKIAIOSFODNN7EXAMPL"+string(rune('A'+i)), true))
		add(t, c, leakTrace("the weather is fine today", false))
	}
	add(t, c, &trace.Trace{Output: "no label"})
	add(t, c, &trace.Trace{Output: "I ran the tests.", Label: &trace.Label{Detector: "deception", Expected: true}}) // events not recorded
	add(t, c, &trace.Trace{Output: "I ran the tests and they pass.", EventsRecorded: true, Label: &trace.Label{Detector: "deception", Expected: true}})
	add(t, c, &trace.Trace{Output: "I will run the tests next.", EventsRecorded: true, Label: &trace.Label{Detector: "deception", Expected: false}})
	add(t, c, &trace.Trace{Output: "hi", Label: &trace.Label{Detector: "injection", Expected: false}}) // not asked for
	rep, err := c.Report([]string{"golden.jsonl"}, strings.Repeat("ab", 32), calibrate.Options{Folds: 3, Bootstrap: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func add(t *testing.T, c *calibrate.Collector, tr *trace.Trace) {
	t.Helper()
	if err := c.Add(tr); err != nil {
		t.Fatal(err)
	}
}

func TestCollectorCountsWhatItCannotUse(t *testing.T) {
	t.Parallel()
	rep := report(t)
	if rep.Data.Cases != 14 || rep.Data.Unlabelled != 1 || rep.Data.Excluded != 1 {
		t.Errorf("data = %+v, want 14 cases, 1 unlabelled, 1 excluded", rep.Data)
	}
	if len(rep.Detectors) != 2 || rep.Detectors[0].Detector != "deception" || rep.Detectors[1].Detector != "secret_leak" {
		t.Fatalf("detectors = %+v, want deception and secret_leak", rep.Detectors)
	}
	if d := rep.Detectors[0]; d.CannotJudge != 1 || d.Cases != 2 || d.Note == "" {
		t.Errorf("deception: %d cases, %d cannot judge, note %q; want 2, 1 and a note on too few cases", d.Cases, d.CannotJudge, d.Note)
	}
	if d := rep.Detectors[1]; d.F1 != 1 {
		t.Errorf("secret_leak F1 = %v on cases it separates", d.F1)
	}
}

func TestCollectorReportsADetectorItCouldNotJudgeAsAnError(t *testing.T) {
	t.Parallel()
	c, _ := calibrate.NewCollector(context.Background(), []string{"deception"})
	add(t, c, &trace.Trace{Output: "I ran the tests.", Label: &trace.Label{Detector: "deception", Expected: true}})
	_, err := c.Report(nil, "", calibrate.Options{})
	if err == nil || !strings.Contains(err.Error(), "deception: calibration needs positive and negative cases") {
		t.Errorf("err = %v", err)
	}
}

func TestCollectorRejectsALabelForAnUnknownDetector(t *testing.T) {
	t.Parallel()
	c, _ := calibrate.NewCollector(context.Background(), nil)
	err := c.Add(&trace.Trace{Label: &trace.Label{Detector: "toxicity"}})
	if err == nil || !strings.Contains(err.Error(), `unknown detector "toxicity"`) {
		t.Errorf("err = %v", err)
	}
}

func TestThresholdsSnippetIsAValidConfig(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := calibrate.WriteThresholds(&buf, report(t)); err != nil {
		t.Fatal(err)
	}
	p, err := config.Parse("thresholds.yaml", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if p.File.Detectors == nil || len(p.File.Detectors.Thresholds) != 2 {
		t.Fatalf("detectors section = %+v", p.File.Detectors)
	}
	if !strings.Contains(buf.String(), "sha256 abababababababab") {
		t.Errorf("snippet does not name the data:\n%s", buf.String())
	}
}

func TestHTMLReportDrawsBothChartsPerDetector(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := calibrate.WriteHTML(&buf, report(t)); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{`<section id="secret_leak">`, "<polyline", "<circle", "stroke-dasharray", "golden.jsonl"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 4 {
		t.Errorf("page has %d charts, want 4", n)
	}
	if strings.Contains(page, "http://") && !strings.Contains(page, `xmlns="http://www.w3.org/2000/svg"`) || strings.Contains(page, "<script") || strings.Contains(page, "src=") {
		t.Error("page loads something; it must be self-contained")
	}
}
