// Package sse reads and writes Server-Sent Events streams (the WHATWG event-stream format) the way a proxy
// must: every event keeps the bytes it arrived as, so that events Warden does not change pass through
// byte for byte (comments, event names, field order, line endings, data: [DONE]), and the concatenation of
// every event's Raw is exactly the input, however the stream was chunked.
//
// Lines end with \n, \r\n or a lone \r. A lone \r at the end of the bytes read so far ends its line at
// once, so an event is never held back waiting for a byte that may not come; a \n that follows it is
// counted with the next event's bytes, or, at the end of the stream, returned as an event of its own with
// no fields. The package never buffers a whole stream and bounds one event.
package sse

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unsafe"
)

// Event is one event block: the lines up to and including the blank line that ends it.
type Event struct {
	// Raw is the event's bytes as read. It must not be written to: Type and Data may share its bytes, and
	// its array may hold other events' (its capacity ends with its bytes, so appending copies it).
	Raw []byte
	// Type is the event field ("" when absent).
	Type string
	// Data is the data fields joined with "\n"; HasData says whether there was any data field.
	Data    string
	HasData bool
	// ID is the last id field of the event; HasID says whether there was one (an id holding NUL is ignored).
	ID    string
	HasID bool
	// Retry is the retry field in milliseconds, or -1.
	Retry int64
	// Comments are the comment lines without their leading colon.
	Comments []string
	// Incomplete is set on a final event the stream ended in the middle of (no blank line after it).
	// Browsers drop such an event; a proxy passes its bytes on.
	Incomplete bool
	// Unknown is set when a line of the event is neither a comment nor one of the fields SSE defines (data,
	// event, id, retry): a client ignores such a line, so a guard that passes it passes bytes it did not
	// read, and a provider that sends one is not speaking the format.
	Unknown bool
}

// DefaultMaxEventSize bounds one event's bytes.
const DefaultMaxEventSize = 1 << 20

// ErrEventTooLarge is returned when an event exceeds the reader's limit.
var ErrEventTooLarge = errors.New("sse: event larger than the limit")

// Reader reads events from a stream. It is not safe for concurrent use.
type Reader struct {
	in      input
	max     int
	skipLF  bool // the last line ended with \r at the end of what was read; a \n next belongs to it
	started bool
	// slab holds the raw bytes of the events read so far, which stay the caller's; the free space after
	// them takes the next events', so that one allocation serves many events.
	slab []byte
	// single says the reader reads one event (ParseEvent's): its slab was made to the event's measure and
	// is not replaced.
	single bool
}

// slabSize is the size of a new slab: many ordinary events, few enough bytes that the slab one kept event
// holds on to is small. A stream's first slab is firstSlabSize: what a stream reads with Next, not
// peeked, is mostly its opening and closing events, a few hundred bytes, and a slab is allocated and
// cleared before the stream's first token goes out.
const (
	slabSize      = 8 << 10
	firstSlabSize = 1 << 10
)

// NewReader returns a reader with the default event size limit.
func NewReader(r io.Reader) *Reader {
	return &Reader{in: input{src: r, buf: make([]byte, readSize)}, max: DefaultMaxEventSize}
}

// readSize is the reader's buffer: what one read of the stream may bring. A provider's events come a few
// hundred bytes at a time, so a larger buffer mostly stays empty, and it is allocated and cleared for
// every stream before its first event (at 16 KiB, a fifth of the guard's time on a Responses stream's
// opening events). A burst takes more reads; an event longer than the buffer is gathered across them.
const readSize = 4 << 10

// ParseEvent reads the first event of b as Next would on a new reader of b, for an event Warden holds and
// reads again (to edit or renumber it): a Reader would allocate its 4 KiB buffer and an 8 KiB slab for
// the one event. The event's Raw (and its Data) are a copy of its bytes, never b's; b is not written to.
func ParseEvent(b []byte) (Event, error) {
	r := Reader{in: input{src: noMoreInput{}, buf: b[:len(b):len(b)], w: len(b)}, max: DefaultMaxEventSize,
		slab: make([]byte, 0, len(b)), single: true}
	return r.Next()
}

