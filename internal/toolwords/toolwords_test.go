package toolwords_test

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/toolwords"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, in, want string }{
		{"camelCase humps separate words", "GmailSendEmail", "gmail send email"},
		{"an acronym ends before the next word", "HTTPServerStart", "http server start"},
		{"snake, kebab, dots and slashes separate words", "fs.read_file-v2/x", "fs read file v2 x"},
		{"other punctuation separates words too", "db+query@prod", "db query prod"},
		{"an empty name has no words", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(toolwords.Split(tc.in), " "); got != tc.want {
				t.Errorf("Split(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
