package safety_test

import (
	"context"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/safety"
)

func TestAPIErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc     string
		status   int
		body     string
		detector string // "" none
		value    string
	}{
		{"an Azure prompt filter", 400, `{"error":{"message":"The response was filtered","type":null,"param":"prompt","code":"content_filter","status":400,"innererror":{"code":"ResponsibleAIPolicyViolation","content_filter_result":{"hate":{"filtered":true,"severity":"high"}}}}}`, "api_content_filter", "content_filter"},
		{"a Kimi high-risk rejection", 400, `{"error":{"message":"The request was rejected because it was considered high risk","type":"content_filter"}}`, "api_content_filter", "content_filter"},
		{"GLM 1301 as a string", 400, `{"error":{"code":"1301","message":"System detected potentially unsafe or sensitive content in input or generation."}}`, "glm_policy_block", "1301"},
		{"GLM 1301 as a number", 400, `{"error":{"code":1301,"message":"unsafe"}}`, "glm_policy_block", "1301"},
		{"DashScope native", 400, `{"code":"DataInspectionFailed","message":"Input data may contain inappropriate content.","request_id":"x"}`, "dashscope_data_inspection", "DataInspectionFailed"},
		{"DashScope OpenAI-compatible", 400, `{"error":{"code":"data_inspection_failed","message":"Output data may contain inappropriate content.","type":"data_inspection_failed"}}`, "dashscope_data_inspection", "data_inspection_failed"},
		{"Volcengine Ark input risk", 400, `{"error":{"code":"InputTextRiskDetection","message":"risk","type":"BadRequest"}}`, "ark_risk_detection", "InputTextRiskDetection"},
		{"an ordinary rate limit is not a safety error", 429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "", ""},
		{"an overloaded Anthropic API is not", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "", ""},
		{"a body that is not JSON is not", 502, `<html>Bad Gateway</html>`, "", ""},
	}
	g := &safety.Guardrail{}
	if err := g.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	asMessage := &safety.Guardrail{APIErrors: "as_message"}
	if err := asMessage.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			r := safety.ErrorResponse(tt.status, []byte(tt.body))
			d, err := g.CheckResponse(context.Background(), warden.ResponseCheck{Response: r})
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Metadata["detector"]; got != tt.detector || (tt.value != "" && d.Metadata["reason_value"] != tt.value) {
				t.Fatalf("detector %q value %q, want %q %q", got, d.Metadata["reason_value"], tt.detector, tt.value)
			}
			if d.Action != warden.ActionAllow {
				t.Errorf("by default an API error passes (recorded): %s", d.Action)
			}
			if tt.detector == "" {
				return
			}
			if d.FirstReason().Code != safety.CodeSafetyStop {
				t.Errorf("not recorded as a safety stop: %+v", d.Reasons)
			}
			m, _ := asMessage.CheckResponse(context.Background(), warden.ResponseCheck{Response: r})
			if m.Action != warden.ActionModify || m.Replacement.(warden.Response).Message.Text() == "" {
				t.Errorf("as_message did not answer a message: %s", m.Action)
			}
		})
	}
}
