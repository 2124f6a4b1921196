package ledger

import (
	"context"
	"sync"
	"time"
)

// Memory is a ledger in this process's memory.
type Memory struct {
	policy  Policy
	mu      sync.RWMutex
	users   map[[16]byte]*entry
	records int
}

type entry struct {
	times        []time.Time
	blockedUntil time.Time
}

var _ Ledger = (*Memory)(nil)

// NewMemory returns an empty in-memory ledger.
func NewMemory(p Policy) (*Memory, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Memory{policy: p, users: map[[16]byte]*entry{}}, nil
}

// sweepEvery is how many records pass between sweeps that forget users with nothing left to remember.
const sweepEvery = 1024

// Record implements Ledger.
func (m *Memory) Record(_ context.Context, user string, now time.Time) (time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := key(user)
	e := m.users[k]
	if e == nil {
		e = &entry{}
		m.users[k] = e
	}
	e.times = append(m.prune(e.times, now), now)
	if len(e.times) >= m.policy.MaxViolations {
		if until := now.Add(m.policy.BlockFor); until.After(e.blockedUntil) {
			e.blockedUntil = until
		}
	}
	if m.records++; m.records%sweepEvery == 0 {
		m.sweep(now)
	}
	if e.blockedUntil.After(now) {
		return e.blockedUntil, nil
	}
	return time.Time{}, nil
}

func (m *Memory) prune(times []time.Time, now time.Time) []time.Time {
	cut := 0
	for cut < len(times) && now.Sub(times[cut]) >= m.policy.Window {
		cut++
	}
	return times[cut:]
}

func (m *Memory) sweep(now time.Time) {
	for k, e := range m.users {
		if e.times = m.prune(e.times, now); len(e.times) == 0 && !e.blockedUntil.After(now) {
			delete(m.users, k)
		}
	}
}

// Blocked implements Ledger.
func (m *Memory) Blocked(_ context.Context, user string, now time.Time) (time.Time, bool, error) {
	m.mu.RLock()
	e := m.users[key(user)]
	var until time.Time
	if e != nil {
		until = e.blockedUntil
	}
	m.mu.RUnlock()
	if until.After(now) {
		return until, true, nil
	}
	return time.Time{}, false, nil
}

// Status implements Ledger.
func (m *Memory) Status(_ context.Context, user string, now time.Time) (Status, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e := m.users[key(user)]
	if e == nil {
		return Status{}, nil
	}
	s := Status{Violations: len(m.prune(e.times, now))}
	if e.blockedUntil.After(now) {
		s.BlockedUntil = e.blockedUntil
	}
	return s, nil
}

// Clear implements Ledger.
func (m *Memory) Clear(_ context.Context, user string) error {
	m.mu.Lock()
	delete(m.users, key(user))
	m.mu.Unlock()
	return nil
}
