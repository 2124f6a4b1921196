// Package ahocorasick finds any of many literal terms in one pass over a text, ASCII case-insensitively,
// and says how long the longest end of a text is that could still become a match: what a stream guardrail
// must hold back so that a term split across deltas is never released in part.
//
// It is a small DFA over the bytes the terms use (every other byte is one class), built once and safe for
// concurrent use. It is ours rather than a module's because that second question needs the automaton's
// state depth, which the Go Aho-Corasick modules do not expose (spec/go-ecosystem.md §2.4).
package ahocorasick

import "slices"

// Matcher is a compiled set of terms.
type Matcher struct {
	class  [256]uint8 // byte -> symbol class; 0 is "no term uses this byte"
	nclass int
	// delta is the transition table, state*nclass + class -> the target's row offset (target*nclass),
	// with hasMatch set when a term ends at the target, so that one load per byte both moves and tells
	// whether to look.
	delta []uint32
	depth []int32 // how many bytes the state has matched of some term
	match []int32 // the term that ends at the state (through its suffixes), or -1
	// shorter is, per term, the longest other term that is a proper suffix of it, or -1: the terms that
	// end where it ends, for FindEvery.
	shorter []int32
	terms   []string
	// foldSpace: a run of white space in a text is read as one space (Options.FoldSpace).
	foldSpace bool
}

// Options change what a text must hold to match a term.
type Options struct {
	// FoldSpace reads each run of white space in a text (spaces, tabs, line breaks) as one space, so that
	// "ignore   all\nprevious" holds the term "ignore all previous". A match then starts where its first
	// byte stands in the text, the run counted whole. Terms are written with single spaces.
	FoldSpace bool
}

func fold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Compile builds a matcher. Empty terms are ignored.
func Compile(terms []string) *Matcher { return CompileWith(terms, Options{}) }

// CompileWith builds a matcher with options.
func CompileWith(terms []string, o Options) *Matcher {
	m := &Matcher{terms: terms, foldSpace: o.FoldSpace}
	for _, t := range terms {
		for i := 0; i < len(t); i++ {
			c := fold(t[i])
			if m.class[c] == 0 {
				m.nclass++
				m.class[c] = uint8(m.nclass)
				if c >= 'a' && c <= 'z' {
					m.class[c-'a'+'A'] = m.class[c]
				}
			}
		}
	}
	if o.FoldSpace && m.class[' '] != 0 {
		for _, c := range []byte{'\t', '\n', '\v', '\f', '\r'} {
			m.class[c] = m.class[' ']
		}
	}
	m.nclass++ // class 0
	// The trie, built sparse first so that the dense table is allocated once at its exact size: a bound
	// such as "one state per term byte" overshoots several times over when terms share prefixes.
	edges := map[uint64]int32{}
	m.depth = []int32{0}
	m.match = []int32{-1}
	for id, t := range terms {
		s := int32(0)
		for i := 0; i < len(t); i++ {
			k := uint64(s)<<8 | uint64(m.class[t[i]])
			next, ok := edges[k]
			if !ok {
				next = int32(len(m.depth))
				edges[k] = next
				m.depth = append(m.depth, m.depth[s]+1)
				m.match = append(m.match, -1)
			}
			s = next
		}
		if len(t) > 0 && m.match[s] < 0 {
			m.match[s] = int32(id)
		}
	}
	// States are renumbered breadth-first so that the shallow ones, where a scan spends nearly all its
	// time, sit together at the front of the table instead of scattered across it by term order.
	children := make([][]int32, len(m.depth)) // state -> child states, in edge order
	for k, to := range edges {
		from := int32(k >> 8)
		children[from] = append(children[from], to)
	}
	order := []int32{0}
	for i := 0; i < len(order); i++ {
		kids := children[order[i]]
		slices.Sort(kids)
		order = append(order, kids...)
	}
	renum := make([]int32, len(order))
	for i, s := range order {
		renum[s] = int32(i)
	}
	depth, match := make([]int32, len(order)), make([]int32, len(order))
	for i, s := range order {
		depth[i], match[i] = m.depth[s], m.match[s]
	}
	m.depth, m.match = depth, match
	if len(m.depth)*m.nclass >= hasMatch {
		panic("ahocorasick: too many states")
	}
	const unset = ^uint32(0)
	next := make([]uint32, len(m.depth)*m.nclass) // state numbers while building
	for i := range next {
		next[i] = unset
	}
	for k, to := range edges {
		next[int(renum[int32(k>>8)])*m.nclass+int(k&0xff)] = uint32(renum[to])
	}
	// Breadth-first: failure links turn the trie into a DFA, and a state inherits the match of its failure
	// state when it has none of its own (a shorter term ending here). In breadth-first numbering the queue
	// is just the states in order.
	fail := make([]uint32, len(m.depth))
	m.shorter = make([]int32, len(terms))
	for i := range m.shorter {
		m.shorter[i] = -1
	}
	for c := range m.nclass {
		if next[c] == unset {
			next[c] = 0
		}
	}
	for s := 1; s < len(m.depth); s++ {
		if m.match[s] < 0 {
			m.match[s] = m.match[fail[s]]
		} else if own := m.match[s]; m.shorter[own] < 0 {
			m.shorter[own] = m.match[fail[s]] // fail[s] is shallower, so already final
		}
		for c := range m.nclass {
			k := s*m.nclass + c
			if t := next[k]; t != unset {
				fail[t] = next[int(fail[s])*m.nclass+c]
			} else {
				next[k] = next[int(fail[s])*m.nclass+c]
			}
		}
	}
	for i, t := range next {
		next[i] = t * uint32(m.nclass)
		if m.match[t] >= 0 {
			next[i] |= hasMatch
		}
	}
	m.delta = next
	return m
}

