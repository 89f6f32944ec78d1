// Package server is the bot's HTTP edge for all three games: the Giretra
// session API, botsarena's battleship endpoint and the FlipSight Othello
// move. Every route has one shape (endpoint: decode → decide → encode);
// the games' wire packages decode and validate, reporting problems in one
// error model (internal/problem) that internal/httpkit maps to HTTP
// statuses in one place; the engines decide. The server holds the Giretra
// sessions and the metrics.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/othello"
	"github.com/prometheus/client_golang/prometheus"
)

// Config tunes the server. The zero value of each field gets a default in
// New.
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
	// MaxConcurrentDecisions caps CPU-heavy Giretra decisions running at
	// once; beyond it a decision waits for a slot. Default GOMAXPROCS: one
	// search per CPU.
	MaxConcurrentDecisions int
	// LoadBudget bounds the time a Giretra decision that found every
	// slot busy may take, from its arrival: waiting for a slot (at most
	// three quarters of it; the fast heuristic answers after that) and
	// searching. Default 25 ms, so that answers stay under 50 ms when the
	// machine runs more matches than it has CPUs for.
	LoadBudget time.Duration
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
	if c.MaxConcurrentDecisions <= 0 {
		c.MaxConcurrentDecisions = runtime.GOMAXPROCS(0)

	}
	if c.LoadBudget <= 0 {
		c.LoadBudget = 25 * time.Millisecond
	}
	if c.Now == nil {
		c.Now = time.Now
	}
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

// Server is the bot's HTTP handler and the state behind it.
type Server struct {
	router   http.Handler
	sessions *sessionStore
	metrics  *Metrics
	logger   *slog.Logger
	maxBody  int64
	// slots bounds the Giretra decisions that may search at once.
	slots      chan struct{}
	loadBudget time.Duration
	// busy reports every CPU taken by a search: searches yield the CPU
	// to cheap requests only then (search.WithBusy).
	busy func() bool
	// waiting, when set, is called as a decision starts waiting for a
	// slot (tests free one then, without a clock).
	waiting func()
}

// New builds the server: routes, metrics on reg and a session store. Call
// Janitor to reclaim idle sessions in the background.
func New(logger *slog.Logger, cfg Config, reg *prometheus.Registry, deps Deps) *Server {
	cfg.defaults()
	m := NewMetrics(reg)
	s := &Server{metrics: m, logger: logger, maxBody: cfg.MaxBodyBytes, slots: make(chan struct{}, cfg.MaxConcurrentDecisions),
		loadBudget: cfg.LoadBudget}
	procs := min(cfg.MaxConcurrentDecisions, runtime.GOMAXPROCS(0))
	s.busy = func() bool { return len(s.slots) >= procs }
	s.sessions = newSessionStore(cfg, deps.NewGiretraPlayer, m)
	if deps.Battleship != nil {
		registerBattleship(reg, deps.Battleship)
	}
	s.router = s.routes(reg, deps)
	return s
}

// ServeHTTP implements http.Handler. A panic anywhere in a request is
// answered as a logged 500 with a JSON body: one bad request never takes
// the process (or another session) down.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.logger.ErrorContext(r.Context(), "panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			writeJSON(w, http.StatusInternalServerError, httpkit.ErrorBody{Error: "internal error"})
		}
	}()
	s.router.ServeHTTP(w, r)
}

// Janitor reclaims expired sessions every interval until ctx is done.
func (s *Server) Janitor(ctx context.Context, interval time.Duration) {
	httpkit.Every(ctx, interval, s.sessions.sweep)
}

// Sessions is the number of Giretra sessions held (for tests and tools).
func (s *Server) Sessions() int { return s.sessions.len() }
