package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentwarden/warden/wire/sse"
	"github.com/google/go-cmp/cmp"
	gosse "github.com/tmaxmax/go-sse"
)

func readAll(t testing.TB, r io.Reader) []sse.Event {
	t.Helper()
	rd := sse.NewReader(r)
	var out []sse.Event
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		out = append(out, ev)
	}
}

// fields is what a test compares of an event.
type fields struct {
	Type, Data, ID string
	HasData, HasID bool
	Retry          int64
	Comments       []string
	Incomplete     bool
	Unknown        bool
}

// view lists the events' fields, leaving out events that are only line endings (a stray blank line, or the
// \n of a \r\n split across reads); their bytes are checked apart.
func view(evs []sse.Event) []fields {
	var out []fields
	for _, e := range evs {
		if len(e.Raw) > 0 && strings.Trim(string(e.Raw), "\r\n") == "" && !e.Incomplete {
			continue
		}
		out = append(out, fields{e.Type, e.Data, e.ID, e.HasData, e.HasID, e.Retry, e.Comments, e.Incomplete, e.Unknown})
	}
	return out
}

func TestReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		in   string
		want []fields
	}{
		{"a data event", "data: {\"a\":1}\n\n", []fields{{Data: `{"a":1}`, HasData: true, Retry: -1}}},
		{"data lines join with newlines", "data: a\ndata: b\n\n", []fields{{Data: "a\nb", HasData: true, Retry: -1}}},
		{"an empty data field is data", "data:\n\n", []fields{{Data: "", HasData: true, Retry: -1}}},
		{"only one leading space is removed", "data:  two\n\n", []fields{{Data: " two", HasData: true, Retry: -1}}},
		{"no space after the colon", "data:x\n\n", []fields{{Data: "x", HasData: true, Retry: -1}}},
		{"an event name", "event: message_delta\ndata: {}\n\n", []fields{{Type: "message_delta", Data: "{}", HasData: true, Retry: -1}}},
		{"an id", "id: 7\ndata: x\n\n", []fields{{ID: "7", HasID: true, Data: "x", HasData: true, Retry: -1}}},
		{"an id with NUL is ignored", "id: a\x00b\ndata: x\n\n", []fields{{Data: "x", HasData: true, Retry: -1}}},
		{"a retry", "retry: 3000\n\n", []fields{{Retry: 3000}}},
		{"a retry that is not digits is ignored", "retry: 3s\n\n", []fields{{Retry: -1}}},
		{"comments are kept", ": ping\n:x\n\n", []fields{{Comments: []string{" ping", "x"}, Retry: -1}}},
		{"a field without a colon has an empty value", "data\n\n", []fields{{Data: "", HasData: true, Retry: -1}}},
		{"unknown fields are marked", "foo: bar\ndata: x\n\n", []fields{{Data: "x", HasData: true, Retry: -1, Unknown: true}}},
		{"a line of JSON without a field is an unknown field", "{\"choices\":[]}\n\n", []fields{{Retry: -1, Unknown: true}}},
		{"a field name in capitals is unknown", "Data: x\n\n", []fields{{Retry: -1, Unknown: true}}},
		{"CRLF line endings", "data: a\r\ndata: b\r\n\r\n", []fields{{Data: "a\nb", HasData: true, Retry: -1}}},
		{"CR line endings", "data: a\rdata: b\r\r", []fields{{Data: "a\nb", HasData: true, Retry: -1}}},
		{"a leading byte order mark is ignored", "\xEF\xBB\xBFdata: x\n\n", []fields{{Data: "x", HasData: true, Retry: -1}}},
		{"two events", "data: 1\n\ndata: [DONE]\n\n", []fields{{Data: "1", HasData: true, Retry: -1}, {Data: "[DONE]", HasData: true, Retry: -1}}},
		{"a stray blank line passes through", "\ndata: 1\n\n", []fields{{Data: "1", HasData: true, Retry: -1}}},
		{"an unfinished last event is returned, marked", "data: 1\n\ndata: 2", []fields{{Data: "1", HasData: true, Retry: -1}, {Data: "2", HasData: true, Retry: -1, Incomplete: true}}},
		{"a last event without its blank line is marked", "data: 2\n", []fields{{Data: "2", HasData: true, Retry: -1, Incomplete: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			for name, r := range map[string]io.Reader{"whole": strings.NewReader(tt.in), "byte by byte": iotest.OneByteReader(strings.NewReader(tt.in))} {
				evs := readAll(t, r)
				if diff := cmp.Diff(tt.want, view(evs)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", name, diff)
				}
				if got := join(evs); got != tt.in {
					t.Errorf("%s: bytes not kept: %q", name, got)
				}
			}
		})
	}
}