// noMoreInput is the end of ParseEvent's bytes: a read of it writes nothing.
type noMoreInput struct{}

func (noMoreInput) Read([]byte) (int, error) { return 0, io.EOF }

// input is what the reader read from the stream and has not yet handed out, buf[r:w]. It is bufio.Reader
// cut to the two things an event reader needs, the bytes buffered and more of them when none are: each
// call a paced stream's chunk makes is a function whose code and data the pause between chunks evicted
// from the CPU caches, so fewer and smaller calls make a chunk's pass through the proxy quicker.
type input struct {
	src  io.Reader
	buf  []byte
	r, w int
	err  error // what the read that filled buf ended with, reported when its bytes are used up
	// wait, when set, is called before each read of src: the reader may wait there (Reader.OnWait).
	wait func()
}

// maxEmptyReads bounds the reads in a row that return nothing and no error, as bufio does.
const maxEmptyReads = 100

func (in *input) buffered() []byte { return in.buf[in.r:in.w] }

func (in *input) discard(n int) { in.r += n }

// more reads the stream's next bytes into buf when none are buffered, and returns the read's error when
// it gave none (or the error the read that gave the last bytes ended with).
func (in *input) more() error {
	if in.r < in.w || in.err == nil && in.fill() {
		return nil
	}
	err := in.err
	in.err = nil
	return err
}

// fill reads the stream's next bytes into the empty buffer and reports whether any came; the read's error
// stays in err for more to return.
func (in *input) fill() bool {
	in.r, in.w = 0, 0
	if in.wait != nil {
		in.wait()
	}
	for range maxEmptyReads {
		n, err := in.src.Read(in.buf)
		in.w, in.err = n, err
		if n > 0 || err != nil {
			return n > 0
		}
	}
	in.err = io.ErrNoProgress
	return false
}

// SetMaxEventSize changes the limit on one event's bytes.
func (r *Reader) SetMaxEventSize(n int) { r.max = n }

// Next returns the next event, or io.EOF when the stream ended cleanly between events. Any other error is
// the underlying reader's or ErrEventTooLarge.
func (r *Reader) Next() (Event, error) {
	if ev, ok := r.nextDataLine(); ok {
		return ev, nil
	}
	ev := Event{Retry: -1}
	var data eventData
	raw := r.slab[len(r.slab):] // grows in the slab's free space; append moves it out when it does not fit
	for {
		line, ended, err := r.readLine(&raw)
		if !r.started {
			r.started = true
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
		}
		if !ended {
			if len(raw) == 0 {
				if err == nil {
					err = io.EOF
				}
				return Event{}, err
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return Event{}, err
			}
			if len(line) > 0 {
				ev.field(line, &data)
			}
			ev.Incomplete = len(line) > 0 || len(ev.Comments) > 0 || ev.HasData || ev.HasID || ev.Type != "" || ev.Retry >= 0
			return ev.finish(r.keep(raw), &data), nil
		}
		if len(line) == 0 {
			return ev.finish(r.keep(raw), &data), nil
		}
		ev.field(line, &data)
	}
}

// nextDataLine reads the event most streams are made of, one data line ended by \n and a blank line,
// maybe after one event line (Anthropic's and the Responses API's events name their type), when its bytes
// are buffered whole; for anything else it reads nothing and reports false, and Next's general loop takes
// over. A chunk of a stream arrives after a pause in which other code ran, so the few cache lines this
// path touches, against the general loop's calls per line, are what a proxy's per-chunk delay is made of.
func (r *Reader) nextDataLine() (Event, bool) {
	buf, at, ok := r.bufferedDataLine()
	if !ok {
		return Event{}, false
	}
	raw := r.keep(append(r.slab[len(r.slab):], buf[:at.end]...))
	r.in.discard(at.end)
	ev := Event{Raw: raw, HasData: true, Retry: -1}
	// Type and Data share raw, which is never written again (Event.Raw says so): an event's type is
	// an allocation a stream's every event made, Anthropic's and the Responses API's.
	if at.typeEnd >= 0 {
		if value := fieldValue(raw[len("event:"):at.typeEnd]); len(value) > 0 {
			ev.Type = unsafe.String(&value[0], len(value))
		}
	}
	if value := fieldValue(raw[at.dataAt+len("data:") : at.dataEnd]); len(value) > 0 {
		ev.Data = unsafe.String(&value[0], len(value))
	}
	return ev, true
}

