package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/agentwarden/warden"
)

func init() {
	warden.Register(warden.ModuleInfo{ID: "guardrail.input.token_budget", New: func() any { return new(TokenBudget) },
		Summary: "bounds the tokens a principal spends per day, read from the providers' usage fields; a request past the budget is refused until the next window"})
}

// CodeTokenBudget is the reason code of a request refused for a spent token budget.
const CodeTokenBudget = "warden.token_budget"

// TokenBudget bounds the tokens a principal (or a run) spends per window, as the providers report them in
// their answers' usage fields (warden.UsageObserver): once the count reaches the budget, each request is
// refused at the input stage, before it costs anything, until the next window. The answer that crosses the
// budget is not cut short: its cost is known only when it ends.
type TokenBudget struct {
	// MaxTokens is the budget. Required, at least 1.
	MaxTokens int64 `yaml:"max_tokens" json:"max_tokens"`
	// Count is total (default), input or output: which tokens the budget counts.
	Count string `yaml:"count" json:"count"`
	// Per is principal (default) or run.
	Per string `yaml:"per" json:"per"`
	// Window is what the budget is per, aligned to UTC (24h: a calendar day). Default 24h.
	Window warden.Duration `yaml:"window" json:"window"`
	// Code is the reason code. Default warden.token_budget.
	Code string `yaml:"code" json:"code"`
	// Counter names the count; budgets with one counter share it. Default token_budget.
	Counter string       `yaml:"counter" json:"counter"`
	Store   string       `yaml:"store" json:"store"`
	Redis   *RedisServer `yaml:"redis" json:"redis"`

	b   backing
	now func() time.Time
}

var (
	_ warden.InputGuardrail = (*TokenBudget)(nil)
	_ warden.UsageObserver  = (*TokenBudget)(nil)
	_ warden.Provisioner    = (*TokenBudget)(nil)
	_ warden.Closer         = (*TokenBudget)(nil)
)

// Provision applies the defaults and opens the store.
func (g *TokenBudget) Provision(context.Context) error {
	var errs []error
	if g.MaxTokens < 1 {
		errs = append(errs, errors.New("max_tokens: required, at least 1"))
	}
	switch g.Count {
	case "", "total", "input", "output":
	default:
		errs = append(errs, fmt.Errorf("count: %q is not total, input or output", g.Count))
	}
	var err error
	if g.Per, err = checkPer(g.Per, "principal"); err != nil {
		errs = append(errs, err)
	}
	if g.Window < 0 {
		errs = append(errs, errors.New("window: must be positive"))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	or(&g.Window, warden.Duration(24*time.Hour))
	or(&g.Code, CodeTokenBudget)
	or(&g.Counter, "token_budget")
	if g.now == nil {
		g.now = time.Now
	}
	g.b, err = open(g.Store, g.Redis)
	return err
}

// Close closes the redis client, if any.
func (g *TokenBudget) Close() error { return g.b.close() }

// CheckInput refuses a request once the window's count has reached the budget.
func (g *TokenBudget) CheckInput(ctx context.Context, c warden.InputCheck) (warden.Decision, error) {
	key, err := g.b.key(c.Run, g.Per, g.Counter)
	if err != nil {
		return warden.Decision{}, err
	}
	now := g.now().UTC()
	spent, err := g.b.store.Add(ctx, key, 0, g.Window.Std(), now)
	if err != nil {
		return warden.Decision{}, err
	}
	if spent < g.MaxTokens {
		return warden.Allow(), nil
	}
	wait := now.Truncate(g.Window.Std()).Add(g.Window.Std()).Sub(now)
	d := warden.Halt(g.Code, fmt.Sprintf("the budget of %d tokens per %s is spent (%d); it renews in %s", g.MaxTokens, g.Window.Std(), spent, wait.Round(time.Second)))
	d.Metadata = map[string]string{MetaRetryAfter: strconv.FormatInt(wait.Milliseconds(), 10) + "ms"}
	return d, nil
}

// ObserveUsage counts what a model call cost. A run that names no one is not counted.
func (g *TokenBudget) ObserveUsage(ctx context.Context, run warden.RunInfo, u warden.Usage) {
	key, err := g.b.key(run, g.Per, g.Counter)
	if err != nil {
		return
	}
	n := u.Total()
	switch g.Count {
	case "input":
		n = u.InputTokens
	case "output":
		n = u.OutputTokens
	}
	if n > 0 {
		_, _ = g.b.store.Add(ctx, key, n, g.Window.Std(), g.now().UTC())
	}
}
