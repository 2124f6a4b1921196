package approvals

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store in Redis, shared by every gateway replica that uses the same server and prefix. A record
// is a hash; the live record of each binding is a key holding its id, expiring with it; a sorted set by
// creation time lists them. Resolve and Decide are one script each, so replicas never grant one approval
// twice. Decide publishes the id, so a call waiting on any replica is released at once (Watcher).
//
// Keys are prefix + "rec:<id>", "live:<digest>", "index" and the channel prefix + "decided". The scripts
// touch record keys they compute, so the store needs one Redis server (or a prefix with a hash tag,
// "{warden}:approvals:", on a cluster).
type Redis struct {
	client redis.UniversalClient
	prefix string
	// Retention is how long a finished record stays listed; zero means 30 days.
	Retention time.Duration
}

var (
	_ Store   = (*Redis)(nil)
	_ Watcher = (*Redis)(nil)
)

// NewRedis returns a store on a Redis client; keys start with prefix (e.g. "warden:approvals:").
func NewRedis(client redis.UniversalClient, prefix string) (*Redis, error) {
	if client == nil {
		return nil, errors.New("approvals: no redis client")
	}
	return &Redis{client: client, prefix: prefix}, nil
}

func (r *Redis) retention() time.Duration {
	if r.Retention <= 0 {
		return 30 * 24 * time.Hour
	}
	return r.Retention
}

// resolve: KEYS live, index. ARGV now, prefix, retention, then the new record's id, expires and its
// fields as name/value pairs. Returns {resolution, id}.
var resolve = redis.NewScript(`
local now = tonumber(ARGV[1])
local prefix = ARGV[2]
local keep = tonumber(ARGV[3])
local id = redis.call('GET', KEYS[1])
if id then
  local rk = prefix .. 'rec:' .. id
  local st = redis.call('HMGET', rk, 'status', 'expires')
  if st[1] and tonumber(st[2]) > now then
    if st[1] == 'approved' then
      redis.call('HSET', rk, 'status', 'used', 'used', now)
      redis.call('DEL', KEYS[1])
      return {'granted', id}
    elseif st[1] == 'pending' then
      return {'waiting', id}
    elseif st[1] == 'denied' then
      return {'refused', id}
    end
  end
end
local nid = ARGV[4]
local expires = tonumber(ARGV[5])
local rk = prefix .. 'rec:' .. nid
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', rk, unpack(fields))
redis.call('PEXPIRE', rk, expires - now + keep)
redis.call('SET', KEYS[1], nid, 'PX', expires - now)
redis.call('ZADD', KEYS[2], now, nid)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - keep - (expires - now))
return {'filed', nid}
`)

// decide: KEYS record, channel. ARGV now, status, approver, note, expires, prefix, retention. Returns
// {'ok'} or {error word, status}.
var decide = redis.NewScript(`
local now = tonumber(ARGV[1])
local st = redis.call('HMGET', KEYS[1], 'status', 'expires', 'digest', 'id')
if not st[1] then return {'missing', ''} end
if st[1] ~= 'pending' then return {'decided', st[1]} end
if tonumber(st[2]) <= now then return {'expired', st[1]} end
local expires = tonumber(ARGV[5])
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'approver', ARGV[3], 'note', ARGV[4], 'decided', now, 'expires', expires)
redis.call('PEXPIRE', KEYS[1], expires - now + tonumber(ARGV[7]))
redis.call('SET', ARGV[6] .. 'live:' .. st[3], st[4], 'PX', expires - now)
redis.call('PUBLISH', KEYS[2], st[4])
return {'ok', ''}
`)

func (r *Redis) recKey(id string) string { return r.prefix + "rec:" + id }
func (r *Redis) channel() string         { return r.prefix + "decided" }

