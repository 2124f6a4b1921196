package redact

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

// A detector finds one type of secret or personal data. Every match lies within a run of the detector's
// class of characters, which is what makes redaction across delta boundaries exact: a match that may still
// involve text not yet received can only start in the trailing run of the class (or, for an anchored
// detector, at an anchor in it), so everything before that is settled and may be released.
type detector struct {
	name string
	// class says which bytes a match may contain.
	class *[256]bool
	// anchors, when set, are the literal starts of every match (sk-, AKIA, …); without anchors, every match
	// holds a digit, or an '@' when at is set.
	anchors []string
	// inWord: an anchor may sit inside a longer word (AWS_SECRET_ACCESS_KEY=…, data?api_key=…); otherwise
	// an anchor is a key's prefix and a match must start a word ("SK…" inside "TASK…" is no key).
	inWord bool
	at     bool
	// bit is the detector's place in a textTriggers' anchored set.
	bit uint32
	// maxLen bounds how far back a trailing run is held (default 1024): a match longer than that, inside a
	// run longer than that, may be released in part. Only blocks that are long by nature set it.
	maxLen int
	re     *regexp.Regexp
	// minDigits and minLen skip runs too short to hold a match without running the regex.
	minDigits, minLen int
	// valid, when set, must accept a match (a Luhn or mod-97 check) for it to be redacted.
	valid func(string) bool
	// grouped marks a number written in groups (a card, an IBAN, an SSN): a match starts and ends at a
	// group's edge, never inside a longer number, and one that fails valid is tried again a group shorter
	// at either end, so that a card followed by its expiry or preceded by a quantity is still found.
	grouped bool
	// apart: a match must stand apart from letters, underscores and more digits, and not be a decimal
	// fraction's digits (insideToken); grouped detectors' matches always must.
	apart bool
	// notInURL: a match inside a URL's user information is not this detector's (inURLUserinfo).
	notInURL bool
	// prefix and exact are re anchored at the start, and at both ends; set for grouped detectors.
	prefix, exact *regexp.Regexp
}

func init() {
	for _, d := range detectors {
		if d.grouped {
			d.prefix = regexp.MustCompile(`^(?:` + d.re.String() + `)`)
			d.exact = regexp.MustCompile(`^(?:` + d.re.String() + `)$`)
		}
	}
}

