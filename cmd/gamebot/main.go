// Command gamebot is the bot server: Giretra sessions for the Giretra
// engine, Battleship for botsarena and Othello moves, on one HTTP port.
//
//	gamebot              serve (PORT, HOST, LOG_LEVEL, ... from the environment)
//	gamebot healthcheck  GET /health on the local server; exit 0 if healthy
//	gamebot play         the browser tables: play with, against or watch the bot (-addr 127.0.0.1:8080)
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/bot"
	"github.com/botarena/gamebot/giretra/search"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/server"
	"github.com/prometheus/client_golang/prometheus"
)

func main() { cli.Main("gamebot", run) }

// run serves until ctx is done (or the launcher dies), then shuts down
// gracefully; configuration comes from the environment.
func run(ctx context.Context, args []string, getenv func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	return serve(ctx, args, getenv, stdout, stderr, nil)
}

// config is read from the environment once, in run.
type config struct {
	host, port      string
	logLevel        slog.Level
	budget          time.Duration
	loadBudget      time.Duration
	maxSessions     int
	sessionTTL      time.Duration
	launcherPID     int
	shutdownTimeout time.Duration
	// battleshipMemory is the file the battleship opponent memory is kept
	// in across restarts ("" = memory only).
	battleshipMemory string
}

func loadConfig(getenv func(string) string) (config, error) {
	c := config{host: "127.0.0.1", port: "5063", shutdownTimeout: 10 * time.Second}
	if v := getenv("HOST"); v != "" {
		c.host = v
	}
	if v := getenv("PORT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 65535 {
			return c, fmt.Errorf("PORT=%q: want a port number 0..65535", v)
		}
		c.port = v
	}
	if v := getenv("LOG_LEVEL"); v != "" {
		if err := c.logLevel.UnmarshalText([]byte(v)); err != nil {
			return c, fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", v)
		}
	}
	if v := getenv("GIRETRA_BUDGET_MS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 25000 {
			return c, fmt.Errorf("GIRETRA_BUDGET_MS=%q: want 0..25000 (0 = heuristic only)", v)
		}
		c.budget = time.Duration(n) * time.Millisecond
		if n == 0 {
			c.budget = -1
		}
	}
	if v := getenv("GIRETRA_LOAD_BUDGET_MS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 25000 {
			return c, fmt.Errorf("GIRETRA_LOAD_BUDGET_MS=%q: want 1..25000", v)
		}
		c.loadBudget = time.Duration(n) * time.Millisecond
	}
	if v := getenv("MAX_SESSIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("MAX_SESSIONS=%q: want a positive number", v)
		}
		c.maxSessions = n
	}
	if v := getenv("SESSION_TTL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("SESSION_TTL=%q: want a positive duration such as 2h", v)
		}
		c.sessionTTL = d
	}
	if v := getenv("LAUNCHER_PID"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("LAUNCHER_PID=%q: want a process id", v)
		}
		c.launcherPID = n
	}
	c.battleshipMemory = getenv("BATTLESHIP_MEMORY")
	return c, nil
}

// serve is run; ready, when not nil, receives the listening address (the
// tests learn it so).
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready chan<- string) error {
	if len(args) > 0 && args[0] == "play" {
		return play(ctx, args[1:], getenv, stdout, stderr, ready)
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		switch args[0] {
		case "healthcheck":
			return healthcheck(ctx, cfg)
		case "-h", "--help", "help":
			fmt.Fprintln(stdout, "usage: gamebot [healthcheck | play [flags]]\nenvironment: PORT (5063), HOST (127.0.0.1), LOG_LEVEL (info), GIRETRA_BUDGET_MS, GIRETRA_LOAD_BUDGET_MS (25), MAX_SESSIONS (10000), SESSION_TTL (2h), LAUNCHER_PID, BATTLESHIP_MEMORY (file)")
			return nil
		default:
			return fmt.Errorf("unknown argument %q (try: gamebot help)", args[0])
		}
	}
	return runServer(ctx, cfg, slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.logLevel})), ready)
}

// runServer serves the bot until ctx is done.
func runServer(ctx context.Context, cfg config, logger *slog.Logger, ready chan<- string) error {
	botCfg := bot.Config{Budget: cfg.budget}
	if cfg.budget < 0 {
		botCfg = bot.Config{Fast: true}
	}
	// The win-probability tables of the engine's usual targets, and the
	// Othello evaluations, take a fraction of a second each: build them
	// now rather than in a match's first decision. run waits for them
	// before returning, so no goroutine outlives the server.
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		search.WinTableFor(151)
		search.WinTableFor(500)
		othello.Preload(nil)
	}()
	defer func() { <-warmed }()
	ships := battleshipBot(cfg.battleshipMemory, logger)
	defer flushMemory(ships, cfg.battleshipMemory, logger)
	srv := server.New(logger, server.Config{MaxSessions: cfg.maxSessions, SessionTTL: cfg.sessionTTL, LoadBudget: cfg.loadBudget}, prometheus.NewRegistry(), server.Deps{
		NewGiretraPlayer: func() giretra.Player { return bot.New(botCfg) },
		Battleship:       ships,
		Othello:          othello.NewEngine(othello.EngineOptions{Pool: 2, TTBits: 18}),
	})
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.host, cfg.port))
	if err != nil {
		return err
	}
	// Searches stop when baseCtx is cancelled, after the grace period.
	baseCtx, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      35 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.launcherPID > 0 {
		go watchLauncher(ctx, cancel, cfg.launcherPID, logger)
	}
	go srv.Janitor(ctx, time.Minute)
	logger.Info("listening", "addr", ln.Addr().String())
	if ready != nil {
		ready <- ln.Addr().String()
	}
	return httpkit.Serve(ctx, hs, ln, cfg.shutdownTimeout, func() { logger.Info("shutting down") })
}

// battleshipBot is the battleship bot with its opponent memory read from
// file ("": memory only).
func battleshipBot(file string, logger *slog.Logger) *battleship.Bot {
	ships := battleship.NewBot(battleship.Options{MemoryFile: file})
	if err := ships.MemoryErr(); err != nil {
		// A damaged file costs what was learnt, not the server.
		logger.Warn("battleship memory not loaded", "file", file, "err", err)
	}
	return ships
}

// flushMemory writes what the battleship bot learnt to its file, if any.
func flushMemory(ships *battleship.Bot, file string, logger *slog.Logger) {
	if file == "" {
		return
	}
	if err := ships.Flush(); err != nil {
		logger.Warn("battleship memory not saved", "file", file, "err", err)
	}
}

// watchLauncher cancels the server once the launching process is gone (the
// Giretra engine's orphan guard: templates poll every 2 s).
func watchLauncher(ctx context.Context, cancel context.CancelFunc, pid int, logger *slog.Logger) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if !processAlive(pid) {
				logger.Info("launcher process gone; exiting", "pid", pid)
				cancel()
				return
			}
		}
	}
}

// healthcheck is the Docker HEALTHCHECK: distroless has no shell or curl.
func healthcheck(ctx context.Context, cfg config) error {
	host := cfg.host
	if host == "0.0.0.0" || host == "" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, cfg.port)+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s", resp.Status)
	}
	return nil
}