func join(evs []sse.Event) string {
	var b bytes.Buffer
	for _, e := range evs {
		b.Write(e.Raw)
	}
	return b.String()
}

// TestEventsKeepTheirBytes reads events whose raw bytes share the reader's buffers: each event keeps its
// bytes while later ones are read (small events, events larger than a slab, a slab's worth and more), and
// an append to one event's Raw leaves the next event's bytes alone.
func TestEventsKeepTheirBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc  string
		sizes []int
	}{
		{"many small events fill several slabs", repeatSize(40, 2000)},
		{"an event larger than a slab between small ones", []int{40, 40, 20000, 40, 40}},
		{"events that nearly fill a slab", []int{8000, 100, 8100, 7600, 40}},
		{"events that nearly fill the first, smaller slab", []int{40, 700, 250, 900, 40}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			var in strings.Builder
			for i, n := range tc.sizes {
				if i%2 == 1 { // a named event, whose Type shares Raw's bytes as Data does
					fmt.Fprintf(&in, "event: e%d\n", i)
				}
				fmt.Fprintf(&in, "data: %d %s\n\n", i, strings.Repeat("x", n))
			}
			evs := readAll(t, iotest.HalfReader(strings.NewReader(in.String())))
			if len(evs) != len(tc.sizes) {
				t.Fatalf("read %d events, want %d", len(evs), len(tc.sizes))
			}
			for i := range evs[:len(evs)-1] {
				next := string(evs[i+1].Raw)
				_ = append(evs[i].Raw, "!!!!"...)
				if string(evs[i+1].Raw) != next {
					t.Fatalf("appending to event %d's Raw changed event %d's", i, i+1)
				}
			}
			if got := join(evs); got != in.String() {
				t.Errorf("the events' bytes joined differ from the stream's (%d bytes vs %d)", len(got), in.Len())
			}
			for i, ev := range evs {
				if want := fmt.Sprintf("%d %s", i, strings.Repeat("x", tc.sizes[i])); ev.Data != want {
					t.Fatalf("event %d's Data changed after later reads (%d bytes, want %d)", i, len(ev.Data), len(want))
				}
				if want := map[bool]string{true: fmt.Sprintf("e%d", i)}[i%2 == 1]; ev.Type != want {
					t.Fatalf("event %d's Type is %q after later reads, want %q", i, ev.Type, want)
				}
			}
		})
	}
}

// An Anthropic or Responses stream names every event: the type is read without an allocation of its
// own, as the data is. Not parallel: testing.AllocsPerRun refuses to run beside other tests.
func TestNamedEventsAllocateNoType(t *testing.T) {
	for _, tc := range []struct{ desc, event string }{
		{"a named one-line event", "event: content_block_delta\ndata: {\"type\":\"content_block_delta\"}\n\n"},
		{"a named event with CRLF line ends", "event: response.output_text.delta\r\ndata: {}\r\n\r\n"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			const events = 10000 // a new slab every few dozen events: AllocsPerRun's integer average is 0
			rd := sse.NewReader(strings.NewReader(strings.Repeat(tc.event, events)))
			if _, err := rd.Next(); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(1000, func() {
				if ev, err := rd.Next(); err != nil || ev.Type == "" {
					t.Fatalf("Next = %q, %v", ev.Type, err)
				}
			}); n != 0 {
				t.Errorf("reading a named event allocates %.0f times; want none", n)
			}
		})
	}
}