// groupedMatches returns the spans of d's valid matches in run, a run of d's class, each starting and
// ending at a group's edge: the longest valid one from each group start, the next search starting after it.
func (d *detector) groupedMatches(run string) [][2]int {
	var out [][2]int
	for i := 0; i < len(run); i++ {
		if !alnum(run[i]) || (i > 0 && alnum(run[i-1])) {
			continue // not the start of a group
		}
		m := d.prefix.FindStringIndex(run[i:])
		if m == nil {
			continue
		}
		for e := i + m[1]; e > i; e-- {
			if e < len(run) && alnum(run[e]) || !alnum(run[e-1]) {
				continue // not the end of a group
			}
			if (e == i+m[1] || d.exact.MatchString(run[i:e])) && (d.valid == nil || d.valid(run[i:e])) {
				out = append(out, [2]int{i, e})
				i = e
				break
			}
		}
	}
	return out
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

func classOf(chars string, ranges ...[2]byte) *[256]bool {
	var t [256]bool
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	for _, r := range ranges {
		for c := int(r[0]); c <= int(r[1]); c++ {
			t[c] = true
		}
	}
	return &t
}

var (
	digits   = [2]byte{'0', '9'}
	upper    = [2]byte{'A', 'Z'}
	lower    = [2]byte{'a', 'z'}
	tokenSet = classOf("_-", digits, upper, lower)
)

// detectors lists every type in the order they run: the longest and most specific first, so that a key
// inside a private key block or a number inside a card is redacted once, as the larger thing.
var detectors = []*detector{
	{name: "private_key", re: regexp.MustCompile(`-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----`),
		anchors: []string{"-----BEGIN"}, maxLen: 16 << 10},
	{name: "jwt", class: classOf("_-.", digits, upper, lower), anchors: []string{"eyJ"}, maxLen: 8 << 10,
		re: regexp.MustCompile(`eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}`)},
	{name: "anthropic_key", class: tokenSet, anchors: []string{"sk-ant-"},
		re: regexp.MustCompile(`sk-ant-[a-z0-9]+-[A-Za-z0-9_-]{20,}`)},
	{name: "openai_key", class: tokenSet, anchors: []string{"sk-"},
		re: regexp.MustCompile(`sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`)},
	{name: "github_token", class: tokenSet, anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re: regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})`)},
	{name: "aws_key", class: classOf("", digits, upper), anchors: []string{"AKIA", "ASIA"},
		re: regexp.MustCompile(`(?:AKIA|ASIA)[A-Z0-9]{16}`)},
	{name: "slack_token", class: classOf("-", digits, upper, lower), anchors: []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-", "xapp-"},
		re: regexp.MustCompile(`(?:xox[baprs]|xapp)-[A-Za-z0-9-]{10,}`)},
	{name: "google_key", class: tokenSet, anchors: []string{"AIza"},
		re: regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}`)},
	{name: "stripe_key", class: tokenSet, anchors: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"},
		re: regexp.MustCompile(`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`)},
	{name: "sendgrid_key", class: classOf("_-.", digits, upper, lower), anchors: []string{"SG."},
		re: regexp.MustCompile(`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)},
	{name: "digitalocean_token", class: tokenSet, anchors: []string{"dop_v1_", "doo_v1_", "dor_v1_"},
		re: regexp.MustCompile(`do[opr]_v1_[a-f0-9]{64}`)},
	{name: "npm_token", class: tokenSet, anchors: []string{"npm_"},
		re: regexp.MustCompile(`npm_[A-Za-z0-9]{36}`)},
	{name: "gitlab_token", class: tokenSet, anchors: []string{"glpat-"},
		re: regexp.MustCompile(`glpat-[A-Za-z0-9_-]{20,}`)},
	{name: "huggingface_token", class: tokenSet, anchors: []string{"hf_"},
		re: regexp.MustCompile(`hf_[A-Za-z0-9]{30,}`)},
	// More vendors' keys by their documented prefixes: Shopify, PyPI, Docker Hub, HashiCorp Vault, Linear,
	// Postman, Databricks, New Relic, Grafana, Atlassian, Twilio and Mailgun.
	{name: "shopify_token", class: tokenSet, anchors: []string{"shpat_", "shpca_", "shppa_", "shpss_"},
		re: regexp.MustCompile(`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`)},
	{name: "pypi_token", class: tokenSet, anchors: []string{"pypi-AgE"},
		re: regexp.MustCompile(`pypi-AgE[A-Za-z0-9_-]{50,}`)},
	{name: "dockerhub_token", class: tokenSet, anchors: []string{"dckr_pat_"},
		re: regexp.MustCompile(`dckr_pat_[A-Za-z0-9_-]{27,}`)},
	{name: "vault_token", class: classOf("_-.", digits, upper, lower), anchors: []string{"hvs.", "hvb.", "hvr."},
		re: regexp.MustCompile(`hv[sbr]\.[A-Za-z0-9_-]{24,}`)},
	{name: "linear_key", class: tokenSet, anchors: []string{"lin_api_"},
		re: regexp.MustCompile(`lin_api_[A-Za-z0-9]{40}`)},
	{name: "postman_key", class: tokenSet, anchors: []string{"PMAK-"},
		re: regexp.MustCompile(`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`)},
	{name: "databricks_token", class: tokenSet, anchors: []string{"dapi"},
		re: regexp.MustCompile(`dapi[a-f0-9]{32}(?:-[0-9]+)?`)},
	{name: "newrelic_key", class: tokenSet, anchors: []string{"NRAK-"},
		re: regexp.MustCompile(`NRAK-[A-Z0-9]{27}`)},
	{name: "grafana_token", class: tokenSet, anchors: []string{"glsa_"},
		re: regexp.MustCompile(`glsa_[A-Za-z0-9]{32}_[a-fA-F0-9]{8}`)},
	{name: "atlassian_token", class: classOf("_-=", digits, upper, lower), anchors: []string{"ATATT3"},
		re: regexp.MustCompile(`ATATT3[A-Za-z0-9_=-]{150,}`)},
	{name: "twilio_key", class: tokenSet, anchors: []string{"SK"},
		re: regexp.MustCompile(`SK[0-9a-f]{32}`)},
	{name: "mailgun_key", class: tokenSet, anchors: []string{"key-"},
		re: regexp.MustCompile(`key-[0-9a-f]{32}`)},
	// A password inside a URL: postgres://user:password@host. Before email, which would take its tail.
	{name: "url_credentials", class: classOf("+.-:/_%@!$&'()*,;=~", digits, upper, lower), at: true, minLen: 10,
		// The user may be empty: Redis's "redis://:password@host" carries a password alone.
		re: regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]*:[^\s/@]+@`), valid: realURLPassword},
	// A value assigned to a name that says it is secret, written without spaces as environment files,
	// shell exports, query strings and minified JSON write it: AWS_SECRET_ACCESS_KEY=…, ?api_key=…,
	// "token":"…" (the keyword rules of secret scanners). The value must look generated: a digit and a
	// letter, or 32 characters at least. With a space after the colon ("password: …") it is not read: a
	// class holding spaces would hold back all prose while streaming.
	{name: "secret_assignment", class: classOf("_-=:./+'\"?&!#$%*@^~", digits, upper, lower),
		anchors: append(slices.Clone(secretNames), secretParams...), inWord: true,
		re: regexp.MustCompile(`(?:` + quoteAll(secretParams) + `)[A-Za-z0-9/+_.\-!#$%&*@^~]{16,}|(?:` + quoteAll(secretNames) +
			`)[A-Za-z0-9_]*["']?[:=]["']?[A-Za-z0-9/+_.\-!#$%&*@^~]{16,}`),
		valid: generatedValue},
	{name: "email", class: classOf("._%+-@", digits, upper, lower), at: true, minLen: 6, notInURL: true,
		re: regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)},
	{name: "iban", class: classOf(" ", digits, upper), minDigits: 4, minLen: 15,
		re: regexp.MustCompile(`[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?`), valid: ibanValid, grouped: true},
	{name: "card", class: classOf(" -", digits), minDigits: 13,
		re: regexp.MustCompile(`[0-9](?:[ -]?[0-9]){12,18}`), valid: cardValid, grouped: true},
	{name: "ssn", class: classOf("-", digits), minDigits: 9,
		re: regexp.MustCompile(`[0-9]{3}-[0-9]{2}-[0-9]{4}`), valid: ssnValid, grouped: true},
	{name: "phone", class: classOf(" ()+.-", digits), minDigits: 10, apart: true,
		// North American numbers, with or without +1; and any number in international form (+49 151 …).
		re: regexp.MustCompile(`(?:\+[0-9]{1,3}[ .-]?)?(?:\([0-9]{3}\)|[0-9]{3})[ .-]?[0-9]{3}[ .-][0-9]{4}|\+[1-9][0-9]{0,2}[ .-]?(?:[0-9]{2,4}[ .-]?){2,5}[0-9]{2,4}`)},
}