// PeekData returns the next event without reading it when it is one data line ended by \n and a blank
// line, with no event line, buffered whole (it waits for the stream's next bytes when none are buffered):
// its bytes and its data. They are the reader's buffer, valid until the next call on r, and must not be
// kept; Skip(len(raw)) then reads the event. For anything else ok is false. A caller that writes most
// events on as they came uses it to spare each the copy Next makes.
//
// It is the path a paced stream's every chunk takes, and it is written as one function with no calls but
// the read and the line scan: after the pause between chunks its code is out of the CPU caches, and each
// cache line of code it runs costs a miss, so that the code it spans, not its instructions, makes its
// time (PeekEvent, more general, runs through several functions).
func (r *Reader) PeekData() (raw []byte, data string, ok bool) {
	if r.skipLF || !r.await() || !r.begun() {
		return nil, "", false
	}
	buf := r.in.buffered()
	i := bytes.IndexByte(buf, '\n')
	if i < len("data:") || i+1 >= len(buf) || buf[i+1] != '\n' || i+2 > r.max || string(buf[:len("data:")]) != "data:" ||
		bytes.IndexByte(buf[:i], '\r') >= 0 {
		return nil, "", false
	}
	if value := fieldValue(buf[len("data:"):i]); len(value) > 0 {
		data = unsafe.String(&value[0], len(value))
	}
	return buf[:i+2], data, true
}

// PeekEvent is PeekData for an event that may name its type on one event line before its data line, as
// Anthropic's and the Responses API's do; typ is that name ("" when there is none), and aliases the
// reader's buffer as raw and data do.
func (r *Reader) PeekEvent() (raw []byte, typ, data string, ok bool) {
	if r.skipLF || !r.await() || !r.begun() {
		return nil, "", "", false
	}
	buf, at, ok := r.bufferedDataLine()
	if !ok {
		return nil, "", "", false
	}
	// The strings are valid as long as raw is, which the caller was told.
	if at.typeEnd >= 0 {
		if value := fieldValue(buf[len("event:"):at.typeEnd]); len(value) > 0 {
			typ = unsafe.String(&value[0], len(value))
		}
	}
	if value := fieldValue(buf[at.dataAt+len("data:") : at.dataEnd]); len(value) > 0 {
		data = unsafe.String(&value[0], len(value))
	}
	return buf[:at.end], typ, data, true
}

// begun reports whether the reader is past the stream's start, where a byte-order mark may stand, which
// Next's general loop strips. A stream whose first buffered byte cannot begin one is past it at once, so
// that its first event is read whole like the others, by the peeks and nextDataLine, and not line by line
// into a slice that grows as it goes, copied at each growth (a Responses stream's first event carries the
// response, its instructions and its tools).
func (r *Reader) begun() bool {
	if !r.started {
		if buf := r.in.buffered(); len(buf) > 0 && buf[0] != 0xEF {
			r.started = true
		}
	}
	return r.started
}

// await waits for the stream's next bytes when none are buffered, here rather than in Next, so that an
// event that comes alone, as each of a paced stream's does, is offered by PeekData and PeekEvent too. It
// reports whether bytes are buffered; a failed read's error is left for Next to report.
func (r *Reader) await() bool {
	return r.in.r < r.in.w || r.in.err == nil && r.in.fill()
}

// OnWait makes r call f before each read of its input, where it may wait for the stream's next bytes: a
// proxy flushes there what it wrote of the events before them (nil: nothing is called).
func (r *Reader) OnWait(f func()) { r.in.wait = f }

// Buffered reports how many bytes r has read from its input and not yet handed out as events: none when
// the events of the last read have all been read, and the next read waits for the stream.
func (r *Reader) Buffered() int { return r.in.w - r.in.r }

// Skip reads the n bytes of the event PeekData or PeekEvent returned.
func (r *Reader) Skip(n int) { r.in.discard(n) }