func repeatSize(n, count int) []int {
	out := make([]int, count)
	for i := range out {
		out[i] = n
	}
	return out
}

func TestEventTooLarge(t *testing.T) {
	t.Parallel()
	rd := sse.NewReader(strings.NewReader("data: " + strings.Repeat("x", 100) + "\n\n"))
	rd.SetMaxEventSize(50)
	if _, err := rd.Next(); !errors.Is(err, sse.ErrEventTooLarge) {
		t.Errorf("err = %v, want ErrEventTooLarge", err)
	}
}

func TestEncodeRoundTrips(t *testing.T) {
	t.Parallel()
	tests := []sse.Event{
		sse.Data(`{"choices":[]}`),
		sse.Data("[DONE]"),
		sse.Named("content_block_delta", `{"type":"content_block_delta"}`),
		{Type: "x", Data: "a\nb\n", HasData: true, ID: "9", HasID: true, Retry: 10, Comments: []string{" keep-alive"}},
	}
	for i, ev := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			got := readAll(t, bytes.NewReader(ev.Encode()))
			if len(got) != 1 {
				t.Fatalf("%d events", len(got))
			}
			if diff := cmp.Diff(view([]sse.Event{ev}), view(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := string(sse.Data("[DONE]").Encode()); got != "data: [DONE]\n\n" {
		t.Errorf("[DONE] encodes as %q", got)
	}
}

// genStream writes a random well-formed stream: events with data, names, ids, comments, any line ending.
func genStream(r *rand.Rand) string {
	var b strings.Builder
	ends := []string{"\n", "\r\n", "\r"}
	end := ends[r.IntN(3)]
	word := func() string {
		const alphabet = "abcdef {}[]\":,.-_é0123456789"
		n := r.IntN(12)
		var w []rune
		for range n {
			w = append(w, []rune(alphabet)[r.IntN(len([]rune(alphabet)))])
		}
		return string(w)
	}
	for range r.IntN(8) + 1 {
		if r.IntN(4) == 0 {
			b.WriteString(":" + word() + end)
		}
		if r.IntN(2) == 0 {
			b.WriteString("event: " + strings.TrimSpace(word()) + "x" + end)
		}
		if r.IntN(3) == 0 {
			b.WriteString("id: " + word() + end)
		}
		for range r.IntN(3) + 1 {
			sep := ": "
			if r.IntN(3) == 0 {
				sep = ":"
			}
			b.WriteString("data" + sep + word() + end)
		}
		b.WriteString(end)
		if r.IntN(2) == 0 {
			end = ends[r.IntN(3)]
		}
	}
	return b.String()
}

// The reader agrees with go-sse (github.com/tmaxmax/go-sse), a reference parser, on every generated stream,
// read byte by byte (every event through the general loop) and whole (buffered one-line data events
// through the fast path).
func TestDifferentialAgainstAReferenceParser(t *testing.T) {
	t.Parallel()
	type result struct{ Type, Data, LastID string }
	for seed := range uint64(500) {
		in := genStream(rand.New(rand.NewPCG(seed, 1)))
		var want []result
		for ev, err := range gosse.Read(strings.NewReader(in), nil) {
			if err != nil {
				t.Fatalf("seed %d: reference: %v", seed, err)
			}
			want = append(want, result{ev.Type, ev.Data, ev.LastEventID})
		}
		for _, rd := range []struct {
			how string
			r   io.Reader
		}{{"byte by byte", iotest.OneByteReader(strings.NewReader(in))}, {"whole", strings.NewReader(in)}} {
			var got []result
			last := ""
			for _, ev := range readAll(t, rd.r) {
				if ev.HasID {
					last = ev.ID
				}
				if ev.HasData {
					got = append(got, result{ev.Type, ev.Data, last})
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("seed %d, read %s, stream %q (-reference +ours):\n%s", seed, rd.how, in, diff)
			}
		}
	}
}

// FuzzReader: any bytes are read without panic, nothing is lost or added, and how the stream is chunked
// does not change what is read.
func FuzzReader(f *testing.F) {
	for _, s := range []string{"data: x\n\n", "event: a\r\ndata: b\r\n\r\n", "data: a\rdata: b\r\r", ": c\n\ndata: [DONE]\n\n",
		"\xEF\xBB\xBFdata: x", "id: \x00\nretry: 12\n\n", "data:\r\n\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		whole := readAll(t, strings.NewReader(in))
		if got := join(whole); got != in {
			t.Fatalf("bytes changed: %q -> %q", in, got)
		}
		bytewise := readAll(t, iotest.OneByteReader(strings.NewReader(in)))
		if join(bytewise) != in {
			t.Fatalf("bytes changed byte by byte: %q", in)
		}
		if diff := cmp.Diff(dataOf(whole), dataOf(bytewise)); diff != "" {
			t.Fatalf("chunking changed the events of %q:\n%s", in, diff)
		}
	})
}

func dataOf(evs []sse.Event) []string {
	var out []string
	for _, e := range evs {
		if e.HasData {
			out = append(out, e.Type+"|"+e.Data)
		}
	}
	return out
}

func TestLineEnding(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ desc, raw, want string }{
		{"a line feed", "data: x\n\n", "\n"},
		{"a carriage return and line feed", "data: x\r\n\r\n", "\r\n"},
		{"a lone carriage return", "data: x\r\r", "\r"},
		{"no line end yet", "data: x", ""},
	} {
		if got := sse.LineEnding([]byte(tc.raw)); got != tc.want {
			t.Errorf("%s: LineEnding(%q) = %q, want %q", tc.desc, tc.raw, got, tc.want)
		}
	}
}

func TestEncodeLinesEndsEveryLineAlike(t *testing.T) {
	t.Parallel()
	ev := sse.Event{Type: "t", Data: "a\nb", HasData: true, Retry: -1, Comments: []string{" hi"}}
	if got, want := string(ev.EncodeLines("\r\n")), ": hi\r\nevent: t\r\ndata: a\r\ndata: b\r\n\r\n"; got != want {
		t.Errorf("EncodeLines = %q, want %q", got, want)
	}
	if got, want := string(ev.Encode()), ": hi\nevent: t\ndata: a\ndata: b\n\n"; got != want {
		t.Errorf("Encode = %q, want %q", got, want)
	}
}

// readPeeking reads a stream as the chat guard does: an event PeekData offers is taken from it (its bytes
// copied, since they are the reader's) and skipped; any other is read with Next.
func readPeeking(t testing.TB, r io.Reader) (evs []sse.Event, peeked int) {
	return readPeekingWith(t, r, func(rd *sse.Reader) ([]byte, string, string, bool) {
		raw, data, ok := rd.PeekData()
		return raw, "", data, ok
	})
}

// readPeekingEvents is readPeeking with PeekEvent, as the Anthropic guard reads.
func readPeekingEvents(t testing.TB, r io.Reader) (evs []sse.Event, peeked int) {
	return readPeekingWith(t, r, (*sse.Reader).PeekEvent)
}

func readPeekingWith(t testing.TB, r io.Reader, peek func(*sse.Reader) ([]byte, string, string, bool)) (evs []sse.Event, peeked int) {
	t.Helper()
	rd := sse.NewReader(r)
	for {
		if raw, typ, data, ok := peek(rd); ok {
			evs = append(evs, sse.Event{Raw: bytes.Clone(raw), Type: strings.Clone(typ), Data: strings.Clone(data), HasData: true, Retry: -1})
			rd.Skip(len(raw))
			peeked++
			continue
		}
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return evs, peeked
		}
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		evs = append(evs, ev)
	}
}

