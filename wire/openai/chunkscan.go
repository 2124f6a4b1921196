package openai

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// fastChunk is what the stream guard reads of an ordinary chunk: one choice's role, content delta, tool
// call delta and finish reason. scanChunk fills it without encoding/json's reflection, which dominates a
// stream's cost.
type fastChunk struct {
	index        int
	role         string
	content      string
	hasContent   bool
	finishReason string
	// contentAt is where the content string (quotes included) sits in the chunk, so that a gate's text can
	// take its place without re-encoding the rest; logprobs says the choice has logprobs that are not null.
	contentAt [2]int
	logprobs  bool
	// call is the delta's one tool-call delta, when hasCall; argsAt is where its arguments string sits
	// (zero when it has none).
	call    callDelta
	hasCall bool
	argsAt  [2]int
}

// callDelta is one element of a delta's tool_calls: which call, and the pieces of it this chunk carries.
type callDelta struct {
	index          int
	id, name, args string
}

// scanChunk reads a chunk of the common shape: an object whose "choices" holds at most one choice whose
// delta has only role, content, refusal or reasoning strings (or nulls). Anything else — tool calls, several
// choices, unexpected types, malformed JSON — returns ok=false, and the caller decodes with encoding/json.
// It never guesses: when in doubt it declines.
func scanChunk(data string) (c fastChunk, ok bool) {
	return new(chunkScanner).scan(data)
}

// chunkScanner is scanChunk for the chunks of one stream, which all begin alike: what comes before
// "choices" (id, object, created, model, fingerprint) is the same in every chunk. Once a chunk was read
// up to its "choices" key, a later chunk that starts with the same bytes is read from that key on, the
// scanner's state there being the same. The prefix ends just before the key's opening quote, where no
// decision looked ahead at bytes the prefix lacks (a number, say, or whitespace). A chunk that the read
// from there declines is read again from its start, so that the answer is always scanChunk's. It is not
// safe for concurrent use.
//
// Most chunks of a stream go further: up to the end of "choices" they differ from the one before only in
// one string, the content's in text, the arguments' in a tool call. When a chunk's bytes before that
// string and from there to the end of "choices" are those of the last chunk read with one, only the string
// and the members after "choices" (OpenAI's "obfuscation", which differs in every chunk) are read; the
// rest of the answer is that chunk's.
type chunkScanner struct {
	prefix string
	// head is the bytes before the string of the last chunk read with one, mid those from after it to
	// the end of "choices", last what was read of that chunk, and args says the string is the arguments.
	head, mid string
	last      fastChunk
	args      bool
}

func (cs *chunkScanner) scan(data string) (fastChunk, bool) {
	if c, ok := cs.sameShape(data); ok {
		return c, true
	}
	var r readChunk
	if cs.prefix != "" && strings.HasPrefix(data, cs.prefix) {
		r = cs.read(data, len(cs.prefix))
	}
	if !r.ok {
		r = cs.read(data, 0)
	}
	switch {
	case !r.ok:
	case r.c.hasContent:
		cs.remember(data, r, r.c.contentAt, false)
	case r.c.argsAt[1] > 0:
		cs.remember(data, r, r.c.argsAt, true)
	}
	return r.c, r.ok
}

// remember takes a chunk read whole as the shape of the next: the string at at varies.
func (cs *chunkScanner) remember(data string, r readChunk, at [2]int, args bool) {
	cs.head, cs.mid = strings.Clone(data[:at[0]]), strings.Clone(data[at[1]:r.choicesEnd])
	cs.last, cs.args = r.c, args
}

// sameShape reads a chunk that is the last one read with content up to the end of "choices" but for the
// content string. The scanner's decisions before the string looked at its opening quote and no further,
// the string's reading does not depend on its value, and after it come the same bytes: the answer is the
// last one's with this string, once the members after "choices" are read.
func (cs *chunkScanner) sameShape(data string) (fastChunk, bool) {
	if cs.head == "" || !strings.HasPrefix(data, cs.head) {
		return fastChunk{}, false
	}
	s := scanner{b: data, i: len(cs.head)}
	v, ok := s.str()
	if !ok || !strings.HasPrefix(data[s.i:], cs.mid) {
		return fastChunk{}, false
	}
	c := cs.last
	if at := [2]int{len(cs.head), s.i}; cs.args {
		c.call.args, c.argsAt = v, at
	} else {
		c.content, c.contentAt = v, at
	}
	s.i += len(cs.mid)
	if len(data)-s.i == 1 && data[s.i] == '}' {
		return c, true // what members would read: the object's end (most providers send nothing after "choices")
	}
	if _, _, ok := s.members(&c, afterMember, true); !ok {
		return fastChunk{}, false
	}
	return c, true
}

