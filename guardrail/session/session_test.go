package session_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/guardrail/session"
	"github.com/agentwarden/warden/internal/configtest"
	"github.com/agentwarden/warden/internal/redistest"
)

var t0 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

func stores(t *testing.T) map[string]session.Store {
	_, c := redistest.Start(t)
	r, err := session.NewRedis(c)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]session.Store{"memory": session.NewMemory(), "redis": r}
}

func TestStores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for kind, s := range stores(t) {
		t.Run(kind, func(t *testing.T) {
			t.Run("counts add up within a window and start over in the next", func(t *testing.T) {
				for i, want := range []int64{1, 3, 6} {
					if n, err := s.Add(ctx, "add", int64(i+1), time.Hour, t0.Add(time.Duration(i)*time.Minute)); err != nil || n != want {
						t.Fatalf("add %d: %d (%v), want %d", i+1, n, err, want)
					}
				}
				if n, _ := s.Add(ctx, "add", 1, time.Hour, t0.Add(time.Hour)); n != 1 {
					t.Errorf("in the next window: %d, want 1", n)
				}
				if n, _ := s.Add(ctx, "other", 1, time.Hour, t0); n != 1 {
					t.Errorf("another key: %d, want 1", n)
				}
			})
			t.Run("a streak grows with the same value and restarts with another", func(t *testing.T) {
				var got []int64
				for _, v := range []string{"a", "a", "a", "b", "a", "a"} {
					n, err := s.Streak(ctx, "streak", v, time.Minute)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, n)
				}
				if fmt.Sprint(got) != "[1 2 3 1 1 2]" {
					t.Errorf("streaks %v", got)
				}
			})
			t.Run("a streak left alone past its ttl starts over", func(t *testing.T) {
				s.Streak(ctx, "lapse", "a", 50*time.Millisecond)
				time.Sleep(120 * time.Millisecond)
				if n, _ := s.Streak(ctx, "lapse", "a", 50*time.Millisecond); n != 1 {
					t.Errorf("after the ttl: %d, want 1", n)
				}
			})
			t.Run("the allowance takes a burst, then one per interval", func(t *testing.T) {
				var got []string
				steps := []time.Duration{0, 0, 0, 0, 500 * time.Millisecond, time.Second, time.Second}
				for _, at := range steps {
					ok, wait, err := s.Take(ctx, "rate", time.Second, 3, t0.Add(at))
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, strconv.FormatBool(ok)+"/"+wait.String())
				}
				want := "true/0s true/0s true/0s false/1s false/500ms true/0s false/1s"
				if strings.Join(got, " ") != want {
					t.Errorf("takes %v\nwant %s", got, want)
				}
			})
		})
	}
}