func TestPeekData(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, in   string
		wantPeeked int
	}{
		{"buffered one-line data events are peeked, the stream's first included", "data: a\n\ndata: b\n\ndata: {\"x\":1}\n\n", 3},
		{"an event line is left to Next", "data: a\n\nevent: e\ndata: b\n\n", 1},
		{"two data lines are left to Next", "data: a\n\ndata: b\ndata: c\n\n", 1},
		{"a \\r\\n event is left to Next", "data: a\r\n\r\ndata: b\r\n\r\n", 0},
		{"a stream that begins with a byte-order mark leaves its first event to Next", "\xEF\xBB\xBFdata: a\n\ndata: b\n\n", 1},
		{"a data line without its blank line is left to Next", "data: a\n\ndata: b\n", 1},
		{"a comment is left to Next", "data: a\n\n: hi\n\n", 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got, peeked := readPeeking(t, strings.NewReader(tc.in))
			if peeked != tc.wantPeeked {
				t.Errorf("peeked %d events, want %d", peeked, tc.wantPeeked)
			}
			if diff := cmp.Diff(eventsOf(readAll(t, strings.NewReader(tc.in))), eventsOf(got)); diff != "" {
				t.Errorf("peeking changed the events (-Next +peeking):\n%s", diff)
			}
		})
	}
}

