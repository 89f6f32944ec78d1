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
	"strings"
	"time"

	giretraplayers "github.com/botarena/gamebot/giretra/players"

	"github.com/botarena/gamebot/internal/httpkit"
	"github.com/botarena/gamebot/internal/table"
)

// playConfig is gamebot play's flags.
type playConfig struct {
	addr      string
	records   string
	maxTables int
	perClient int
	idle      time.Duration
	othello   []string // -othello-engine specs
	hosts     []string // -hosts: names the listener is reached by besides loopback's
	botHosts  string   // -bot-hosts: "loopback", "none", or hosts
	bots      string   // -giretra-bots: the folder of bots a page may seat by name
	loopback  bool     // the listener is on this machine only
}

// play serves the browser tables on their own listener (never the bot
// server's port: the Giretra engine launches the bot there) until ctx is
// done. ready, when not nil, receives the listening address.
func play(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, ready chan<- string) error {
	c, err := playFlags(args, stderr)
	if err != nil || c == nil {
		return err
	}
	level := slog.LevelInfo
	if v := getenv("LOG_LEVEL"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", v)
		}
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	games, err := playGames(*c)
	if err != nil {
		return err
	}
	hub := table.NewHub(table.HubConfig{MaxTables: c.maxTables, MaxPerClient: c.perClient, IdleTTL: c.idle, Records: c.records, Hosts: c.hosts}, games...)
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
	fmt.Fprintf(stdout, "gamebot play: open http://%s/play (records in %s)\n", ln.Addr(), orNone(c.records))
	hosts, _ := c.botHostsOf()
	bots, _ := c.botsDirOf()
	fmt.Fprintf(stdout, "gamebot play: bot URLs: %s; Giretra bots: %s\n", hosts.Describe(), orNone(bots))
	if ready != nil {
		ready <- ln.Addr().String()
	}
	// Long polls end with the tables: close them first, then the server.
	return httpkit.Serve(ctx, hs, ln, 5*time.Second, hub.Close)
}

// playFlags reads play's flags; a nil config with no error is -h.
func playFlags(args []string, stderr io.Writer) (*playConfig, error) {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c playConfig
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to serve the tables on (host:port; port 0 picks one)")
	fs.StringVar(&c.records, "records", "play-records", `directory the games' records are written to ("" keeps none)`)
	fs.IntVar(&c.maxTables, "max-tables", 64, "tables open at once")
	fs.IntVar(&c.perClient, "max-per-client", -1, "tables one person may hold open at once (default: no cap on this machine only, 4 when -addr listens beyond it)")
	fs.Func("hosts", "names people reach the tables by, besides localhost, 127.0.0.1 and [::1] (comma-separated host or host:port); required when -addr listens beyond this machine", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				c.hosts = append(c.hosts, h)
			}
		}
		return nil
	})
	fs.StringVar(&c.botHosts, "bot-hosts", "", `bot servers a page may seat by URL: "loopback" (this machine), "none", or comma-separated hosts (host or host:port), "loopback" among them if wanted (default: loopback on this machine only, none beyond)`)
	fs.StringVar(&c.bots, "giretra-bots", "", `the folder of Giretra bots a page may seat by name ("none": none; default: the external-bots/ of the checkout around the working directory when -addr is on this machine only, none beyond)`)
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
			return nil, nil
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("play: unexpected argument %q", fs.Arg(0))
	}
	if c.maxTables < 1 || c.idle <= 0 {
		return nil, errors.New("play: -max-tables ≥ 1 and -idle > 0 are required")
	}
	if err := c.reach(); err != nil {
		return nil, err
	}
	if c.records != "" {
		if err := os.MkdirAll(c.records, 0o755); err != nil {
			return nil, fmt.Errorf("play: records: %w", err)
		}
		if abs, err := filepath.Abs(c.records); err == nil {
			c.records = abs
		}
	}
	return &c, nil
}

// reach checks who may reach the tables and what the tables may reach.
// Beyond this machine, the names people use must be given (the Host
// check refuses any other), and bot URLs and bot folders stay off unless
// named: a page from anywhere must not aim the server at the network
// or make it run a program.
func (c *playConfig) reach() error {
	host, _, err := net.SplitHostPort(c.addr)
	if err != nil {
		return fmt.Errorf("play: -addr %q: %v", c.addr, err)
	}
	ip := net.ParseIP(host)
	c.loopback = strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback()
	if !c.loopback && len(c.hosts) == 0 {
		return fmt.Errorf("play: -addr %s listens beyond this machine: name the hosts people will use with -hosts (the tables refuse any other Host: a page of another site must not reach them)", c.addr)
	}
	if c.perClient < 0 {
		c.perClient = 0
		if !c.loopback {
			c.perClient = 4
		}
	}
	return nil
}

// botHostsOf reads -bot-hosts.
func (c *playConfig) botHostsOf() (table.BotHosts, error) {
	b, err := table.ParseBotHosts(c.botHosts, c.loopback)
	if err != nil {
		return b, fmt.Errorf("play: -bot-hosts: %w", err)
	}
	return b, nil
}

// botsDirOf reads -giretra-bots.
func (c *playConfig) botsDirOf() (string, error) {
	switch c.bots {
	case "none":
		return "", nil
	case "":
		if !c.loopback {
			return "", nil
		}
		return giretraplayers.FindBotsDir(), nil
	}
	st, err := os.Stat(c.bots)
	if err != nil || !st.IsDir() {
		return "", fmt.Errorf("play: -giretra-bots %q is not a folder", c.bots)
	}
	return filepath.Abs(c.bots)
}

func orNone(dir string) string {
	if dir == "" {
		return "no directory: none kept"
	}
	return dir
}