// readChunk is what read found: the chunk, and where its "choices" member ends.
type readChunk struct {
	c          fastChunk
	choicesEnd int
	ok         bool
}

// read reads data from its start (at 0), or from at, where the prefix it shares with an earlier chunk
// ends.
func (cs *chunkScanner) read(data string, at int) (r readChunk) {
	s := scanner{b: data, i: at}
	if at == 0 {
		s.ws()
		if !s.eat('{') {
			return r
		}
	}
	from := afterBrace
	if at > 0 {
		from = atKey
	}
	keyAt, choicesEnd, ok := s.members(&r.c, from, false)
	if at == 0 && keyAt >= 0 {
		cs.prefix = strings.Clone(data[:keyAt])
	}
	r.choicesEnd, r.ok = choicesEnd, ok
	return r
}

// membersFrom says where in the chunk object members starts reading.
type membersFrom int

const (
	afterBrace  membersFrom = iota // just after the object's opening brace
	atKey                          // at a member's key, the separator before it read
	afterMember                    // just after a member
)

// members reads the chunk object's members to its end, from where from says. seenChoices says "choices"
// was read before. It returns where the "choices" member it read starts and ends (-1 when it read none).
func (s *scanner) members(c *fastChunk, from membersFrom, seenChoices bool) (keyAt, choicesEnd int, ok bool) {
	keyAt, choicesEnd = -1, -1
	for first := from == afterBrace; ; first = false {
		if from == atKey {
			from = afterMember
		} else {
			s.ws()
			if s.eat('}') {
				break
			}
			if !first && !(s.eat(',') && s.wsThen()) {
				return keyAt, choicesEnd, false
			}
		}
		at := s.i
		key, ok := s.str()
		if !ok || !s.colon() {
			return keyAt, choicesEnd, false
		}
		if key == "choices" {
			if seenChoices || !s.choices(c) {
				return keyAt, choicesEnd, false
			}
			seenChoices, keyAt, choicesEnd = true, at, s.i
			continue
		}
		if strings.EqualFold(key, "choices") {
			return keyAt, choicesEnd, false // encoding/json would read "Choices" as choices: decline rather than disagree
		}
		if !s.skip() {
			return keyAt, choicesEnd, false
		}
	}
	if !seenChoices {
		c.index = -1
	}
	s.ws()
	return keyAt, choicesEnd, s.i == len(s.b)
}

type scanner struct {
	b string
	i int
	// depth is how many arrays and objects skip is inside, bounded so that a deeply nested body cannot
	// run the stack up: past maxSkipDepth the scanner declines, as it does whatever it is not sure of.
	depth int
}

const maxSkipDepth = 512

func (s *scanner) ws() {
	// Most chunks are compact: the common case is one comparison.
	for s.i < len(s.b) && s.b[s.i] <= ' ' && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) wsThen() bool { s.ws(); return true }

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) colon() bool { s.ws(); ok := s.eat(':'); s.ws(); return ok }

func (s *scanner) lit(word string) bool {
	if len(s.b)-s.i >= len(word) && s.b[s.i:s.i+len(word)] == word {
		s.i += len(word)
		return true
	}
	return false
}

// choices reads the choices array: empty, or one choice.
func (s *scanner) choices(c *fastChunk) bool {
	if !s.eat('[') {
		return false
	}
	s.ws()
	if s.eat(']') {
		c.index = -1
		return true
	}
	if !s.choice(c) {
		return false
	}
	s.ws()
	return s.eat(']')
}

