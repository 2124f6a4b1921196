package gateway

import (
	"sync"
	"time"
)

// A Responses stream whose denied call Warden followed up ends with the follow-up's answer, which the
// provider stored under an id of its own; the client's stream announced the first response's id, and SDKs
// require one id a stream, so the stream's terminal event gives the client that one. The first response,
// as the provider stored it, still holds the denied call with no result: a conversation continued from it
// (previous_response_id) would be refused, or would continue from a call that never ran. continuity
// remembers which stored response each such id stands for, and a later request that continues from the id
// the client holds is sent on continuing from the one the client was answered with.
//
// It is memory of one process, bounded in size and age: replicas behind a balancer each know the streams
// they relayed, so a conversation's requests must reach the replica that relayed its last stream (or go
// without previous_response_id, sending their whole input).

const (
	continuityCap = 4096
	continuityTTL = 24 * time.Hour
)

// continuity maps the id a client holds to the stored response it stands for. Safe for concurrent use.
type continuity struct {
	mu    sync.Mutex
	m     map[string]continued
	order [continuityCap]string // the ids in the order they came, oldest replaced first
	next  int
}

type continued struct {
	stored string
	at     time.Time
}

// put notes that a client holding opened was answered with stored.
func (c *continuity) put(opened, stored string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]continued)
	}
	if old := c.order[c.next]; old != "" {
		delete(c.m, old)
	}
	c.order[c.next] = opened
	c.next = (c.next + 1) % continuityCap
	c.m[opened] = continued{stored: stored, at: now}
}

// get returns the stored response id stands for, when it stands for one noted within continuityTTL.
func (c *continuity) get(id string, now time.Time) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok || now.Sub(e.at) > continuityTTL {
		return "", false
	}
	return e.stored, true
}
