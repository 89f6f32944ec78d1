// Package server is the HTTP side of the bot: routing, decoding, errors,
// sessions and metrics. Game logic lives in the giretra and battleship
// packages; handlers here decode, call one engine function and encode.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/othello"
	"github.com/prometheus/client_golang/prometheus"
)

// Config tunes the server. The zero value of each field gets a default in
// NewServer.
type Config struct {
	// MaxBodyBytes caps request bodies (413 beyond). Default 4 MiB, enough
	// for a 100x100 battleship history.
	MaxBodyBytes int64
	// MaxSessions caps the Giretra sessions held; the least recently used
	// is dropped beyond it. Default 10000.
	MaxSessions int
	// SessionTTL drops a session idle this long. Default 2 h.
	SessionTTL time.Duration
	// EndedSessionTTL is the grace after match-ended. Default 1 min.
	EndedSessionTTL time.Duration
	// MaxConcurrentDecisions caps CPU-heavy decisions running at once;
	// beyond it a decision gets the fast heuristic answer. Default 2×GOMAXPROCS.
	MaxConcurrentDecisions int
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
}

func (c *Config) defaults() {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = 4 << 20
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = 10000
	}
	if c.SessionTTL <= 0 {
		c.SessionTTL = 2 * time.Hour
	}
	if c.EndedSessionTTL <= 0 {
		c.EndedSessionTTL = time.Minute
	}
}

// Server is the bot's HTTP handler and the state behind it.
type Server struct {
	handler  http.Handler
	sessions *sessionStore
	metrics  *Metrics
	logger   *slog.Logger
}

// Deps are the game engines the server serves.
type Deps struct {
	// NewGiretraPlayer makes the player of one Giretra session.
	NewGiretraPlayer func() giretra.Player
	// Battleship serves POST /battleship when not nil.
	Battleship *battleship.Bot
	// Othello serves POST /othello/move when not nil.
	Othello *othello.Engine
}

// New builds the server: routes, middleware and a session store. Call Run
// (or Janitor) to reclaim idle sessions in the background.
func New(logger *slog.Logger, cfg Config, reg *prometheus.Registry, deps Deps) *Server {
	cfg.defaults()
	m := NewMetrics(reg)
	s := &Server{metrics: m, logger: logger}
	s.sessions = newSessionStore(cfg, deps.NewGiretraPlayer, m)
	s.handler = s.routes(cfg, reg, deps)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Janitor reclaims expired sessions every interval until ctx is done.
func (s *Server) Janitor(ctx context.Context, interval time.Duration) {
	s.sessions.janitor(ctx, interval)
}

// Sessions is the number of Giretra sessions held (for tests and tools).
func (s *Server) Sessions() int { return s.sessions.len() }