// dataLineAt is where the parts of a buffered one-line data event lie in the buffer.
type dataLineAt struct {
	typeEnd         int // the end of the event line, or -1 when there is none
	dataAt, dataEnd int // the data line, without its line ending
	end             int // the event's end, after the blank line
}

// bufferedDataLine finds, in what the reader has buffered, a whole event of one data line (maybe after one
// event line) whose lines all end as its first does, with \n or with \r\n (Gemini's), and hold no other \r.
func (r *Reader) bufferedDataLine() ([]byte, dataLineAt, bool) {
	at := dataLineAt{typeEnd: -1}
	if r.skipLF || !r.begun() {
		return nil, at, false
	}
	buf := r.in.buffered()
	lf := bytes.IndexByte(buf, '\n') // the first line's end
	if lf < 1 {
		return nil, at, false
	}
	cr := 0 // 1 when the lines end with \r\n
	if buf[lf-1] == '\r' {
		cr = 1
	}
	if bytes.HasPrefix(buf, []byte("event:")) {
		at.typeEnd, at.dataAt = lf-cr, lf+1
		if lf = bytes.IndexByte(buf[at.dataAt:], '\n'); lf < 0 {
			return nil, at, false
		}
		lf += at.dataAt
	}
	at.dataEnd, at.end = lf-cr, lf+1+cr+1
	if at.dataEnd-at.dataAt < len("data:") || at.end > len(buf) || at.end > r.max || buf[at.end-1] != '\n' ||
		string(buf[at.dataAt:at.dataAt+len("data:")]) != "data:" || bytes.IndexByte(buf[at.dataAt:at.dataEnd], '\r') >= 0 {
		return nil, at, false
	}
	if cr == 1 && (buf[lf-1] != '\r' || buf[at.end-2] != '\r') || at.typeEnd >= 0 && bytes.IndexByte(buf[:at.typeEnd], '\r') >= 0 {
		return nil, at, false
	}
	return buf, at, true
}

// fieldValue is a field's value as a line carries it after the colon: without one leading space.
func fieldValue(v []byte) []byte {
	if len(v) > 0 && v[0] == ' ' {
		return v[1:]
	}
	return v
}

// keep makes an event's raw bytes its own: their capacity ends with them, so that an append to Raw cannot
// reach the next event's bytes. When they were read into the slab, the slab's free space starts after
// them, and a slab with little space left is replaced by a new one.
func (r *Reader) keep(raw []byte) []byte {
	n := len(raw)
	if free := r.slab[len(r.slab):cap(r.slab)]; n > 0 && n <= len(free) && &raw[0] == &free[0] {
		r.slab = r.slab[:len(r.slab)+n]
	}
	if cap(r.slab)-len(r.slab) < 512 && !r.single {
		size := slabSize
		if r.slab == nil {
			size = firstSlabSize
		}
		r.slab = make([]byte, 0, size)
	}
	return raw[:n:n]
}

func (ev *Event) finish(raw []byte, data *eventData) Event {
	ev.Raw = raw
	ev.Data = data.String()
	return *ev
}

// eventData gathers an event's data lines. The one data line most events have is kept as the slice of the
// event's raw bytes it is, and Data shares those bytes (one allocation an event fewer); several are joined
// into a string of their own.
type eventData struct {
	first  []byte
	joined strings.Builder
	lines  int
}

func (d *eventData) add(value []byte) {
	d.lines++
	switch d.lines {
	case 1:
		d.first = value
		return
	case 2:
		d.joined.Write(d.first)
	}
	d.joined.WriteByte('\n')
	d.joined.Write(value)
}

func (d *eventData) String() string {
	switch {
	case d.lines > 1:
		return d.joined.String()
	case len(d.first) == 0:
		return ""
	}
	// The raw bytes are never written again once read (Event.Raw documents it).
	return unsafe.String(&d.first[0], len(d.first))
}

