package usage_test

import (
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/usage"
)

func TestRead(t *testing.T) {
	t.Parallel()
	chat := usage.Fields{Paths: [][]string{{"usage"}}, In: []string{"prompt_tokens"}, Out: []string{"completion_tokens"}}
	anthropic := usage.Fields{Paths: [][]string{{"usage"}, {"message", "usage"}}, In: []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}, Out: []string{"output_tokens"}}
	gemini := usage.Fields{Paths: [][]string{{"usageMetadata"}}, In: []string{"promptTokenCount"}, Out: []string{"candidatesTokenCount", "thoughtsTokenCount"}}
	tests := []struct {
		desc   string
		f      usage.Fields
		data   string
		want   warden.Usage
		wantOK bool
	}{
		{"a body's usage", chat, `{"choices":[],"usage":{"prompt_tokens":82,"completion_tokens":17,"total_tokens":99}}`, warden.Usage{InputTokens: 82, OutputTokens: 17}, true},
		{"a nested usage, the second path", anthropic, `{"type":"message_start","message":{"usage":{"input_tokens":40,"output_tokens":1}}}`, warden.Usage{InputTokens: 40, OutputTokens: 1}, true},
		{"cache reads and writes count as input", anthropic, `{"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":5}}`, warden.Usage{InputTokens: 1110, OutputTokens: 5}, true},
		{"reasoning counts as output", gemini, `{"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"thoughtsTokenCount":30}}`, warden.Usage{InputTokens: 50, OutputTokens: 40}, true},
		{"no usage", chat, `{"choices":[]}`, warden.Usage{}, false},
		{"a null usage", chat, `{"usage":null}`, warden.Usage{}, false},
		{"negative or odd counts are not counted", chat, `{"usage":{"prompt_tokens":-5,"completion_tokens":"many"}}`, warden.Usage{}, true},
		{"not JSON", chat, `[DONE]`, warden.Usage{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got, ok := usage.Read([]byte(tt.data), tt.f)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Read = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestMax(t *testing.T) {
	t.Parallel()
	got := usage.Max(warden.Usage{InputTokens: 40, OutputTokens: 1}, warden.Usage{OutputTokens: 20})
	if got != (warden.Usage{InputTokens: 40, OutputTokens: 20}) {
		t.Errorf("Max = %+v", got)
	}
}