// Resolve implements Store.
func (r *Redis) Resolve(ctx context.Context, req Record, now time.Time) (Record, Resolution, error) {
	args := []any{now.UnixMilli(), r.prefix, r.retention().Milliseconds(), req.ID, req.Expires.UnixMilli(),
		"id", req.ID, "digest", req.Digest, "principal", req.Principal, "tool", req.Tool, "arguments", string(req.Arguments),
		"guardrail", req.Guardrail, "code", req.Code, "reason", req.Reason, "status", string(StatusPending),
		"created", req.Created.UnixMilli(), "expires", req.Expires.UnixMilli(), "approver", "", "note", "", "decided", 0, "used", 0}
	res, err := resolve.Run(ctx, r.client, []string{r.prefix + "live:" + req.Digest, r.prefix + "index"}, args...).StringSlice()
	if err != nil {
		return Record{}, 0, fmt.Errorf("approvals: redis: %w", err)
	}
	if len(res) != 2 {
		return Record{}, 0, fmt.Errorf("approvals: redis: resolve answered %q", res)
	}
	if res[0] == "filed" {
		return req, Filed, nil
	}
	rec, err := r.Get(ctx, res[1])
	if err != nil {
		return Record{}, 0, err
	}
	switch res[0] {
	case "granted":
		return rec, Granted, nil
	case "waiting":
		return rec, Waiting, nil
	case "refused":
		return rec, Refused, nil
	}
	return Record{}, 0, fmt.Errorf("approvals: redis: resolve answered %q", res)
}

// Decide implements Store.
func (r *Redis) Decide(ctx context.Context, id string, v Verdict, now, expires time.Time) (Record, error) {
	status := StatusDenied
	if v.Approve {
		status = StatusApproved
	}
	res, err := decide.Run(ctx, r.client, []string{r.recKey(id), r.channel()}, now.UnixMilli(), string(status), v.Approver, v.Note,
		expires.UnixMilli(), r.prefix, r.retention().Milliseconds()).StringSlice()
	if err != nil {
		return Record{}, fmt.Errorf("approvals: redis: %w", err)
	}
	if len(res) != 2 {
		return Record{}, fmt.Errorf("approvals: redis: decide answered %q", res)
	}
	if res[0] == "missing" {
		return Record{}, ErrNotFound
	}
	rec, gerr := r.Get(ctx, id)
	if gerr != nil {
		return Record{}, gerr
	}
	switch res[0] {
	case "ok":
		return rec, nil
	case "decided":
		return rec, ErrDecided
	case "expired":
		return rec, ErrExpired
	}
	return Record{}, fmt.Errorf("approvals: redis: decide answered %q", res)
}

// Get implements Store.
func (r *Redis) Get(ctx context.Context, id string) (Record, error) {
	h, err := r.client.HGetAll(ctx, r.recKey(id)).Result()
	if err != nil {
		return Record{}, fmt.Errorf("approvals: redis: %w", err)
	}
	if len(h) == 0 {
		return Record{}, ErrNotFound
	}
	ms := func(k string) time.Time {
		n, _ := strconv.ParseInt(h[k], 10, 64)
		return fromMillis(n)
	}
	return Record{ID: h["id"], Digest: h["digest"], Principal: h["principal"], Tool: h["tool"], Arguments: []byte(h["arguments"]),
		Guardrail: h["guardrail"], Code: h["code"], Reason: h["reason"], Status: Status(h["status"]), Created: ms("created"),
		Expires: ms("expires"), Approver: h["approver"], Note: h["note"], Decided: ms("decided"), Used: ms("used")}, nil
}

// List implements Store. It reads the index newest first and skips records Redis has already dropped.
func (r *Redis) List(ctx context.Context, q Query) ([]Record, error) {
	want := limit(q)
	var out []Record
	const page = 200
	for start := int64(0); len(out) < want; start += page {
		ids, err := r.client.ZRevRange(ctx, r.prefix+"index", start, start+page-1).Result()
		if err != nil {
			return nil, fmt.Errorf("approvals: redis: %w", err)
		}
		for _, id := range ids {
			rec, err := r.Get(ctx, id)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if q.Pending && rec.StatusAt(q.Now) != StatusPending {
				continue
			}
			if out = append(out, rec); len(out) == want {
				break
			}
		}
		if len(ids) < page {
			break
		}
	}
	return out, nil
}

// Watch implements Watcher: the ids of requests decided by any process on this server and prefix.
func (r *Redis) Watch(ctx context.Context) (<-chan string, error) {
	sub := r.client.Subscribe(ctx, r.channel())
	if _, err := sub.Receive(ctx); err != nil { // the subscription is confirmed before any decision can be missed
		sub.Close()
		return nil, fmt.Errorf("approvals: redis: subscribe: %w", err)
	}
	out := make(chan string, 64)
	go func() {
		defer close(out)
		defer sub.Close()
		msgs := sub.Channel()
		for {
			select {
			case <-ctx.Done():
				return
			case m, ok := <-msgs:
				if !ok {
					return
				}
				select {
				case out <- m.Payload:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}
