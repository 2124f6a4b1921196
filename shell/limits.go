package shell

import (
	"errors"
	"io"
	"runtime"
	"strconv"
)

// A command line comes from a model or a user, so its cost to analyze is bounded, and a line over a bound is
// reported as too complex (a finding that denies), never analyzed in part. Three things grow with a hostile
// line:
//
//   - Length: every step below is at least linear in it.
//   - The parser's recursion. mvdan.cc/sh is a recursive-descent parser: parentheses, substitutions,
//     compound commands, and chains of unary or right-associative operators in arithmetic and [[ tests
//     (`$((- - - … 1))`, `a=b=c=…`) each take stack, a kilobyte or more for each byte of input. A Go stack
//     that outgrows its limit is a fatal error that no recover catches, so a line nested some 150,000 deep
//     would end the whole process and every exchange in it. A pre-scan of the text cannot bound this soundly:
//     to count only what the parser nests it would have to agree with the parser on quoting, heredocs and
//     every construct that recurses, and a line built to make them disagree would pass it. Instead the parser
//     reads the line through depthReader, which measures the goroutine's call depth each time the parser
//     asks for more input and stops the parse once it passes the bound. Between two reads the parser takes
//     at most readChunk bytes, and each byte can deepen the stack only by a bounded number of frames, so the
//     stack stays within the bound plus that margin, whatever the line.
//   - The analysis after the parse: walks over the syntax tree and the commands it records. Some of its
//     checks look at a subtree again for each enclosing construct (a pipeline's stages inside pipelines), so
//     their cost is the line's size times its nesting; every walk step and every recorded command is counted
//     against a budget.

// Limits bound the work one command line may cost. The zero value of a field means its default.
type Limits struct {
	// MaxBytes is the longest command line analyzed. Default DefaultMaxBytes.
	MaxBytes int
	// MaxDepth bounds the parser's recursion, in call frames on the analyzing goroutine's stack (a level of
	// nesting costs a construct-dependent number of them: about ten for a parenthesized arithmetic
	// expression, a few for a subshell). Default DefaultMaxDepth.
	MaxDepth int
	// MaxSteps bounds the analysis after the parse: syntax nodes visited and commands recorded, counted over
	// every walk, nested shell strings included. Default DefaultMaxSteps.
	MaxSteps int
}

// The default limits: far above any command line a person or an agent writes (a 128 KiB heredoc, a few
// hundred levels of nesting; a real 40 KiB shell script takes about 10,000 steps), far below what costs the
// process more than a few megabytes of stack or some tens of milliseconds.
const (
	DefaultMaxBytes = 128 << 10
	DefaultMaxDepth = 1000
	DefaultMaxSteps = 500_000
)

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxSteps <= 0 {
		l.MaxSteps = DefaultMaxSteps
	}
	return l
}

// readChunk is the most the parser is given at one read. Smaller chunks tighten the bound on the stack
// (the margin above MaxDepth grows with the chunk) and cost a depth measure more often; a line this short
// or shorter is never measured at all.
const readChunk = 512

// errTooDeep stops a parse whose recursion passed MaxDepth.
var errTooDeep = errors.New("nested too deep to analyze")

// depthReader gives the parser its line readChunk bytes at a time and measures, at each read after the
// first, how deep the goroutine's stack is; past the limit it fails the read, which ends the parse.
type depthReader struct {
	src      string
	off      int
	maxDepth int
	// base is the depth where the analysis began, measured at the first read of its first parse when the
	// line is longer than one read (-1 until then), so that the limit counts the analysis's own frames,
	// not those of whatever called it.
	base int
	pcs  []uintptr
}

func (r *depthReader) Read(p []byte) (int, error) {
	if r.off >= len(r.src) {
		return 0, io.EOF
	}
	switch {
	case r.base < 0 && len(r.src) <= readChunk:
		// One read takes the whole line, and no read follows to measure: the parser's recursion is bounded
		// by the chunk itself. This is the usual line, and it costs no measure at all.
	case r.base < 0:
		r.base = stackDepth()
	case r.depth()-r.base > r.maxDepth:
		return 0, errTooDeep
	}
	n := copy(p[:min(len(p), readChunk)], r.src[r.off:])
	r.off += n
	return n, nil
}

// depth counts the frames on the stack, up to the limit above the base: runtime.Callers stops when its
// buffer is full, so a deep stack costs no more to measure than the limit.
func (r *depthReader) depth() int {
	need := r.base + r.maxDepth + 1
	if cap(r.pcs) < need {
		r.pcs = make([]uintptr, need)
	}
	return runtime.Callers(0, r.pcs[:need])
}

// stackDepth counts every frame on the stack.
func stackDepth() int {
	pcs := make([]uintptr, 256)
	for {
		if n := runtime.Callers(0, pcs); n < len(pcs) {
			return n
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
}

// budget counts the analysis's work against MaxSteps.
type budget struct {
	left int
	// spent is set once the budget ran out; every walk then stops at its next step.
	spent bool
}

// take counts n steps and reports whether the analysis may go on.
func (b *budget) take(n int) bool {
	if b.spent {
		return false
	}
	b.left -= n
	if b.left < 0 {
		b.spent = true
		return false
	}
	return true
}

// tooComplex records why a line was not analyzed, and drops what the analysis had found so far: a line
// analyzed in part must not read as a line that runs only that part.
func (z *analyzer) tooComplex(detail string) {
	z.a.Commands, z.a.Writes, z.a.Reads = nil, nil, nil
	z.finding(TooComplex, detail)
}

func bytesDetail(n, limit int) string {
	return "the command line is " + strconv.Itoa(n) + " bytes, over the limit of " + strconv.Itoa(limit)
}
