package textdiff_test

import (
	"slices"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/internal/textdiff"
)

func msg(parts ...string) warden.Message {
	m := warden.Message{Role: warden.RoleAssistant}
	for _, p := range parts {
		m.Content = append(m.Content, warden.ContentPart{Kind: warden.ContentText, Text: p})
	}
	return m
}

func TestOf(t *testing.T) {
	t.Parallel()
	withReasoning := msg("a")
	withReasoning.Content = append([]warden.ContentPart{{Kind: warden.ContentReasoning, Text: "hm"}}, withReasoning.Content...)
	tests := []struct {
		desc         string
		old, next    warden.Message
		wantAppended []string
		wantInPlace  bool
	}{
		{desc: "no change appends nothing", old: msg("a"), next: msg("a")},
		{desc: "a part added at the end is appended", old: msg("a"), next: msg("a", "b"), wantAppended: []string{"b"}},
		{desc: "text added to an empty message is appended", old: msg(), next: msg("b"), wantAppended: []string{"b"}},
		{desc: "text written into an empty part is appended", old: msg(""), next: msg("b"), wantAppended: []string{"b"}},
		{desc: "an empty part beside text changes nothing", old: msg("a", ""), next: msg("a"), wantAppended: nil},
		{desc: "a changed part is a change in place", old: msg("a", "b"), next: msg("a", "x"), wantInPlace: true},
		{desc: "a removed part is a change in place", old: msg("a", "b"), next: msg("a"), wantInPlace: true},
		{desc: "reasoning parts are not text", old: withReasoning, next: msg("a", "b"), wantAppended: []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			appended, inPlace := textdiff.Of(tt.old, tt.next)
			if !slices.Equal(appended, tt.wantAppended) || inPlace != tt.wantInPlace {
				t.Errorf("Of = %q, %v; want %q, %v", appended, inPlace, tt.wantAppended, tt.wantInPlace)
			}
		})
	}
}