// anchorTerms and anchorOwners list every detector's anchors with the detector's bit; anchorPairs has a
// bit for each pair of bytes that opens one, and anchorsOf lists, per such pair, the anchors it opens. A
// scan for anchors tests each byte pair against the set (no load depends on the last, unlike an
// automaton's) and compares only the anchors that pair opens: pairs such as "ke" (key-), "do" (dop_) or
// "sh" (shpat_) open English words everywhere.
var anchorTerms, anchorOwners, anchorPairs, anchorsOf = func() ([]string, []uint32, *[1 << 16 / 64]uint64, map[uint16][]int) {
	var terms []string
	var owners []uint32
	var pairs [1 << 16 / 64]uint64
	of := map[uint16][]int{}
	for i, d := range detectors {
		d.bit = 1 << i
		for _, a := range d.anchors {
			if len(a) < 2 {
				panic("redact: an anchor is shorter than two bytes: " + a)
			}
			p := uint16(a[0])<<8 | uint16(a[1])
			pairs[p>>6] |= 1 << (p & 63)
			of[p] = append(of[p], len(terms))
			terms = append(terms, a)
			owners = append(owners, d.bit)
		}
	}
	return terms, owners, &pairs, of
}()

// textTriggers is what the detectors' cheap applicability tests need, found once per text for all of them.
type textTriggers struct {
	digits   []int  // where each run of digits starts
	at       bool   // the text holds an '@'
	anchored uint32 // the bits of the detectors one of whose anchors the text holds
}

