package approvals_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
	"github.com/agentwarden/warden/internal/redistest"
)

// BenchmarkApproveToRelease measures what a person's decision costs a waiting call: from Decide to the
// return of the Await it releases, on each store. The Await polls once an hour, so only the wake counts.
func BenchmarkApproveToRelease(b *testing.B) {
	ctx := context.Background()
	for kind, open := range stores() {
		b.Run(kind, func(b *testing.B) {
			store := open(b)
			s, err := approvals.New(approvals.Config{Store: store, Poll: time.Hour})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var total time.Duration
			for i := 0; b.Loop(); i++ {
				a, err := s.Resolve(ctx, warden.ApprovalAsk{Run: warden.RunInfo{UserID: "u"}, Call: warden.NewToolCall("c", "deploy", fmt.Appendf(nil, `{"n":%d}`, i)), Policy: "p"})
				if err != nil {
					b.Fatal(err)
				}
				released := make(chan time.Time, 1)
				waiting := make(chan struct{})
				go func() {
					close(waiting)
					if _, err := s.Await(ctx, a.ID); err != nil {
						b.Error(err)
					}
					released <- time.Now()
				}()
				<-waiting
				time.Sleep(time.Millisecond) // let Await reach its wait
				start := time.Now()
				if _, err := s.Decide(ctx, a.ID, approvals.Verdict{Approve: true, Approver: "bench"}); err != nil {
					b.Fatal(err)
				}
				total += (<-released).Sub(start)
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs-to-release")
		})
	}
}

// BenchmarkResolve is the cost of an ask that a person approved: bind, consume, answer.
func BenchmarkResolve(b *testing.B) {
	ctx := context.Background()
	for kind, open := range stores() {
		b.Run(kind, func(b *testing.B) {
			s, err := approvals.New(approvals.Config{Store: open(b)})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				ask := warden.ApprovalAsk{Run: warden.RunInfo{UserID: "u"}, Call: warden.NewToolCall("c", "deploy", fmt.Appendf(nil, `{"env":"prod","n":%d}`, i)), Policy: "p"}
				if _, err := s.Resolve(ctx, ask); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkApproveToReleaseAcrossReplicas is the same over Redis with the decision taken on one replica and
// the call waiting on another: the release travels by pub/sub.
func BenchmarkApproveToReleaseAcrossReplicas(b *testing.B) {
	ctx := context.Background()
	_, c := redistest.Start(b)
	replica := func() *approvals.Service {
		store, err := approvals.NewRedis(c, "bench:approvals:")
		if err != nil {
			b.Fatal(err)
		}
		s, err := approvals.New(approvals.Config{Store: store, Poll: time.Hour})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	}
	waiting, deciding := replica(), replica()
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		a, err := waiting.Resolve(ctx, warden.ApprovalAsk{Run: warden.RunInfo{UserID: "u"}, Call: warden.NewToolCall("c", "deploy", fmt.Appendf(nil, `{"n":%d}`, i)), Policy: "p"})
		if err != nil {
			b.Fatal(err)
		}
		released := make(chan time.Time, 1)
		go func() {
			if _, err := waiting.Await(ctx, a.ID); err != nil {
				b.Error(err)
			}
			released <- time.Now()
		}()
		time.Sleep(time.Millisecond)
		start := time.Now()
		if _, err := deciding.Decide(ctx, a.ID, approvals.Verdict{Approve: true, Approver: "bench"}); err != nil {
			b.Fatal(err)
		}
		total += (<-released).Sub(start)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs-to-release")
}
