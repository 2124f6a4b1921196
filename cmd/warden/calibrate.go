package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/agentwarden/warden/calibrate"
	"github.com/agentwarden/warden/detect/learn"
	"github.com/agentwarden/warden/trace"
	"github.com/spf13/cobra"
)

func newCalibrateCommand(s streams) *cobra.Command {
	var (
		golden        []string
		format        string
		names         []string
		opt           calibrate.Options
		only          string
		dropAmbiguous bool
		outDir        string
		reportDir     string
		train         bool
		lopt          learn.Options
		jf            judgeFlags
	)
	cmd := &cobra.Command{
		Use:   "calibrate --golden FILE [FILE...] [flags]",
		Short: "Choose the detectors' thresholds on labelled traces and measure their accuracy",
		Long: `Calibrate runs each trace detector on the labelled traces of the golden files (each trace's label names
its detector and whether it should fire) and, per detector:

  - splits the cases into --folds stratified folds (the same share of positives in each), shuffled
    deterministically from --seed;
  - on each fold's complement, picks the threshold of highest F1 from the grid 0.10, 0.15, ... 0.90
    (ties go to the higher precision), and judges the held-out fold at it;
  - reports precision, recall and F1 pooled over the held-out folds, so that no case is judged at a
    threshold chosen with it, with 95 % percentile bootstrap intervals (--bootstrap resamples), the
    false-positive rate, the expected calibration error of the scores, and the F1 of a detector that
    always fires (a detector must beat it);
  - calibrates the threshold as the mean of the folds' thresholds, snapped to the grid.

A detector with fewer than --folds positive or negative cases is calibrated on all of its cases, and the
table says so. Cases a detector cannot judge (deception without recorded events) are counted and left out.

It prints a table and writes, into --out, calibration.json (every figure, the sweep and curve points,
the data's SHA-256 and the corpora's hash) and thresholds.yaml (a config snippet: give it to
'warden scan --config' or paste it into a config). With --report DIR it also writes DIR/index.html, a
page with a precision-recall curve and a threshold sweep per detector. Same data and seed, same numbers.

Golden files are read like 'warden scan' reads traces (--input-format); the team's golden set is in
testdata/golden/, and the evaluation record format carries labels too.

Exit codes: 0 done, 1 a record could not be read (each is named on stderr) or a detector lacks positive
or negative cases, 2 usage.`,
		Example: `  warden calibrate --golden testdata/golden/*.jsonl --report calibration-report
  warden calibrate --golden eval/dev.jsonl --only human --drop-ambiguous --detectors jailbreak_compliance`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Arguments after the flag are more golden files, so that a shell glob (--golden dir/*.jsonl) works.
			golden = append(golden, args...)
			if len(golden) == 0 {
				return usageError{errors.New("--golden: name at least one file of labelled traces")}
			}
			f, err := trace.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			if err := opt.Validate(); err != nil {
				return usageError{err}
			}
			keep, err := labelFilter(only, dropAmbiguous)
			if err != nil {
				return usageError{err}
			}
			c, err := calibrate.NewCollector(cmd.Context(), names)
			if err != nil {
				return usageError{err}
			}
			c.Train = train
			j, err := jf.build()
			if err != nil {
				return err
			}
			if j != nil {
				defer j.Close()
				for _, n := range c.Names() {
					d, err := j.Detector(n)
					if err != nil {
						return err
					}
					c.Use(n, d)
				}
			}
			sum := sha256.New()
			readErrors := 0
			for _, name := range golden {
				n, err := collectFile(cmd.Context(), s, c, f, name, sum, keep)
				if err != nil {
					return err
				}
				readErrors += n
			}
			rep, err := c.Report(golden, hex.EncodeToString(sum.Sum(nil)), opt)
			if err != nil {
				return err
			}
			printCalibration(s.out, rep)
			if err := writeCalibration(s, rep, outDir, reportDir); err != nil {
				return err
			}
			if train {
				trained, skipped, err := c.TrainAll(opt, learn.Options{Seed: opt.Seed, Epochs: lopt.Epochs, L2: lopt.L2})
				if err != nil {
					return err
				}
				printLearned(s.out, trained, skipped)
				if err := writeLearned(s, trained, rep.Data.SHA256, outDir); err != nil {
					return err
				}
			}
			if readErrors > 0 {
				return exitCodeError{code: exitError, err: fmt.Errorf("%d record(s) could not be read (named above); the figures leave them out", readErrors)}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&golden, "golden", nil, "labelled traces (repeatable, and further arguments are more files; \"-\" reads stdin)")
	cmd.Flags().StringVar(&format, "input-format", "auto", "auto, warden, eval, openai, anthropic or otel")
	cmd.Flags().StringSliceVar(&names, "detectors", nil, "detectors to calibrate, comma-separated (default every one the data labels)")
	cmd.Flags().IntVar(&opt.Folds, "folds", 5, "folds of the stratified cross-validation")
	cmd.Flags().IntVar(&opt.Bootstrap, "bootstrap", 1000, "bootstrap resamples for the 95% intervals")
	cmd.Flags().Uint64Var(&opt.Seed, "seed", 1, "seed of the fold and bootstrap shuffles")
	cmd.Flags().StringVar(&only, "only", "", "human or machine: keep only cases whose label a person, or a program, gave")
	cmd.Flags().BoolVar(&dropAmbiguous, "drop-ambiguous", false, "leave out cases labelled ambiguous")
	cmd.Flags().StringVar(&outDir, "out", ".", "directory for calibration.json and thresholds.yaml (\"\" writes neither)")
	cmd.Flags().StringVar(&reportDir, "report", "", "directory for an HTML report (index.html)")
	jf.add(cmd.Flags())
	cmd.Flags().IntVar(&lopt.Epochs, "train-epochs", 5, "passes over the data when training the learned layer")
	cmd.Flags().Float64Var(&lopt.L2, "train-l2", 1e-2, "L2 regularisation of the learned layer: higher leans more on the rules, less on the words")
	cmd.Flags().BoolVar(&train, "train", false, "also train each detector's learned layer on the data, report its out-of-fold and leave-one-source-out figures, and write its weights into --out/learned/")
	return cmd
}

// labelFilter keeps the cases that --only and --drop-ambiguous allow.
func labelFilter(only string, dropAmbiguous bool) (func(*trace.Label) bool, error) {
	switch only {
	case "", "human", "machine":
	default:
		return nil, fmt.Errorf("--only %q: want human or machine", only)
	}
	return func(l *trace.Label) bool {
		if l == nil {
			return true // the collector counts it as unlabelled
		}
		if dropAmbiguous && l.Ambiguous {
			return false
		}
		return only == "" || (only == "human") == l.Human
	}, nil
}

// collectFile feeds one file's traces to the collector, hashing its bytes; it returns how many records
// could not be read.
func collectFile(ctx context.Context, s streams, c *calibrate.Collector, f trace.Format, name string, sum hash.Hash, keep func(*trace.Label) bool) (int, error) {
	var in io.Reader = s.in
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return 0, err
		}
		defer fh.Close()
		in = fh
	}
	reader := trace.NewReader(io.TeeReader(in, sum), f, name)
	bad := 0
	for {
		if err := ctx.Err(); err != nil {
			return bad, err
		}
		t, err := reader.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *trace.Error
		if errors.As(err, &re) {
			bad++
			fmt.Fprintln(s.err, "warden calibrate:", err)
			continue
		}
		if err != nil {
			return bad, err
		}
		if !keep(t.Label) {
			c.Exclude()
			continue
		}
		if err := c.Add(t); err != nil {
			bad++
			fmt.Fprintf(s.err, "warden calibrate: %s: %v\n", t.Source, err)
		}
	}
	// Hash what the reader left unread too (a trailing comment, say), so the hash is the file's.
	_, err := io.Copy(sum, in)
	return bad, err
}

func printCalibration(out io.Writer, rep calibrate.Report) {
	w := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "DETECTOR\tTHRESHOLD\tPRECISION\tRECALL\tF1 [95% CI]\tALWAYS-FIRE F1\tFPR\tECE\tCASES (+/-)\tCANNOT JUDGE")
	for _, d := range rep.Detectors {
		fmt.Fprintf(w, "%s\t%.2f\t%.3f\t%.3f\t%.3f [%.3f, %.3f]\t%.3f\t%.3f\t%.3f\t%d (%d/%d)\t%d\n", d.Detector, d.Threshold,
			d.Precision, d.Recall, d.F1, d.CI.F1.Low, d.CI.F1.High, d.BaselineF1, d.FalsePositiveRate, d.ECE, d.Cases, d.Positives, d.Negatives, d.CannotJudge)
	}
	w.Flush()
	for _, d := range rep.Detectors {
		if d.Note != "" {
			fmt.Fprintf(out, "%s: %s\n", d.Detector, d.Note)
		}
	}
	printSourceOut(out, rep)
	fmt.Fprintf(out, "\n%d cases from %d file(s), sha256 %s; corpora %s; %d folds, %d resamples, seed %d\n",
		rep.Data.Cases, len(rep.Data.Files), rep.Data.SHA256[:16], rep.CorpusHash[:16], rep.Folds, rep.Bootstrap, rep.Seed)
}

// printLearned prints the learned layer's figures beside the rules'.
func printLearned(out io.Writer, trained []calibrate.Trained, skipped []string) {
	if len(trained) == 0 {
		fmt.Fprintln(out, "\nLearned layer: no detector has enough cases to train")
	} else {
		fmt.Fprintln(out, "\nLearned layer (hashed n-grams and the rule's verdict; every figure out of fold, thresholds from an inner cross-validation):")
		w := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(w, "DETECTOR\tTHRESHOLD\tPRECISION\tRECALL\tF1 [95% CI]\tFPR\tLEAVE-ONE-SOURCE-OUT F1 [95% CI]")
		for _, tr := range trained {
			d := tr.Result
			loso := "-"
			if so := d.SourceOut; so != nil && so.Counts != (calibrate.Counts{}) {
				loso = fmt.Sprintf("%.3f [%.3f, %.3f]", so.F1, so.CI.F1.Low, so.CI.F1.High)
			}
			fmt.Fprintf(w, "%s\t%.2f\t%.3f\t%.3f\t%.3f [%.3f, %.3f]\t%.3f\t%s\n", d.Detector, tr.Threshold, d.Precision, d.Recall, d.F1, d.CI.F1.Low, d.CI.F1.High, d.FalsePositiveRate, loso)
		}
		w.Flush()
		for _, tr := range trained {
			if im := tr.Result.Implied; im != nil {
				fmt.Fprintf(out, "%s on the %d negatives other detectors' labels imply, each left out with its source: the layer fires on %d, its rules on %d\n",
					tr.Result.Detector, im.Cases, im.LayerFires, im.RuleFires)
			}
		}
		printSourceOut(out, calibrate.Report{Detectors: results(trained)})
	}
	for _, s := range skipped {
		fmt.Fprintf(out, "not trained: %s\n", s)
	}
}

func results(trained []calibrate.Trained) []calibrate.Result {
	out := make([]calibrate.Result, len(trained))
	for i, t := range trained {
		out[i] = t.Result
	}
	return out
}

// writeLearned writes each trained model into outDir/learned/DETECTOR.wlm.
func writeLearned(s streams, trained []calibrate.Trained, dataSHA string, outDir string) error {
	if outDir == "" || len(trained) == 0 {
		return nil
	}
	dir := filepath.Join(outDir, "learned")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, t := range trained {
		b, err := learn.File{Model: t.Model, Threshold: t.Threshold, DataSHA256: dataSHA}.MarshalBinary()
		if err != nil {
			return err
		}
		path := filepath.Join(dir, t.Result.Detector+".wlm")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(s.err, "wrote %s (%d KB)\n", path, len(b)/1024)
	}
	return nil
}

// printSourceOut prints the leave-one-source-out figures of the detectors whose cases come from several
// sources: each source judged at the threshold chosen on the others.
func printSourceOut(out io.Writer, rep calibrate.Report) {
	var any bool
	for _, d := range rep.Detectors {
		any = any || d.SourceOut != nil
	}
	if !any {
		return
	}
	fmt.Fprintln(out, "\nLeave one source out (each source judged at the threshold chosen on the others):")
	w := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "DETECTOR\tSOURCE\tCASES (+/-)\tTHRESHOLD\tF1\tPRECISION\tRECALL\tFPR")
	for _, d := range rep.Detectors {
		so := d.SourceOut
		if so == nil {
			continue
		}
		for _, f := range so.Sources {
			if f.Note != "" {
				fmt.Fprintf(w, "%s\t%s\t%d (%d/%d)\t-\t-\t-\t-\t-\n", d.Detector, f.Source, f.Cases, f.Positives, f.Negatives)
				continue
			}
			fmt.Fprintf(w, "%s\t%s\t%d (%d/%d)\t%.2f\t%.3f [%.3f, %.3f]\t%.3f\t%.3f [%.3f, %.3f]\t%.3f\n", d.Detector, f.Source, f.Cases, f.Positives, f.Negatives,
				f.Threshold, f.F1, f.F1CI.Low, f.F1CI.High, f.Counts.Precision(), f.Counts.Recall(), f.RecallCI.Low, f.RecallCI.High, f.Counts.FalsePositiveRate())
		}
		if so.Counts != (calibrate.Counts{}) {
			fmt.Fprintf(w, "%s\tall, pooled\t\t\t%.3f [%.3f, %.3f]\t%.3f\t%.3f\t%.3f\n", d.Detector, so.F1, so.CI.F1.Low, so.CI.F1.High, so.Precision, so.Recall, so.FalsePositiveRate)
		}
	}
	w.Flush()
	fmt.Fprintln(out, "(a source shown with - holds one class only where the others hold the other: it cannot be judged this way)")
}

func writeCalibration(s streams, rep calibrate.Report, outDir, reportDir string) error {
	type output struct {
		path  string
		write func(io.Writer) error
	}
	var files []output
	if outDir != "" {
		files = append(files,
			output{filepath.Join(outDir, "calibration.json"), func(w io.Writer) error {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}},
			output{filepath.Join(outDir, "thresholds.yaml"), func(w io.Writer) error { return calibrate.WriteThresholds(w, rep) }})
	}
	if reportDir != "" {
		files = append(files, output{filepath.Join(reportDir, "index.html"), func(w io.Writer) error { return calibrate.WriteHTML(w, rep) }})
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f.path, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(s.err, "wrote", f.path)
	}
	return nil
}
