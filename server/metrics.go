package server

import (
	"sync"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/giretra"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// latencyBuckets fit the callers' budgets: Giretra allows 30 s per decision
// and 5 s per notification, botsarena 10 s per turn; we aim for milliseconds.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// Metrics are the server's Prometheus metrics, on a registry of its own.
type Metrics struct {
	requests          *prometheus.CounterVec
	requestDuration   *prometheus.HistogramVec
	decisionDuration  *prometheus.HistogramVec
	decisionFallbacks *prometheus.CounterVec
	sessionsActive    prometheus.Gauge
	sessionsCreated   prometheus.Counter
	sessionsReclaimed *prometheus.CounterVec
	notifications     *prometheus.CounterVec
	overloaded        *prometheus.CounterVec

	// Children resolved once, so that hot paths look up no label.
	mu        sync.RWMutex
	decisions map[decisionKey]prometheus.Observer
	fallbacks map[decisionKey]prometheus.Counter
	events    [giretra.MatchEnded + 1]prometheus.Counter
	unknown   prometheus.Counter
}

type decisionKey struct{ game, kind string }

// NewMetrics registers the server's metrics (and the Go, process and build
// collectors) on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bot_http_requests_total", Help: "HTTP requests by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		requestDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bot_http_request_duration_seconds", Help: "HTTP request latency by route pattern and method.", Buckets: latencyBuckets,
		}, []string{"route", "method"}),
		decisionDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "bot_decision_duration_seconds", Help: "Time spent deciding, by game and decision kind.", Buckets: latencyBuckets,
		}, []string{"game", "kind"}),
		decisionFallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bot_decision_fallbacks_total", Help: "Decisions answered by the safe fallback because the strategy failed or overran.",
		}, []string{"game", "kind"}),
		sessionsActive: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bot_sessions_active", Help: "Giretra sessions currently held in memory.",
		}),
		sessionsCreated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bot_sessions_created_total", Help: "Giretra sessions created.",
		}),
		sessionsReclaimed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bot_sessions_reclaimed_total", Help: "Giretra sessions removed, by reason (deleted, ended, idle, capacity).",
		}, []string{"reason"}),
		notifications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bot_notifications_total", Help: "Giretra notifications received, by event (unknown names as \"unknown\").",
		}, []string{"event"}),
		overloaded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "bot_overload_total", Help: "Decisions made under overload, by game and outcome: heuristic (every search slot busy) or shortened (searched under the load budget).",
		}, []string{"game", "outcome"}),
	}
	m.decisions = map[decisionKey]prometheus.Observer{}
	m.fallbacks = map[decisionKey]prometheus.Counter{}
	for k := range m.events {
		m.events[k] = m.notifications.WithLabelValues(giretra.EventKind(k).String())
	}
	m.unknown = m.notifications.WithLabelValues("unknown")
	reg.MustRegister(m.requests, m.requestDuration, m.decisionDuration, m.decisionFallbacks,
		m.sessionsActive, m.sessionsCreated, m.sessionsReclaimed, m.notifications, m.overloaded,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector())
	return m
}

// decision is the decision-latency histogram of a game and kind.
func (m *Metrics) decision(game, kind string) prometheus.Observer {
	return child(&m.mu, m.decisions, decisionKey{game, kind}, func() prometheus.Observer {
		return m.decisionDuration.WithLabelValues(game, kind)
	})
}

// fallback is the fallback counter of a game and kind.
func (m *Metrics) fallback(game, kind string) prometheus.Counter {
	return child(&m.mu, m.fallbacks, decisionKey{game, kind}, func() prometheus.Counter {
		return m.decisionFallbacks.WithLabelValues(game, kind)
	})
}

// child is a metric vector's child from a cache, resolved on first use.
func child[T any](mu *sync.RWMutex, cache map[decisionKey]T, k decisionKey, resolve func() T) T {
	mu.RLock()
	c, ok := cache[k]
	mu.RUnlock()
	if !ok {
		c = resolve()
		mu.Lock()
		cache[k] = c
		mu.Unlock()
	}
	return c
}

// registerBattleship exposes the size of the battleship opponent memory,
// read when scraped.
func registerBattleship(reg prometheus.Registerer, b *battleship.Bot) {
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "bot_battleship_opponents", Help: "Battleship opponents (name and board size) remembered.",
		}, func() float64 { return float64(b.Len()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "bot_battleship_memory_bytes", Help: "Bytes the battleship opponent tables take.",
		}, func() float64 { return float64(b.MemoryBytes()) }),
	)
}
