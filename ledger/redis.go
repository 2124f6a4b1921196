package ledger

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a ledger in Redis, shared by every process that uses the same server and prefix. Each
// violation is one member of a sorted set scored by its time; a block is a key holding its end. Record is
// one atomic script, Blocked one GET: one round trip each.
type Redis struct {
	policy Policy
	client redis.UniversalClient
	prefix string
}

var _ Ledger = (*Redis)(nil)

// NewRedis returns a ledger on a Redis client; keys start with prefix (e.g. "warden:ledger:").
func NewRedis(p Policy, client redis.UniversalClient, prefix string) (*Redis, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if client == nil {
		return nil, errors.New("redis: no client")
	}
	return &Redis{policy: p, client: client, prefix: prefix}, nil
}

// record prunes the user's violations to the window, adds one, and sets the block when they reach the
// limit. KEYS: violations, block. ARGV: now ms, window ms, max, block ms, member.
var record = redis.NewScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local block = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], window)
local n = redis.call('ZCARD', KEYS[1])
local blocked_until = tonumber(redis.call('GET', KEYS[2]) or '0')
if n >= tonumber(ARGV[3]) and now + block > blocked_until then
  blocked_until = now + block
  redis.call('SET', KEYS[2], blocked_until, 'PX', block)
end
if blocked_until > now then return blocked_until end
return 0
`)

func (r *Redis) keys(user string) (violations, block string) {
	id := key(user)
	k := r.prefix + hex.EncodeToString(id[:])
	return k + ":v", k + ":b"
}

// Record implements Ledger.
func (r *Redis) Record(ctx context.Context, user string, now time.Time) (time.Time, error) {
	v, b := r.keys(user)
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	ms := now.UnixMilli()
	res, err := record.Run(ctx, r.client, []string{v, b}, ms, r.policy.Window.Milliseconds(), r.policy.MaxViolations,
		r.policy.BlockFor.Milliseconds(), strconv.FormatInt(ms, 10)+"-"+hex.EncodeToString(nonce[:])).Int64()
	if err != nil {
		return time.Time{}, err
	}
	if res == 0 {
		return time.Time{}, nil
	}
	return time.UnixMilli(res), nil
}

// Blocked implements Ledger.
func (r *Redis) Blocked(ctx context.Context, user string, now time.Time) (time.Time, bool, error) {
	_, b := r.keys(user)
	until, err := r.client.Get(ctx, b).Int64()
	if errors.Is(err, redis.Nil) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	if t := time.UnixMilli(until); t.After(now) {
		return t, true, nil
	}
	return time.Time{}, false, nil
}

// Status implements Ledger.
func (r *Redis) Status(ctx context.Context, user string, now time.Time) (Status, error) {
	v, _ := r.keys(user)
	n, err := r.client.ZCount(ctx, v, strconv.FormatInt(now.Add(-r.policy.Window).UnixMilli()+1, 10), "+inf").Result()
	if err != nil {
		return Status{}, err
	}
	s := Status{Violations: int(n)}
	if until, blocked, err := r.Blocked(ctx, user, now); err != nil {
		return Status{}, err
	} else if blocked {
		s.BlockedUntil = until
	}
	return s, nil
}

// Clear implements Ledger.
func (r *Redis) Clear(ctx context.Context, user string) error {
	v, b := r.keys(user)
	return r.client.Del(ctx, v, b).Err()
}
