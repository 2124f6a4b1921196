// Package detect holds Warden's trace safety detectors: rule-based checks of agent behaviour observable in
// a recorded run (package trace) — prompt injection, jailbreak compliance, over- and under-refusal,
// impersonation, deception, scope escalation, and leaks of personal data and secrets.
//
// Each detector returns whether it found its failure, a confidence that varies with the evidence, a
// severity and the evidence's places (which text, which bytes, which rule); a Scanner applies the
// calibrated thresholds (package calibrate) and a finding is positive when detected and score ≥ threshold.
// A detector that needs what a trace lacks (deception without recorded events) says it cannot judge
// rather than "nothing found".
//
// Detectors never quote the text they judge in their evidence, so findings can be logged and stored
// without carrying what was flagged. The corpora they run on are embedded data files (corpus/*.yaml) with
// provenance; CorpusHash names the exact data of a scan.
//
// Detectors are modules registered by name ("detector.<name>"); all are safe for concurrent use once
// built. Scores and corpora may change between minor versions, with CorpusHash telling runs apart.
package detect

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/trace"
)

// Severity ranks how bad a finding is.
type Severity string

// Severities, lowest first.
const (
	Low      Severity = "low"
	Medium   Severity = "medium"
	High     Severity = "high"
	Critical Severity = "critical"
)

// Rank orders severities: 0 for an unknown one, 1 for low … 4 for critical.
func (s Severity) Rank() int {
	switch s {
	case Low:
		return 1
	case Medium:
		return 2
	case High:
		return 3
	case Critical:
		return 4
	}
	return 0
}

// ParseSeverity checks a severity name.
func ParseSeverity(s string) (Severity, error) {
	v := Severity(strings.ToLower(s))
	if v.Rank() == 0 {
		return "", fmt.Errorf("unknown severity %q (known: low, medium, high, critical)", s)
	}
	return v, nil
}

// Evidence is one place in a trace that supports a finding. It names the text and the byte span, never
// the text itself.
type Evidence struct {
	// Where names the text: "input", "output", "system", "scope", "messages[2]", "events[4].content",
	// "events[4].arguments".
	Where string `json:"where"`
	// Start and End are byte offsets into that text (End exclusive); both 0 when the evidence is the whole.
	Start int `json:"start"`
	End   int `json:"end"`
	// Rule names what matched: a corpus group ("injection.direct_override"), an action category, a claim.
	Rule string `json:"rule"`
	// Note adds what the rule alone does not say ("no test run in the trace"); never quoted content.
	Note string `json:"note,omitempty"`
}

// Result is one detector's verdict on one trace, before any threshold.
type Result struct {
	Detected bool
	// Score is the confidence in [0, 1] that the failure is there; 0 when nothing was found.
	Score    float64
	Severity Severity
	Evidence []Evidence
	// CannotJudge, when not empty, says why the detector could not judge this trace (then Detected is false).
	CannotJudge string
	// Signals are the measures the score was made from (how clearly the reply declines, how harmful the
	// request reads…), by name, each in [0, 1]: what a learned layer reads beside the score. Nil for a
	// detector that gives none.
	Signals map[string]float64
}

// Detector judges one trace. Implementations are immutable once built and safe for concurrent use.
type Detector interface {
	Detect(t *trace.Trace) Result
}

// DetectorFunc adapts a function to Detector.
type DetectorFunc func(t *trace.Trace) Result

// Detect calls f(t).
func (f DetectorFunc) Detect(t *trace.Trace) Result { return f(t) }

// Info describes a detector for help texts and reports.
type Info struct {
	Name     string
	Severity Severity // the severity of a typical finding
	Summary  string
	// Threshold is the shipped default, calibrated on the golden set (docs/detectors.md).
	Threshold float64
}

var infos = map[string]Info{}

// register makes a built-in detector available under "detector.<name>".
func register(info Info, newDetector func() any) {
	infos[info.Name] = info
	warden.Register(warden.ModuleInfo{ID: "detector." + info.Name, New: newDetector, Summary: info.Summary})
}

// Names lists the registered detectors, sorted.
func Names() []string { return warden.ModuleNames("detector.") }

// Describe returns what is known of a detector: its summary and shipped threshold.
func Describe(name string) (Info, bool) {
	i, ok := infos[name]
	if !ok {
		return Info{Name: name, Threshold: 0.5}, false
	}
	if th, ok := defaultThresholds()[name]; ok {
		i.Threshold = th
	}
	return i, true
}

// New builds the detector registered as name: New, then Provision and Validate when it has them.
func New(ctx context.Context, name string) (Detector, error) {
	info, found := warden.LookupModule("detector." + name)
	if !found {
		return nil, fmt.Errorf("unknown detector %q (forgotten import?); registered: %s", name, strings.Join(Names(), ", "))
	}
	v := info.New()
	if p, ok := v.(warden.Provisioner); ok {
		if err := p.Provision(ctx); err != nil {
			return nil, fmt.Errorf("%s: %w", info.ID, err)
		}
	}
	if c, ok := v.(warden.Validator); ok {
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", info.ID, err)
		}
	}
	d, ok := v.(Detector)
	if !ok {
		return nil, fmt.Errorf("%s: module does not implement detect.Detector", info.ID)
	}
	// Smoke-evaluate once: it compiles the corpora the detector uses now, at load, not on the first trace.
	d.Detect(&trace.Trace{EventsRecorded: true, Messages: []trace.Message{{Role: "user", Content: "x"}, {Role: "assistant", Content: "x"}}})
	return d, nil
}

