package mcpproxy

import (
	"encoding/json"
	"testing"
)

func TestMergeCapability(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, have, add, want string }{
		{"a capability one server has", ``, `{"listChanged":true}`, `{"listChanged":true}`},
		{"members of both servers are kept", `{"listChanged":true}`, `{"subscribe":true}`, `{"listChanged":true,"subscribe":true}`},
		{"a flag either server sets is set", `{"subscribe":false}`, `{"subscribe":true}`, `{"subscribe":true}`},
		{"a set flag is not unset", `{"subscribe":true}`, `{"subscribe":false}`, `{"subscribe":true}`},
		{"nested objects are joined", `{"url":{}}`, `{"url":{"x":true},"form":{}}`, `{"form":{},"url":{"x":true}}`},
		{"an empty declaration adds nothing", `{"listChanged":true}`, `{}`, `{"listChanged":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var have json.RawMessage
			if tt.have != "" {
				have = json.RawMessage(tt.have)
			}
			got := mergeCapability(have, json.RawMessage(tt.add))
			var g, w any
			json.Unmarshal(got, &g)
			json.Unmarshal([]byte(tt.want), &w)
			gb, _ := json.Marshal(g)
			wb, _ := json.Marshal(w)
			if string(gb) != string(wb) {
				t.Errorf("got %s, want %s", gb, wb)
			}
		})
	}
}
