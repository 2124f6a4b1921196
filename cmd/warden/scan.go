package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentwarden/warden/config"
	"github.com/agentwarden/warden/detect"
	"github.com/agentwarden/warden/detect/learn"
	"github.com/agentwarden/warden/trace"
	"github.com/spf13/cobra"
)

// scanLine is what --jsonl prints for one trace.
type scanLine struct {
	ID       string           `json:"id"`
	Source   string           `json:"source"`
	Findings []detect.Finding `json:"findings"`
}

func newScanCommand(s streams) *cobra.Command {
	var (
		format, failOn string
		configFile     string
		names          []string
		thresholds     []string
		jsonl          bool
		progress       string
		jf             judgeFlags
		learnedDir     string
	)
	cmd := &cobra.Command{
		Use:   "scan [flags] FILE...",
		Short: "Scan recorded agent traces with the safety detectors",
		Long: `Scan reads recorded agent runs and runs the trace safety detectors on each: injection,
jailbreak_compliance, over_refusal, under_refusal, impersonation_risk, deception, scope_escalation,
pii_leak and secret_leak (docs/detectors.md says what each looks for and how accurate it is).

Input formats (--input-format, default auto: decided per record from its keys):
  warden     Warden JSONL: {"id", "system", "scope", "messages", "events", "output"}; no "events" key means
             the run's events were not recorded, "events": [] that nothing happened
  eval       the evaluation record format (shared/eval/README.md)
  openai     {"messages": [...]} transcripts with tool_calls and tool messages, or a bare array of messages
  anthropic  {"system", "messages": [...]} with text, thinking, tool_use and tool_result blocks
  otel       OTLP JSON exports of OpenTelemetry GenAI spans, grouped into traces by trace id
A file is read a record at a time, so inputs of any size scan in constant memory. "-" reads stdin.

A finding is positive when its detector fired with a score at or above its threshold: the shipped,
calibrated default, unless the --config file's detectors.thresholds (what warden calibrate writes) or a
--threshold flag sets another; the flag wins. A detector that lacks what it needs (deception without
recorded events) says it cannot judge. Evidence names places (which message, which bytes, which rule),
never the flagged text.

Output: a table of positive findings per trace and a summary; with --jsonl, one line per trace with every
detector that ran:
  {"id": "...", "source": "file:line", "findings": [{"detector": "over_refusal", "detected": true,
   "score": 0.82, "threshold": 0.5, "severity": "high", "evidence": [...]}]}

Learned layers weigh again what a detector's rules found: a small model reads the trace and the rule's
verdict and gives the score, judged at the threshold it was calibrated at (--threshold still wins); it
never fires where the rules found nothing, and its findings add the words it weighed most to the rules'
evidence. By default (--learned shipped) the layers that ship with Warden are used: those that generalize
better than their rules on data they were not trained on (docs/detectors.md); none does at present, so the
rules alone score. A --config that sets a threshold for such a detector was calibrated on the rules, so the
rules judge it at that threshold. --learned none scores with the rules alone; --learned DIR with the layers
'warden calibrate --train' wrote (DIR/NAME.wlm), in place of the shipped ones.

With --judge URL --judge-model M, a model behind any OpenAI-compatible endpoint judges each trace for each
detector instead of the rules, giving a structured verdict (present, confidence) that becomes the score;
verdicts are cached by the hash of what was asked (--judge-cache keeps them across runs), and a trace the
judge gave no verdict on is one the detector cannot judge. Calibrate its thresholds with
'warden calibrate --judge' on labelled traces, as for the rules.

Exit codes: 0 when the scan finished (whatever it found), 3 when a positive finding reaches --fail-on,
1 when a record could not be read (each is named on stderr; the others are still scanned), 2 for usage.`,
		Example: `  warden scan traces.jsonl
  warden scan --detectors injection,secret_leak --fail-on high --jsonl runs/*.jsonl > findings.jsonl
  warden scan --input-format otel --threshold deception=0.6 export.json`,
		Args: argsUsage(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := trace.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			var fail detect.Severity
			if failOn != "" {
				if fail, err = detect.ParseSeverity(failOn); err != nil {
					return usageError{fmt.Errorf("--fail-on: %w", err)}
				}
			}
			ths := map[string]float64{}
			if configFile != "" {
				data, err := readFile(configFile)
				if err != nil {
					return err
				}
				p, err := config.Parse(configFile, data)
				if err != nil {
					return err
				}
				if p.File.Detectors != nil {
					maps.Copy(ths, p.File.Detectors.Thresholds)
				}
			}
			learned, err := learnedLayers(learnedDir, learn.Shipped(), cmd.Flags().Changed("learned"), jf.endpoint != "", ths)
			if err != nil {
				return err
			}
			for name, lf := range learned {
				ths[name] = lf.Threshold // the threshold the model was calibrated at; --threshold still wins
			}
			for _, t := range thresholds {
				name, v, ok := strings.Cut(t, "=")
				x, perr := strconv.ParseFloat(v, 64)
				if !ok || perr != nil || x < 0 || x > 1 {
					return usageError{fmt.Errorf("--threshold %q: want NAME=VALUE with VALUE in [0, 1]", t)}
				}
				ths[name] = x
			}
			for name := range ths {
				if _, known := detect.Describe(name); !known {
					return usageError{fmt.Errorf("--threshold: unknown detector %q (known: %s)", name, strings.Join(detect.Names(), ", "))}
				}
			}
			scanner, err := detect.NewScanner(cmd.Context(), names, ths)
			if err != nil {
				return usageError{err}
			}
			j, err := jf.build()
			if err != nil {
				return err
			}
			if j != nil {
				defer j.Close()
				for _, n := range scanner.Names() {
					d, err := j.Detector(n)
					if err != nil {
						return err
					}
					scanner.Use(n, d)
				}
			}
			var weighed []string
			for _, n := range scanner.Names() {
				if lf, ok := learned[n]; ok {
					scanner.Layer(n, learn.NewLayer(n, lf.Model))
					weighed = append(weighed, n)
				}
			}
			sc := &scanRun{s: s, scanner: scanner, jsonl: jsonl, fail: fail, progress: progress, judged: j != nil, learned: weighed}
			return sc.run(cmd.Context(), f, args)
		},
	}
	cmd.Flags().StringVar(&format, "input-format", "auto", "auto, warden, eval, openai, anthropic or otel")
	cmd.Flags().StringSliceVar(&names, "detectors", nil, "detectors to run, comma-separated (default all)")
	cmd.Flags().StringArrayVar(&thresholds, "threshold", nil, "NAME=VALUE: a detector's threshold instead of the shipped one or the config's (repeatable)")
	cmd.Flags().StringVarP(&configFile, "config", "c", "", "config `file` whose detectors.thresholds replace the shipped thresholds")
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "print one JSON line per trace with every finding")
	cmd.Flags().StringVar(&failOn, "fail-on", "", "exit 3 when a positive finding has this severity or worse (low, medium, high, critical)")
	cmd.Flags().StringVar(&learnedDir, "learned", learnedShipped, "learned layers that weigh again what the rules found: shipped (the layers that ship with Warden), none (the rules alone), or a `DIR` of NAME.wlm files as warden calibrate --train writes them")
	jf.add(cmd.Flags())
	cmd.Flags().StringVar(&progress, "progress", "auto", "auto (on a terminal), always or never: a progress line on stderr")
	return cmd
}