func (s *scanner) choice(c *fastChunk) bool {
	var seenIndex, seenDelta, seenFinish bool
	return s.object(func(key string) bool {
		switch key {
		case "index":
			if seenIndex {
				return false // a repeated key is read differently by different parsers: decline
			}
			seenIndex = true
			n, ok := s.int()
			c.index = n
			return ok
		case "delta":
			if seenDelta {
				return false
			}
			seenDelta = true
			return s.delta(c)
		case "finish_reason":
			if seenFinish {
				return false
			}
			seenFinish = true
			return s.strOrNull(&c.finishReason)
		}
		if strings.EqualFold(key, "index") || strings.EqualFold(key, "delta") || strings.EqualFold(key, "finish_reason") {
			return false // read case-insensitively by encoding/json: decline rather than disagree
		}
		if strings.EqualFold(key, "logprobs") {
			if s.lit("null") {
				return true
			}
			c.logprobs = true // a case variant or a repeat may hide a null: erring this way only costs time
		}
		return s.skip()
	})
}

func (s *scanner) delta(c *fastChunk) bool {
	seenCalls := false
	return s.object(func(key string) bool {
		switch key {
		case "role", "content", "refusal", "reasoning_content":
		case "tool_calls":
			if seenCalls {
				return false
			}
			seenCalls = true
			return s.toolCalls(c)
		default:
			return false // function_call, or anything new: the slow path reads it
		}
		if s.lit("null") {
			return true
		}
		start := s.i
		v, ok := s.str()
		if !ok {
			return false
		}
		switch key {
		case "role":
			c.role = v
		case "content":
			if c.hasContent {
				return false
			}
			c.content, c.hasContent = v, true
			c.contentAt = [2]int{start, s.i}
		case "refusal", "reasoning_content":
			if v != "" {
				return false // not accumulated by the guard's text: let the slow path see it
			}
		}
		return true
	})
}

// toolCalls reads a delta's tool_calls: null, empty, or one call's delta whose members are index, id,
// type and function (name and arguments), each once, as strings or null but for index, a number. Several
// calls, and anything else, are the slow path's.
func (s *scanner) toolCalls(c *fastChunk) bool {
	if s.lit("null") {
		return true
	}
	if !s.eat('[') {
		return false
	}
	s.ws()
	if s.eat(']') {
		return true
	}
	var d callDelta
	var seen [4]bool // index, id, type, function
	ok := s.object(func(key string) bool {
		var at int
		switch key {
		case "index":
			at = 0
		case "id":
			at = 1
		case "type":
			at = 2
		case "function":
			at = 3
		default:
			return false
		}
		if seen[at] {
			return false // a repeated key is read differently by different parsers
		}
		seen[at] = true
		switch at {
		case 0:
			n, ok := s.int()
			d.index = n
			return ok
		case 1:
			return s.strOrNull(&d.id)
		case 2:
			var typ string
			return s.strOrNull(&typ)
		}
		if s.lit("null") {
			return true
		}
		var seenName, seenArgs bool
		return s.object(func(key string) bool {
			switch {
			case key == "name" && !seenName:
				seenName = true
				return s.strOrNull(&d.name)
			case key == "arguments" && !seenArgs:
				seenArgs = true
				start := s.i
				if !s.strOrNull(&d.args) {
					return false
				}
				if s.b[start] == '"' {
					c.argsAt = [2]int{start, s.i}
				}
				return true
			}
			return false
		})
	})
	if !ok || !seen[0] {
		return false
	}
	s.ws()
	if !s.eat(']') {
		return false
	}
	c.call, c.hasCall = d, true
	return true
}

// object reads a JSON object, giving each member's key to member, which reads the value (after the
// colon) and says whether it could.
func (s *scanner) object(member func(key string) bool) bool {
	if !s.eat('{') {
		return false
	}
	for first := true; ; first = false {
		s.ws()
		if s.eat('}') {
			return true
		}
		if !first && !(s.eat(',') && s.wsThen()) {
			return false
		}
		key, ok := s.str()
		if !ok || !s.colon() || !member(key) {
			return false
		}
	}
}

// strOrNull reads a string into v, or null, which leaves v as it is (as encoding/json does).
func (s *scanner) strOrNull(v *string) bool {
	if s.lit("null") {
		return true
	}
	str, ok := s.str()
	if ok {
		*v = str
	}
	return ok
}

func (s *scanner) int() (int, bool) {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == start || s.i-start > 9 || (s.b[start] == '0' && s.i-start > 1) {
		return 0, false
	}
	n, err := strconv.Atoi(s.b[start:s.i])
	return n, err == nil
}

