package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/agentwarden/warden/gateway/gatewaybench"
	"github.com/spf13/cobra"
)

func newBenchCommand(s streams) *cobra.Command {
	var o gatewaybench.Options
	var format string
	var strict, serveProxies bool
	cmd := &cobra.Command{
		Use:   "bench [--config FILE] [flags]",
		Short: "Measure what the gateway adds to a request, side by side with a bare reverse proxy",
		Long: `Bench starts, in this process and on loopback, a fake provider upstream and four ways to reach it:
  direct        the upstream itself
  bare-proxy    a bare httputil.ReverseProxy (the floor for any Go proxy)
  warden-off    Warden's gateway with no guardrails
  warden        Warden's gateway with the config's guardrails (the embedded defaults unless --config)
and measures each with the same requests: a coding agent's turn whose answer is a tool call, whole and
streamed (--chunks text deltas, then the tool call and the finish, each event --chunk-interval apart), in
the wire format --wire names: openai-chat (Chat Completions, the default), openai-responses, anthropic
(Messages) or gemini (generateContent, streams as SSE).

It reports latency p50/p99 at concurrency 1, a stream's time to first token (--requests streams whose
first chunk comes alone) and each chunk's trip from the upstream to the client (--stream-requests paced
streams), and throughput at --concurrency with the upstream answering at once. The same exchanges are
also timed inside each proxy, counting only its own spans (a chunk: from its read off the upstream to its
flush to the client), which a shared machine's scheduling of the client and the upstream does not reach;
and before the run, how often this machine takes the CPU from a busy thread, the noise under every p99.
Then the guarded target against the bare proxy and issue #7's targets: p99 within 150µs, time to first
token within 100µs, a chunk's median delay within 5µs (on the wire, and inside the proxy; its p99 is shown,
not judged), throughput at least 70%.
The concurrency-1 phases interleave the targets in --rounds rounds (by default one paced stream a target
a round), so that a slow spell of a shared machine falls on all of them alike. The client, the upstream and
the proxies share one heap, so the garbage collector, which any of them makes due, would land on whichever
exchange is in flight: the bench collects between those exchanges instead (--timed-gc leaves it alone),
and reports the heap each exchange allocated, which is what a proxy leaves the collector to do. Each
connection the bench dials asks for delayed ACKs before each write (Linux; --kernel-acks leaves the mode to
the kernel), so that the client acknowledges every target's chunks alike: left to the kernel, a connection's
mode follows its history, and it decides whether each chunk's read also sends an ACK, a few microseconds
that are the client's and not the proxy's.

Every answer is checked: a non-200, a lost chunk, a missing tool call or a Warden answer without its
X-Warden-Evaluated report stops the run with an error instead of a figure. By default the load generator
and the upstream share the CPUs with the proxies, so the figures compare the targets with each other. With
--pin (Linux, two CPUs at least) the three proxies run in a process of their own on the upper half of the
CPUs and the client and the upstream on the rest, as the public gateway benchmarks pin the gateway: the
proxies then share neither CPUs nor caches with the load. With --apart each proxy runs in a process of its
own, as users run them: the CPU per exchange is then each one's own, the report adds each process's
resident memory after the throughput phase, and Warden's throughput must reach the bare proxy's (100%,
not 70%) and its memory stay within 150% of it. Audit records are discarded unless --keep-audit.
docs/benchmarks.md has figures and how to read them.`,
		Example: `  warden bench
  warden bench --config warden.yaml --keep-audit
  warden bench --requests 5000 --chunk-interval 20ms --stream-requests 100
  warden bench --wire anthropic
  warden bench --pin --requests 10000
  warden bench --apart --keep-audit
  warden bench --format json > bench.json`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if serveProxies {
				return gatewaybench.ServeProxies(cmd.Context(), s.in, s.out)
			}
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format: %q is not text or json", format)}
			}
			if o.Pin || o.Apart {
				exe, err := os.Executable()
				if err != nil {
					return fmt.Errorf("finding this program to start the proxies' process: %w", err)
				}
				o.ProxyCommand = []string{exe, "bench", "--serve-proxies"}
			}
			if err := o.Check(); err != nil {
				return usageError{err}
			}
			o.Progress = s.err
			rep, err := gatewaybench.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			if format == "json" {
				err = rep.WriteJSON(s.out)
			} else {
				err = rep.WriteText(s.out)
			}
			if err != nil {
				return err
			}
			if strict && !rep.Met() {
				return exitCodeError{code: exitError, err: fmt.Errorf("bench: a target was not met")}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.Config, "config", "c", "", "config `file` of the guarded target (default: the embedded default)")
	f.StringVar(&o.Wire, "wire", gatewaybench.WireChat, "wire `format` to speak: "+strings.Join(gatewaybench.Wires(), ", "))
	f.BoolVar(&o.KeepAudit, "keep-audit", false, "write the config's audit records to its sink (default: discard them)")
	f.IntVar(&o.Requests, "requests", gatewaybench.DefaultRequests, "whole requests, and streams timed to their first token, a target at concurrency 1")
	f.IntVar(&o.StreamRequests, "stream-requests", gatewaybench.DefaultStreamRequests, "paced streams a target at concurrency 1, for the chunks' trips")
	f.IntVar(&o.Chunks, "chunks", gatewaybench.DefaultChunks, "text deltas in a stream")
	f.DurationVar(&o.ChunkInterval, "chunk-interval", gatewaybench.DefaultChunkInterval, "the upstream's pause between a stream's events at concurrency 1 (under 1ms it comes out near 1ms: an otherwise idle Go process sleeps in whole milliseconds)")
	f.IntVar(&o.Concurrency, "concurrency", gatewaybench.DefaultConcurrency, "clients at once in the throughput phase")
	f.DurationVar(&o.Duration, "duration", gatewaybench.DefaultDuration, "length of each target's throughput phase, whole and streamed each")
	f.IntVar(&o.Rounds, "rounds", gatewaybench.DefaultRounds, "rounds the concurrency-1 phases interleave the targets in")
	f.IntVar(&o.ThroughputRounds, "throughput-rounds", gatewaybench.DefaultThroughputRounds, "rounds the throughput phase interleaves the targets in")
	f.BoolVar(&o.TimedGC, "timed-gc", false, "let the garbage collector run when due inside the concurrency-1 exchanges (default: between them)")
	f.BoolVar(&o.KernelAcks, "kernel-acks", false, "leave each connection's TCP ACK mode to the kernel (default: every connection asks for delayed ACKs before each write, so all targets start alike; Linux)")
	f.StringVar(&format, "format", "text", "report as text or json (stdout); progress goes to stderr")
	f.BoolVar(&strict, "strict", false, "exit 1 when a target is not met")
	f.BoolVar(&o.Pin, "pin", false, "run the proxies in a process of their own on half the CPUs, the client and upstream on the rest (Linux)")
	f.BoolVar(&o.Apart, "apart", false, "run each proxy in a process of its own, and report and judge each one's resident memory")
	f.BoolVar(&serveProxies, "serve-proxies", false, "be the proxies' process of a --pin run (the bench starts it)")
	f.MarkHidden("serve-proxies")
	return cmd
}
