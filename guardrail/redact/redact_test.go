package redact_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/guardrail/redact"
	"github.com/agentwarden/warden/internal/streamtest"
)

// through streams text through the runner with one redact guardrail, cut into deltas at the given
// offsets, and returns what the client receives.
func through(t testing.TB, r *redact.Redact, text string, cuts []int) string {
	t.Helper()
	e, err := warden.NewEngine(warden.Spec{Stream: []warden.Entry{{Name: "redact", Guardrail: r}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := streamtest.Run(e, text, cuts, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func provisioned(t testing.TB, r *redact.Redact) *redact.Redact {
	t.Helper()
	if err := r.Provision(context.Background()); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, in, want string
	}{
		{"an e-mail address", "Write to jane.doe+ops@example.co.uk today.", "Write to [EMAIL] today."},
		{"a card number that passes Luhn, spaced", "Card 4111 1111 1111 1111, exp 12/29.", "Card [CARD], exp 12/29."},
		{"a number that fails Luhn stays", "Order 4111 1111 1111 1112 shipped.", "Order 4111 1111 1111 1112 shipped."},
		{"an SSN", "SSN 123-45-6789 on file.", "SSN [SSN] on file."},
		{"an SSN the SSA never issues stays", "Ref 666-45-6789.", "Ref 666-45-6789."},
		{"a phone number", "Call (555) 123-4567 now.", "Call [PHONE] now."},
		{"an IBAN that passes mod 97", "IBAN GB82 WEST 1234 5698 7654 32 please.", "IBAN [IBAN] please."},
		{"an AWS access key", "key AKIAIOSFODNN7EXAMPLE here", "key [AWS_KEY] here"},
		{"a GitHub token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 ok", "token [GITHUB_TOKEN] ok"},
		{"an OpenAI key", "use sk-proj-abcdefghijklmnopqrstuvwx1234 now", "use [OPENAI_KEY] now"},
		{"an Anthropic key, not an OpenAI one", "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz now", "use [ANTHROPIC_KEY] now"},
		{"a Slack token", "xoxb-1234567890-abcdef ok", "[SLACK_TOKEN] ok"},
		{"a Google API key", "AIzaSyA1234567890abcdefghijklmnopqrstuv ok", "[GOOGLE_KEY] ok"},
		{"a JWT", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop done", "Bearer [JWT] done"},
		{"a private key block", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----\nend", "key:\n[PRIVATE_KEY]\nend"},
		{"a certificate is not a private key", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
		{"a Stripe secret key", "key sk_live_51H8abcdefghijklmnopqrstu ok", "key [STRIPE_KEY] ok"},
		{"an npm token", "npm_abcdefghijklmnopqrstuvwxyz0123456789 ok", "[NPM_TOKEN] ok"},
		{"a GitLab token", "glpat-abcdefghij0123456789 ok", "[GITLAB_TOKEN] ok"},
		{"a Hugging Face token", "hf_abcdefghijklmnopqrstuvwxyz012345 ok", "[HUGGINGFACE_TOKEN] ok"},
		{"a password inside a URL, not an e-mail", "DATABASE_URL=postgres://admin:S3cr3t@db.internal:5432/prod", "DATABASE_URL=[URL_CREDENTIALS]db.internal:5432/prod"},
		{"a generated value assigned to a secret's name", "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENGbPxRfiCY ok", "export AWS_[SECRET_ASSIGNMENT] ok"},
		{"a secret in a query string", "GET /v1/data?api_key=a8f5f167f44f4964e6c998dee827110c HTTP/1.1", "GET /v1/data[SECRET_ASSIGNMENT] HTTP/1.1"},
		{"a secret's name given a name, not a value, stays", "SECRET_NAME=my-app-production-secret", "SECRET_NAME=my-app-production-secret"},
		{"a Slack app-level token, not a card", "xapp-1-A0123456789-1234567890123-abcdefabcdef ok", "[SLACK_TOKEN] ok"},
		{"a SendGrid key", "key SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123 ok", "key [SENDGRID_KEY] ok"},
		{"a DigitalOcean token", "dop_v1_abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789 ok", "[DIGITALOCEAN_TOKEN] ok"},
		{"a Shopify token", "token shpat_0123456789abcdef0123456789abcdef end", "token [SHOPIFY_TOKEN] end"},
		{"a PyPI token", "pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMAACKlsz end", "[PYPI_TOKEN] end"},
		{"a Docker Hub token", "dckr_pat_abcdefghijklmnopqrstuvwxyz012 end", "[DOCKERHUB_TOKEN] end"},
		{"a Vault token", "VAULT_TOKEN hvs.CAESIabcdefghijklmnopqrstuvwxyz end", "VAULT_TOKEN [VAULT_TOKEN] end"},
		{"a Linear key", "lin_api_abcdefghijklmnopqrstuvwxyz0123456789ABCD end", "[LINEAR_KEY] end"},
		{"a Postman key", "PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01 end", "[POSTMAN_KEY] end"},
		{"a Databricks token", "dapi0123456789abcdef0123456789abcdef end", "[DATABRICKS_TOKEN] end"},
		{"a New Relic key", "NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ0 end", "[NEWRELIC_KEY] end"},
		{"a Grafana service-account token", "glsa_abcdefghijklmnopqrstuvwxyz012345_0a1b2c3d end", "[GRAFANA_TOKEN] end"},
		{"a Twilio key", "SK0123456789abcdef0123456789abcdef end", "[TWILIO_KEY] end"},
		{"a Mailgun key", "key-0123456789abcdef0123456789abcdef end", "[MAILGUN_KEY] end"},
		{"a key's prefix inside a longer word is no key (TASK…)", "TASK0123456789abcdef0123456789abcdef end", "TASK0123456789abcdef0123456789abcdef end"},
		{"a key's prefix inside a longer word is no key (monkey-…)", "monkey-0123456789abcdef0123456789abcdef end", "monkey-0123456789abcdef0123456789abcdef end"},
		{"a key's prefix inside a longer word is no key (mask-…)", "mask-abcdefghijklmnopqrstuvwxyz012 end", "mask-abcdefghijklmnopqrstuvwxyz012 end"},
		{"a password with symbols in minified JSON", `{"password":"Tr0ub4dor&3xyzabc!"}`, `{[SECRET_ASSIGNMENT]"}`},
		{"a phone number in international form", "Ring +49 151 23456789 tomorrow.", "Ring [PHONE] tomorrow."},
		{"a card after a key that was replaced is still found", "key ghp_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ, card 4111 1111 1111 1111 today.", "key [GITHUB_TOKEN], card [CARD] today."},
		{"a phone after an e-mail that was replaced is still found", "Write to jane.doe.from.accounts@example-company.com or call (555) 123-4567 today.", "Write to [EMAIL] or call [PHONE] today."},
		{"an SSN after a key that was replaced is still found", "key sk-proj-abcdefghijklmnopqrstuvwxyzABCD SSN 123-45-6789 on file.", "key [OPENAI_KEY] SSN [SSN] on file."},
		{"a card followed by its expiry date", "Card 4111 1111 1111 1111 12/29 ok", "Card [CARD] 12/29 ok"},
		{"a card followed by its security code", "4111111111111111 123 on file", "[CARD] 123 on file"},
		{"a card after a quantity", "Qty 2 4111 1111 1111 1111 charged", "Qty 2 [CARD] charged"},
		{"two cards a space apart", "cards 4111 1111 1111 1111 5500 0000 0000 0004 done", "cards [CARD] [CARD] done"},
		{"two dashed cards a space apart", "4111-1111-1111-1111 5500-0000-0000-0004 done", "[CARD] [CARD] done"},
		{"an IBAN followed by an amount", "IBAN GB82 WEST 1234 5698 7654 32 100 EUR", "IBAN [IBAN] 100 EUR"},
		{"a number too long to be a card stays", "ref 411111111111111100000 ok", "ref 411111111111111100000 ok"},
		{"digits inside a longer number are not an SSN", "id 1123-45-67890 ok", "id 1123-45-67890 ok"},
		{"prose passes unchanged", "The year 2024 had 365 days; tasks-list items: 3.", "The year 2024 had 365 days; tasks-list items: 3."},
		{"non-ASCII text passes whole", "Grüße, 日本語 and an é.", "Grüße, 日本語 and an é."},
	}
	r := provisioned(t, &redact.Redact{})
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := through(t, r, tt.in, nil); got != tt.want {
				t.Errorf("whole:\n got %q\nwant %q", got, tt.want)
			}
			if got := through(t, r, tt.in, streamtest.EveryCut(tt.in)); got != tt.want {
				t.Errorf("one byte a delta:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRedactOptions(t *testing.T) {
	t.Parallel()
	only := provisioned(t, &redact.Redact{Types: []string{"email"}, Placeholder: "<{type} removed>"})
	if got := through(t, only, "a@b.io and 123-45-6789", []int{1, 3}); got != "<EMAIL removed> and 123-45-6789" {
		t.Errorf("got %q", got)
	}
	err := (&redact.Redact{Types: []string{"passport"}}).Provision(context.Background())
	if err == nil || !strings.Contains(err.Error(), `unknown type "passport" (known: private_key, jwt,`) {
		t.Errorf("Provision = %v", err)
	}
}

// TestHoldbackIsSmallOnProse: ordinary text is held back no further than its last word.
func TestHoldbackIsSmallOnProse(t *testing.T) {
	t.Parallel()
	r := provisioned(t, &redact.Redact{})
	for _, tt := range []struct {
		pending string
		max     int
	}{
		{"The quick brown fox ", 1},
		{"The quick brown fo", 2},
		{"contact me at jane@exa", 8},
		{"my key is sk-pro", 6},
	} {
		if got := r.Holdback(tt.pending); got > tt.max {
			t.Errorf("Holdback(%q) = %d, want at most %d", tt.pending, got, tt.max)
		}
	}
}

// FuzzRedactSplitInvariant: however a text is cut into deltas, the client receives the same text, and it
// is the text redacted whole.
func FuzzRedactSplitInvariant(f *testing.F) {
	f.Add("Card 4111 1111 1111 1111 and jane@example.com, key sk-proj-abcdefghijklmnopqrstuvwx1234.", uint64(0x9e3779b97f4a7c15))
	f.Add("TASK0123456789abcdef0123456789abcdef SK0123456789abcdef0123456789abcdef monkey-0123456789abcdef0123456789abcdef key-0123456789abcdef0123456789abcdef hvs.CAESIabcdefghijklmnopqrstuvwxyz", uint64(7))
	f.Add("-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----", uint64(7))
	f.Add("call +1 555-123-4567 or 555.123.4567; SSN 123-45-6789", uint64(12345))
	f.Add("API_KEY=a8f5f167f44f4964e6c998dee827110c and postgres://u:p4ss@h/db, +44 20 7946 0958", uint64(99))
	f.Add("xapp-1-A01234-99 SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123 {\"password\":\"a&b#c1234567890xyz\"}", uint64(5))
	f.Add("sk_live_51H8abcdefghijklmnopqrstu npm_abcdefghijklmnopqrstuvwxyz0123456789 token=\"abc123def456ghi789\"", uint64(3))
	f.Add("ghp_000000000000000000000000000000000000 00000000000000000000A0000000000000000000 a000000", uint64(27))
	f.Add("x := 0x8000000000000000; y := 0.6366197723675814 + float64(133875.33628724958); call (555) 123-4567.", uint64(41))
	f.Add("clone https://username:password@github.com/org/repo.git, mailto:jane@example.org, redis://default:hunter2@cache:6379, redis://:hunter2@c", uint64(77))
	r := provisioned(f, &redact.Redact{})
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		whole := through(t, r, text, nil)
		var cuts []int
		for i := 1; i < len(text); i++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			if seed>>61 == 0 {
				cuts = append(cuts, i)
			}
		}
		if got := through(t, r, text, cuts); got != whole {
			t.Fatalf("cut at %v:\n got %q\nwant %q", cuts, got, whole)
		}
	})
}

// A URL's password written as its place in documentation is no secret; a password is.
func TestPlaceholderURLPasswordsAreNoSecret(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, text string
		want       []string
	}{
		{"finds a password in a database URL", "DATABASE_URL=postgres://admin:S3cr3t@db.internal:5432/prod", []string{"url_credentials"}},
		{"finds a short password", "redis://default:hunter2@cache:6379", []string{"url_credentials"}},
		{"finds a password with no user", "REDIS_URL=redis://:hunter2@cache:6379/0", []string{"url_credentials"}},
		{"reads no secret in a capitalised placeholder", "mongodb+srv://admin:PASSWORD_HERE@cluster0.example.net", nil},
		{"reads no secret in a variable's name", "mysql://user:YOUR_DB_PASSWORD@db:3306/app and postgres://app:DB_PASS@db/app", nil},
		{"reads no secret in username:password", "passed via URL in form of `https://username:password@host`", nil},
		{"reads no secret in user:pass", "url := \"redis://user:pass@localhost:6379\"", nil},
		{"reads no secret in an angle-bracketed place", "postgres://app:<password>@db:5432/app", nil},
		{"reads no secret in a variable", "mysql://root:${DB_PASSWORD}@127.0.0.1/app", nil},
		{"reads no secret in a format verb", "fmt.Sprintf(\"amqp://%s:%s@%s/\", user, pass, host)", nil},
		{"reads no secret in masked letters", "ftp://me:****@files.example.org and smtp://me:xxxx@10.0.0.5:25", nil},
		{"reads no e-mail address in a placeholder's place", "clone https://username:password@github.com/org/repo.git", nil},
		{"finds an e-mail address in a mailto link", "write to mailto:jane@example.org today", []string{"email"}},
		{"finds an e-mail address after a URL", "see https://example.org/docs or mail jane@example.org", []string{"email"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := foundTypes(tc.text); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("Find(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

// foundTypes lists the types of what Find finds in text, in order.
func foundTypes(text string) []string {
	var got []string
	for _, m := range redact.Find(text) {
		got = append(got, m.Type)
	}
	return got
}

// A card or a phone number written in text stands apart; the same digits inside a longer token (a hex
// literal, an identifier, a decimal fraction, a longer number) are code's and data's, and a number that
// passes the card checksum but begins as no issuer's cards do is no card.
func TestNumbersInsideTokensAreNoPII(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc, text string
		want       []string
	}{
		{"finds a card in a sentence", "The card on file is 4111 1111 1111 1111.", []string{"card"}},
		{"finds a card after a colon", "Visa:4111111111111111", []string{"card"}},
		{"finds an Amex card of 15 digits", "Amex 3782 822463 10005 expires soon", []string{"card"}},
		{"finds a phone number in parentheses", "Call (555) 123-4567.", []string{"phone"}},
		{"finds a phone number at the end of a sentence", "Reach her at 555-123-4567.", []string{"phone"}},
		{"reads no card in a hex literal", "mask := 0x4111111111111111", nil},
		{"reads no card in a decimal fraction", "const invpio2 = 0.4111111111111111", nil},
		{"reads no card in an exponent's digits", "if a >= 7.4111111111111111e+307 {", nil},
		{"reads no card glued to an identifier", "id_4111111111111111", nil},
		{"reads no card where no issuer's cards begin (a 13-digit id starting with 1)", "order 1872347344039 shipped", nil},
		{"reads no card where no issuer's cards begin (16 digits starting with 7)", "tracking 7000 0000 0000 0005", nil},
		{"reads no phone number in a float", "float64(133875.33628724958)", nil},
		{"reads no phone number inside a longer number", "/* 123456789 123456789 123 */", nil},
		{"reads no phone number inside a hex string", "uuid 00112233-4455-6677-8899-aabbccddeeff", nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			if got := foundTypes(tc.text); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("Find(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestFindReportsEachThingOnceAsTheLargerOne(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		text string
		want []string
	}{
		{"an email and a key", "mail bob@example.com the key sk-proj-abcdefghijklmnopqrstuvwx", []string{"email", "openai_key"}},
		{"a card is not also a phone number", "card 4111 1111 1111 1111 now", []string{"card"}},
		{"nothing in prose", "the build took 42 seconds", nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			for _, m := range redact.Find(tc.text) {
				if m.Start < 0 || m.End > len(tc.text) || m.Start >= m.End {
					t.Errorf("bad span %+v", m)
				}
			}
			if got := foundTypes(tc.text); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for _, m := range redact.Find(tc.text) {
				if redact.Secret(m.Type) != (m.Type == "openai_key") {
					t.Errorf("Secret(%s) = %v", m.Type, redact.Secret(m.Type))
				}
			}
		})
	}
}
