// Package ahocorasick finds any of many literal terms in one pass over a text, ASCII case-insensitively,
// and says how long the longest end of a text is that could still become a match: what a stream guardrail
// must hold back so that a term split across deltas is never released in part.
//
// It is a DFA over the bytes the terms use (every other byte is one class) for the states near a term's
// start, and a trie with failure links below them, built once and safe for concurrent use. It is ours
// rather than a module's because that second question needs the automaton's state depth, which the Go
// Aho-Corasick modules do not expose (spec/go-ecosystem.md §2.4).
package ahocorasick

import (
	"fmt"
	"math"
	"slices"
)

// Matcher is a compiled set of terms.
type Matcher struct {
	class  [256]uint8 // byte -> symbol class; 0 is "no term uses this byte"
	nclass int
	// delta is the transition table of the shallow states (those numbered below ndense; states are
	// numbered breadth-first), state*nclass + class -> a ref to the target. A ref is the target's row
	// offset (target*nclass) for a shallow target, or sparse|target for a deep one, with hasMatch set
	// when a term ends at the target: so one load per byte both moves and tells whether to look, and a
	// scan in shallow states, where it spends nearly all its time, never leaves the table.
	delta  []uint32
	ndense int
	// Deep states keep only their own edges and their failure link: a full row for each would cost
	// states × classes, and most deep states have one child. Deep state s's edges are the indexes
	// first[s-ndense] up to first[s-ndense+1] of kidClass (their classes, ascending) and kidRef (their
	// targets' refs).
	first    []uint32
	kidClass []uint8
	kidRef   []uint32
	fail     []uint32 // per deep state: its failure state's number
	depth    []uint16 // how many bytes the state has matched of some term (terms are at most MaxTermLen)
	match    []int32  // the term that ends at the state (through its suffixes), or -1
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

// MaxTermLen is the longest term a matcher takes, in bytes: a state's depth is kept in 16 bits, which
// takes a fifth less memory than 32 for the large phrase sets. Callers that take terms from users check
// it (Compile panics on a longer term).
const MaxTermLen = math.MaxUint16

// Compile builds a matcher. Empty terms are ignored.
func Compile(terms []string) *Matcher { return CompileWith(terms, Options{}) }

// denseDepth is how deep a state may be and still get a full row: a scan of ordinary text seldom goes
// deeper, and below it the states multiply (the injection corpus: 555,000 states, 154 MiB as full rows).
const denseDepth = 4

// CompileWith builds a matcher with options.
func CompileWith(terms []string, o Options) *Matcher { return compile(terms, o, denseDepth) }

// compile builds a matcher whose states up to the given depth have full rows.
func compile(terms []string, o Options, denseDepth int32) *Matcher {
	m := &Matcher{terms: terms, foldSpace: o.FoldSpace}
	for _, t := range terms {
		if len(t) > MaxTermLen {
			panic(fmt.Sprintf("ahocorasick: a term of %d bytes (at most %d)", len(t), MaxTermLen))
		}
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
	// The trie, sparse.
	edges := map[uint64]int32{}
	depth := []int32{0}
	match := []int32{-1}
	for id, t := range terms {
		s := int32(0)
		for i := 0; i < len(t); i++ {
			k := uint64(s)<<8 | uint64(m.class[t[i]])
			next, ok := edges[k]
			if !ok {
				next = int32(len(depth))
				edges[k] = next
				depth = append(depth, depth[s]+1)
				match = append(match, -1)
			}
			s = next
		}
		if len(t) > 0 && match[s] < 0 {
			match[s] = int32(id)
		}
	}
	n := len(depth)
	// Each state's edges, flat: kidsAt[s]..kidsAt[s+1] in kids, sorted by class.
	type edge struct {
		class uint8
		to    int32
	}
	kidsAt := make([]int32, n+1)
	for k := range edges {
		kidsAt[k>>8+1]++
	}
	for s := range n {
		kidsAt[s+1] += kidsAt[s]
	}
	kids := make([]edge, len(edges))
	fill := slices.Clone(kidsAt[:n])
	for k, to := range edges {
		from := k >> 8
		kids[fill[from]] = edge{uint8(k), to}
		fill[from]++
	}
	for s := range n {
		slices.SortFunc(kids[kidsAt[s]:kidsAt[s+1]], func(a, b edge) int { return int(a.class) - int(b.class) })
	}
	// States are renumbered breadth-first, so that the shallow ones sit together at the front, each
	// state's failure state (always shallower) comes before it, the states with full rows are a prefix of
	// the numbering, and each state's children are consecutive states (first[s] on, in class order).
	order := make([]int32, 1, n)
	renum := make([]int32, n)
	first := make([]int32, n+1) // in the new numbering
	in := make([]uint8, n)      // the class of the edge into each state, in the new numbering
	for i := 0; i < len(order); i++ {
		first[i] = int32(len(order))
		for _, e := range kids[kidsAt[order[i]]:kidsAt[order[i]+1]] {
			renum[e.to] = int32(len(order))
			in[len(order)] = e.class
			order = append(order, e.to)
		}
	}
	first[n] = int32(n)
	m.depth, m.match = make([]uint16, n), make([]int32, n)
	for i, s := range order {
		m.depth[i], m.match[i] = uint16(depth[s]), match[s]
	}
	for m.ndense < n && (m.ndense == 0 || int32(m.depth[m.ndense]) <= denseDepth) { // the root always has a row
		m.ndense++
	}
	if m.ndense*m.nclass >= sparse || n >= sparse {
		panic("ahocorasick: too many states")
	}
	// Failure links, breadth-first: a state's failure state is the longest proper suffix of its path
	// that is also a state; it inherits that state's match when it has none of its own (a shorter term
	// ending here).
	fail := make([]int32, n)
	child := func(s int32, c uint8) (int32, bool) {
		lo, hi := first[s], first[s+1]
		i, ok := slices.BinarySearch(in[lo:hi], c)
		return lo + int32(i), ok
	}
	// step is the automaton's move from s on class c, by failure links until a state has the edge.
	step := func(s int32, c uint8) int32 {
		for {
			if t, ok := child(s, c); ok {
				return t
			}
			if s == 0 {
				return 0
			}
			s = fail[s]
		}
	}
	m.shorter = make([]int32, len(terms))
	for i := range m.shorter {
		m.shorter[i] = -1
	}
	for s := range int32(n) {
		if s > 0 {
			if m.match[s] < 0 {
				m.match[s] = m.match[fail[s]]
			} else if own := m.match[s]; m.shorter[own] < 0 {
				m.shorter[own] = m.match[fail[s]] // fail[s] is shallower, so already final
			}
		}
		for t := first[s]; t < first[s+1]; t++ {
			if s > 0 {
				fail[t] = step(fail[s], in[t])
			}
		}
	}
	ref := func(t int32) uint32 {
		r := uint32(t) * uint32(m.nclass)
		if int(t) >= m.ndense {
			r = sparse | uint32(t)
		}
		if m.match[t] >= 0 {
			r |= hasMatch
		}
		return r
	}
	// Full rows for the shallow states: an edge, or where the failure state's row goes (it is shallower,
	// so its row is already filled).
	m.delta = make([]uint32, m.ndense*m.nclass)
	for s := range m.ndense {
		row := m.delta[s*m.nclass : (s+1)*m.nclass]
		if s > 0 {
			copy(row, m.delta[int(fail[s])*m.nclass:])
		}
		for t := first[s]; t < first[s+1]; t++ {
			row[in[t]] = ref(t)
		}
	}
	deep := n - m.ndense
	m.first = make([]uint32, 0, deep+1)
	m.fail = make([]uint32, 0, deep)
	m.kidClass = make([]uint8, 0, n-int(first[m.ndense]))
	m.kidRef = make([]uint32, 0, n-int(first[m.ndense]))
	for s := m.ndense; s < n; s++ {
		m.first = append(m.first, uint32(len(m.kidClass)))
		m.fail = append(m.fail, uint32(fail[s]))
		for t := first[s]; t < first[s+1]; t++ {
			m.kidClass = append(m.kidClass, in[t])
			m.kidRef = append(m.kidRef, ref(t))
		}
	}
	m.first = append(m.first, uint32(len(m.kidClass)))
	return m
}

const (
	hasMatch = 1 << 31
	sparse   = 1 << 30 // a ref to a deep state: its number, not a row offset
)

// next is the move from the state ref r on class c, for a deep state: its own edge, or its failure
// state's move, down the failure links until a shallow state's row answers.
func (m *Matcher) next(r uint32, c uint8) uint32 {
	s := r &^ (sparse | hasMatch)
	for s >= uint32(m.ndense) {
		d := s - uint32(m.ndense)
		for k := m.first[d]; k < m.first[d+1]; k++ {
			if m.kidClass[k] == c {
				return m.kidRef[k]
			}
		}
		s = m.fail[d]
	}
	return m.delta[s*uint32(m.nclass)+uint32(c)]
}

// state returns the state number a ref (without hasMatch) stands for.
func (m *Matcher) state(r uint32) uint32 {
	if r&sparse != 0 {
		return r &^ sparse
	}
	return r / uint32(m.nclass)
}

// Size is the bytes the matcher's tables hold: what a set of terms costs in memory once compiled, which
// grows with the terms' states, and for the shallow ones times the distinct bytes they use.
func (m *Matcher) Size() int {
	return 4*(len(m.delta)+len(m.first)+len(m.kidRef)+len(m.fail)+len(m.match)+len(m.shorter)) +
		2*len(m.depth) + len(m.kidClass) + len(m.class)
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
	return int(m.depth[m.state(m.scan(text, nil))])
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
// where one does, until it returns false; it returns the ref of the state it ends in.
func (m *Matcher) scan(text string, found func(term int32, i int) bool) uint32 {
	if m.foldSpace {
		return m.scanFolded(text, found)
	}
	delta, class := m.delta, &m.class
	s := uint32(0)
	for i := 0; i < len(text); i++ {
		c := class[text[i]]
		if s&sparse == 0 {
			s = delta[s+uint32(c)]
		} else {
			s = m.next(s, c)
		}
		if s&hasMatch != 0 {
			s &^= hasMatch
			if found != nil && !found(m.match[m.state(s)], i) {
				return s
			}
		}
	}
	return s
}

// scanFolded is scan reading each run of white space as its first byte alone.
func (m *Matcher) scanFolded(text string, found func(term int32, i int) bool) uint32 {
	delta, class := m.delta, &m.class
	s := uint32(0)
	for i := 0; i < len(text); i++ {
		b := text[i]
		if i > 0 && isSpace(b) && isSpace(text[i-1]) {
			continue
		}
		c := class[b]
		if s&sparse == 0 {
			s = delta[s+uint32(c)]
		} else {
			s = m.next(s, c)
		}
		if s&hasMatch != 0 {
			s &^= hasMatch
			if found != nil && !found(m.match[m.state(s)], i) {
				return s
			}
		}
	}
	return s
}