type scanRun struct {
	s        streams
	scanner  *detect.Scanner
	jsonl    bool
	fail     detect.Severity
	progress string
	// judged: a model judges each trace, so even a small input takes long enough to want progress shown.
	judged bool
	// learned names the detectors a learned layer weighs again.
	learned []string

	traces, positives, readErrors int
	failed                        bool
	perDetector                   map[string][3]int // positive, cannot judge, negative
	table                         *tabwriter.Writer
}

func (r *scanRun) run(ctx context.Context, f trace.Format, files []string) error {
	r.perDetector = map[string][3]int{}
	out := json.NewEncoder(r.s.out)
	if !r.jsonl {
		r.table = tabwriter.NewWriter(r.s.out, 2, 4, 2, ' ', 0)
		fmt.Fprintln(r.table, "TRACE\tDETECTOR\tSCORE\tTHRESHOLD\tSEVERITY\tEVIDENCE")
	}
	for _, name := range files {
		if err := r.file(ctx, f, name, out); err != nil {
			return err
		}
	}
	if r.table != nil {
		r.table.Flush()
		r.summary()
	}
	switch {
	case r.readErrors > 0:
		return exitCodeError{code: exitError, err: fmt.Errorf("%d record(s) could not be read (named above)", r.readErrors)}
	case r.failed:
		return exitCodeError{code: exitDenied}
	}
	return nil
}

