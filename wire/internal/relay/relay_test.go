package relay_test

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/wire/internal/relay"
	"github.com/agentwarden/warden/wire/sse"
)

type gateFunc func(string) (string, error)

func (f gateFunc) Text(d string) (string, error)      { return f(d) }
func (f gateFunc) Finish(warden.Part) (string, error) { return f("") }
func pass(d string) (string, error)                   { return d, nil }

// guard reads every event of in, writing each and noting it, as a stream guard does with a Flusher bound,
// and returns the flushes made after each event was handled and before each read.
func guard(t *testing.T, in string, oneByte bool) (flushes []string) {
	t.Helper()
	var src io.Reader = strings.NewReader(in)
	if oneByte {
		src = iotest.OneByteReader(src)
	}
	rd := sse.NewReader(src)
	var f relay.Flusher
	written := ""
	f.Bind(rd, func() { flushes = append(flushes, written); written = "" })
	for {
		ev, err := rd.Next()
		if err != nil {
			f.Flush()
			return flushes
		}
		written += ev.Data
		f.Wrote()
		f.Handled()
	}
}

func TestFlusher(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc    string
		in      string
		oneByte bool
		want    []string
	}{
		{desc: "events of one read go out in one flush, after the last", in: "data: a\n\ndata: b\n\ndata: c\n\n", want: []string{"abc"}},
		{desc: "an event alone in its read goes out when handled", in: "data: a\n\n", want: []string{"a"}},
		{desc: "events read a byte at a time go out each before the read of the next", in: "data: a\n\ndata: b\n\n", oneByte: true, want: []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			got := guard(t, tt.in, tt.oneByte)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("flushes %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFlusherWrappers(t *testing.T) {
	t.Parallel()
	// Each call runs the wrapped check, which reports how many flushes it found made.
	tests := []struct {
		desc string
		call func(f *relay.Flusher, check func()) error
	}{
		{desc: "a gate's text call flushes what was written first", call: func(f *relay.Flusher, check func()) error {
			_, err := f.Gate(gateFunc(func(d string) (string, error) { check(); return d, nil })).Text("x")
			return err
		}},
		{desc: "a gate's finish call flushes what was written first", call: func(f *relay.Flusher, check func()) error {
			_, err := f.Gate(gateFunc(func(d string) (string, error) { check(); return d, nil })).Finish(warden.Part{Kind: warden.PartFinish})
			return err
		}},
		{desc: "decide flushes what was written first", call: func(f *relay.Flusher, check func()) error {
			_, err := f.Decide(func(r warden.Response) (warden.Response, error) { check(); return r, nil })(warden.Response{})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var f relay.Flusher
			flushed, found := 0, -1
			f.Bind(nil, func() { flushed++ })
			f.Wrote()
			if err := tt.call(&f, func() { found = flushed }); err != nil {
				t.Fatal(err)
			}
			if found != 1 {
				t.Errorf("the check ran after %d flushes, want 1", found)
			}
		})
	}
}

func TestFlusherKeepsNil(t *testing.T) {
	t.Parallel()
	var f relay.Flusher
	f.Bind(nil, func() {})
	if f.Gate(nil) != nil {
		t.Error("a nil gate came back non-nil: a guard would leave its no-gate path")
	}
	if f.Decide(nil) != nil {
		t.Error("a nil decide came back non-nil")
	}
	var never relay.Flusher // no flush: the wrappers add nothing
	if g := gateFunc(pass); never.Gate(g) == nil {
		t.Error("a gate was lost")
	}
	never.Wrote()
	never.Handled()
	never.Flush() // must not call a nil flush
}
