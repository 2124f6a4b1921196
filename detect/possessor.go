package detect

import "strings"

// A harm done to another's thing names the other as the families name them ("someone's phone", "her
// account", "my neighbor's dog"), yet a request names them by who they are to the asker, as many ways
// as there are relatives, friends and roles: "my grandma's savings", "my girlfriend's best friend's
// messages", "my father-in-law's checking account". The harm reading therefore also reads a request
// with each such possessor put as "someone's", so that the families written for another's thing read
// it whoever the other is. Not the asker's children, pets or own organisation: parental controls, a
// dog's GPS collar and a company's own servers are the asker's to manage.

// possessorHeads are the words that can open a possessor: "my grandma's", "her sister's". Not an
// article: "the caller's goroutine" and "a process's children" are a program's, as often as "the
// neighbor's dog" is a person's.
var possessorHeads = map[string]bool{"my": true, "his": true, "her": true, "their": true}

// ownPossessors are the possessors whose things are the asker's to manage, which no reading makes
// another's.
var ownPossessors = map[string]bool{
	"son": true, "daughter": true, "kid": true, "kids": true, "child": true, "children": true, "baby": true,
	"toddler": true, "teen": true, "teenager": true, "own": true, "dog": true, "cat": true, "pet": true,
	"puppy": true, "kitten": true, "horse": true, "company": true, "team": true, "school": true, "work": true,
	"office": true, "org": true, "organization": true, "organisation": true, "business": true, "firm": true,
	"startup": true, "project": true, "app": true, "site": true, "website": true, "server": true, "family": true,
	"household": true, "church": true, "club": true, "class": true, "user": true, "users": true,
	"customer": true, "customers": true, "client": true, "clients": true, "repo": true,
	"repository": true, "device": true, "computer": true, "phone": true, "car": true, "house": true,
	"home": true, "account": true, "system": true, "program": true, "process": true, "model": true,
	// Places of worship and the other bodies the asker belongs to, whose fundraisers and rotas are theirs
	// to run.
	"mosque": true, "synagogue": true, "temple": true, "parish": true, "congregation": true, "gurdwara": true,
	"community": true, "charity": true, "nonprofit": true, "shop": true, "store": true, "restaurant": true,
	"band": true, "league": true, "union": true, "lab": true, "department": true, "gym": true, "studio": true,
	// The institutions and services the asker is a member or a customer of, whose portals, apps and
	// wifi they log into as themselves ("my university's student portal", "my bank's app").
	"university": true, "college": true, "uni": true, "campus": true, "dorm": true, "library": true,
	"bank": true, "employer": true, "hospital": true, "clinic": true, "insurer": true, "provider": true,
	"isp": true, "carrier": true, "airline": true, "building": true, "apartment": true, "hoa": true,
	"router": true, "wifi": true, "network": true, "laptop": true, "tablet": true, "printer": true,
	// The dead, whose estate the asker settles ("close my late father's credit card accounts").
	"late": true, "dead": true, "deceased": true,
}

// notInPossessor are the words a possessor cannot hold: the pronouns and function words whose "'s"
// is "is" or "has" ("my plan and it's fine", "what's"), and the words that end a noun phrase.
var notInPossessor = map[string]bool{"it": true, "that": true, "what": true, "he": true, "she": true,
	"there": true, "here": true, "let": true, "who": true, "where": true, "how": true, "when": true,
	"why": true, "and": true, "or": true, "but": true, "to": true, "of": true, "in": true, "on": true,
	"for": true, "with": true, "is": true, "are": true, "was": true, "were": true, "be": true, "if": true,
	"so": true, "as": true, "at": true, "by": true, "from": true, "i": true, "you": true, "we": true,
	"they": true, "me": true, "him": true, "them": true, "us": true, "everyone": true, "nobody": true,
	"somebody": true, "someone": true, "anyone": true}

// possessorReach is how many words a possessor may run to ("my ex-wife's new partner's", "my
// girlfriend's best friend's").
const possessorReach = 4

// possessorReadings returns the reading of text with each possessor put as "someone's", cut to the
// windows where a phrase over it can stand, as actReadings does; none where it holds none.
func possessorReadings(text string) []reading {
	if !strings.Contains(text, "'s ") && !strings.Contains(text, "’s ") {
		return nil
	}
	var b strings.Builder
	var spans []spelledOut
	copied := 0
	// Letters are folded byte for byte, so that an offset in lower is one in text.
	lower := string(bytesLowerASCII([]byte(text)))
	for i := 0; i < len(lower); {
		start, end, ok := possessorAt(lower, i)
		if !ok {
			i++
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[copied:start])
		js := b.Len()
		b.WriteString("someone's")
		spans = append(spans, spelledOut{start: start, end: end, joinedStart: js, joinedEnd: b.Len()})
		copied, i = end, end
	}
	if spans == nil {
		return nil
	}
	b.WriteString(text[copied:])
	return windowsAround(b.String(), spans)
}

// possessorAt reports whether a possessor opens at byte i of lower (a head word, then words of which
// the last ends in "'s"), and where it ends; chained possessors ("my girlfriend's best friend's") are
// one.
func possessorAt(lower string, i int) (start, end int, ok bool) {
	if i > 0 && isWordByte(lower[i-1]) || !isASCIILetter(lower[i]) {
		return 0, 0, false
	}
	head, next := wordFrom(lower, i)
	if !possessorHeads[head] {
		return 0, 0, false
	}
	end = -1
	for p, n := next, 0; n < possessorReach; n++ {
		for p < len(lower) && lower[p] == ' ' {
			p++
		}
		w, after := wordFrom(lower, p)
		if w == "" || ownPossessors[w] || possessorHeads[w] || notInPossessor[w] {
			break
		}
		if s := strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s"); s != w {
			if notInPossessor[s] { // "it's", "that's": a verb, not a possessive
				break
			}
			if ownPossessors[s] {
				return 0, 0, false
			}
			end = after // a chain goes on past it: "my girlfriend's best friend's"
		} else if end >= 0 && n >= 2 {
			break
		}
		p = after
	}
	if end < 0 || ownedTogether(lower[end:]) {
		return 0, 0, false
	}
	return i, end, true
}

// ownedTogether reports whether what follows a possessor makes the asker an owner too: "and my" or "and
// our" before the thing itself ("my roommate's and my prescriptions"), not before another possessor
// ("my wife's and my kids' texts" are each one's).
func ownedTogether(rest string) bool {
	for _, and := range [...]string{" and my ", " and our "} {
		if after, ok := strings.CutPrefix(rest, and); ok {
			w, _ := wordFrom(after, 0)
			return !strings.HasSuffix(w, "'s") && !strings.HasSuffix(w, "’s") && !strings.HasSuffix(w, "s'")
		}
	}
	return false
}

// bytesLowerASCII folds b's ASCII capitals in place and returns it.
func bytesLowerASCII(b []byte) []byte {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// wordFrom returns the word of letters, hyphens and apostrophes at i, and where it ends.
func wordFrom(lower string, i int) (string, int) {
	j := i
	for j < len(lower) && (isASCIILetter(lower[j]) || lower[j] == '-' || lower[j] == '\'') {
		j++
	}
	if strings.HasPrefix(lower[j:], "’s") {
		j += len("’s")
	}
	return lower[i:j], j
}
