// Package session holds the session controls: guardrails that count what a run or a principal does across
// requests and stop what runs away. call_budget bounds the tool calls of a run; loop_breaker stops the same
// call made again and again; rate_limit bounds the requests a principal makes.
//
// Counters live in a Store: Memory, shared by every control of the process, or Redis, shared by every
// gateway replica. Keys hold a digest of the run or principal, never the id itself, and never arguments.
package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store keeps the controls' counters. Implementations are safe for concurrent use, and each method is
// atomic, so that replicas sharing a store count as one.
type Store interface {
	// Add adds n to key's count within the fixed window of length window that now falls in, and returns
	// the new count.
	Add(ctx context.Context, key string, n int64, window time.Duration, now time.Time) (int64, error)
	// Streak records value as key's latest and returns how many times in a row it has been the latest.
	// A streak left alone for ttl starts over.
	Streak(ctx context.Context, key, value string, ttl time.Duration) (int64, error)
	// Take takes one request from key's allowance (the generic cell rate algorithm: one request every
	// interval, with burst at once) and says whether it was allowed, and if not, how long until it would be.
	Take(ctx context.Context, key string, interval time.Duration, burst int64, now time.Time) (bool, time.Duration, error)
}

// Memory is a Store in this process. The zero value is not ready; use NewMemory, or Shared.
type Memory struct {
	mu      sync.Mutex
	counts  map[string]windowCount
	streaks map[string]streak
	tats    map[string]time.Time // the generic cell rate algorithm's theoretical arrival time per key
	swept   time.Time
}

type windowCount struct {
	start time.Time
	n     int64
}

type streak struct {
	value string
	n     int64
	until time.Time
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty Memory store.
func NewMemory() *Memory {
	return &Memory{counts: map[string]windowCount{}, streaks: map[string]streak{}, tats: map[string]time.Time{}}
}

var shared = NewMemory()

// Shared is the process's memory store: every control configured with store memory counts in it, so that
// two guardrails on one key (a budget listed twice) see one count.
func Shared() *Memory { return shared }

// Add implements Store.
func (m *Memory) Add(_ context.Context, key string, n int64, window time.Duration, now time.Time) (int64, error) {
	start := now.Truncate(window)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	c := m.counts[key]
	if !c.start.Equal(start) {
		c = windowCount{start: start}
	}
	c.n += n
	m.counts[key] = c
	return c.n, nil
}

// Streak implements Store.
func (m *Memory) Streak(_ context.Context, key, value string, ttl time.Duration) (int64, error) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	s := m.streaks[key]
	if s.value != value || now.After(s.until) {
		s = streak{value: value}
	}
	s.n++
	s.until = now.Add(ttl)
	m.streaks[key] = s
	return s.n, nil
}

// Take implements Store.
func (m *Memory) Take(_ context.Context, key string, interval time.Duration, burst int64, now time.Time) (bool, time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	tat := m.tats[key]
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval)
	if allowAt := next.Add(-time.Duration(burst) * interval); now.Before(allowAt) {
		return false, allowAt.Sub(now), nil
	}
	m.tats[key] = next
	return true, 0, nil
}

// sweep drops what can no longer count, at most once a minute.
func (m *Memory) sweep(now time.Time) {
	if now.Sub(m.swept) < time.Minute {
		return
	}
	m.swept = now
	for k, c := range m.counts {
		if now.Sub(c.start) > 48*time.Hour {
			delete(m.counts, k)
		}
	}
	for k, s := range m.streaks {
		if now.After(s.until) {
			delete(m.streaks, k)
		}
	}
	for k, t := range m.tats {
		if t.Before(now) {
			delete(m.tats, k)
		}
	}
}

// Redis is a Store in Redis: one script per operation, so that replicas count as one.
type Redis struct {
	client redis.UniversalClient
}

var _ Store = (*Redis)(nil)

// NewRedis returns a store on a client.
func NewRedis(client redis.UniversalClient) (*Redis, error) {
	if client == nil {
		return nil, errors.New("session: no redis client")
	}
	return &Redis{client: client}, nil
}

// add: KEYS count. ARGV n, ttl ms.
var add = redis.NewScript(`
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if n == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n
`)

// Add implements Store. The window's start is part of the key, so a new window starts a new count.
func (r *Redis) Add(ctx context.Context, key string, n int64, window time.Duration, now time.Time) (int64, error) {
	k := fmt.Sprintf("%s:%d", key, now.Truncate(window).UnixMilli())
	v, err := add.Run(ctx, r.client, []string{k}, n, (2 * window).Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("session: redis: %w", err)
	}
	return v, nil
}

// streakScript: KEYS streak hash. ARGV value, ttl ms.
var streakScript = redis.NewScript(`
local last = redis.call('HGET', KEYS[1], 'v')
local n = 1
if last == ARGV[1] then n = redis.call('HINCRBY', KEYS[1], 'n', 1) else redis.call('HSET', KEYS[1], 'v', ARGV[1], 'n', 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n
`)

// Streak implements Store.
func (r *Redis) Streak(ctx context.Context, key, value string, ttl time.Duration) (int64, error) {
	v, err := streakScript.Run(ctx, r.client, []string{key}, value, ttl.Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("session: redis: %w", err)
	}
	return v, nil
}

// gcra: KEYS tat. ARGV now ms, interval ms, burst. Returns {allowed, wait ms}.
var gcra = redis.NewScript(`
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nxt = tat + interval
local allow_at = nxt - burst * interval
if now < allow_at then return {0, allow_at - now} end
redis.call('SET', KEYS[1], nxt, 'PX', nxt - now + interval)
return {1, 0}
`)

// Take implements Store.
func (r *Redis) Take(ctx context.Context, key string, interval time.Duration, burst int64, now time.Time) (bool, time.Duration, error) {
	res, err := gcra.Run(ctx, r.client, []string{key}, now.UnixMilli(), interval.Milliseconds(), burst).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("session: redis: %w", err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("session: redis: rate script answered %v", res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Millisecond, nil
}

// digest names a run or principal in a key without holding it.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}
