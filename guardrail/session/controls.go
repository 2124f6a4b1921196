package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/jcs"
	"github.com/redis/go-redis/v9"
)

func init() {
	warden.Register(warden.ModuleInfo{ID: "guardrail.tool_call.call_budget", New: func() any { return new(CallBudget) },
		Summary: "bounds the tool calls of a run (or of a principal per window); the call past the budget ends the run"})
	warden.Register(warden.ModuleInfo{ID: "guardrail.tool_call.loop_breaker", New: func() any { return new(LoopBreaker) },
		Summary: "stops the same call (tool and arguments) made again and again in a row: the runaway loop"})
	warden.Register(warden.ModuleInfo{ID: "guardrail.input.rate_limit", New: func() any { return new(RateLimit) },
		Summary: "bounds the requests of a principal (or a run): a request past the rate is refused, 429 with Retry-After at the gateway"})
}

// Reason codes.
const (
	CodeCallBudget  = "warden.call_budget"
	CodeLoop        = "warden.loop_detected"
	CodeRateLimited = "warden.rate_limited"
)

// RedisServer says how to reach the redis store.
type RedisServer struct {
	// Addr is host:port. Default 127.0.0.1:6379.
	Addr string `yaml:"addr" json:"addr"`
	// Username and Password authenticate; write ${REDIS_PASSWORD}.
	Username string `yaml:"username" json:"username"`
	Password string `yaml:"password" json:"password"`
	// DB selects the database. Default 0.
	DB int `yaml:"db" json:"db"`
	// Prefix starts every key. Default "warden:session:".
	Prefix string `yaml:"prefix" json:"prefix"`
}

// backing is where a control counts: the store it opened and the keys' prefix.
type backing struct {
	store  Store
	prefix string
	client *redis.Client
}

func open(store string, r *RedisServer) (backing, error) {
	switch store {
	case "", "memory":
		return backing{store: Shared(), prefix: "warden:session:"}, nil
	case "redis":
		var rs RedisServer
		if r != nil {
			rs = *r
		}
		if rs.Addr == "" {
			rs.Addr = "127.0.0.1:6379"
		}
		if rs.Prefix == "" {
			rs.Prefix = "warden:session:"
		}
		c := redis.NewClient(&redis.Options{Addr: rs.Addr, Username: rs.Username, Password: rs.Password, DB: rs.DB})
		s, err := NewRedis(c)
		if err != nil {
			c.Close()
			return backing{}, err
		}
		return backing{store: s, prefix: rs.Prefix, client: c}, nil
	}
	return backing{}, fmt.Errorf("store: %q is not memory or redis", store)
}

func (b *backing) close() error {
	if b.client != nil {
		return b.client.Close()
	}
	return nil
}

// key is the store key of a counter for whom a run counts as (see whom): the backing's prefix, the
// counter's name, and a digest of who.
func (b backing) key(run warden.RunInfo, per, counter string) (string, error) {
	who, err := whom(run, per)
	if err != nil {
		return "", err
	}
	return b.prefix + counter + ":" + digest(who), nil
}

// whom is the id a control counts by: the run's (per run) or the principal's (per principal).
func whom(run warden.RunInfo, per string) (string, error) {
	if per == "principal" {
		if p := run.Principal(); p != "" {
			return "p:" + p, nil
		}
		return "", warden.NotApplicable("the run names no principal (end user, credential or agent)")
	}
	if run.RunID != "" {
		return "r:" + run.RunID, nil
	}
	return "", warden.NotApplicable("the run has no run id")
}

func checkPer(per string, def string) (string, error) {
	switch per {
	case "":
		return def, nil
	case "run", "principal":
		return per, nil
	}
	return "", fmt.Errorf("per: %q is not run or principal", per)
}

func actionOf(name string, def warden.Action) (warden.Action, error) {
	switch name {
	case "":
		return def, nil
	case "reject":
		return warden.ActionReject, nil
	case "halt":
		return warden.ActionHalt, nil
	}
	return 0, fmt.Errorf("action: %q is not reject or halt", name)
}

