package commands_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/policy/commands"
)

// A three-stage pipeline through the whole default policy, the JSON decode of the arguments and the
// shell analysis included (issue #3's OAP target for the same work is 10 µs).
func BenchmarkDefaultPolicyPipeline(b *testing.B) {
	benchmarkDefaultPolicy(b, "grep -rn TODO src | sort | head -n 20")
}

// The same pipeline writing a file, which takes the bash parser, through the whole default policy.
func BenchmarkDefaultPolicyParsed(b *testing.B) {
	benchmarkDefaultPolicy(b, "grep -rn TODO src | sort | head -n 20 > todo.txt")
}

// The usual command line, one program with plain arguments, through the whole default policy.
func BenchmarkDefaultPolicyPlain(b *testing.B) {
	benchmarkDefaultPolicy(b, "go test ./pkg/parse/...")
}

func benchmarkDefaultPolicy(b *testing.B, cmd string) {
	c := provisioned(b, &commands.Commands{})
	args, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		b.Fatal(err)
	}
	call := warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", args)}
	b.ReportAllocs()
	for b.Loop() {
		if d, err := c.CheckToolCall(context.Background(), call); err != nil || d.Action != warden.ActionAllow {
			b.Fatal(d, err)
		}
	}
}

// Every command of the corpora (everyday, obfuscated and by effect) through the whole default policy, one
// after another: ns/op is the mean per command; the median and 99th percentile of single calls are
// reported beside it.
func BenchmarkDefaultPolicyCorpus(b *testing.B) {
	c := provisioned(b, &commands.Commands{})
	var calls []warden.ToolCallCheck
	for _, name := range []string{"benign.txt", "benign_tools.txt", "bypass.txt"} {
		for _, cmd := range benchCorpus(b, name) {
			args, _ := json.Marshal(map[string]string{"command": cmd})
			calls = append(calls, warden.ToolCallCheck{Call: warden.NewToolCall("c", "bash", args)})
		}
	}
	ctx := context.Background()
	durations := make([]time.Duration, 0, len(calls))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		durations = durations[:0]
		for _, call := range calls {
			start := time.Now()
			if _, err := c.CheckToolCall(ctx, call); err != nil {
				b.Fatal(err)
			}
			durations = append(durations, time.Since(start))
		}
	}
	slices.Sort(durations)
	b.ReportMetric(float64(durations[len(durations)/2].Nanoseconds()), "median-ns/call")
	b.ReportMetric(float64(durations[len(durations)*99/100].Nanoseconds()), "p99-ns/call")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(calls)), "ns/call")
}

func benchCorpus(b *testing.B, name string) []string {
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// Tools of no known kind through the whole default policy: one with no path in its arguments (the JSON
// walked and nothing found) and one that uploads a path (read and sent, then judged by the rules).
func BenchmarkOtherTool(b *testing.B) {
	c := provisioned(b, &commands.Commands{})
	for _, bc := range []struct{ name, tool, args string }{
		{"no_path", "get_weather", `{"city":"Paris","units":"metric","days":3}`},
		{"upload", "upload_file", `{"path":"build/report.pdf","url":"https://files.example/up","public":false}`},
	} {
		call := warden.ToolCallCheck{Call: warden.NewToolCall("c", bc.tool, []byte(bc.args))}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.CheckToolCall(context.Background(), call)
			}
		})
	}
}

// The pipeline typed by a computer-use tool and a letter typed onto a screen: typing costs the reading of
// what is typed, against BenchmarkDefaultPolicyParsed's shell tool with the same line.
func BenchmarkDefaultPolicyTyped(b *testing.B) {
	c := provisioned(b, &commands.Commands{})
	for _, tc := range []struct{ name, text string }{
		{"command", "grep -rn TODO src | sort | head -n 20 > todo.txt\n"},
		{"letter", "Dear Ana,\nthank you for the review; it's merged now.\nBest,\nBo"},
	} {
		args, err := json.Marshal(map[string]string{"action": "type", "text": tc.text})
		if err != nil {
			b.Fatal(err)
		}
		call := warden.ToolCallCheck{Call: warden.NewToolCall("c", "computer", args)}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if d, err := c.CheckToolCall(context.Background(), call); err != nil || d.Action != warden.ActionAllow {
					b.Fatal(d, err)
				}
			}
		})
	}
}
