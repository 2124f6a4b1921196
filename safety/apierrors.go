package safety

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentwarden/warden"
)

// ErrorResponse turns an upstream error (an HTTP status and its body) into a response with no content whose
// signals are the error's fields, so that the detectors recognise API-layer safety errors the way they
// recognise stop values: Azure and Kimi HTTP 400 content_filter, GLM 1301, DashScope DataInspectionFailed,
// Volcengine Ark *RiskDetection. Fields read: http_status, error.code, error.type, error.innererror.code and
// a top-level code; numbers are read as text.
func ErrorResponse(status int, body []byte) warden.Response {
	r := warden.Response{Message: warden.Message{Role: warden.RoleAssistant}, FinishReason: warden.FinishError,
		Signal: warden.Signal{Field: "http_status", Value: strconv.Itoa(status)}}
	var e struct {
		Code  json.RawMessage `json:"code"`
		Error struct {
			Code       json.RawMessage `json:"code"`
			Type       json.RawMessage `json:"type"`
			InnerError struct {
				Code json.RawMessage `json:"code"`
			} `json:"innererror"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return r
	}
	for _, f := range []struct {
		field string
		raw   json.RawMessage
	}{{"error.code", e.Error.Code}, {"error.type", e.Error.Type}, {"error.innererror.code", e.Error.InnerError.Code}, {"code", e.Code}} {
		if v := scalar(f.raw); v != "" {
			r.Signals = append(r.Signals, warden.Signal{Field: f.field, Value: v})
		}
	}
	return r
}

// scalar reads a JSON string or number as text.
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// arkRisk recognises Volcengine Ark's risk-detection error codes by their endings.
type arkRisk struct{}

// Fields implements FieldReader.
func (arkRisk) Fields() []string { return []string{"error.code"} }

func (arkRisk) Detect(r *warden.Response) (Termination, bool) {
	for _, s := range r.Signals { // API errors put their fields in Signals; Signal is the HTTP status
		if s.Field == "error.code" && (strings.HasSuffix(s.Value, "RiskDetection") || strings.HasSuffix(s.Value, "SensitiveContentDetected")) {
			return Termination{Detector: "ark_risk_detection", Field: s.Field, Value: s.Value}, true
		}
	}
	return Termination{}, false
}