// CallBudget bounds the tool calls of a run, or of a principal per window. Every call checked counts,
// whatever the other guardrails decide of it.
type CallBudget struct {
	// MaxCalls is the budget. Required, at least 1.
	MaxCalls int `yaml:"max_calls" json:"max_calls"`
	// Per is run (default: the calls of one run) or principal (of one end user, key or agent, per window).
	Per string `yaml:"per" json:"per"`
	// Window is what a principal's budget is per, and how long a run's count is kept. Default 24h.
	Window warden.Duration `yaml:"window" json:"window"`
	// Action is halt (default: the run ends) or reject (the model is told and may finish without tools).
	Action string `yaml:"action" json:"action"`
	// Code is the reason code. Default warden.call_budget.
	Code string `yaml:"code" json:"code"`
	// Counter names the count; two budgets with one counter share it. Default call_budget.
	Counter string `yaml:"counter" json:"counter"`
	// Store is memory (default) or redis (shared by replicas).
	Store string       `yaml:"store" json:"store"`
	Redis *RedisServer `yaml:"redis" json:"redis"`

	b      backing
	action warden.Action
}

var (
	_ warden.ToolCallGuardrail = (*CallBudget)(nil)
	_ warden.Provisioner       = (*CallBudget)(nil)
	_ warden.Closer            = (*CallBudget)(nil)
)