func TestPeekEvent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, in   string
		wantPeeked int
	}{
		{"buffered one-line data events are peeked, the stream's first included", "data: a\n\ndata: b\n\nevent: e\ndata: c\n\n", 3},
		{"\\r\\n events are peeked, with or without an event line", "data: a\r\n\r\ndata: b\r\n\r\nevent: e\r\ndata: c\r\n\r\n", 3},
		{"an event line ended by \\r\\n before a data line ended by \\n is left to Next", "data: a\n\nevent: e\r\ndata: b\n\n", 1},
		{"a data line ended by \\r\\n after an event line ended by \\n is left to Next", "data: a\n\nevent: e\ndata: b\r\n\r\n", 1},
		{"a \\r\\n data line ended by a \\n blank line is left to Next", "data: a\r\n\r\ndata: b\r\n\n", 1},
		{"a \\n data line ended by a \\r\\n blank line is left to Next", "data: a\n\ndata: b\n\r\n", 1},
		{"a lone \\r in an event line is left to Next", "data: a\n\nevent: e\rf\ndata: b\n\n", 1},
		{"a lone \\r in a data line is left to Next", "data: a\r\n\r\ndata: b\rc\r\n\r\n", 1},
		{"a \\r\\n event without its blank line's \\n is left to Next", "data: a\r\n\r\ndata: b\r\n\r", 1},
		{"an event line alone is left to Next", "data: a\n\nevent: e\n\n", 1},
		{"a stream that begins with a byte-order mark leaves its first event to Next", "\xEF\xBB\xBFevent: e\ndata: a\n\nevent: e\ndata: b\n\n", 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			got, peeked := readPeekingEvents(t, strings.NewReader(tc.in))
			if peeked != tc.wantPeeked {
				t.Errorf("peeked %d events, want %d", peeked, tc.wantPeeked)
			}
			if diff := cmp.Diff(eventsOf(readAll(t, strings.NewReader(tc.in))), eventsOf(got)); diff != "" {
				t.Errorf("peeking changed the events (-Next +peeking):\n%s", diff)
			}
		})
	}
}