func triggersOf(text string) textTriggers {
	t := textTriggers{digits: digitRuns(text), at: strings.IndexByte(text, '@') >= 0}
	for i := 0; i+1 < len(text); i++ {
		p := uint16(text[i])<<8 | uint16(text[i+1])
		if anchorPairs[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, k := range anchorsOf[p] {
			if strings.HasPrefix(text[i:], anchorTerms[k]) {
				t.anchored |= anchorOwners[k]
			}
		}
	}
	return t
}

// secretNames open an assignment of a secret: upper-case names as environment files and shell exports
// write them, a JSON key's opening quote, a query parameter's '?' or '&'. Plain lower-case words
// ("token", "password") are left out: they open too many English words, and every place one opens is a
// place the scan must look.
var secretNames = []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY",
	"CLIENT_SECRET", `"api_key`, `"apiKey`, `"apikey`, `"token`, `"access_token`, `"accessToken`, `"password`, `"secret`,
	`"client_secret`, `"private_key`}

// secretParams are query parameters that carry a secret; the value follows at once.
var secretParams = []string{"?api_key=", "&api_key=", "?apikey=", "&apikey=", "?token=", "&token=", "?access_token=", "&access_token="}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = regexp.QuoteMeta(s)
	}
	return strings.Join(q, "|")
}

