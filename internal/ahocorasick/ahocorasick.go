// Package ahocorasick finds any of many literal terms in one pass over a text, ASCII case-insensitively,
// and says how long the longest end of a text is that could still become a match: what a stream guardrail
// must hold back so that a term split across deltas is never released in part.
//
// It is a small DFA over the bytes the terms use (every other byte is one class), built once and safe for
// concurrent use. It is ours rather than a module's because that second question needs the automaton's
// state depth, which the Go Aho-Corasick modules do not expose (spec/go-ecosystem.md §2.4).
package ahocorasick

// Matcher is a compiled set of terms.
type Matcher struct {
	class  [256]uint8 // byte -> symbol class; 0 is "no term uses this byte"
	nclass int
	next   []int32 // state*nclass + class -> state
	depth  []int32 // how many bytes the state has matched of some term
	match  []int32 // the term that ends at the state (through its suffixes), or -1
	terms  []string
}

func fold(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Compile builds a matcher. Empty terms are ignored.
func Compile(terms []string) *Matcher {
	m := &Matcher{terms: terms}
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
	m.next = make([]int32, len(m.depth)*m.nclass)
	for i := range m.next {
		m.next[i] = -1
	}
	for k, to := range edges {
		m.next[int(k>>8)*m.nclass+int(k&0xff)] = to
	}
	// Breadth-first: failure links turn the trie into a DFA, and a state inherits the match of its failure
	// state when it has none of its own (a shorter term ending here).
	fail := make([]int32, len(m.depth))
	queue := []int32{}
	for c := range m.nclass {
		if t := m.next[c]; t > 0 {
			fail[t] = 0
			queue = append(queue, t)
		} else {
			m.next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if m.match[s] < 0 {
			m.match[s] = m.match[fail[s]]
		}
		for c := range m.nclass {
			k := int(s)*m.nclass + c
			if t := m.next[k]; t >= 0 {
				fail[t] = m.next[int(fail[s])*m.nclass+c]
				queue = append(queue, t)
			} else {
				m.next[k] = m.next[int(fail[s])*m.nclass+c]
			}
		}
	}
	return m
}

// Find returns the first term occurrence to end in text: the term's index and where it starts and ends.
func (m *Matcher) Find(text string) (id, start, end int, ok bool) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = m.next[int(s)*m.nclass+int(m.class[text[i]])]
		if t := m.match[s]; t >= 0 {
			return int(t), i + 1 - len(m.terms[t]), i + 1, true
		}
	}
	return 0, 0, 0, false
}

// Pending returns the length of the longest end of text that is the start of some term: the bytes a
// later text may still complete into a match.
func (m *Matcher) Pending(text string) int {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = m.next[int(s)*m.nclass+int(m.class[text[i]])]
	}
	return int(m.depth[s])
}

// FindAll calls fn for each position at which a term ends in text, with that term (the longest one a state
// matches itself, else the longest shorter term ending there) and where it starts and ends. A shorter term
// ending where a longer one ends is not reported separately.
func (m *Matcher) FindAll(text string, fn func(id, start, end int)) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = m.next[int(s)*m.nclass+int(m.class[text[i]])]
		if t := m.match[s]; t >= 0 {
			fn(int(t), i+1-len(m.terms[t]), i+1)
		}
	}
}
