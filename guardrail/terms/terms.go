// Package terms is the blocked_terms stream guardrail: a list of phrases a response must not contain,
// matched case-insensitively (ASCII) in one pass however many there are. A match asks for a
// self-correction with feedback, or stops the stream. It holds back exactly the end of the text that could
// still become a phrase, so a phrase split across deltas is never released in part, and prose that starts no
// phrase flows at once.
//
// The phrase itself never enters a decision's message, a log or an audit record: those name the guardrail
// and the phrase's position in the list only.
package terms

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/ahocorasick"
)

func init() {
	warden.Register(warden.ModuleInfo{
		ID:      "guardrail.stream.blocked_terms",
		New:     func() any { return new(BlockedTerms) },
		Summary: "stops or corrects a streamed response that contains a listed phrase, across delta boundaries",
	})
}

// BlockedTerms stops or corrects a response that contains a listed phrase.
type BlockedTerms struct {
	// Terms are the phrases, matched without regard to ASCII case. At least one.
	Terms []string `yaml:"terms" json:"terms"`
	// Action is retry (default: the model corrects itself with Feedback) or halt (the stream ends).
	Action string `yaml:"action" json:"action"`
	// Feedback is what the model and the user see on a retry, in the model's voice. Default: "I used a
	// phrase I must not use here. Let me rephrase that without it."
	Feedback string `yaml:"feedback" json:"feedback"`
	// Code is the reason code of a match. Default blocked_terms.matched.
	Code string `yaml:"code" json:"code"`

	m *ahocorasick.Matcher
}

var (
	_ warden.StreamGuardrail = (*BlockedTerms)(nil)
	_ warden.StreamHoldback  = (*BlockedTerms)(nil)
	_ warden.Provisioner     = (*BlockedTerms)(nil)
	_ warden.Validator       = (*BlockedTerms)(nil)
)

// Provision compiles the phrases.
func (b *BlockedTerms) Provision(context.Context) error {
	if b.Action == "" {
		b.Action = "retry"
	}
	if b.Feedback == "" {
		b.Feedback = "I used a phrase I must not use here. Let me rephrase that without it."
	}
	if b.Code == "" {
		b.Code = "blocked_terms.matched"
	}
	for i, t := range b.Terms {
		if len(t) > ahocorasick.MaxTermLen {
			return fmt.Errorf("terms[%d]: %d bytes (at most %d)", i, len(t), ahocorasick.MaxTermLen)
		}
	}
	b.m = ahocorasick.Compile(b.Terms)
	return nil
}

// Validate checks the list and the action.
func (b *BlockedTerms) Validate() error {
	var errs []error
	if len(b.Terms) == 0 {
		errs = append(errs, errors.New("terms: at least one phrase"))
	}
	for i, t := range b.Terms {
		if strings.TrimSpace(t) == "" {
			errs = append(errs, fmt.Errorf("terms[%d]: empty", i))
		}
	}
	if b.Action != "retry" && b.Action != "halt" {
		errs = append(errs, fmt.Errorf("action: %q (want retry or halt)", b.Action))
	}
	return errors.Join(errs...)
}

// CheckPart looks for a phrase in the pending text.
func (b *BlockedTerms) CheckPart(_ context.Context, c warden.PartCheck) (warden.Decision, error) {
	if c.Part.Kind != warden.PartText && c.Part.Kind != warden.PartFinish {
		return warden.Allow(), nil
	}
	id, _, _, ok := b.m.Find(c.Pending)
	if !ok {
		return warden.Allow(), nil
	}
	d := warden.Retry(b.Code, b.Feedback)
	if b.Action == "halt" {
		d = warden.Halt(b.Code, fmt.Sprintf("the response contains blocked phrase #%d", id+1))
	}
	d.Metadata = map[string]string{"term_index": fmt.Sprint(id)}
	return d, nil
}

// Holdback keeps back the end of the pending text that may still become a phrase.
func (b *BlockedTerms) Holdback(pending string) int { return b.m.Pending(pending) }
