package approvals

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentwarden/warden"
)

// Events hears of requests as they are filed and decided: the webhook, the audit log. Calls are made
// synchronously after the store changed; an implementation that does I/O should not block long. It must
// not log or forward a record's arguments.
type Events interface {
	Filed(ctx context.Context, r Record)
	Decided(ctx context.Context, r Record)
}

// Config configures a Service.
type Config struct {
	Store Store
	// TTL is how long a request waits for a decision, and how long a decision then stands: an approval
	// unused for TTL lapses, as does a denial. Zero means one hour.
	TTL time.Duration
	// Events, if set, hears of every filed and decided request.
	Events Events
	// Poll is how often Await rereads a request when the store cannot announce decisions across
	// processes (no Watcher). Zero means one second.
	Poll time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service resolves asks against a store and takes people's decisions. It implements warden.Approvals and is
// safe for concurrent use; one serves a whole process.
type Service struct {
	store  Store
	ttl    time.Duration
	events Events
	poll   time.Duration
	now    func() time.Time

	mu      sync.Mutex
	waiting map[string]*waiters
	stop    context.CancelFunc
	watched chan struct{}
}

type waiters struct {
	ch chan struct{}
	n  int
}

var _ warden.Approvals = (*Service)(nil)

// New returns a Service over cfg.Store. When the store is a Watcher, the Service listens for decisions
// made by other processes until Close.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("approvals: no store")
	}
	s := &Service{store: cfg.Store, ttl: cfg.TTL, events: cfg.Events, poll: cfg.Poll, now: cfg.Now, waiting: map[string]*waiters{}}
	if s.ttl <= 0 {
		s.ttl = time.Hour
	}
	if s.poll <= 0 {
		s.poll = time.Second
	}
	if s.now == nil {
		s.now = time.Now
	}
	if w, ok := cfg.Store.(Watcher); ok {
		ctx, cancel := context.WithCancel(context.Background())
		ids, err := w.Watch(ctx)
		if err != nil {
			cancel()
			return nil, fmt.Errorf("approvals: watching the store: %w", err)
		}
		s.stop, s.watched = cancel, make(chan struct{})
		go func() {
			defer close(s.watched)
			for id := range ids {
				s.wake(id)
			}
		}()
	}
	return s, nil
}

// Close stops listening for other processes' decisions. It does not close the store.
func (s *Service) Close() error {
	if s.stop != nil {
		s.stop()
		<-s.watched
	}
	return nil
}

// TTL is how long a request waits and a decision stands.
func (s *Service) TTL() time.Duration { return s.ttl }

func (s *Service) clock() time.Time { return millis(s.now()) }

// Resolve implements warden.Approvals.
func (s *Service) Resolve(ctx context.Context, a warden.ApprovalAsk) (warden.Approval, error) {
	principal := a.Run.Principal()
	digest, err := Bind(principal, a.Call.Name, a.Call.Arguments, a.Policy)
	if err != nil {
		return warden.Approval{}, err
	}
	now := s.clock()
	reason := a.Decision.FirstReason()
	req := Record{ID: newID(), Digest: digest, Principal: principal, Tool: a.Call.Name, Arguments: append([]byte(nil), a.Call.Arguments...),
		Guardrail: a.Decision.Guardrail, Code: reason.Code, Reason: reason.Message, Status: StatusPending, Created: now, Expires: now.Add(s.ttl)}
	rec, res, err := s.store.Resolve(ctx, req, now)
	if err != nil {
		return warden.Approval{}, err
	}
	out := warden.Approval{ID: rec.ID, Digest: rec.Digest, Expires: rec.Expires, Approver: rec.Approver, Note: rec.Note}
	switch res {
	case Filed:
		if s.events != nil {
			s.events.Filed(context.WithoutCancel(ctx), rec)
		}
		out.Status = warden.ApprovalPending
	case Waiting:
		out.Status = warden.ApprovalPending
	case Granted:
		out.Status = warden.ApprovalGranted
	case Refused:
		out.Status = warden.ApprovalDenied
	default:
		return warden.Approval{}, fmt.Errorf("approvals: store answered resolution %d", res)
	}
	return out, nil
}

// Decide records a person's decision on a pending request and releases every call waiting on it, in this
// process and, through the store, in others. An approval then stands for the TTL.
func (s *Service) Decide(ctx context.Context, id string, v Verdict) (Record, error) {
	if strings.TrimSpace(v.Approver) == "" {
		return Record{}, errors.New("approvals: a decision must name who made it")
	}
	now := s.clock()
	rec, err := s.store.Decide(ctx, id, v, now, now.Add(s.ttl))
	if err != nil {
		return rec, err
	}
	s.wake(id)
	if s.events != nil {
		s.events.Decided(context.WithoutCancel(ctx), rec)
	}
	return rec, nil
}

// Get returns one record.
func (s *Service) Get(ctx context.Context, id string) (Record, error) { return s.store.Get(ctx, id) }

// List returns records, newest first; q.Now defaults to the service's clock.
func (s *Service) List(ctx context.Context, q Query) ([]Record, error) {
	if q.Now.IsZero() {
		q.Now = s.clock()
	}
	return s.store.List(ctx, q)
}

// Await blocks until the request is decided or expires, or ctx ends, and returns the record as it then
// stands (StatusAt tells which). A decision made in this process releases it at once; one made in another
// process as soon as the store announces it (Watcher), or at the next poll.
func (s *Service) Await(ctx context.Context, id string) (Record, error) {
	for {
		w := s.listen(id) // before reading, so that a decision made in between still wakes us
		rec, err := s.store.Get(ctx, id)
		if err != nil {
			s.unlisten(id, w)
			return rec, err
		}
		now := s.clock()
		if rec.StatusAt(now) != StatusPending {
			s.unlisten(id, w)
			return rec, nil
		}
		t := time.NewTimer(min(s.poll, rec.Expires.Sub(now)))
		select {
		case <-w.ch:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			s.unlisten(id, w)
			return rec, context.Cause(ctx)
		}
		t.Stop()
		s.unlisten(id, w)
	}
}

func (s *Service) listen(id string) *waiters {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.waiting[id]
	if w == nil {
		w = &waiters{ch: make(chan struct{})}
		s.waiting[id] = w
	}
	w.n++
	return w
}

// unlisten drops one waiter of w; a wake may already have replaced w, which then has nothing to drop.
func (s *Service) unlisten(id string, w *waiters) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.waiting[id] == w {
		if w.n--; w.n <= 0 {
			delete(s.waiting, id)
		}
	}
}

// wake releases everyone waiting on id; they reread the record.
func (s *Service) wake(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.waiting[id]; w != nil {
		close(w.ch)
		delete(s.waiting, id)
	}
}
