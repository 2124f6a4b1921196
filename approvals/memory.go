package approvals

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// Memory is a Store in this process's memory: for tests, and for a process that may forget its requests
// when it stops. Records are kept for Retention after they expire or are used, then dropped.
type Memory struct {
	// Retention is how long a finished record stays listed; zero means 24 hours.
	Retention time.Duration

	mu     sync.Mutex
	byID   map[string]*Record
	live   map[string]string // digest → id of the live record
	pruned time.Time
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty Memory store.
func NewMemory() *Memory { return &Memory{byID: map[string]*Record{}, live: map[string]string{}} }

// Resolve implements Store.
func (m *Memory) Resolve(_ context.Context, req Record, now time.Time) (Record, Resolution, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.live[req.Digest]; ok {
		r := m.byID[id]
		switch r.StatusAt(now) {
		case StatusApproved:
			r.Status, r.Used = StatusUsed, now
			delete(m.live, req.Digest)
			return *r, Granted, nil
		case StatusPending:
			return *r, Waiting, nil
		case StatusDenied:
			return *r, Refused, nil
		}
		delete(m.live, req.Digest)
	}
	m.prune(now)
	r := req
	m.byID[r.ID] = &r
	m.live[r.Digest] = r.ID
	return r, Filed, nil
}

// Decide implements Store.
func (m *Memory) Decide(_ context.Context, id string, v Verdict, now, expires time.Time) (Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.byID[id]
	if !ok {
		return Record{}, ErrNotFound
	}
	switch r.StatusAt(now) {
	case StatusPending:
	case StatusExpired:
		return *r, ErrExpired
	default:
		return *r, ErrDecided
	}
	r.Status = StatusDenied
	if v.Approve {
		r.Status = StatusApproved
	}
	r.Approver, r.Note, r.Decided, r.Expires = v.Approver, v.Note, now, expires
	return *r, nil
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, id string) (Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.byID[id]
	if !ok {
		return Record{}, ErrNotFound
	}
	return *r, nil
}

// List implements Store.
func (m *Memory) List(_ context.Context, q Query) ([]Record, error) {
	m.mu.Lock()
	out := make([]Record, 0, len(m.byID))
	for _, r := range m.byID {
		if !q.Pending || r.StatusAt(q.Now) == StatusPending {
			out = append(out, *r)
		}
	}
	m.mu.Unlock()
	slices.SortFunc(out, func(a, b Record) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out[:min(len(out), limit(q))], nil
}

// prune drops records finished longer than Retention ago, at most once a minute.
func (m *Memory) prune(now time.Time) {
	if now.Sub(m.pruned) < time.Minute {
		return
	}
	m.pruned = now
	keep := m.Retention
	if keep <= 0 {
		keep = 24 * time.Hour
	}
	for id, r := range m.byID {
		end := r.Expires
		if r.Status == StatusUsed {
			end = r.Used
		}
		if now.Sub(end) > keep {
			delete(m.byID, id)
			if m.live[r.Digest] == id {
				delete(m.live, r.Digest)
			}
		}
	}
}

func limit(q Query) int {
	if q.Limit <= 0 {
		return 100
	}
	return q.Limit
}