// plainASCII marks the bytes a string may hold as they are: printable ASCII but for '"' and '\\'.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun is how many of the 8 bytes of w, from the first, are plain ASCII (as plainASCII says), tested
// all at once: a byte is flagged when it is a control character, has its high bit set, or equals '"' or
// '\\'. The bit tricks can flag a byte above a flagged one wrongly, never the lowest, which is all this
// needs.
func plainRun(w string) int {
	_ = w[7]
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zeroByte := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	flagged := x&highs | (x-0x20*ones)&^x&highs | zeroByte(x^'"'*ones) | zeroByte(x^'\\'*ones)
	return bits.TrailingZeros64(flagged) / 8
}

// str reads a JSON string, unescaping it; it declines invalid escapes and control characters.
func (s *scanner) str() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start := s.i
	// Strings are mostly plain ASCII, which one table lookup a byte passes and which needs no UTF-8 check.
	s.i = plainFrom(s.b, s.i)
	ascii := true
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			return v, ascii || utf8.ValidString(v)
		case c == '\\':
			return s.strSlow(start)
		case c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
		s.i++
	}
	return "", false
}

func (s *scanner) strSlow(start int) (string, bool) {
	out := append([]byte(nil), s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return string(out), utf8.Valid(out)
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			s.i++
			continue
		}
		r, ok := s.escape()
		if !ok {
			return "", false
		}
		out = utf8.AppendRune(out, r)
	}
	return "", false
}

// escape reads the escape at s.i (its backslash) and returns the character it stands for. Of the
// surrogates it reads only a clean high-low pair; parsers differ on anything else: it declines.
func (s *scanner) escape() (rune, bool) {
	if s.i+1 >= len(s.b) {
		return 0, false
	}
	e := s.b[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
		r, ok := s.hex4()
		if !ok || !utf16.IsSurrogate(r) {
			return r, ok
		}
		if r >= 0xDC00 || s.i+1 >= len(s.b) || s.b[s.i] != '\\' || s.b[s.i+1] != 'u' {
			return 0, false
		}
		s.i += 2
		r2, ok := s.hex4()
		if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
			return 0, false
		}
		return utf16.DecodeRune(r, r2), true
	}
	return 0, false
}

// skipStr passes over a JSON string, checking it as str does, without building its value. Escapes stand
// for valid UTF-8, so the string is valid when its raw bytes are.
func (s *scanner) skipStr() bool {
	if !s.eat('"') {
		return false
	}
	start, ascii := s.i, true
	for {
		s.i = plainFrom(s.b, s.i)
		if s.i >= len(s.b) {
			return false
		}
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return ascii || utf8.ValidString(s.b[start:s.i-1])
		case c == '\\':
			if _, ok := s.escape(); !ok {
				return false
			}
			continue
		case c < 0x20:
			return false
		case c >= 0x80:
			ascii = false
		}
		s.i++
	}
}

// plainFrom is the index of the first byte from i on that is not plain ASCII (as plainASCII says), or
// len(b): eight bytes at a time, then one.
func plainFrom(b string, i int) int {
	for i+8 <= len(b) {
		n := plainRun(b[i : i+8])
		i += n
		if n < 8 {
			return i
		}
	}
	for i < len(b) && plainASCII[b[i]] {
		i++
	}
	return i
}

func (s *scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	n, err := strconv.ParseUint(s.b[s.i:s.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	s.i += 4
	return rune(n), true
}

// skip passes over any JSON value, checking its shape.
func (s *scanner) skip() bool {
	s.ws()
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.skipStr()
	case c == '{' || c == '[':
		if s.depth >= maxSkipDepth {
			return false
		}
		s.depth++
		defer func() { s.depth-- }()
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.i++
		for first := true; ; first = false {
			s.ws()
			if s.eat(closer) {
				return true
			}
			if !first && !(s.eat(',') && s.wsThen()) {
				return false
			}
			if c == '{' {
				if !s.skipStr() || !s.colon() {
					return false
				}
			}
			if !s.skip() {
				return false
			}
		}
	case c == 't':
		return s.lit("true")
	case c == 'f':
		return s.lit("false")
	case c == 'n':
		return s.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}

// number passes over a JSON number, by the grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.eat('.') && !s.digits() {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits passes over one or more digits.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