// FuzzPeekData: reading with PeekData, or with PeekEvent, where it offers an event gives the events Next
// gives.
func FuzzPeekData(f *testing.F) {
	for _, s := range []string{"data: a\n\ndata: b\n\n", "data:x\n\ndata:\n\nevent: y\ndata: z\n\n", "data: a\r\n\r\ndata: b\n\n",
		"data: a\r\n\r\nevent: e\r\ndata: b\r\n\r\ndata: c\r\n\r\n",
		"data: a\n\nevent:\ndata: b\n\nevent: t\ndata: c\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want := eventsOf(readAll(t, strings.NewReader(in)))
		for _, read := range []func(testing.TB, io.Reader) ([]sse.Event, int){readPeeking, readPeekingEvents} {
			got, _ := read(t, strings.NewReader(in))
			if diff := cmp.Diff(want, eventsOf(got)); diff != "" {
				t.Fatalf("%q: peeking changed the events (-Next +peeking):\n%s", in, diff)
			}
		}
	})
}

func TestPeekEventOffersANamedEvent(t *testing.T) {
	t.Parallel()
	in := "data: a\n\nevent: content_block_delta\ndata: {\"x\":1}\n\nevent:\ndata: b\n\n"
	got, peeked := readPeekingEvents(t, strings.NewReader(in))
	if peeked != 3 {
		t.Errorf("peeked %d events, want all three", peeked)
	}
	if diff := cmp.Diff(eventsOf(readAll(t, strings.NewReader(in))), eventsOf(got)); diff != "" {
		t.Errorf("peeking changed the events (-Next +peeking):\n%s", diff)
	}
	if _, peekedData := readPeeking(t, strings.NewReader(in)); peekedData != 1 {
		t.Errorf("PeekData offered %d events, want only the first, which has no name", peekedData)
	}
}

// eventsOf is what the peeking tests compare of events: their bytes, type and data.
func eventsOf(evs []sse.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, string(e.Raw)+"|"+e.Type+"|"+e.Data)
	}
	return out
}

// oneEventAReader gives one event a Read, as a paced upstream's stream arrives, then err once, then
// io.EOF: an error that is not reported when it comes is lost.
type oneEventAReader struct {
	events []string
	err    error
}

func (r *oneEventAReader) Read(p []byte) (int, error) {
	if len(r.events) == 0 {
		err := r.err
		r.err = io.EOF
		return 0, err
	}
	n := copy(p, r.events[0])
	r.events[0] = r.events[0][n:]
	if r.events[0] == "" {
		r.events = r.events[1:]
	}
	return n, nil
}

func TestPeekDataWaitsForAnEventThatComesAlone(t *testing.T) {
	t.Parallel()
	rd := sse.NewReader(&oneEventAReader{events: []string{"data: a\n\n", "data: b\n\n", "data: c\n\n"}, err: io.EOF})
	if _, err := rd.Next(); err != nil { // the first event is always Next's
		t.Fatal(err)
	}
	for _, want := range []string{"b", "c"} {
		raw, data, ok := rd.PeekData()
		if !ok || data != want {
			t.Fatalf("PeekData = %q, %q, %v; want the event with %q, read alone", raw, data, ok, want)
		}
		rd.Skip(len(raw))
	}
	if _, _, ok := rd.PeekData(); ok {
		t.Fatal("PeekData offered an event after the stream's end")
	}
	if _, err := rd.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after the end = %v, want io.EOF", err)
	}
}

// TestNextReportsAReadError: a read that fails with nothing read is reported by Next, whoever met it first.
func TestNextReportsAReadError(t *testing.T) {
	t.Parallel()
	reset := errors.New("connection reset")
	for _, tc := range []struct {
		desc   string
		events []string
		before func(t *testing.T, rd *sse.Reader) // reads up to the failing read
	}{
		{"met by PeekData waiting for the next event", []string{"data: a\n\n"}, func(t *testing.T, rd *sse.Reader) {
			if _, err := rd.Next(); err != nil {
				t.Fatal(err)
			}
			if _, _, ok := rd.PeekData(); ok {
				t.Fatal("PeekData offered an event from a failed read")
			}
		}},
		{"met looking for the \\n after a line's lone \\r", []string{"data: a\r"}, func(*testing.T, *sse.Reader) {}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			rd := sse.NewReader(&oneEventAReader{events: tc.events, err: reset})
			tc.before(t, rd)
			if _, err := rd.Next(); !errors.Is(err, reset) {
				t.Fatalf("Next = %v, want the read's error", err)
			}
		})
	}
}