func engine(t *testing.T, stage warden.Stage, g any) *warden.Engine {
	t.Helper()
	if p, ok := g.(warden.Provisioner); ok {
		if err := p.Provision(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	spec := warden.Spec{}
	e := warden.Entry{Name: "control", Guardrail: g}
	if stage == warden.StageInput {
		spec.Input = []warden.Entry{e}
	} else {
		spec.ToolCall = []warden.Entry{e}
	}
	eng, err := warden.NewEngine(spec)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func call(t *testing.T, e *warden.Engine, run warden.RunInfo, tool, args string) warden.Outcome[warden.ToolCall] {
	t.Helper()
	out, _ := e.CheckToolCall(context.Background(), warden.ToolCallCheck{Run: run, Call: warden.NewToolCall("c", tool, []byte(args))})
	return out
}

// unique keeps tests that share the process's memory store apart.
func unique(t *testing.T) string { return t.Name() + strconv.FormatInt(time.Now().UnixNano(), 36) }

func TestCallBudget(t *testing.T) {
	t.Parallel()
	t.Run("the call past the budget ends the run", func(t *testing.T) {
		t.Parallel()
		e := engine(t, warden.StageToolCall, &session.CallBudget{MaxCalls: 3})
		run := warden.RunInfo{RunID: unique(t)}
		var got []string
		for i := range 4 {
			out := call(t, e, run, "bash", fmt.Sprintf(`{"command":"ls %d"}`, i))
			got = append(got, out.Decision.Action.String())
		}
		if strings.Join(got, " ") != "allow allow allow halt" {
			t.Errorf("decisions %v", got)
		}
	})
	t.Run("another run has a budget of its own", func(t *testing.T) {
		t.Parallel()
		e := engine(t, warden.StageToolCall, &session.CallBudget{MaxCalls: 1})
		a, b := warden.RunInfo{RunID: unique(t) + "a"}, warden.RunInfo{RunID: unique(t) + "b"}
		call(t, e, a, "bash", `{}`)
		if out := call(t, e, b, "bash", `{}`); !out.Allowed() {
			t.Errorf("the other run's first call: %s", out.Decision.Action)
		}
	})
	t.Run("per principal, the runs of one user share the budget", func(t *testing.T) {
		t.Parallel()
		e := engine(t, warden.StageToolCall, &session.CallBudget{MaxCalls: 2, Per: "principal", Action: "reject"})
		user := unique(t)
		call(t, e, warden.RunInfo{UserID: user, RunID: "1"}, "bash", `{}`)
		call(t, e, warden.RunInfo{UserID: user, RunID: "2"}, "bash", `{}`)
		out := call(t, e, warden.RunInfo{UserID: user, RunID: "3"}, "bash", `{}`)
		if out.Decision.Action != warden.ActionReject || out.Decision.FirstReason().Code != session.CodeCallBudget {
			t.Errorf("third call of the user: %s %s", out.Decision.Action, out.Decision.FirstReason().Code)
		}
	})
	t.Run("a run without an id is not counted, and says why", func(t *testing.T) {
		t.Parallel()
		e := engine(t, warden.StageToolCall, &session.CallBudget{MaxCalls: 1})
		out := call(t, e, warden.RunInfo{}, "bash", `{}`)
		if !out.Allowed() || out.Evaluations[0].Status != warden.StatusSkipped || !strings.Contains(out.Evaluations[0].Skip, "run id") {
			t.Errorf("no run id: %s, evaluation %+v", out.Decision.Action, out.Evaluations[0])
		}
	})
}

func TestLoopBreaker(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc  string
		calls []string // tool|args
		want  string
	}{
		{"the fourth identical call in a row is stopped", []string{`bash|{"command":"make"}`, `bash|{"command":"make"}`, `bash|{"command":"make"}`, `bash|{"command":"make"}`},
			"allow allow allow reject"},
		{"reordered members and spacing are the same call", []string{`edit|{"a":1,"b":2}`, `edit|{"b":2, "a":1}`, `edit|{ "a" : 1 , "b" : 2 }`, `edit|{"b":2,"a":1}`},
			"allow allow allow reject"},
		{"a different call in between starts the streak over", []string{`bash|{"command":"make"}`, `bash|{"command":"make"}`, `bash|{"command":"make"}`, `bash|{"command":"ls"}`, `bash|{"command":"make"}`},
			"allow allow allow allow allow"},
		{"the same arguments to another tool are another call", []string{`read|{"path":"a"}`, `read|{"path":"a"}`, `read|{"path":"a"}`, `cat|{"path":"a"}`},
			"allow allow allow allow"},
		{"once stopped, the call stays stopped while it repeats", []string{`bash|{}`, `bash|{}`, `bash|{}`, `bash|{}`, `bash|{}`},
			"allow allow allow reject reject"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			e := engine(t, warden.StageToolCall, &session.LoopBreaker{})
			run := warden.RunInfo{RunID: unique(t)}
			var got []string
			for _, c := range tt.calls {
				tool, args, _ := strings.Cut(c, "|")
				out := call(t, e, run, tool, args)
				got = append(got, out.Decision.Action.String())
				if out.Decision.Action == warden.ActionReject && !strings.Contains(out.Message, "times in a row") {
					t.Errorf("message %q does not say the call repeats", out.Message)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("decisions %v, want %s", got, tt.want)
			}
		})
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := engine(t, warden.StageInput, &session.RateLimit{Requests: 2, Every: warden.Duration(time.Hour)})
	user := warden.RunInfo{UserID: unique(t)}
	input := func(run warden.RunInfo) (warden.Outcome[[]warden.Message], error) {
		return e.CheckInput(context.Background(), warden.InputCheck{Run: run, Messages: []warden.Message{warden.TextMessage(warden.RoleUser, "hi")}})
	}
	for i := range 2 {
		if _, err := input(user); err != nil {
			t.Fatalf("request %d within the rate: %v", i+1, err)
		}
	}
	out, err := input(user)
	var tw *warden.TripwireError
	if !errors.As(err, &tw) || tw.Decision.FirstReason().Code != session.CodeRateLimited {
		t.Fatalf("the third request: %v, want a rate-limit halt", err)
	}
	wait, perr := time.ParseDuration(out.Decision.Metadata[session.MetaRetryAfter])
	if perr != nil || wait <= 0 || wait > 30*time.Minute {
		t.Errorf("retry after %q: want the wait until the next request, about 30m", out.Decision.Metadata[session.MetaRetryAfter])
	}
	if _, err := input(warden.RunInfo{UserID: unique(t) + "other"}); err != nil {
		t.Errorf("another user: %v", err)
	}
}

// TestReplicasShareTheCounts: two gateway replicas' guardrails on one Redis count as one.
func TestReplicasShareTheCounts(t *testing.T) {
	t.Parallel()
	addr, _ := redistest.Start(t)
	host, port, _ := net.SplitHostPort(addr)
	redis := &session.RedisServer{Addr: net.JoinHostPort(host, port), Prefix: "test:"}
	a := engine(t, warden.StageToolCall, &session.LoopBreaker{MaxRepeats: 2, Store: "redis", Redis: redis})
	b := engine(t, warden.StageToolCall, &session.LoopBreaker{MaxRepeats: 2, Store: "redis", Redis: redis})
	run := warden.RunInfo{RunID: unique(t)}
	var got []string
	for _, e := range []*warden.Engine{a, b, a} {
		got = append(got, call(t, e, run, "bash", `{"command":"make"}`).Decision.Action.String())
	}
	if strings.Join(got, " ") != "allow allow reject" {
		t.Errorf("decisions across replicas %v, want the third identical call stopped", got)
	}
}

func TestConfig(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, stage, use, config, want string }{
		{"a budget needs max_calls", "tool_call", "call_budget", "{}", "max_calls: required"},
		{"a budget's per is run or principal", "tool_call", "call_budget", "{max_calls: 3, per: tenant}", `per: "tenant" is not run or principal`},
		{"a breaker's action is reject or halt", "tool_call", "loop_breaker", "{action: ask}", `action: "ask" is not reject or halt`},
		{"a rate needs requests", "input", "rate_limit", "{every: 1m}", "requests: required"},
		{"a rate above one a millisecond is refused", "input", "rate_limit", "{requests: 5000, every: 1s}", "more than one a millisecond"},
		{"a store is memory or redis", "tool_call", "loop_breaker", "{store: disk}", `store: "disk" is not memory or redis`},
		{"an unknown key fails", "tool_call", "call_budget", "{max_calls: 3, max_call: 4}", `unknown key "max_call"`},
		{"a budget that parses loads", "tool_call", "call_budget", "{max_calls: 3, per: principal, window: 1h, action: reject}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			l, err := configtest.Load(tt.stage, tt.use, tt.config)
			if err == nil {
				l.Close()
			}
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTokenBudget(t *testing.T) {
	t.Parallel()
	input := func(e *warden.Engine, run warden.RunInfo) (warden.Outcome[[]warden.Message], error) {
		return e.CheckInput(context.Background(), warden.InputCheck{Run: run, Messages: []warden.Message{warden.TextMessage(warden.RoleUser, "hi")}})
	}
	tests := []struct {
		desc   string
		budget session.TokenBudget
		spent  []warden.Usage
		want   bool // the next request passes
	}{
		{"under the budget, requests pass", session.TokenBudget{MaxTokens: 100}, []warden.Usage{{InputTokens: 40, OutputTokens: 20}}, true},
		{"once the budget is reached, a request is refused", session.TokenBudget{MaxTokens: 100}, []warden.Usage{{InputTokens: 40, OutputTokens: 20}, {InputTokens: 30, OutputTokens: 10}}, false},
		{"counting input only", session.TokenBudget{MaxTokens: 100, Count: "input"}, []warden.Usage{{InputTokens: 60, OutputTokens: 500}}, true},
		{"counting output only", session.TokenBudget{MaxTokens: 100, Count: "output"}, []warden.Usage{{InputTokens: 5, OutputTokens: 100}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			b := tt.budget
			b.Counter = unique(t)
			e := engine(t, warden.StageInput, &b)
			run := warden.RunInfo{UserID: "u1"}
			for _, u := range tt.spent {
				if _, err := input(e, run); err != nil {
					t.Fatalf("a request before the budget was spent: %v", err)
				}
				e.ObserveUsage(context.Background(), run, u)
			}
			out, err := input(e, run)
			if (err == nil) != tt.want {
				t.Fatalf("the next request: %v, want passing = %v", err, tt.want)
			}
			if !tt.want {
				wait, perr := time.ParseDuration(out.Decision.Metadata[session.MetaRetryAfter])
				if perr != nil || wait <= 0 || wait > 24*time.Hour || out.Decision.FirstReason().Code != session.CodeTokenBudget {
					t.Errorf("refusal %+v: want %s and the wait until the next day", out.Decision, session.CodeTokenBudget)
				}
				if _, err := input(e, warden.RunInfo{UserID: "u2"}); err != nil {
					t.Errorf("another user: %v", err)
				}
			}
		})
	}
}
