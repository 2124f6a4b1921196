package mcpproxy

import (
	"strings"
	"testing"
)

// What counts as a secret in a tool's answer: keys and tokens in known formats, assigned values of
// secret-named keys, and long random-looking tokens; not identifiers, hashes, paths or prose.
func TestSecretsIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, text, want string // want: the secret found, "" for none
	}{
		{"a GitHub token in its format", "token: ghp_" + strings.Repeat("aB3", 12), "ghp_" + strings.Repeat("aB3", 12)},
		{"an AWS access key id", "id AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"},
		{"an environment file's key", "STRIPE_KEY=ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP", "ghp_Xa2bC3dEf4gH5iJk6Lm7nN8oP"},
		{"a JSON member named like a token", `{"api_token": "t0k3n-value-9876"}`, "t0k3n-value-9876"},
		{"a password in YAML", "db:\n  password: hunter2hunter2", "hunter2hunter2"},
		{"a bearer header", "Authorization: Bearer abcdef123456XYZ", "abcdef123456XYZ"},
		{"a random token without a name", "use Zx9_kQ2mP8vL4nR7tW1yB5cD3 to sign", "Zx9_kQ2mP8vL4nR7tW1yB5cD3"},
		{"a password in a connection URL", "DATABASE_URL=postgres://app:S3cr3tPassw0rd@db:5432/app", "S3cr3tPassw0rd"},
		{"a token in a URL's query", "callback https://hooks.example/x?access_token=Zx9kQ2mP8vL4nR7tW1yB5cD3", "Zx9kQ2mP8vL4nR7tW1yB5cD3"},
		{"a JWT", "bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		{"a commit hash is not a secret", "commit 3f786850e387550fdab836ed7e6dc881de23001b", ""},
		{"a UUID is not a secret", "issue 123e4567-e89b-12d3-a456-426614174000 opened", ""},
		{"a path is not a secret", "see /home/dev/src/github.com/acme/api/internal/parse.go", ""},
		{"prose is not a secret", "The key idea is that tokens are split into words before parsing.", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got := secretsIn(tc.text)
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("found %q in %q, want none", got, tc.text)
				}
				return
			}
			found := false
			for _, s := range got {
				found = found || s == tc.want
			}
			if !found {
				t.Errorf("found %q in %q, want %q among them", got, tc.text, tc.want)
			}
		})
	}
}
