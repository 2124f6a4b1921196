package pipelinetest

import (
	"io"
	"testing"
	"time"

	"github.com/agentwarden/warden"
)

// BenchColdChunk times what a paced stream's chunk costs a proxy: from the read that returns the chunk to
// the flush that sends it on, with the CPU caches emptied before each chunk, as the millisecond between a
// model's chunks empties them on a shared machine (the gateway bench's client and upstream run in it).
// Warm, a text chunk costs the stream guard a few hundred nanoseconds; cold, every cache line of code and
// data it touches is a miss, and the lines touched, not the instructions run, make the per-chunk delay
// `warden bench` measures inside the proxy. The copy sub-benchmark is the floor: the same reads and
// flushes around a plain copy, as a bare reverse proxy does.
//
// first is sent once, before the timing (a stream's opening events); chunk(n) then gives the stream's
// n-th text chunk after it, which the guard must pass on (a held chunk is never flushed, and the benchmark
// would wait for it), each through one Read, the guard flushing before each read as the gateway's writer
// does. The figure is ns-span/chunk; ns/op is mostly emptying the caches.
func BenchColdChunk(b *testing.B, first []byte, chunk func(n int) []byte, guard StreamGuard) {
	for _, bench := range coldRuns(guard) {
		b.Run(bench.name, func(b *testing.B) {
			src := &handedReader{chunks: make(chan []byte)}
			out := &spanWriter{src: src, flushed: make(chan struct{})}
			done := make(chan struct{})
			var runErr error
			go func() {
				defer close(done)
				runErr = bench.run(flushBeforeRead{src, out}, out)
			}()
			send := func(p []byte) {
				select {
				case src.chunks <- p:
				case <-done:
					b.Fatalf("the guard stopped: %v", runErr)
				}
				select {
				case <-out.flushed:
				case <-done:
					b.Fatalf("the guard stopped: %v", runErr)
				}
			}
			send(first)
			n := 0
			send(chunk(n)) // the shape a stream guard learns from its first text chunk
			caches := make([]byte, 32<<20)
			out.span = 0
			// Emptying the caches stays inside the timed loop: stopping the timer around it would have
			// b.Loop run a second of chunks, each behind milliseconds of untimed writes.
			for b.Loop() {
				n++
				next := chunk(n)
				emptyCaches(caches)
				send(next)
			}
			close(src.chunks)
			<-done
			if runErr != nil {
				b.Fatal(runErr)
			}
			b.ReportMetric(float64(out.span.Nanoseconds())/float64(b.N), "ns-span/chunk")
		})
	}
}

// StreamGuard is a codec's stream guard, as the cold benchmarks call it: no flush callback, every
// response kept as it is, no text gate.
type StreamGuard = func(in io.Reader, out io.Writer, flush func(), decide func(warden.Response) (warden.Response, error), gate warden.TextGate) error

// coldRun is one side of a cold benchmark: what reads the stream and writes it on.
type coldRun struct {
	name string
	run  func(in io.Reader, out *spanWriter) error
}

// coldRuns are the sides a cold benchmark compares: a plain copy, the floor a bare reverse proxy sets,
// and the guard.
func coldRuns(guard StreamGuard) []coldRun {
	keep := func(r warden.Response) (warden.Response, error) { return r, nil }
	return []coldRun{
		{"copy", func(in io.Reader, out *spanWriter) error {
			buf := make([]byte, 32<<10)
			for {
				n, err := in.Read(buf)
				if err != nil {
					return nil
				}
				out.Write(buf[:n])
			}
		}},
		{"guard", func(in io.Reader, out *spanWriter) error { return guard(in, out, nil, keep, nil) }},
	}
}

// handedReader returns one chunk a Read, as a paced stream's reads do, and notes when that Read returned.
type handedReader struct {
	chunks   chan []byte
	returned time.Time
}

func (r *handedReader) Read(p []byte) (int, error) {
	c, ok := <-r.chunks
	if !ok {
		return 0, io.EOF
	}
	n := copy(p, c)
	r.returned = time.Now()
	return n, nil
}

// spanWriter adds up, at each flush of something written, the time since the read it came from.
type spanWriter struct {
	src     *handedReader
	dirty   bool
	span    time.Duration
	flushed chan struct{}
}

func (w *spanWriter) Write(p []byte) (int, error) {
	w.dirty = true
	return len(p), nil
}

func (w *spanWriter) Flush() {
	if w.dirty {
		w.dirty = false
		w.span += time.Since(w.src.returned)
		w.flushed <- struct{}{}
	}
}

// flushBeforeRead flushes w before each read of r, as the gateway's stream writer does.
type flushBeforeRead struct {
	r *handedReader
	w *spanWriter
}

func (f flushBeforeRead) Read(p []byte) (int, error) {
	f.w.Flush()
	return f.r.Read(p)
}

// emptyCaches writes a byte of each cache line of more memory than a CPU's caches hold, which evicts the
// code and data a chunk's handling touched.
func emptyCaches(caches []byte) {
	for i := 0; i < len(caches); i += 64 {
		caches[i]++
	}
}

// BenchColdOpening times what a stream's opening costs a proxy before its first token goes out: a new
// guard (made before the timing, as the gateway makes it before the upstream's first bytes come) reads
// head, the events up to and including the first text delta in one read as a provider sends them, with
// the CPU caches emptied first, as they are after the model's time to its first token; the span is from
// that read to the flush that sends them on. It is the guard's share of the time to first token that
// `warden bench` measures inside the proxy, and the copy sub-benchmark is the floor. The figure is
// ns-span/stream.
func BenchColdOpening(b *testing.B, head []byte, guard StreamGuard) {
	for _, bench := range coldRuns(guard) {
		b.Run(bench.name, func(b *testing.B) {
			caches := make([]byte, 32<<20)
			var span time.Duration
			for b.Loop() {
				src := &handedReader{chunks: make(chan []byte)}
				out := &spanWriter{src: src, flushed: make(chan struct{})}
				done := make(chan struct{})
				go func() {
					defer close(done)
					// The gateway grows its handler's stack before an exchange (gateway/stack.go); a
					// new goroutine's growing deep inside the guard would be timed here and not there.
					growStack()
					// The stream ends after its opening: the guard's error for a stream cut short is
					// not what is measured.
					_ = bench.run(flushBeforeRead{src, out}, out)
				}()
				emptyCaches(caches)
				select {
				case src.chunks <- head:
				case <-done:
					b.Fatal("the guard stopped before the stream's opening")
				}
				select {
				case <-out.flushed:
				case <-done:
					b.Fatal("the guard held the stream's opening: nothing was flushed")
				}
				close(src.chunks)
				<-done
				span += out.span
			}
			b.ReportMetric(float64(span.Nanoseconds())/float64(b.N), "ns-span/stream")
		})
	}
}

// growStack grows the goroutine's stack to 32 KiB while it is shallow, as the gateway's handler does.
//
//go:noinline
func growStack() byte {
	var reserve [16 << 10]byte
	return touch(reserve[:])
}

// touch keeps reserve in growStack's frame: a frame the compiler could drop would grow nothing.
//
//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
