package safety

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden"
)

// Termination is a detected safety stop.
type Termination struct {
	// Detector is the name of the detector that fired.
	Detector string
	// Field and Value are the provider signal, the value as received (original case).
	Field string
	Value string
}

// Detector recognises a provider's safety stop in a response. Detect must not modify the response and must
// tolerate any signal it does not know.
type Detector interface {
	Detect(r *warden.Response) (Termination, bool)
}

// FieldDetector fires when one of its fields carries one of its values. Every built-in detector is one.
type FieldDetector struct {
	// Values replaces the detector's default values, e.g. [content_filter, sensitive] to add GLM's stop.
	Values []string `yaml:"values" json:"values"`

	name   string
	fields []string
	fold   func(string) string // how values compare: strings.ToLower or strings.ToUpper
	any    bool                // any non-empty value fires, except the listed ones
	except []string
	values []string // the defaults, folded
}

// Detect implements Detector.
func (d *FieldDetector) Detect(r *warden.Response) (Termination, bool) {
	for _, s := range r.AllSignals() {
		if s.Value == "" || !slices.Contains(d.fields, s.Field) {
			continue
		}
		v := d.fold(s.Value)
		switch {
		case d.any && !slices.Contains(d.except, v):
			return Termination{Detector: d.name, Field: s.Field, Value: s.Value}, true
		case !d.any && slices.Contains(d.active(), v):
			return Termination{Detector: d.name, Field: s.Field, Value: s.Value}, true
		}
	}
	return Termination{}, false
}

func (d *FieldDetector) active() []string {
	if d.Values == nil {
		return d.values
	}
	out := make([]string, len(d.Values))
	for i, v := range d.Values {
		out[i] = d.fold(v)
	}
	return out
}

// Name returns the detector's registered name.
func (d *FieldDetector) Name() string { return d.name }

// builtin describes a built-in detector.
type builtin struct {
	name, summary string
	fields        []string
	fold          func(string) string
	values        []string
	any           bool
	except        []string
}

// Builtins are the built-in detectors, in the default order: the first hit wins. Length stops are never
// safety stops.
var builtins = []builtin{
	{name: "openai_compatible_content_filter", summary: "OpenAI-compatible finish_reason content_filter (Azure, DeepSeek, Kimi, GLM with sensitive added)",
		fields: []string{"finish_reason"}, fold: strings.ToLower, values: []string{"content_filter"}},
	{name: "anthropic_refusal", summary: "Anthropic stop_reason refusal",
		fields: []string{"stop_reason"}, fold: strings.ToLower, values: []string{"refusal"}},
	{name: "gemini_safety", summary: "Gemini finishReason SAFETY, BLOCKLIST, PROHIBITED_CONTENT, SPII, RECITATION and the image variants",
		fields: []string{"finishReason", "finish_reason"}, fold: strings.ToUpper,
		values: []string{"SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "RECITATION", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION"}},
	{name: "gemini_prompt_block", summary: "Gemini promptFeedback.blockReason: the prompt was blocked and nothing generated",
		fields: []string{"promptFeedback.blockReason"}, fold: strings.ToUpper, any: true, except: []string{"BLOCK_REASON_UNSPECIFIED"}},
	{name: "openai_responses_incomplete", summary: "OpenAI Responses incomplete_details.reason content_filter",
		fields: []string{"incomplete_details.reason"}, fold: strings.ToLower, values: []string{"content_filter"}},
	{name: "bedrock_guardrail", summary: "Bedrock Converse stopReason guardrail_intervened or content_filtered",
		fields: []string{"stopReason"}, fold: strings.ToLower, values: []string{"guardrail_intervened", "content_filtered"}},
	{name: "cohere_toxic", summary: "Cohere finish_reason ERROR_TOXIC",
		fields: []string{"finish_reason"}, fold: strings.ToUpper, values: []string{"ERROR_TOXIC"}},
	// API-layer safety errors, read from ErrorResponse's signals.
	{name: "api_content_filter", summary: "HTTP errors with code or type content_filter (Azure prompt filter, Kimi high-risk rejection)",
		fields: []string{"error.code", "error.type"}, fold: strings.ToLower, values: []string{"content_filter"}},
	{name: "glm_policy_block", summary: "GLM (Zhipu, Z.ai) error 1301: unsafe or sensitive content",
		fields: []string{"error.code", "code"}, fold: strings.ToLower, values: []string{"1301"}},
	{name: "dashscope_data_inspection", summary: "Alibaba DashScope DataInspectionFailed / data_inspection_failed",
		fields: []string{"error.code", "code"}, fold: strings.ToLower, values: []string{"datainspectionfailed", "data_inspection_failed", "internalerror.algo.datainspectionfailed"}},
}

func (b builtin) newDetector() *FieldDetector {
	folded := make([]string, len(b.values))
	for i, v := range b.values {
		folded[i] = b.fold(v)
	}
	return &FieldDetector{name: b.name, fields: b.fields, fold: b.fold, any: b.any, except: b.except, values: folded}
}

// DetectorModuleID is the module ID of a safety detector.
func DetectorModuleID(name string) string { return "safety.detector." + name }

func init() {
	for _, b := range builtins {
		warden.Register(warden.ModuleInfo{ID: DetectorModuleID(b.name), New: func() any { return b.newDetector() }, Summary: b.summary})
	}
	warden.Register(warden.ModuleInfo{ID: DetectorModuleID("ark_risk_detection"), New: func() any { return arkRisk{} },
		Summary: "Volcengine Ark error codes ending in RiskDetection or SensitiveContentDetected"})
}

// DefaultDetectors returns the built-in detectors in their default order, each a new value.
func DefaultDetectors() []NamedDetector {
	out := make([]NamedDetector, 0, len(builtins)+1)
	for _, b := range builtins {
		out = append(out, NamedDetector{Name: b.name, Detector: b.newDetector()})
	}
	return append(out, NamedDetector{Name: "ark_risk_detection", Detector: arkRisk{}})
}

// NamedDetector is a detector with the name it reports.
type NamedDetector struct {
	Name     string
	Detector Detector
}