// generatedValue accepts an assignment whose value looks generated rather than named: a digit and a
// letter in it, or 32 characters at least ("my-app-production-secret" names a secret, it is not one).
func generatedValue(s string) bool {
	i := strings.LastIndexAny(s, ":=")
	v := strings.Trim(s[i+1:], "\"'")
	if len(v) >= 32 {
		return true
	}
	return strings.ContainsAny(v, "0123456789") && strings.IndexFunc(v, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
}

// cardValid accepts a number that passes the card checksum and is as long as the cards of its first digits
// are: of the numbers code and data hold (constants, ids, timestamps run together), a tenth pass the
// checksum, and most of those begin as no card does.
func cardValid(s string) bool { return luhnValid(s) && cardIssued(s) }

// cardIssued reports whether a number's first digits and length are those of payment cards (ISO/IEC 7812
// issuer numbers as the networks publish them): 13 digits for Visa (4); 14 for Diners Club (3); 15 for
// American Express and Diners (3), UATP (1) and JCB's and enRoute's old ranges (2); 16 to 19 for Visa
// (4), Mastercard (2, 5), Discover, UnionPay, Maestro and RuPay (6, 5, 8), JCB (3) and Troy (9792).
func cardIssued(s string) bool {
	var d []byte
	for i := 0; i < len(s) && len(d) < 4; i++ {
		if s[i] >= '0' && s[i] <= '9' {
			d = append(d, s[i])
		}
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	if len(d) < 4 {
		return false
	}
	switch first := d[0]; {
	case n == 13:
		return first == '4'
	case n == 14:
		return first == '3'
	case n == 15:
		return first == '1' || first == '2' || first == '3'
	case first == '9':
		return string(d) == "9792"
	case first == '8':
		return d[1] == '1' || d[1] == '2'
	default:
		return first >= '2' && first <= '6'
	}
}

// realURLPassword rejects a URL's credentials whose password is a placeholder, as documentation writes
// them: "https://username:password@", "redis://user:pass@", "postgres://u:<password>@",
// "mysql://root:${DB_PASSWORD}@", "amqp://guest:xxxx@" and "ftp://me:****@" name a password's place, not
// a password.
func realURLPassword(s string) bool {
	userinfo := s[strings.Index(s, "://")+3 : len(s)-1]
	written := userinfo[strings.IndexByte(userinfo, ':')+1:]
	// A name in capitals that names a password ("PASSWORD_HERE", "YOUR_DB_PASSWORD", "DB_PASS") is an
	// environment variable's or a template's placeholder.
	if strings.ToUpper(written) == written && strings.Trim(written, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == "" &&
		(strings.Contains(written, "PASS") || strings.Contains(written, "PWD") || strings.Contains(written, "SECRET")) {
		return false
	}
	pass := strings.ToLower(written)
	switch pass {
	case "password", "pass", "passwd", "pwd", "secret", "yourpassword", "your_password", "your-password", "mypassword",
		"my_password", "pw", "changeme", "placeholder", "redacted":
		return false
	}
	if strings.Trim(pass, "x*.") == "" || strings.Trim(pass, "0") == "" {
		return false // xxxx, ****, ..., 0000
	}
	first, last := pass[0], pass[len(pass)-1]
	return !(first == '<' && last == '>' || first == '{' && last == '}' || first == '[' && last == ']' ||
		first == '$' || first == '%' && (last == '%' || last == 's'))
}

// luhnValid is the card-number checksum.
func luhnValid(s string) bool {
	sum, n, double := 0, 0, false
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		n++
		double = !double
	}
	return n >= 13 && sum%10 == 0
}

// ibanValid is the ISO 13616 mod-97 check.
func ibanValid(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if len(s) < 15 {
		return false
	}
	s = s[4:] + s[:4]
	rem := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// ssnValid rejects the numbers the SSA never issues (area 000, 666, 9xx; group 00; serial 0000), which
// keeps dates and part numbers of the same shape out.
func ssnValid(s string) bool {
	area, group, serial := s[0:3], s[4:6], s[7:11]
	return area != "000" && area != "666" && area[0] != '9' && group != "00" && serial != "0000"
}

// Match is one secret or piece of personal data found in a text.
type Match struct {
	Type       string // a name from TypeNames
	Start, End int
}

// Secret reports whether a type is a credential (a key, a token, a private key) rather than personal data.
func Secret(typ string) bool {
	switch typ {
	case "email", "iban", "card", "ssn", "phone", "":
		return false
	}
	return true
}

// Find returns every match of every type in text, in order of position, with what redaction would
// replace: a match inside a larger one (a number inside a card, a key inside a private key block) is
// reported once, as the larger thing. It is the trace detectors' view of the same patterns (package detect).
func Find(text string) []Match {
	trig := triggersOf(text)
	var out []Match
	for _, d := range detectors {
		if !d.mayMatch(trig) {
			continue
		}
	spans:
		for _, sp := range d.find(text, len(text), trig.digits) {
			for _, m := range out {
				if sp[0] < m.End && m.Start < sp[1] {
					continue spans
				}
			}
			out = append(out, Match{Type: d.name, Start: sp[0], End: sp[1]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
