package gateway

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/pipeline"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the gateway's Prometheus metrics, on a registry of their own that /metrics serves. Make them
// before loading the config and wrap the engine's recorder with Recorder (config.Options.WrapRecorder), so
// that every guardrail evaluation is counted; then pass them in Config.Metrics. Labels carry names that the
// config and the routes define (upstream, format, stage, guardrail), never content. Safe for concurrent use.
type Metrics struct {
	reg            *prometheus.Registry
	requests       *prometheus.CounterVec
	evaluations    *prometheus.CounterVec
	guardrailTime  *prometheus.HistogramVec
	addedTime      *prometheus.HistogramVec
	ledgerBlocks   prometheus.Counter
	upstreamErrors *prometheus.CounterVec
	denyRetries    *prometheus.CounterVec
	corrections    *prometheus.CounterVec
	// evaluated and exchanged hold the series each label set resolved to, so that an exchange finds its
	// series with one map lookup instead of hashing its label values through the vectors (evaluationKey,
	// exchangeKey → *evaluationSeries, *exchangeSeries). The label sets are few: the config's guardrails
	// and the routes'.
	evaluated, exchanged sync.Map
}

type evaluationKey struct {
	stage     warden.Stage
	guardrail string
	status    warden.Status
	effect    warden.Action
}

type evaluationSeries struct {
	count prometheus.Counter
	time  prometheus.Observer
}

type exchangeKey struct {
	upstream, format string
	status           int
	streamed         bool
}

type exchangeSeries struct {
	requests prometheus.Counter
	added    prometheus.Observer
}

// latencyBuckets run from 10 µs to about 10 s: a guardrail and Warden's own share of an exchange are
// usually micro- to milliseconds, a judge model's call seconds.
var latencyBuckets = prometheus.ExponentialBuckets(10e-6, 4, 11)

// NewMetrics makes the metrics, with the Go runtime's and the process's own beside them.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "warden_gateway_requests_total",
			Help: "Guarded exchanges, by upstream, wire format and the HTTP status the client got."}, []string{"upstream", "format", "status"}),
		evaluations: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "warden_guardrail_evaluations_total",
			Help: "Guardrail evaluations, by stage, guardrail, status (evaluated, skipped, errored) and the effect applied (allow, modify, retry, reject, halt)."},
			[]string{"stage", "guardrail", "status", "effect"}),
		guardrailTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "warden_guardrail_duration_seconds",
			Help: "Time one guardrail evaluation took, by stage and guardrail.", Buckets: latencyBuckets}, []string{"stage", "guardrail"}),
		addedTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "warden_gateway_added_seconds",
			Help: "Time an exchange spent in Warden rather than waiting for the upstream, by wire format and whether it streamed.", Buckets: latencyBuckets},
			[]string{"format", "stream"}),
		ledgerBlocks: prometheus.NewCounter(prometheus.CounterOpts{Name: "warden_ledger_blocks_total",
			Help: "Requests refused because the end-user ledger blocks their end user."}),
		upstreamErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "warden_upstream_errors_total",
			Help: "Exchanges that failed on the upstream's side, by upstream and Warden's reason code (upstream_error, upstream_timeout, bad_upstream, upstream_stream_broken)."},
			[]string{"upstream", "code"}),
		denyRetries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "warden_deny_retries_total",
			Help: "Follow-up requests sent after denied tool calls (on_deny: retry), by upstream."}, []string{"upstream"}),
		corrections: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "warden_stream_corrections_total",
			Help: "Continuations sent after a stream guardrail asked the model to correct itself, by upstream."}, []string{"upstream"}),
	}
	m.reg.MustRegister(m.requests, m.evaluations, m.guardrailTime, m.addedTime, m.ledgerBlocks, m.upstreamErrors, m.denyRetries, m.corrections,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Recorder wraps next so that every evaluation is also counted; next may be nil.
func (m *Metrics) Recorder(next warden.Recorder) warden.Recorder {
	return warden.RecorderFunc(func(ctx context.Context, rec *warden.Record) {
		for _, ev := range rec.Evaluations {
			series := m.evaluationSeries(evaluationKey{ev.Stage, ev.Guardrail, ev.Status, ev.Effect})
			series.count.Inc()
			if ev.Status == warden.StatusEvaluated || ev.Status == warden.StatusErrored {
				series.time.Observe(ev.Duration.Seconds())
			}
		}
		if next != nil {
			next.Record(ctx, rec)
		}
	})
}

func (m *Metrics) evaluationSeries(k evaluationKey) *evaluationSeries {
	if s, ok := m.evaluated.Load(k); ok {
		return s.(*evaluationSeries)
	}
	stage := k.stage.String()
	s := &evaluationSeries{
		count: m.evaluations.WithLabelValues(stage, k.guardrail, k.status.String(), effectName(k.effect)),
		time:  m.guardrailTime.WithLabelValues(stage, k.guardrail),
	}
	actual, _ := m.evaluated.LoadOrStore(k, s)
	return actual.(*evaluationSeries)
}

func (m *Metrics) exchangeSeries(k exchangeKey) *exchangeSeries {
	if s, ok := m.exchanged.Load(k); ok {
		return s.(*exchangeSeries)
	}
	s := &exchangeSeries{
		requests: m.requests.WithLabelValues(k.upstream, k.format, strconv.Itoa(k.status)),
		added:    m.addedTime.WithLabelValues(k.format, strconv.FormatBool(k.streamed)),
	}
	actual, _ := m.exchanged.LoadOrStore(k, s)
	return actual.(*exchangeSeries)
}

func effectName(a warden.Action) string {
	if a == warden.ActionUnset {
		return "none"
	}
	return a.String()
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// exchangeDone counts a finished exchange: its status, Warden's share of its time, and what went wrong.
func (m *Metrics) exchangeDone(x *exchange) {
	series := m.exchangeSeries(exchangeKey{x.rt.up.Name, x.f.Name, x.status, x.streamed})
	series.requests.Inc()
	added := time.Since(x.start) - x.upstreamWait
	series.added.Observe(max(added, 0).Seconds())
	switch x.code {
	case pipeline.CodeEndUserBlocked:
		m.ledgerBlocks.Inc()
	case CodeUpstream, CodeTimeout, CodeBadUpstream, CodeStreamBroken:
		m.upstreamErrors.WithLabelValues(x.rt.up.Name, x.code).Inc()
	}
	if x.retries > 0 {
		m.denyRetries.WithLabelValues(x.rt.up.Name).Add(float64(x.retries))
	}
	if x.corrections > 0 {
		m.corrections.WithLabelValues(x.rt.up.Name).Add(float64(x.corrections))
	}
}
