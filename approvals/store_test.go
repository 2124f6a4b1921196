package approvals_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/internal/redistest"
)

// stores returns one fresh store of each kind; each test gets its own.
func stores() map[string]func(t testing.TB) approvals.Store {
	return map[string]func(t testing.TB) approvals.Store{
		"memory": func(testing.TB) approvals.Store { return approvals.NewMemory() },
		"sqlite": func(t testing.TB) approvals.Store {
			s, err := approvals.OpenSQLite(filepath.Join(t.TempDir(), "data", "approvals.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
		"redis": func(t testing.TB) approvals.Store {
			_, c := redistest.Start(t)
			s, err := approvals.NewRedis(c, "test:approvals:")
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
}

var t0 = time.UnixMilli(1_800_000_000_000).UTC()

func request(id, digest string, at time.Time) approvals.Record {
	return approvals.Record{ID: id, Digest: digest, Principal: "user:u1", Tool: "git_push", Arguments: []byte(`{"branch": "main", "note":"ünï"}`),
		Guardrail: "ask-push", Code: "commands.ask", Reason: "pushes to main", Status: approvals.StatusPending, Created: at, Expires: at.Add(time.Hour)}
}

func approve(who string) approvals.Verdict { return approvals.Verdict{Approve: true, Approver: who} }

func TestStores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type step struct {
		resolve  string // digest to resolve with a fresh id, or ""
		decide   string // id ("$1" = the id of the first filed request, "$last" the last filed)
		verdict  approvals.Verdict
		at       time.Duration // after t0
		want     approvals.Resolution
		wantErr  error
		sameAs   string // the resolved record's id must be this one ("$1", "$last")
		newID    bool   // a new request must be filed
		wantStat approvals.Status
	}
	tests := []struct {
		desc  string
		steps []step
	}{
		{"a first ask is filed as pending", []step{
			{resolve: "d1", want: approvals.Filed, newID: true, wantStat: approvals.StatusPending}}},
		{"the same ask while pending waits on the same request", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{resolve: "d1", at: time.Minute, want: approvals.Waiting, sameAs: "$1"}}},
		{"an approval is consumed by the next identical ask", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approve("alice"), at: time.Minute, wantStat: approvals.StatusApproved},
			{resolve: "d1", at: 2 * time.Minute, want: approvals.Granted, sameAs: "$1", wantStat: approvals.StatusUsed}}},
		{"an approval passes once: the ask after it files a new request", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approve("alice"), at: time.Minute},
			{resolve: "d1", at: 2 * time.Minute, want: approvals.Granted},
			{resolve: "d1", at: 3 * time.Minute, want: approvals.Filed, newID: true, wantStat: approvals.StatusPending}}},
		{"a denial refuses the identical ask, again and again", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approvals.Verdict{Approver: "bob", Note: "no"}, at: time.Minute, wantStat: approvals.StatusDenied},
			{resolve: "d1", at: 2 * time.Minute, want: approvals.Refused, sameAs: "$1"},
			{resolve: "d1", at: 3 * time.Minute, want: approvals.Refused, sameAs: "$1"}}},
		{"an approval does not pass another binding", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approve("alice"), at: time.Minute},
			{resolve: "d2", at: 2 * time.Minute, want: approvals.Filed, newID: true}}},
		{"a pending request past its expiry is replaced", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{resolve: "d1", at: time.Hour, want: approvals.Filed, newID: true}}},
		{"an approval unused past its expiry passes nothing", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approve("alice"), at: time.Minute},
			{resolve: "d1", at: time.Minute + time.Hour, want: approvals.Filed, newID: true}}},
		{"a denial lapses at its expiry", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approvals.Verdict{Approver: "bob"}, at: time.Minute},
			{resolve: "d1", at: time.Minute + time.Hour, want: approvals.Filed, newID: true}}},
		{"an expired request cannot be decided", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approve("alice"), at: time.Hour, wantErr: approvals.ErrExpired}}},
		{"a decided request cannot be decided again", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approvals.Verdict{Approver: "bob"}, at: time.Minute},
			{decide: "$1", verdict: approve("alice"), at: 2 * time.Minute, wantErr: approvals.ErrDecided}}},
		{"a used approval cannot be decided again", []step{
			{resolve: "d1", want: approvals.Filed, newID: true},
			{decide: "$1", verdict: approve("alice"), at: time.Minute},
			{resolve: "d1", at: 2 * time.Minute, want: approvals.Granted},
			{decide: "$1", verdict: approve("alice"), at: 3 * time.Minute, wantErr: approvals.ErrDecided}}},
		{"an unknown request cannot be decided", []step{
			{decide: "apr_nope", verdict: approve("alice"), wantErr: approvals.ErrNotFound}}},
	}
	for kind, open := range stores() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			for _, tt := range tests {
				t.Run(tt.desc, func(t *testing.T) {
					s := open(t)
					var ids []string
					resolveID := func(ref string) string {
						switch {
						case ref == "$1" && len(ids) > 0:
							return ids[0]
						case ref == "$last" && len(ids) > 0:
							return ids[len(ids)-1]
						}
						return ref
					}
					for i, st := range tt.steps {
						now := t0.Add(st.at)
						var rec approvals.Record
						var err error
						if st.resolve != "" {
							id := "apr_" + st.resolve + "_" + string(rune('a'+i))
							var res approvals.Resolution
							rec, res, err = s.Resolve(ctx, request(id, st.resolve, now), now)
							if err != nil {
								t.Fatalf("step %d: resolve: %v", i, err)
							}
							if res != st.want {
								t.Fatalf("step %d: resolution %d, want %d", i, res, st.want)
							}
							if st.newID {
								if rec.ID != id {
									t.Fatalf("step %d: record %s, want the new request %s", i, rec.ID, id)
								}
								ids = append(ids, id)
							}
						} else {
							rec, err = s.Decide(ctx, resolveID(st.decide), st.verdict, now, now.Add(time.Hour))
							if !errors.Is(err, st.wantErr) {
								t.Fatalf("step %d: decide: error %v, want %v", i, err, st.wantErr)
							}
							if err == nil && (rec.Approver != st.verdict.Approver || !rec.Decided.Equal(now)) {
								t.Errorf("step %d: decided record names %q at %v", i, rec.Approver, rec.Decided)
							}
						}
						if st.sameAs != "" && rec.ID != resolveID(st.sameAs) {
							t.Errorf("step %d: record %s, want %s", i, rec.ID, resolveID(st.sameAs))
						}
						if st.wantStat != "" && rec.Status != st.wantStat {
							t.Errorf("step %d: status %s, want %s", i, rec.Status, st.wantStat)
						}
					}
				})
			}
		})
	}
}