// TestPeekedEventStaysUntilSkipped: PeekData reads nothing; the event it offers is Next's until Skip takes
// it, so a guard that declines an event leaves it whole for the general path.
func TestPeekedEventStaysUntilSkipped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc     string
		skip     bool
		wantNext string // the data Next reads after the peek
	}{
		{"an event skipped after the peek is read", true, "c"},
		{"an event peeked and not skipped stays for Next", false, "b"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			rd := sse.NewReader(strings.NewReader("data: a\n\ndata: b\n\ndata: c\n\n"))
			if _, err := rd.Next(); err != nil {
				t.Fatal(err)
			}
			raw, data, ok := rd.PeekData()
			if !ok || data != "b" || string(raw) != "data: b\n\n" {
				t.Fatalf("PeekData = %q, %q, %v; want the event \"b\"", raw, data, ok)
			}
			if tc.skip {
				rd.Skip(len(raw))
			}
			if ev, err := rd.Next(); err != nil || ev.Data != tc.wantNext {
				t.Errorf("Next = %q, %v; want %q", ev.Data, err, tc.wantNext)
			}
		})
	}
}

// emptyReads returns nothing and no error empty times before each read of in, forever when empty < 0.
type emptyReads struct {
	in    io.Reader
	empty int
	left  int
}

func (r *emptyReads) Read(p []byte) (int, error) {
	if r.empty < 0 {
		return 0, nil
	}
	if r.left < r.empty {
		r.left++
		return 0, nil
	}
	r.left = 0
	return r.in.Read(p)
}

// TestReadsThatReturnNothing: a source that returns no bytes and no error is read again, a bounded number
// of times, as bufio does: a stream that stutters is read whole, one that never gives anything ends with
// io.ErrNoProgress instead of spinning.
func TestReadsThatReturnNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc    string
		empty   int
		wantErr error
	}{
		{"a few empty reads before each are read through", 3, nil},
		{"reads that never give anything end with ErrNoProgress", -1, io.ErrNoProgress},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			rd := sse.NewReader(&emptyReads{in: iotest.OneByteReader(strings.NewReader("data: a\n\ndata: b\n\n")), empty: tc.empty})
			var got []string
			var err error
			for {
				var ev sse.Event
				if ev, err = rd.Next(); err != nil {
					break
				}
				got = append(got, ev.Data)
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || len(got) != 0 {
					t.Fatalf("read %q, then %v; want nothing, then %v", got, err, tc.wantErr)
				}
				return
			}
			if !errors.Is(err, io.EOF) || strings.Join(got, ",") != "a,b" {
				t.Fatalf("read %q, then %v; want [a b], then io.EOF", got, err)
			}
		})
	}
}

