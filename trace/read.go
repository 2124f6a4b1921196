package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format names a shape of recorded runs.
type Format string

// The formats Reader understands. Auto decides per record, from its keys.
const (
	Auto      Format = "auto"
	Warden    Format = "warden"
	Eval      Format = "eval"
	OpenAI    Format = "openai"
	Anthropic Format = "anthropic"
	OTel      Format = "otel"
)

// Formats lists the formats a user may name, Auto first.
func Formats() []Format { return []Format{Auto, Warden, Eval, OpenAI, Anthropic, OTel} }

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(s))
	if slices.Contains(Formats(), f) {
		return f, nil
	}
	names := make([]string, 0, 6)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown trace format %q (known: %s)", s, strings.Join(names, ", "))
}

// Error is a record that could not be read: it names the file, the line (JSONL) or record, and why.
// Reading goes on after it: Next returns the error and the following call returns the next record.
type Error struct {
	Source string
	Line   int // 0 for a record of a multi-line document
	Record int
	Err    error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Source, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: record %d: %v", e.Source, e.Record, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Reader reads traces one at a time, so that a file of any length is read in constant memory: a JSONL
// file a line at a time, any other JSON document (one transcript, an array of records, an OTLP export)
// value by value. It is not safe for concurrent use.
type Reader struct {
	src    string
	format Format
	br     *bufio.Reader
	dec    *json.Decoder // set once the input turns out not to be JSONL
	line   int
	record int
	queue  []*Trace
	// pending are records of a later array document, read whole; firstArray says the first document is an
	// array not yet opened; array that dec is inside an array of records.
	pending    []json.RawMessage
	firstArray bool
	array      bool
	mode       int // 0 undecided, 1 JSONL, 2 document
}

// NewReader reads traces in format f from r; source names r in errors and in each trace's Source.
func NewReader(r io.Reader, f Format, source string) *Reader {
	if f == "" {
		f = Auto
	}
	return &Reader{src: source, format: f, br: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next trace, or io.EOF at the end. An *Error reports one bad record; reading may go on.
// Any other error ends the input.
func (r *Reader) Next() (*Trace, error) {
	for {
		if len(r.queue) > 0 {
			t := r.queue[0]
			r.queue = r.queue[1:]
			return t, nil
		}
		if r.mode == 0 {
			if err := r.decideMode(); err != nil {
				return nil, err
			}
		}
		var (
			raw  []byte
			line int
			err  error
		)
		if r.mode == 1 {
			raw, line, err = r.nextLine()
		} else {
			raw, err = r.nextValue()
		}
		if err != nil {
			return nil, err
		}
		if raw == nil {
			continue
		}
		r.record++
		traces, err := r.convert(raw)
		if err != nil {
			return nil, &Error{Source: r.src, Line: line, Record: r.record, Err: err}
		}
		for i, t := range traces {
			if t.Source == "" {
				switch {
				case line > 0:
					t.Source = fmt.Sprintf("%s:%d", r.src, line)
				default:
					t.Source = fmt.Sprintf("%s#%d", r.src, r.record)
				}
				if len(traces) > 1 {
					t.Source += fmt.Sprintf("/%d", i+1)
				}
			}
			if t.ID == "" {
				t.ID = t.Source
			}
		}
		r.queue = append(r.queue, traces...)
	}
}

// decideMode looks at the first line: a whole JSON object on it means JSONL; anything else is a document.
func (r *Reader) decideMode() error {
	for {
		b, err := r.br.Peek(1)
		if err != nil {
			if errors.Is(err, io.EOF) {
				r.mode = 1
				return nil
			}
			return err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			if b[0] == '\n' {
				r.line++
			}
			r.br.ReadByte()
			continue
		case '{':
			// Peek the first line without consuming it.
			n := 4096
			for {
				p, err := r.br.Peek(n)
				if i := bytes.IndexByte(p, '\n'); i >= 0 {
					p = p[:i]
				} else if err == nil {
					if n >= r.br.Size() {
						// A first line longer than the buffer: JSONL records can be long; try JSONL.
						r.mode = 1
						return nil
					}
					n = min(n*4, r.br.Size())
					continue
				}
				if json.Valid(bytes.TrimSpace(p)) {
					r.mode = 1
				} else {
					r.mode = 2
				}
				break
			}
		default:
			r.mode = 2
			r.firstArray = b[0] == '['
		}
		if r.mode == 2 {
			r.dec = json.NewDecoder(r.br)
			r.dec.UseNumber()
		}
		return nil
	}
}

// nextLine returns the next non-blank line and its number.
func (r *Reader) nextLine() ([]byte, int, error) {
	for {
		b, err := r.br.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return nil, 0, err
		}
		r.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			if err != nil {
				return nil, 0, err
			}
			continue
		}
		return b, r.line, nil
	}
}

// nextValue returns the next value of a document: the document itself, or each element of an array of
// records. The first document's array is read an element at a time, so a file that is one long array of
// records needs no more memory than JSONL; an array of messages is one transcript and is returned whole.
func (r *Reader) nextValue() ([]byte, error) {
	if len(r.pending) > 0 {
		raw := r.pending[0]
		r.pending = r.pending[1:]
		return raw, nil
	}
	if r.firstArray {
		r.firstArray = false
		if _, err := r.dec.Token(); err != nil { // [
			return nil, fmt.Errorf("%s: %w", r.src, err)
		}
		r.array = true
		if !r.dec.More() {
			return nil, nil
		}
		var first json.RawMessage
		if err := r.dec.Decode(&first); err != nil {
			return nil, fmt.Errorf("%s: %w", r.src, err)
		}
		if !isMessage(first) {
			return first, nil
		}
		msgs := []json.RawMessage{first}
		for r.dec.More() {
			var m json.RawMessage
			if err := r.dec.Decode(&m); err != nil {
				return nil, fmt.Errorf("%s: %w", r.src, err)
			}
			msgs = append(msgs, m)
		}
		return json.Marshal(msgs)
	}
	if r.array {
		if !r.dec.More() {
			if _, err := r.dec.Token(); err != nil { // ]
				return nil, err
			}
			r.array = false
			return nil, nil
		}
		var raw json.RawMessage
		if err := r.dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: %w", r.src, err)
		}
		return raw, nil
	}
	var raw json.RawMessage
	if err := r.dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("%s: %w", r.src, err)
	}
	if len(raw) > 0 && raw[0] == '[' {
		// A later document that is an array: already in memory, so its records queue up.
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return nil, fmt.Errorf("%s: %w", r.src, err)
		}
		if len(elems) > 0 && isMessage(elems[0]) {
			return raw, nil
		}
		r.pending = elems
		return nil, nil
	}
	return raw, nil
}

