package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/gamebot/internal/table"
)

// playConfig is gamebot play's flags.
type playConfig struct {
	addr      string
	records   string
	maxTables int
	idle      time.Duration
	othello   []string // -othello-engine specs
}

// play serves the browser tables on their own listener (never the bot
// server's port: the Giretra engine launches the bot there) until ctx is
// done. ready, when not nil, receives the listening address.
func play(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c playConfig
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to serve the tables on (host:port; port 0 picks one)")
	fs.StringVar(&c.records, "records", "play-records", `directory the games' records are written to ("" keeps none)`)
	fs.IntVar(&c.maxTables, "max-tables", 64, "tables open at once")
	fs.DurationVar(&c.idle, "idle", 30*time.Minute, "a table nobody looks at for this long is closed (its record stays)")
	fs.Func("othello-engine", "an Othello engine the tables offer besides ours: NAME=jsonline:COMMAND or NAME=nboard:COMMAND (repeatable)", func(v string) error {
		c.othello = append(c.othello, v)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gamebot play [flags]\n\nServes the lobby at http://ADDR/play: play with, against or watch the bot at Giretra, battleship and Othello in a browser.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("play: unexpected argument %q", fs.Arg(0))
	}
	if c.maxTables < 1 || c.idle <= 0 {
		return errors.New("play: -max-tables ≥ 1 and -idle > 0 are required")
	}
	if c.records != "" {
		if err := os.MkdirAll(c.records, 0o755); err != nil {
			return fmt.Errorf("play: records: %w", err)
		}
		if abs, err := filepath.Abs(c.records); err == nil {
			c.records = abs
		}
	}
	level := slog.LevelInfo
	if v := getenv("LOG_LEVEL"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", v)
		}
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	games, err := playGames(c)
	if err != nil {
		return err
	}
	hub := table.NewHub(table.HubConfig{MaxTables: c.maxTables, IdleTTL: c.idle, Records: c.records}, games...)
	defer hub.Close()
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           hub.Handler(logger),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		// A long poll waits table.PollWait for news: the write timeout
		// leaves it room.
		WriteTimeout:   table.PollWait + 15*time.Second,
		IdleTimeout:    120 * time.Second,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go hub.Janitor(ctx, time.Minute)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	fmt.Fprintf(stdout, "gamebot play: open http://%s/play (records in %s)\n", ln.Addr(), orNone(c.records))
	if ready != nil {
		ready <- ln.Addr().String()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Long polls end with the tables: close them first, then the server.
	hub.Close()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	err = hs.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		_ = hs.Close()
		err = nil
	}
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

func orNone(dir string) string {
	if dir == "" {
		return "no directory: none kept"
	}
	return dir
}
