package server

import (
	"net/http"
	"runtime"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// routes is the whole API surface.
func (s *Server) routes(cfg Config, reg *prometheus.Registry, deps Deps) http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID, observe(s.logger, s.metrics), recoverJSON(s.logger), limitBody(cfg.MaxBodyBytes))
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody{Error: "no such endpoint: " + r.Method + " " + r.URL.Path})
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: "method " + r.Method + " not allowed on " + r.URL.Path})
	})

	r.Get("/health", handleHealth)
	r.Head("/health", handleHealth)
	r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))

	slots := cfg.MaxConcurrentDecisions
	if slots <= 0 {
		slots = 2 * runtime.GOMAXPROCS(0)
	}
	g := &giretraAPI{logger: s.logger, sessions: s.sessions, metrics: s.metrics, slots: make(chan struct{}, slots)}
	r.Route("/api/sessions", func(r chi.Router) {
		r.Post("/", g.create)
		r.Route("/{id}", func(r chi.Router) {
			r.Delete("/", g.delete)
			r.Post("/choose-cut", g.chooseCut)
			r.Post("/choose-negotiation-action", g.chooseAction)
			r.Post("/choose-card", g.chooseCard)
			r.Post("/notify/{event}", g.notify)
		})
	})
	if deps.Battleship != nil {
		r.Method(http.MethodPost, "/battleship", handleBattleship(s.logger, deps.Battleship))
	}
	if deps.Othello != nil {
		r.Method(http.MethodPost, "/othello/move", handleOthelloMove(s.logger, deps.Othello))
	}
	return r
}

func handleHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
