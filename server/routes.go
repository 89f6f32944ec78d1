package server

import (
	"net/http"
	"time"

	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes is the whole API surface.
func (s *Server) routes(reg *prometheus.Registry, deps Deps) http.Handler {
	r := chi.NewRouter()
	unmatched := s.metrics.forRoute("unmatched", "")
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.simple(unmatched, w, r, http.StatusNotFound, httpkit.ErrorBody{Error: "no such endpoint: " + r.Method + " " + r.URL.Path})
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		s.simple(unmatched, w, r, http.StatusMethodNotAllowed, httpkit.ErrorBody{Error: "method " + r.Method + " not allowed on " + r.URL.Path})
	})

	const healthPath, metricsPath = "/health", "/metrics"
	health := s.metrics.forRoute(healthPath, http.MethodGet)
	healthOK := func(w http.ResponseWriter, r *http.Request) {
		s.simple(health, w, r, http.StatusOK, map[string]string{"status": "ok"})
	}
	r.Get(healthPath, healthOK)
	r.Head(healthPath, healthOK)
	metrics := s.metrics.forRoute(metricsPath, http.MethodGet)
	prom := promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	r.Get(metricsPath, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := httpkit.NewStatusWriter(w)
		prom.ServeHTTP(sw, r)
		metrics.done(start, sw.Status)
	})

	// Full patterns on one router (no sub-routers to descend into). Each
	// pattern is written here only, and is its requests' metrics label. The
	// engine writes /api/sessions and /api/sessions/{id} without a trailing
	// slash; both spellings are served (and counted as the first).
	type route struct {
		method, pattern, alias string
		make                   func(*routeMetrics) http.Handler
	}
	routes := []route{
		{http.MethodPost, "/api/sessions", "/api/sessions/", s.giretraCreate},
		{http.MethodDelete, "/api/sessions/{id}", "/api/sessions/{id}/", s.giretraDelete},
		{http.MethodPost, "/api/sessions/{id}/choose-cut", "", s.giretraCut},
		{http.MethodPost, "/api/sessions/{id}/choose-negotiation-action", "", s.giretraBid},
		{http.MethodPost, "/api/sessions/{id}/choose-card", "", s.giretraCard},
		{http.MethodPost, "/api/sessions/{id}/notify/{event}", "", s.giretraNotify},
	}
	if deps.Battleship != nil {
		routes = append(routes, route{http.MethodPost, "/battleship", "", func(rm *routeMetrics) http.Handler { return s.battleship(deps.Battleship, rm) }})
	}
	if deps.Othello != nil {
		routes = append(routes, route{http.MethodPost, "/othello/move", "", func(rm *routeMetrics) http.Handler { return s.othelloMove(deps.Othello, rm) }})
	}
	for _, rt := range routes {
		h := rt.make(s.metrics.forRoute(rt.pattern, rt.method))
		r.Method(rt.method, rt.pattern, h)
		if rt.alias != "" {
			r.Method(rt.method, rt.alias, h)
		}
	}
	return r
}

// simple answers a route that reads no request (health, errors of the
// router) and counts it.
func (s *Server) simple(rm *routeMetrics, w http.ResponseWriter, r *http.Request, status int, v any) {
	start := time.Now()
	rm.done(start, writeJSON(w, status, v))
	s.logRequest(r, rm.route, status, start)
}