// field applies one line to the event.
func (ev *Event) field(line []byte, data *eventData) {
	if line[0] == ':' {
		ev.Comments = append(ev.Comments, string(line[1:]))
		return
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], fieldValue(line[i+1:])
	}
	switch string(name) {
	case "data":
		data.add(value)
		ev.HasData = true
	case "event":
		ev.Type = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			ev.ID, ev.HasID = string(value), true
		}
	case "retry":
		if n, err := strconv.ParseInt(string(value), 10, 64); err == nil && n >= 0 && isDigits(value) {
			ev.Retry = n
		}
	default:
		ev.Unknown = true
	}
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// readLine appends the next line and its terminator to raw and returns the line without its terminator.
// ended is false when the stream ended (or failed) before a terminator.
func (r *Reader) readLine(raw *[]byte) (line []byte, ended bool, err error) {
	start := len(*raw)
	if r.skipLF {
		r.skipLF = false
		if r.await() && r.in.buf[r.in.r] == '\n' { // a failed read stays for the loop below to return
			*raw = append(*raw, '\n')
			r.in.discard(1)
			start++
		}
	}
	for {
		if err := r.in.more(); err != nil {
			return (*raw)[start:], false, err
		}
		buf := r.in.buffered()
		n := len(buf)
		i := lineEnd(buf)
		if i < 0 {
			*raw = append(*raw, buf...)
			r.in.discard(n)
			if len(*raw) > r.max {
				return nil, false, ErrEventTooLarge
			}
			continue
		}
		*raw = append(*raw, buf[:i+1]...)
		r.in.discard(i + 1)
		end := len(*raw) - 1
		if buf[i] == '\r' {
			if i+1 < n {
				if buf[i+1] == '\n' {
					*raw = append(*raw, '\n')
					r.in.discard(1)
				}
			} else {
				r.skipLF = true
			}
		}
		if len(*raw) > r.max {
			return nil, false, ErrEventTooLarge
		}
		return (*raw)[start:end], true, nil
	}
}

// lineEnd is the index of the first \r or \n in buf, or -1. Two IndexByte scans beat one IndexAny,
// which is not vectorized; \r is rare in practice, so its scan stops at the \n.
func lineEnd(buf []byte) int {
	lf := bytes.IndexByte(buf, '\n')
	upto := buf
	if lf >= 0 {
		upto = buf[:lf]
	}
	if cr := bytes.IndexByte(upto, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// Encode returns an event's bytes in canonical form: comments, event, id, retry, then one data line per line
// of Data, each line ended by \n, and a blank line. Use it for events Warden writes or changes; pass Raw on
// for the others.
func (ev Event) Encode() []byte { return ev.EncodeLines("\n") }

// EncodeLines is Encode with every line ended by eol: what a stream whose lines end in \r\n needs, since
// some clients (the Gemini SDK among them) split events on the first blank line of either kind and run two
// events together when the endings are mixed.
func (ev Event) EncodeLines(eol string) []byte {
	var b bytes.Buffer
	for _, c := range ev.Comments {
		b.WriteString(":" + c + eol)
	}
	if ev.Type != "" {
		b.WriteString("event: " + ev.Type + eol)
	}
	if ev.HasID {
		b.WriteString("id: " + ev.ID + eol)
	}
	if ev.Retry >= 0 {
		b.WriteString("retry: " + strconv.FormatInt(ev.Retry, 10) + eol)
	}
	if ev.HasData {
		for _, l := range strings.Split(ev.Data, "\n") {
			b.WriteString("data: " + l + eol)
		}
	}
	b.WriteString(eol)
	return b.Bytes()
}

// LineEnding returns how the first line of raw ends: "\r\n", "\r" or "\n"; "" when no line ends in it.
func LineEnding(raw []byte) string {
	i := bytes.IndexAny(raw, "\r\n")
	switch {
	case i < 0:
		return ""
	case raw[i] == '\n':
		return "\n"
	case i+1 < len(raw) && raw[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
}

// Data returns a data-only event: the form OpenAI-style streams use ("data: {...}" and "data: [DONE]").
func Data(data string) Event { return Event{Data: data, HasData: true, Retry: -1} }

// Named returns an event with a type and data, the form Anthropic-style streams use.
func Named(typ, data string) Event { return Event{Type: typ, Data: data, HasData: true, Retry: -1} }
