package detect

import (
	"strings"
	"testing"
)

// BenchmarkReadings is each reading that undoes a disguise, alone, on the texts most scans meet: prose,
// a program's output and a text with no disguise in it. Together they are the largest share of a scan
// (BenchmarkScanAllDetectors), and each must cost little on a text it leaves as it is.
func BenchmarkReadings(b *testing.B) {
	disguiseVocabulary()
	texts := []struct{ name, text string }{
		{"prose", strings.Repeat("The build finished in 42 seconds; three tests failed and I fixed the fixture paths before rerunning them. ", 20)},
		{"output", strings.Repeat("--- FAIL: TestParse/empty_input (0.00s)\n    parse_test.go:41: got err=<nil>, want \"unexpected EOF\" at 0x1f; retry 3/5\n", 20)},
		{"code", strings.Repeat("func (c *client) retry(max_retries int, retry_delay time.Duration) error { return c.do_call(*req) }\n", 20)},
	}
	readings := []struct {
		name string
		read func(string) (string, []spelledOut)
	}{
		{"joinSpelledOut", joinSpelledOut},
		{"unLeet", unLeet},
		{"reassembled", reassembled},
		{"unscrambled", unscrambled},
		{"decodedBase64", decodedBase64},
		{"decodedByteCodes", decodedByteCodes},
		{"deciphered", deciphered},
		{"decodedMorse", decodedMorse},
		{"unescaped", unescaped},
		{"withoutMarkup", withoutMarkup},
		{"lettersUnmasked", lettersUnmasked},
		{"actsInBaseForm", actsInBaseForm},
	}
	for _, tx := range texts {
		for _, r := range readings {
			b.Run(tx.name+"/"+r.name, func(b *testing.B) {
				r.read(tx.text) // tables built on first use
				b.SetBytes(int64(len(tx.text)))
				b.ReportAllocs()
				for b.Loop() {
					r.read(tx.text)
				}
			})
		}
		b.Run(tx.name+"/joinedParts", func(b *testing.B) {
			b.SetBytes(int64(len(tx.text)))
			b.ReportAllocs()
			for b.Loop() {
				joinedParts(tx.text)
			}
		})
	}
}