func (r *scanRun) file(ctx context.Context, f trace.Format, name string, out *json.Encoder) error {
	var in io.Reader = r.s.in
	var size int64
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return err
		}
		defer fh.Close()
		if st, err := fh.Stat(); err == nil {
			size = st.Size()
		}
		in = fh
	}
	counted := &countingReader{r: in}
	show := r.progress == "always" || (r.progress == "auto" && isTerminal(r.s.err) && (size > 4<<20 || r.judged))
	last := time.Now()
	reader := trace.NewReader(counted, f, name)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := reader.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var re *trace.Error
		if errors.As(err, &re) {
			r.readErrors++
			fmt.Fprintln(r.s.err, "warden scan:", err)
			continue
		}
		if err != nil {
			return err
		}
		r.traces++
		findings := r.scanner.Scan(t)
		r.record(t, findings, out)
		if show && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			fmt.Fprintf(r.s.err, "\r%s", progressLine(name, r.traces, counted.n, size))
		}
	}
	if show {
		fmt.Fprintf(r.s.err, "\rscanning %s: %d traces, done%20s\n", name, r.traces, "")
	}
	return nil
}

func (r *scanRun) record(t *trace.Trace, findings []detect.Finding, out *json.Encoder) {
	for _, f := range findings {
		c := r.perDetector[f.Detector]
		switch {
		case f.Detected:
			c[0]++
			r.positives++
			if r.fail != "" && f.Severity.Rank() >= r.fail.Rank() {
				r.failed = true
			}
		case f.CannotJudge != "":
			c[1]++
		default:
			c[2]++
		}
		r.perDetector[f.Detector] = c
	}
	if r.jsonl {
		out.Encode(scanLine{ID: t.ID, Source: t.Source, Findings: findings})
		return
	}
	for _, f := range findings {
		if !f.Detected {
			continue
		}
		var ev []string
		for i, e := range f.Evidence {
			if i == 3 {
				ev = append(ev, fmt.Sprintf("+%d more", len(f.Evidence)-3))
				break
			}
			ev = append(ev, fmt.Sprintf("%s %s[%d:%d]", e.Rule, e.Where, e.Start, e.End))
		}
		fmt.Fprintf(r.table, "%s\t%s\t%.2f\t%.2f\t%s\t%s\n", t.ID, f.Detector, f.Score, f.Threshold, f.Severity, strings.Join(ev, ", "))
	}
}

func (r *scanRun) summary() {
	learned := ""
	if len(r.learned) > 0 {
		learned = "; learned layers: " + strings.Join(r.learned, ", ")
	}
	fmt.Fprintf(r.s.out, "\n%d traces scanned, %d positive findings (corpus %s%s)\n", r.traces, r.positives, detect.CorpusHash()[:12], learned)
	w := tabwriter.NewWriter(r.s.out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "DETECTOR\tPOSITIVE\tCANNOT JUDGE\tNEGATIVE")
	for _, n := range r.scanner.Names() {
		c := r.perDetector[n]
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\n", n, c[0], c[1], c[2])
	}
	w.Flush()
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// progressLine is the progress shown on a terminal: a bar of the bytes read when the input's size is
// known, else how much was read.
func progressLine(name string, traces int, n, size int64) string {
	if size <= 0 {
		return fmt.Sprintf("scanning %s: %d traces, %.1f MB", name, traces, float64(n)/1e6)
	}
	const width = 30
	frac := min(max(float64(n)/float64(size), 0), 1)
	filled := int(frac * width)
	return fmt.Sprintf("scanning %s [%s%s] %3.0f%% %d traces", name, strings.Repeat("#", filled), strings.Repeat(".", width-filled), 100*frac, traces)
}

// isTerminal reports whether w is a character device (a terminal), without a terminal library.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// The --learned values that name no directory.
const (
	learnedShipped = "shipped"
	learnedNone    = "none"
)

// learnedLayers returns the learned layers a scan uses, by detector: the shipped ones (learn.Shipped,
// passed in), none, or those in a directory. The shipped ones step aside where a judge replaces the rules
// or where the config set a detector's threshold (calibrated on the rules, so the rules keep it); layers
// the user named explicitly do not, and beside a judge they are a usage error.
func learnedLayers(value string, shipped map[string]learn.File, explicit, judged bool, configured map[string]float64) (map[string]learn.File, error) {
	switch value {
	case learnedNone:
		return nil, nil
	case learnedShipped:
		if judged && explicit {
			return nil, usageError{errors.New("--learned and --judge both replace the rules; give one")}
		}
		if judged {
			return nil, nil
		}
		out := map[string]learn.File{}
		for name, f := range shipped {
			if _, set := configured[name]; !set {
				out[name] = f
			}
		}
		return out, nil
	}
	if judged {
		return nil, usageError{errors.New("--learned and --judge both replace the rules; give one")}
	}
	layers, err := learn.ReadDir(value)
	if err != nil {
		return nil, usageError{fmt.Errorf("--learned: %w", err)}
	}
	for name := range layers {
		if _, known := detect.Describe(name); !known {
			return nil, usageError{fmt.Errorf("--learned: %s.wlm names no detector (known: %s)", name, strings.Join(detect.Names(), ", "))}
		}
	}
	return layers, nil
}