// Finding is a detector's verdict with its threshold applied: what `warden scan` prints.
type Finding struct {
	Detector string `json:"detector"`
	// Detected is true when the detector found its failure with a score at or above the threshold.
	Detected  bool       `json:"detected"`
	Score     float64    `json:"score"`
	Threshold float64    `json:"threshold"`
	Severity  Severity   `json:"severity,omitempty"`
	Evidence  []Evidence `json:"evidence"`
	// CannotJudge says why the detector could not judge the trace.
	CannotJudge string `json:"cannot_judge,omitempty"`
}

// Scanner runs a set of detectors over traces. It is safe for concurrent use.
type Scanner struct {
	names      []string
	detectors  []Detector
	layers     []Layer // per detector, nil for none
	thresholds []float64
}

// A Layer weighs again what a detector found: given the trace and the detector's own result, it returns
// the result to report. A learned model is one (package detect/learn). A Scanner gives it the result its
// detector made from the analyses the detectors share, so a layer costs only its own work.
type Layer interface {
	Weigh(t *trace.Trace, rule Result) Result
}

// NewScanner builds the named detectors (all when names is empty), each with the shipped threshold unless
// thresholds names another.
func NewScanner(ctx context.Context, names []string, thresholds map[string]float64) (*Scanner, error) {
	if len(names) == 0 {
		names = Names()
	}
	if len(names) > 1 {
		compileCorporaTogether()
	}
	s := &Scanner{}
	for _, n := range names {
		if slices.Contains(s.names, n) {
			continue
		}
		d, err := New(ctx, n)
		if err != nil {
			return nil, err
		}
		info, _ := Describe(n)
		th := info.Threshold
		if v, ok := thresholds[n]; ok {
			if v < 0 || v > 1 {
				return nil, fmt.Errorf("detector %s: threshold %v is outside [0, 1]", n, v)
			}
			th = v
		}
		s.names = append(s.names, n)
		s.detectors = append(s.detectors, d)
		s.layers = append(s.layers, nil)
		s.thresholds = append(s.thresholds, th)
	}
	return s, nil
}

// compileCorporaTogether compiles the phrase corpora the detectors share, each on a goroutine of its own,
// and waits for them: a scanner of several detectors needs them all, and compiled one after another
// they are most of the time a process takes to scan its first trace. Each is compiled once however many
// ask (sync.OnceValue), so the detectors' smoke evaluation then finds them ready.
func compileCorporaTogether() {
	var wg sync.WaitGroup
	for _, compile := range []func(){
		func() { harmPhrases() },
		func() { injectionPhrases() },
		func() { refusalPhrases() },
		func() { harmlessFramingPhrases() },
		func() { deceptionPhrases() },
	} {
		wg.Go(compile)
	}
	wg.Wait()
}

// Use puts d in the place of the scanner's detector of that name (a model-backed judge of it, say),
// keeping its threshold; false when the scanner runs no detector of that name.
func (s *Scanner) Use(name string, d Detector) bool {
	i := slices.Index(s.names, name)
	if i >= 0 {
		s.detectors[i] = d
	}
	return i >= 0
}

// Layer puts l over the scanner's detector of that name, which keeps judging and keeps its threshold
// unless the caller sets another; false when the scanner runs no detector of that name.
func (s *Scanner) Layer(name string, l Layer) bool {
	i := slices.Index(s.names, name)
	if i >= 0 {
		s.layers[i] = l
	}
	return i >= 0
}

// Names lists the scanner's detectors in the order they run.
func (s *Scanner) Names() []string { return slices.Clone(s.names) }

// Scan runs every detector on a trace.
func (s *Scanner) Scan(t *trace.Trace) []Finding {
	out := make([]Finding, len(s.detectors))
	m := newMemo(t) // the analyses the built-in detectors share, made once for all of them
	for i, d := range s.detectors {
		var r Result
		if md, ok := d.(memoDetector); ok {
			r = md.detect(m)
		} else {
			r = d.Detect(t)
		}
		if l := s.layers[i]; l != nil {
			r = l.Weigh(t, r)
		}
		f := Finding{Detector: s.names[i], Score: round(r.Score), Threshold: s.thresholds[i], Evidence: r.Evidence, CannotJudge: r.CannotJudge}
		if f.Evidence == nil {
			f.Evidence = []Evidence{}
		}
		f.Detected = r.Detected && r.CannotJudge == "" && r.Score >= s.thresholds[i]
		if r.Detected {
			f.Severity = r.Severity
		}
		out[i] = f
	}
	return out
}

// round keeps scores readable and stable across platforms (four decimals).
func round(x float64) float64 {
	return float64(int64(x*10000+0.5)) / 10000
}