// Provision applies the defaults and opens the store.
func (g *CallBudget) Provision(context.Context) error {
	var errs []error
	if g.MaxCalls < 1 {
		errs = append(errs, errors.New("max_calls: required, at least 1"))
	}
	var err error
	if g.Per, err = checkPer(g.Per, "run"); err != nil {
		errs = append(errs, err)
	}
	if g.action, err = actionOf(g.Action, warden.ActionHalt); err != nil {
		errs = append(errs, err)
	}
	if g.Window < 0 {
		errs = append(errs, errors.New("window: must be positive"))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	or(&g.Window, warden.Duration(24*time.Hour))
	or(&g.Code, CodeCallBudget)
	or(&g.Counter, "call_budget")
	g.b, err = open(g.Store, g.Redis)
	return err
}

// Close closes the redis client, if any.
func (g *CallBudget) Close() error { return g.b.close() }

// CheckToolCall counts the call and decides once the count passes the budget.
func (g *CallBudget) CheckToolCall(ctx context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	key, err := g.b.key(c.Run, g.Per, g.Counter)
	if err != nil {
		return warden.Decision{}, err
	}
	n, err := g.b.store.Add(ctx, key, 1, g.Window.Std(), c.Time)
	if err != nil {
		return warden.Decision{}, err
	}
	if n <= int64(g.MaxCalls) {
		return warden.Allow(), nil
	}
	what := "this run"
	if g.Per == "principal" {
		what = "this principal within " + g.Window.Std().String()
	}
	return warden.Decision{Action: g.action, Reasons: []warden.Reason{{Code: g.Code,
		Message: fmt.Sprintf("the budget of %d tool calls for %s is spent", g.MaxCalls, what)}}}, nil
}

// LoopBreaker stops the same call made again and again: the same tool with the same arguments (in
// canonical form, so reordered members are the same call), more than MaxRepeats times in a row.
type LoopBreaker struct {
	// MaxRepeats is the most times one call may be made in a row. Default 3: the fourth is stopped.
	MaxRepeats int `yaml:"max_repeats" json:"max_repeats"`
	// Per is run (default) or principal.
	Per string `yaml:"per" json:"per"`
	// Window: a streak that sees no call for this long starts over. Default 10m.
	Window warden.Duration `yaml:"window" json:"window"`
	// Action is reject (default: the model reads that it is looping) or halt.
	Action string `yaml:"action" json:"action"`
	// Code is the reason code. Default warden.loop_detected.
	Code string `yaml:"code" json:"code"`
	// Counter names the streak; two breakers with one counter share it. Default loop_breaker.
	Counter string       `yaml:"counter" json:"counter"`
	Store   string       `yaml:"store" json:"store"`
	Redis   *RedisServer `yaml:"redis" json:"redis"`

	b      backing
	action warden.Action
}

var (
	_ warden.ToolCallGuardrail = (*LoopBreaker)(nil)
	_ warden.Provisioner       = (*LoopBreaker)(nil)
	_ warden.Closer            = (*LoopBreaker)(nil)
)

// Provision applies the defaults and opens the store.
func (g *LoopBreaker) Provision(context.Context) error {
	var errs []error
	if g.MaxRepeats < 0 {
		errs = append(errs, errors.New("max_repeats: at least 1"))
	}
	var err error
	if g.Per, err = checkPer(g.Per, "run"); err != nil {
		errs = append(errs, err)
	}
	if g.action, err = actionOf(g.Action, warden.ActionReject); err != nil {
		errs = append(errs, err)
	}
	if g.Window < 0 {
		errs = append(errs, errors.New("window: must be positive"))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	or(&g.MaxRepeats, 3)
	or(&g.Window, warden.Duration(10*time.Minute))
	or(&g.Code, CodeLoop)
	or(&g.Counter, "loop_breaker")
	g.b, err = open(g.Store, g.Redis)
	return err
}

// Close closes the redis client, if any.
func (g *LoopBreaker) Close() error { return g.b.close() }

// CheckToolCall extends or restarts the streak and stops the call that makes it too long.
func (g *LoopBreaker) CheckToolCall(ctx context.Context, c warden.ToolCallCheck) (warden.Decision, error) {
	key, err := g.b.key(c.Run, g.Per, g.Counter)
	if err != nil {
		return warden.Decision{}, err
	}
	args := c.Call.Arguments
	if canon, err := jcs.Canonical(args); err == nil {
		args = canon
	}
	n, err := g.b.store.Streak(ctx, key, digest(c.Call.Name+"\x00"+string(args)), g.Window.Std())
	if err != nil {
		return warden.Decision{}, err
	}
	if n <= int64(g.MaxRepeats) {
		return warden.Allow(), nil
	}
	return warden.Decision{Action: g.action, Reasons: []warden.Reason{{Code: g.Code,
		Message: fmt.Sprintf("the same call of tool '%s' with the same arguments was made %d times in a row; it will not give a different result: change the approach", c.Call.Name, n)}}}, nil
}

// RateLimit bounds the requests of a principal (or a run): Requests every Every, with Burst at once.
type RateLimit struct {
	// Requests is how many requests are allowed every Every. Required, at least 1.
	Requests int `yaml:"requests" json:"requests"`
	// Every is the period of Requests. Default 1m.
	Every warden.Duration `yaml:"every" json:"every"`
	// Burst is how many may come at once. Default Requests.
	Burst int `yaml:"burst" json:"burst"`
	// Per is principal (default) or run.
	Per string `yaml:"per" json:"per"`
	// Code is the reason code. Default warden.rate_limited.
	Code string `yaml:"code" json:"code"`
	// Counter names the allowance; two limits with one counter share it. Default rate_limit.
	Counter string       `yaml:"counter" json:"counter"`
	Store   string       `yaml:"store" json:"store"`
	Redis   *RedisServer `yaml:"redis" json:"redis"`

	b        backing
	interval time.Duration
}

var (
	_ warden.InputGuardrail = (*RateLimit)(nil)
	_ warden.Provisioner    = (*RateLimit)(nil)
	_ warden.Closer         = (*RateLimit)(nil)
)

// MetaRetryAfter is the Decision.Metadata key of how long a refused request should wait, as a Go duration:
// the gateway answers such a halt with 429 and Retry-After.
const MetaRetryAfter = "retry_after"

// Provision applies the defaults and opens the store.
func (g *RateLimit) Provision(context.Context) error {
	var errs []error
	if g.Requests < 1 {
		errs = append(errs, errors.New("requests: required, at least 1"))
	}
	if g.Every < 0 {
		errs = append(errs, errors.New("every: must be positive"))
	}
	if g.Burst < 0 {
		errs = append(errs, errors.New("burst: at least 1"))
	}
	var err error
	if g.Per, err = checkPer(g.Per, "principal"); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	or(&g.Every, warden.Duration(time.Minute))
	or(&g.Burst, g.Requests)
	g.interval = g.Every.Std() / time.Duration(g.Requests)
	if g.interval < time.Millisecond {
		return fmt.Errorf("requests: %d every %s is more than one a millisecond", g.Requests, g.Every.Std())
	}
	or(&g.Code, CodeRateLimited)
	or(&g.Counter, "rate_limit")
	g.b, err = open(g.Store, g.Redis)
	return err
}

// Close closes the redis client, if any.
func (g *RateLimit) Close() error { return g.b.close() }

// CheckInput takes one request from the allowance, and halts the request when there is none.
func (g *RateLimit) CheckInput(ctx context.Context, c warden.InputCheck) (warden.Decision, error) {
	key, err := g.b.key(c.Run, g.Per, g.Counter)
	if err != nil {
		return warden.Decision{}, err
	}
	ok, wait, err := g.b.store.Take(ctx, key, g.interval, int64(g.Burst), time.Now())
	if err != nil {
		return warden.Decision{}, err
	}
	if ok {
		return warden.Allow(), nil
	}
	d := warden.Halt(g.Code, fmt.Sprintf("more than %d requests every %s; try again in %s", g.Requests, g.Every.Std(), wait.Round(time.Millisecond)))
	d.Metadata = map[string]string{MetaRetryAfter: strconv.FormatInt(wait.Milliseconds(), 10) + "ms"}
	return d, nil
}

// or sets *v to def when it is the zero value: a default.
func or[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}
