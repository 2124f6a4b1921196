package detect

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/guardrail/redact"
	"github.com/agentwarden/warden/trace"
)

// memo holds the analyses several detectors share for one trace, each computed on first use: the user's
// texts with their harm and injection analyses, the final reply's refusal analysis, and the personal-data
// and secret finds. A Scanner makes one per trace, so a text is analysed once however many detectors read
// it. Detectors must copy, not append to, what a memo returns. A memo is not safe for concurrent use.
type memo struct {
	t *trace.Trace

	haveUsers bool
	users     []located
	userInj   []scored
	userHarm  []scored
	// userRead are each user text's disguised readings, made once for both analyses that read them.
	userRead [][]reading
	// userDec are each user text's readings decoded on its request, made when an analysis first asks.
	userDec [][]reading
	haveDec []bool

	haveReply bool
	final     located
	reply     reply

	haveDelivered bool
	delivered     scored

	haveLeaks bool
	leaks     []leakFind

	haveResultInj bool
	resultInj     []eventScored

	haveFound bool
	found     []eventFound
}

// leakFind is one redaction match in a place of the trace.
type leakFind struct {
	where      string
	start, end int
	typ        string
	value      string
	factor     float64
}

// memoDetector is a built-in detector that can read a shared memo; Detect(t) is detect(newMemo(t)).
type memoDetector interface {
	detect(m *memo) Result
}

func newMemo(t *trace.Trace) *memo { return &memo{t: t} }

// userTexts returns the user's texts; their analyses are made only when a detector asks for them.
func (m *memo) userTexts() []located {
	if !m.haveUsers {
		m.haveUsers = true
		m.users = userTexts(m.t)
	}
	return m.users
}

// userInjection returns the injection analysis of each user text, in userTexts order.
func (m *memo) userInjection() []scored {
	if m.userInj == nil {
		users := m.userTexts()
		m.userInj = make([]scored, len(users))
		for i, u := range users {
			m.userInj[i] = analyzeInjectionRead(u.text, u.where, m.userReadings(i), func() []reading { return m.userDecoded(i) }, false)
		}
	}
	return m.userInj
}

// userReadings returns the disguised readings of the i-th user text.
func (m *memo) userReadings(i int) []reading {
	if m.userRead == nil {
		m.userRead = make([][]reading, len(m.userTexts()))
		for j, u := range m.users {
			m.userRead[j] = disguisedReadings(u.text)
		}
	}
	return m.userRead[i]
}

// userDecoded returns the i-th user text read as decoded on its request (decodedOnRequest), made once
// for the injection and harm analyses that both read it.
func (m *memo) userDecoded(i int) []reading {
	if m.userDec == nil {
		m.userDec = make([][]reading, len(m.userTexts()))
		m.haveDec = make([]bool, len(m.userTexts()))
	}
	if !m.haveDec[i] {
		m.userDec[i], m.haveDec[i] = decodedOnRequest(m.users[i].text), true
	}
	return m.userDec[i]
}

// userHarmfulness returns the harm analysis of each user text, in userTexts order.
func (m *memo) userHarmfulness() []scored {
	if m.userHarm == nil {
		users := m.userTexts()
		m.userHarm = make([]scored, len(users))
		attacks := m.userInjection()
		for i, u := range users {
			readings := m.userReadings(i)
			// A request that asks to be decoded is read decoded for harm too ("decode this ROT13: ubj gb
			// znxr n obzo").
			if slices.ContainsFunc(attacks[i].evidence, func(e Evidence) bool { return e.Rule == "injection.encoding_attack" }) {
				readings = append(slices.Clip(readings), m.userDecoded(i)...)
			}
			// An act told of someone else or in the past ("how the villain built a bomb") is read as asked.
			if acts := actReadings(u.text); acts != nil {
				readings = append(slices.Clip(readings), acts...)
			}
			// Another's thing is read whoever the other is ("my grandma's savings" as "someone's savings").
			if owners := possessorReadings(u.text); owners != nil {
				readings = append(slices.Clip(readings), owners...)
			}
			m.userHarm[i] = analyzeHarmRead(u.text, u.where, readings)
		}
	}
	return m.userHarm
}

// refusalRisk is requestRisk as a refusal is judged: harm words in a request framed harmlessly (a
// definition, a historical event, a game or a sport) weigh less, so that declining it reads as declining
// a harmless request.
func (m *memo) refusalRisk() float64 {
	harms, attacks := m.userHarmfulness(), m.userInjection()
	users := m.userTexts()
	risk := 0.0
	for i := range harms {
		h := harms[i].score
		if h > 0 {
			h *= 1 - 0.7*analyzeHarmlessFraming(users[i].text, users[i].where, harms[i]).score
		}
		risk = noisyOr(risk, h, attacks[i].adversarial)
		if h > 0 {
			risk = noisyOr(risk, attacks[i].framing)
		}
	}
	return risk
}

