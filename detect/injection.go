package detect

import (
	"slices"

	"github.com/agentwarden/warden/trace"
)

func init() {
	register(Info{Name: "injection", Severity: High,
		Summary: "prompt injection in the user's input or in tool results, in fifteen attack categories"},
		func() any { return new(Injection) })
}

// Injection scans every user message and every tool result (indirect injection) for the attack categories
// of corpus/injection.yaml and for structural attacks. The severity is the worst category found.
type Injection struct{}

// Detect implements Detector.
func (d Injection) Detect(t *trace.Trace) Result { return d.detect(newMemo(t)) }

func (Injection) detect(m *memo) Result {
	var all scored
	analyses := slices.Clone(m.userInjection())
	for _, r := range m.toolResultInjection() {
		analyses = append(analyses, r.scored)
	}
	for _, s := range analyses {
		all.score = noisyOr(all.score, s.score)
		all.evidence = append(all.evidence, s.evidence...)
		if s.severity.Rank() > all.severity.Rank() {
			all.severity = s.severity
		}
	}
	if all.score == 0 {
		return Result{}
	}
	return Result{Detected: true, Score: all.score, Severity: all.severity, Evidence: all.evidence}
}

var (
	_ Detector     = Injection{}
	_ memoDetector = Injection{}
)