const hasMatch = 1 << 31

// Size is the bytes the matcher's tables hold: what a set of terms costs in memory once compiled, which
// grows with the terms' states times the distinct bytes they use.
func (m *Matcher) Size() int {
	return 4*(len(m.delta)+len(m.depth)+len(m.match)+len(m.shorter)) + len(m.class)
}

// Find returns the first term occurrence to end in text: the term's index and where it starts and ends.
func (m *Matcher) Find(text string) (id, start, end int, ok bool) {
	found := false
	m.scan(text, func(t int32, i int) bool {
		id, start, end, found = int(t), m.start(text, t, i), i+1, true
		return false
	})
	return id, start, end, found
}

// Pending returns the length of the longest end of text that is the start of some term: the bytes a
// later text may still complete into a match.
func (m *Matcher) Pending(text string) int {
	s := m.scan(text, nil)
	return int(m.depth[s/uint32(m.nclass)])
}

// FindAll calls fn for each position at which a term ends in text, with that term (the longest one a state
// matches itself, else the longest shorter term ending there) and where it starts and ends. A shorter term
// ending where a longer one ends is not reported separately.
func (m *Matcher) FindAll(text string, fn func(id, start, end int)) {
	m.scan(text, func(t int32, i int) bool {
		fn(int(t), m.start(text, t, i), i+1)
		return true
	})
}

// FindEvery is FindAll that also reports, where a term ends, every shorter term ending there too
// (longest first): "read" inside "before using this tool, read" when both are terms.
func (m *Matcher) FindEvery(text string, fn func(id, start, end int)) {
	m.scan(text, func(t int32, i int) bool {
		for ; t >= 0; t = m.shorter[t] {
			fn(int(t), m.start(text, t, i), i+1)
		}
		return true
	})
}

// start returns where term t, ending at byte i of text, starts: its length back, with each run of white
// space counted as one byte when the matcher folds space.
func (m *Matcher) start(text string, t int32, i int) int {
	n := len(m.terms[t])
	if !m.foldSpace {
		return i + 1 - n
	}
	j := i
	for n--; n > 0; n-- {
		j--
		for j > 0 && isSpace(text[j]) && isSpace(text[j-1]) {
			j-- // the run's earlier bytes are the same one space
		}
	}
	return j
}

func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// scan runs the automaton over text, calling found (when not nil) with the term that ends at each byte
// where one does, until it returns false; it returns the row offset of the state it ends in.
func (m *Matcher) scan(text string, found func(term int32, i int) bool) uint32 {
	if m.foldSpace {
		return m.scanFolded(text, found)
	}
	delta, class, n := m.delta, &m.class, uint32(m.nclass)
	s := uint32(0)
	for i := 0; i < len(text); i++ {
		s = delta[s+uint32(class[text[i]])]
		if s&hasMatch != 0 {
			s &^= hasMatch
			if found != nil && !found(m.match[s/n], i) {
				return s
			}
		}
	}
	return s
}

// scanFolded is scan reading each run of white space as its first byte alone.
func (m *Matcher) scanFolded(text string, found func(term int32, i int) bool) uint32 {
	delta, class, n := m.delta, &m.class, uint32(m.nclass)
	s := uint32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if i > 0 && isSpace(c) && isSpace(text[i-1]) {
			continue
		}
		s = delta[s+uint32(class[c])]
		if s&hasMatch != 0 {
			s &^= hasMatch
			if found != nil && !found(m.match[s/n], i) {
				return s
			}
		}
	}
	return s
}
