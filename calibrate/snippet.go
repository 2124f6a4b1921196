package calibrate

import (
	"fmt"
	"io"
	"strings"
)

// WriteThresholds writes the calibrated thresholds as a Warden config snippet (the detectors section),
// each with the figures behind it, so the file can be pasted into a config or given to
// `warden scan --config` as it is.
func WriteThresholds(w io.Writer, r Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Detector thresholds chosen by warden calibrate: %d-fold cross-validation, seed %d,\n", r.Folds, r.Seed)
	fmt.Fprintf(&b, "# on %s (sha256 %s), corpora %s.\n", strings.Join(r.Data.Files, ", "), short(r.Data.SHA256), short(r.CorpusHash))
	fmt.Fprintf(&b, "# Each comment gives the out-of-fold F1 with its 95 %% bootstrap interval (%d resamples).\n", r.Bootstrap)
	b.WriteString("version: 1\ndetectors:\n  thresholds:\n")
	for _, d := range r.Detectors {
		fmt.Fprintf(&b, "    %s: %.2f  # F1 %.3f [%.3f, %.3f], precision %.3f, recall %.3f, %d cases\n",
			d.Detector, d.Threshold, d.F1, d.CI.F1.Low, d.CI.F1.High, d.Precision, d.Recall, d.Cases)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func short(hash string) string {
	if len(hash) > 16 {
		return hash[:16]
	}
	return hash
}