func TestStoresKeepRecordsExactly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for kind, open := range stores() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			req := request("apr_1", "d1", t0)
			if _, _, err := s.Resolve(ctx, req, t0); err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, "apr_1")
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Arguments) != string(req.Arguments) {
				t.Errorf("arguments read back as %s, want %s byte for byte", got.Arguments, req.Arguments)
			}
			got.Arguments, req.Arguments = nil, nil
			if got.ID != req.ID || got.Digest != req.Digest || got.Principal != req.Principal || got.Tool != req.Tool || got.Guardrail != req.Guardrail ||
				got.Code != req.Code || got.Reason != req.Reason || got.Status != req.Status || !got.Created.Equal(req.Created) || !got.Expires.Equal(req.Expires) {
				t.Errorf("record read back as %+v, want %+v", got, req)
			}
			if _, err := s.Get(ctx, "apr_missing"); !errors.Is(err, approvals.ErrNotFound) {
				t.Errorf("missing record: %v, want ErrNotFound", err)
			}
		})
	}
}

func TestStoresListNewestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for kind, open := range stores() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			for i, d := range []string{"a", "b", "c", "d"} {
				at := t0.Add(time.Duration(i) * time.Second)
				if _, _, err := s.Resolve(ctx, request("apr_"+d, d, at), at); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Decide(ctx, "apr_b", approve("alice"), t0.Add(10*time.Second), t0.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			now := t0.Add(20 * time.Second)
			all, err := s.List(ctx, approvals.Query{Now: now})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(all); got != "apr_d apr_c apr_b apr_a" {
				t.Errorf("all: %s", got)
			}
			pending, err := s.List(ctx, approvals.Query{Now: now, Pending: true, Limit: 2})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(pending); got != "apr_d apr_c" {
				t.Errorf("pending, limit 2: %s", got)
			}
			late, err := s.List(ctx, approvals.Query{Now: t0.Add(2 * time.Hour), Pending: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(late) != 0 {
				t.Errorf("pending after every expiry: %s", ids(late))
			}
		})
	}
}

func ids(rs []approvals.Record) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += " "
		}
		out += r.ID
	}
	return out
}

// TestStoresGrantAnApprovalOnce races many identical asks against one approval: exactly one passes.
func TestStoresGrantAnApprovalOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for kind, open := range stores() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			if _, _, err := s.Resolve(ctx, request("apr_1", "d1", t0), t0); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Decide(ctx, "apr_1", approve("alice"), t0, t0.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			const n = 16
			var wg sync.WaitGroup
			var mu sync.Mutex
			counts := map[approvals.Resolution]int{}
			for i := range n {
				wg.Go(func() {
					_, res, err := s.Resolve(ctx, request("apr_race"+string(rune('a'+i)), "d1", t0), t0)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					counts[res]++
					mu.Unlock()
				})
			}
			wg.Wait()
			if counts[approvals.Granted] != 1 || counts[approvals.Filed] != 1 || counts[approvals.Waiting] != n-2 {
				t.Errorf("resolutions %v: want one granted, one filed, the rest waiting on it", counts)
			}
		})
	}
}

func TestSQLiteKeepsRequestsAcrossARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "approvals.db")
	reopen := func() *approvals.SQLite {
		s, err := approvals.OpenSQLite(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := reopen()
	if _, _, err := s.Resolve(ctx, request("apr_1", "d1", t0), t0); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = reopen()
	if _, err := s.Decide(ctx, "apr_1", approve("alice"), t0.Add(time.Minute), t0.Add(time.Hour)); err != nil {
		t.Fatalf("the pending request did not survive the restart: %v", err)
	}
	s.Close()

	s = reopen()
	if _, res, err := s.Resolve(ctx, request("apr_2", "d1", t0), t0.Add(2*time.Minute)); err != nil || res != approvals.Granted {
		t.Fatalf("after a restart the approval resolved %d (%v), want granted", res, err)
	}
	s.Close()

	s = reopen()
	defer s.Close()
	if _, res, err := s.Resolve(ctx, request("apr_3", "d1", t0), t0.Add(3*time.Minute)); err != nil || res != approvals.Filed {
		t.Fatalf("a used approval after a restart resolved %d (%v), want a new request filed", res, err)
	}
}
