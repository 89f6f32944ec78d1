package server

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes is the whole API surface.
func (s *Server) routes(reg *prometheus.Registry, deps Deps) http.Handler {
	r := chi.NewRouter()
	unmatched := s.metrics.forRoute("unmatched", "")
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.simple(unmatched, w, r, http.StatusNotFound, errorBody{Error: "no such endpoint: " + r.Method + " " + r.URL.Path})
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		s.simple(unmatched, w, r, http.StatusMethodNotAllowed, errorBody{Error: "method " + r.Method + " not allowed on " + r.URL.Path})
	})

	health := s.metrics.forRoute("/health", "GET")
	healthOK := func(w http.ResponseWriter, r *http.Request) {
		s.simple(health, w, r, http.StatusOK, map[string]string{"status": "ok"})
	}
	r.Get("/health", healthOK)
	r.Head("/health", healthOK)
	metrics := s.metrics.forRoute("/metrics", "GET")
	prom := promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	r.Get("/metrics", func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		prom.ServeHTTP(sw, r)
		metrics.done(start, sw.status)
	})

	// Full patterns on one router (no sub-routers to descend into). The
	// engine writes /api/sessions and /api/sessions/{id} without a
	// trailing slash; both spellings are served.
	create, del := s.giretraCreate(), s.giretraDelete()
	r.Method(http.MethodPost, "/api/sessions", create)
	r.Method(http.MethodPost, "/api/sessions/", create)
	r.Method(http.MethodDelete, "/api/sessions/{id}", del)
	r.Method(http.MethodDelete, "/api/sessions/{id}/", del)
	r.Method(http.MethodPost, "/api/sessions/{id}/choose-cut", s.giretraCut())
	r.Method(http.MethodPost, "/api/sessions/{id}/choose-negotiation-action", s.giretraBid())
	r.Method(http.MethodPost, "/api/sessions/{id}/choose-card", s.giretraCard())
	r.Method(http.MethodPost, "/api/sessions/{id}/notify/{event}", s.giretraNotify())
	if deps.Battleship != nil {
		r.Method(http.MethodPost, "/battleship", s.battleship(deps.Battleship))
	}
	if deps.Othello != nil {
		r.Method(http.MethodPost, "/othello/move", s.othelloMove(deps.Othello))
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

// statusWriter remembers the status of a handler the server does not
// write itself (the Prometheus handler).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}