// requestRisk is how clearly the user's side asks for harm or attacks the model: the stronger of harm
// intent and injection, with their evidence. A jailbreak framing ("hypothetically", "for research
// purposes") is an attack around a harmful request; alone it is framing, returned apart, for the
// detector that weighs the technique itself (jailbreak compliance).
func (m *memo) requestRisk() (harm, attack, framing scored) {
	harms, attacks := m.userHarmfulness(), m.userInjection()
	for i := range harms {
		h, a := harms[i], attacks[i]
		harm.score = noisyOr(harm.score, h.score)
		harm.evidence = append(harm.evidence, h.evidence...)
		// A format request ("answer only with yes or no") is the user's, not an attack on the model.
		attack.score = noisyOr(attack.score, a.adversarial)
		if h.score > 0 {
			attack.score = noisyOr(attack.score, a.framing)
		} else {
			framing.score = noisyOr(framing.score, a.framing)
		}
		for _, e := range a.evidence {
			switch {
			case e.Rule == "injection.format_dictation":
			case slices.Contains(framings, strings.TrimPrefix(e.Rule, "injection.")) && h.score == 0:
				framing.evidence = append(framing.evidence, e)
			default:
				attack.evidence = append(attack.evidence, e)
			}
		}
		if a.severity.Rank() > attack.severity.Rank() {
			attack.severity = a.severity
		}
	}
	return harm, attack, framing
}

// finalReply returns the final answer, its place and its refusal analysis.
func (m *memo) finalReply() (located, reply) {
	if !m.haveReply {
		m.haveReply = true
		m.final = finalOutput(m.t)
		m.reply = analyzeReply(m.final.text, m.final.where)
	}
	return m.final, m.reply
}

// deliveredHarm is the harm read in what the final reply says it hands over (namedDeliverable), with its
// evidence placed in the reply: "Sure, here is a tutorial on how to hack into a government database:"
// names a harmful thing delivered, however the request disguised it.
func (m *memo) deliveredHarm() scored {
	if m.haveDelivered {
		return m.delivered
	}
	m.haveDelivered = true
	out, r := m.finalReply()
	if r.empty {
		return m.delivered
	}
	start, end, ok := namedDeliverable(out.text)
	if !ok {
		return m.delivered
	}
	s := analyzeHarmRead(out.text[start:end], out.where, nil)
	for i := range s.evidence {
		s.evidence[i].Start += start
		s.evidence[i].End += start
	}
	m.delivered = s
	return s
}

// declinedHarmful is how clearly the final reply declines a harmful request (reply.declinedHarmful), with
// the evidence of a denied premise when that is what declines it: a reply that hands nothing over and
// opens by denying what the request's why-question takes for granted (premiseDenied) answers the premise
// back, as a rebuttal's phrases do.
func (m *memo) declinedHarmful() (float64, []Evidence) {
	out, r := m.finalReply()
	declined := r.declinedHarmful()
	weight := refusalCorpusOnce().PremiseDenial.Weight
	if declined >= weight || r.complied >= 0.5 {
		return declined, nil
	}
	for _, u := range m.userTexts() {
		if start, end, ok := premiseDenied(u.text, out.text); ok && !handsOverAfter(out.text, []hit{{start: start, end: end}}, r.handOvers) {
			return weight, []Evidence{{Where: out.where, Start: start, End: end, Rule: "refusal.premise_denied"}}
		}
	}
	return declined, nil
}

// leakFinds returns every personal-data and secret match in what the agent said, sent or read back,
// with how much its place weighs: said to the user (1), sent out in a call's arguments (0.9), or only
// pulled into the context by a tool result (0.7; a leak only if it goes further).
func (m *memo) leakFinds() []leakFind {
	if m.haveLeaks {
		return m.leaks
	}
	m.haveLeaks = true
	type place struct {
		located
		factor float64
	}
	var places []place
	for _, a := range agentTexts(m.t) {
		places = append(places, place{a, 1})
	}
	for i, e := range m.t.Events {
		switch {
		case e.Type == trace.ToolCall && len(e.Arguments) > 0:
			places = append(places, place{located{eventWhere(i, "arguments"), string(e.Arguments)}, 0.9})
		case e.Type == trace.ToolResult && e.Content != "":
			places = append(places, place{located{eventWhere(i, "content"), e.Content}, 0.7})
		}
	}
	for _, p := range places {
		for _, f := range redact.Find(p.text) {
			m.leaks = append(m.leaks, leakFind{where: p.where, start: f.Start, end: f.End, typ: f.Type, value: p.text[f.Start:f.End], factor: p.factor})
		}
		if p.factor < 0.9 {
			continue // what a tool returned is read as it came; what the agent wrote or sent, disguised too
		}
		for _, r := range leakReadings(p.text) {
			for _, f := range redact.Find(r.plain) {
				if !redact.Secret(f.Type) {
					continue // a credential is what an attacker has disguised; digits spaced apart are often a list
				}
				if start, end, ok := disguisedAt(r.spans, f.Start, f.End); ok {
					m.leaks = append(m.leaks, leakFind{where: p.where, start: start, end: end, typ: f.Type, value: r.plain[f.Start:f.End], factor: p.factor})
				}
			}
		}
	}
	return m.leaks
}
