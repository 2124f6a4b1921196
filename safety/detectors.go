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

// FieldReader is a Detector that says which signal fields it reads; the guardrail then asks it only about
// responses that carry one of them. A detector that is not a FieldReader is asked about every response.
type FieldReader interface {
	Fields() []string
}

// FieldDetector fires when one of its fields carries one of its values. Every built-in detector is one.
type FieldDetector struct {
	// Values replaces the detector's default values, e.g. [content_filter, sensitive] to add GLM's stop.
	Values []string `yaml:"values" json:"values"`

	name   string
	fields []string
	any    bool // any non-empty value fires, except the listed ones
	except []string
	values []string // the defaults
}

// Detect implements Detector. Values compare without regard to case, and nothing is allocated: this runs
// on every response.
func (d *FieldDetector) Detect(r *warden.Response) (Termination, bool) {
	if t, ok := d.detect(r.Signal); ok {
		return t, true
	}
	for _, s := range r.Signals {
		if t, ok := d.detect(s); ok {
			return t, true
		}
	}
	return Termination{}, false
}

func (d *FieldDetector) detect(s warden.Signal) (Termination, bool) {
	if s.Value == "" || !slices.Contains(d.fields, s.Field) {
		return Termination{}, false
	}
	values := d.values
	if d.Values != nil {
		values = d.Values
	}
	hit := containsFold(values, s.Value)
	if d.any {
		hit = !containsFold(d.except, s.Value)
	}
	if !hit {
		return Termination{}, false
	}
	return Termination{Detector: d.name, Field: s.Field, Value: s.Value}, true
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}

// Fields implements FieldReader.
func (d *FieldDetector) Fields() []string { return d.fields }

// Name returns the detector's registered name.
func (d *FieldDetector) Name() string { return d.name }

// builtin describes a built-in detector.
type builtin struct {
	name, summary string
	fields        []string
	values        []string
	any           bool
	except        []string
}

// Builtins are the built-in detectors, in the default order: the first hit wins. Length stops are never
// safety stops.
var builtins = []builtin{
	{name: "openai_compatible_content_filter", summary: "OpenAI-compatible finish_reason content_filter (Azure, DeepSeek, Kimi, GLM with sensitive added)",
		fields: []string{"finish_reason"}, values: []string{"content_filter"}},
	{name: "anthropic_refusal", summary: "Anthropic stop_reason refusal",
		fields: []string{"stop_reason"}, values: []string{"refusal"}},
	{name: "gemini_safety", summary: "Gemini finishReason SAFETY, BLOCKLIST, PROHIBITED_CONTENT, SPII, RECITATION and the image variants",
		fields: []string{"finishReason", "finish_reason"},
		values: []string{"SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "RECITATION", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION"}},
	{name: "gemini_prompt_block", summary: "Gemini promptFeedback.blockReason: the prompt was blocked and nothing generated",
		fields: []string{"promptFeedback.blockReason"}, any: true, except: []string{"BLOCK_REASON_UNSPECIFIED"}},
	{name: "openai_responses_incomplete", summary: "OpenAI Responses incomplete_details.reason content_filter",
		fields: []string{"incomplete_details.reason"}, values: []string{"content_filter"}},
	{name: "bedrock_guardrail", summary: "Bedrock Converse stopReason guardrail_intervened or content_filtered",
		fields: []string{"stopReason"}, values: []string{"guardrail_intervened", "content_filtered"}},
	{name: "cohere_toxic", summary: "Cohere finish_reason ERROR_TOXIC",
		fields: []string{"finish_reason"}, values: []string{"ERROR_TOXIC"}},
	// API-layer safety errors, read from ErrorResponse's signals.
	{name: "api_content_filter", summary: "HTTP errors with code or type content_filter (Azure prompt filter, Kimi high-risk rejection)",
		fields: []string{"error.code", "error.type"}, values: []string{"content_filter"}},
	{name: "glm_policy_block", summary: "GLM (Zhipu, Z.ai) error 1301: unsafe or sensitive content",
		fields: []string{"error.code", "code"}, values: []string{"1301"}},
	{name: "dashscope_data_inspection", summary: "Alibaba DashScope DataInspectionFailed / data_inspection_failed",
		fields: []string{"error.code", "code"}, values: []string{"datainspectionfailed", "data_inspection_failed", "internalerror.algo.datainspectionfailed"}},
}

func (b builtin) newDetector() *FieldDetector {
	return &FieldDetector{name: b.name, fields: b.fields, any: b.any, except: b.except, values: b.values}
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