// isMessage reports whether a JSON value is an object with a "role": a chat message, not a record.
func isMessage(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m["role"] != nil
}

// convert turns one record into traces: one for most formats, several for an OTLP export.
func (r *Reader) convert(raw []byte) ([]*Trace, error) {
	if len(raw) > 0 && raw[0] == '[' {
		var msgs []json.RawMessage
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return nil, err
		}
		f := r.format
		if f == Auto {
			f = transcriptFormat(msgs, nil)
		}
		t, err := fromTranscript(f, msgs, nil)
		if err != nil {
			return nil, err
		}
		return []*Trace{t}, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	f := r.format
	if f == Auto {
		f = detectFormat(keys)
		if f == Auto {
			return nil, errors.New("cannot tell the record's format from its keys (use --input-format)")
		}
	}
	switch f {
	case Warden:
		t, err := fromWarden(raw)
		if err != nil {
			return nil, err
		}
		return []*Trace{t}, nil
	case Eval:
		t, err := fromEval(raw)
		if err != nil {
			return nil, err
		}
		return []*Trace{t}, nil
	case OpenAI, Anthropic:
		var msgs []json.RawMessage
		if m, ok := keys["messages"]; !ok || json.Unmarshal(m, &msgs) != nil {
			return nil, errors.New(`a transcript needs a "messages" array`)
		}
		t, err := fromTranscript(f, msgs, keys)
		if err != nil {
			return nil, err
		}
		return []*Trace{t}, nil
	case OTel:
		return fromOTel(keys)
	}
	return nil, fmt.Errorf("unknown format %q", f)
}

// detectFormat tells a record's format from its keys, or returns Auto when it cannot.
func detectFormat(keys map[string]json.RawMessage) Format {
	has := func(k string) bool { _, ok := keys[k]; return ok }
	switch {
	case has("resourceSpans") || has("scopeSpans") || has("spans") || (has("traceId") && has("spanId")):
		return OTel
	case has("detector") && has("label") && (has("input") || has("output")):
		return Eval
	case has("events") || has("label") || has("scope") || has("output"):
		return Warden
	case has("messages"):
		var msgs []json.RawMessage
		if json.Unmarshal(keys["messages"], &msgs) != nil {
			return Auto
		}
		return transcriptFormat(msgs, keys)
	}
	return Auto
}
