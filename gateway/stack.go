package gateway

// exchangeStack is what growStack reserves: with the few kilobytes the server's own frames take, the
// goroutine's stack grows to 32 KiB, which a guarded exchange with the default guardrails fits in. Under
// debug.SetMaxStack a stream, or a whole exchange whose command needs the bash parser, needs more than
// 16 KiB and less than 32; a whole exchange with a plain command line fits in 16 (a reserve of 8 KiB for
// those measured no gain in BenchmarkHandler).
const exchangeStack = 16 << 10

// growStack gives the goroutine the stack an exchange runs to, while its stack is still shallow.
//
// Why: the collector halves an idle goroutine's stack at each cycle, and a connection's goroutine waits
// for its next request with little on it. The exchange after a collection then grew the stack back deep
// inside the pipeline (in the policy's bash parse, some fifty frames down), and a growth copies the whole
// stack and adjusts each frame's pointers through tables that are cold by then: a fifth of the handler's
// CPU in BenchmarkHandler/whole-after-gc with the defaults. Growing it here copies a dozen frames; the
// warm cost is clearing the reserve, within the noise (BenchmarkHandler). What it buys, interleaved test
// binaries with and without it: whole-after-gc/warden-default 193 → 166 µs (−14 %, p=0.026, n=6).
//
//go:noinline
func growStack() byte {
	var reserve [exchangeStack]byte
	return touch(reserve[:])
}

// touch keeps reserve in growStack's frame: a frame the compiler could drop would grow nothing.
//
//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