// TestParseEventReadsTheFirstEventAsNextDoes: ParseEvent is a new reader's first Next, without the
// reader's buffers, on the shapes of event Warden reads again.
func TestParseEventReadsTheFirstEventAsNextDoes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		desc, in string
		want     fields
		wantRaw  string
		wantErr  error
	}{
		{desc: "one data line", in: "data: {\"a\":1}\n\n",
			want: fields{Data: `{"a":1}`, HasData: true, Retry: -1}, wantRaw: "data: {\"a\":1}\n\n"},
		{desc: "a named event", in: "event: message_delta\ndata: {}\n\n",
			want: fields{Type: "message_delta", Data: "{}", HasData: true, Retry: -1}, wantRaw: "event: message_delta\ndata: {}\n\n"},
		{desc: "several data lines joined", in: "data: a\ndata: b\n\n",
			want: fields{Data: "a\nb", HasData: true, Retry: -1}, wantRaw: "data: a\ndata: b\n\n"},
		{desc: "CRLF line endings", in: "event: x\r\ndata: y\r\n\r\n",
			want: fields{Type: "x", Data: "y", HasData: true, Retry: -1}, wantRaw: "event: x\r\ndata: y\r\n\r\n"},
		{desc: "only the first of two events", in: "data: 1\n\ndata: 2\n\n",
			want: fields{Data: "1", HasData: true, Retry: -1}, wantRaw: "data: 1\n\n"},
		{desc: "an event without its blank line is incomplete", in: "data: cut",
			want: fields{Data: "cut", HasData: true, Retry: -1, Incomplete: true}, wantRaw: "data: cut"},
		{desc: "a byte order mark is not the event's", in: "\xEF\xBB\xBFdata: x\n\n",
			want: fields{Data: "x", HasData: true, Retry: -1}, wantRaw: "\xEF\xBB\xBFdata: x\n\n"},
		{desc: "no bytes is the end of the stream", in: "", wantErr: io.EOF},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			t.Parallel()
			b := []byte(tc.in)
			ev, err := sse.ParseEvent(b)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			got := fields{ev.Type, ev.Data, ev.ID, ev.HasData, ev.HasID, ev.Retry, ev.Comments, ev.Incomplete, ev.Unknown}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("event (-want +got):\n%s", diff)
			}
			if string(ev.Raw) != tc.wantRaw {
				t.Errorf("Raw = %q, want %q", ev.Raw, tc.wantRaw)
			}
			if len(ev.Raw) > 0 && len(b) > 0 && &ev.Raw[0] == &b[0] {
				t.Error("Raw shares the caller's bytes")
			}
		})
	}
}

// FuzzParseEvent holds ParseEvent to a new reader's first Next, and to leaving its input as it was.
func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{"data: x\n\n", "event: a\r\ndata: b\r\n\r\n", "data: a\rdata: b\r\r", ": c\n\ndata: [DONE]\n\n",
		"\xEF\xBB\xBFdata: x", "id: \x00\nretry: 12\n\n", "data:\r\n\r", "", "\n", "data: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		b := []byte(in)
		got, gotErr := sse.ParseEvent(b)
		want, wantErr := sse.NewReader(strings.NewReader(in)).Next()
		if string(b) != in {
			t.Fatalf("ParseEvent wrote to its input: %q -> %q", in, b)
		}
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("err = %v, Next's %v", gotErr, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("ParseEvent(%q) differs from Next (-next +parse):\n%s", in, diff)
		}
	})
}

func TestReaderWaitsAndBuffered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		reads []string
		// want lists, for each event read, the waits before it (reads of the input) and what stayed
		// buffered after it.
		want []string
	}{
		{desc: "a read of two events waits once, and the first leaves the second buffered", reads: []string{"data: a\n\ndata: b\n\n"},
			want: []string{"a waits 1 buffered 9", "b waits 1 buffered 0"}},
		{desc: "an event a read waits before each", reads: []string{"data: a\n\n", "data: b\n\n"},
			want: []string{"a waits 1 buffered 0", "b waits 2 buffered 0"}},
		{desc: "an event split across reads waits for its rest", reads: []string{"data: a\n\ndata:", " b\n\n"},
			want: []string{"a waits 1 buffered 5", "b waits 2 buffered 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			rd := sse.NewReader(&oneEventAReader{events: slices.Clone(tt.reads), err: io.EOF})
			waits := 0
			rd.OnWait(func() { waits++ })
			var got []string
			for {
				ev, err := rd.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%s waits %d buffered %d", ev.Data, waits, rd.Buffered()))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
