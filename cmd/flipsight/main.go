// Command flipsight connects a bot to FlipSight (othelloclub.com) directly:
// it speaks the agent API and the event stream, accepts challenges, and
// plays every game mode with the built-in Go engine, or the player
// --engine names as othello/players reads it (an engine command speaking
// the official connector's JSON-line protocol, an NBoard engine, std
// only).
//
// The token is read only from the environment variable FS_BOT_TOKEN.
// Exit codes: 0 normal, 2 token missing or rejected, 3 --max-runtime
// reached, 1 other errors.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/spec"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/wire"
)

func main() {
	cli.Main("flipsight", func(ctx context.Context, args []string, getenv func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
		return run(ctx, args, getenv, stdout, stderr, &http.Client{Timeout: 30 * time.Second})
	},
		cli.Status{Err: errToken, Code: 2}, cli.Status{Err: flipsight.ErrCredential, Code: 2},
		cli.Status{Err: flipsight.ErrMaxRuntime, Code: 3})
}

var errToken = errors.New("FS_BOT_TOKEN is missing or invalid")

// run is the command; client carries its API calls (tests hand it a fake
// server's).
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer, client *http.Client) error {
	stderr = jsonline.SyncWriter(stderr) // the log and every engine process share it
	f, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	token := strings.TrimSpace(getenv("FS_BOT_TOKEN"))
	level := slog.LevelInfo
	if f.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if token == "" || !strings.HasPrefix(token, "fsbm_") || strings.ContainsAny(token, " \t\r\n") {
		logger.Error(errToken.Error())
		return errToken
	}
	if err := f.check(); err != nil {
		return err
	}
	newEngine, name, err := f.engine(stderr)
	if err != nil {
		return err
	}
	env := flipsight.Environment{CPU: f.cpuName, OS: flipsight.HostOS(), Engine: f.engineName, Practice: f.practice}
	if env.CPU == "" {
		env.CPU = flipsight.HostCPU()
	}
	if env.Engine == "" {
		env.Engine = name
	}
	o := flipsight.Options{
		Client:     &flipsight.Client{HTTP: client, API: f.api, Stream: f.streamURL, Token: token},
		NewEngine:  newEngine,
		Env:        env,
		Logger:     logger,
		NoStream:   f.noStream,
		OnceMatch:  f.onceMatch,
		MaxRuntime: time.Duration(f.maxRuntime * float64(time.Second)),
		MaxThink:   time.Duration(f.maxThink * float64(time.Second)),
	}
	logger.Info("connecting to FlipSight", "api", f.api, "stream", !f.noStream, "engine", env.Engine)
	err = flipsight.NewAgent(o).Run(ctx)
	switch {
	case errors.Is(err, flipsight.ErrCredential):
		logger.Error("Bot credential rejected")
	case errors.Is(err, flipsight.ErrMaxRuntime):
		logger.Info("max runtime reached")
	case err == nil:
		fmt.Fprintln(stdout, "done")
	}
	return err
}

// flags are the command's flags.
type flags struct {
	engineSpec, nbDir, engineName, cpuName, api, streamURL string
	nbEngine, practice, noStream, ponder, verbose          bool
	nbDepth, threads                                       int
	ttBits                                                 uint
	onceMatch                                              int64
	maxRuntime, maxThink                                   float64
}

func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	var f flags
	fs := flag.NewFlagSet("flipsight", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.engineSpec, "engine", "", "the player, as othello/players reads it: engine[:key=value,…] (the built-in Go engine, the default, one per leg), jsonline:COMMAND, nboard[:depth=N,dir=D]:COMMAND, or an engine command speaking the JSON-line protocol, one process per leg")
	fs.BoolVar(&f.nbEngine, "engine-nboard", false, "the older form of --engine nboard:COMMAND: the --engine command speaks NBoard (std only; other modes get the first legal move), e.g. NTest")
	fs.IntVar(&f.nbDepth, "nboard-depth", 0, "with --engine-nboard: set depth N (0: the engine's default)")
	fs.StringVar(&f.nbDir, "nboard-dir", "", "with --engine-nboard: working directory (where it finds its data)")
	fs.StringVar(&f.engineName, "engine-name", "", "engine name for the environment report (≤120 chars, no paths)")
	fs.StringVar(&f.cpuName, "cpu-name", "", "CPU name for the environment report (≤120 chars; default auto-detected)")
	fs.BoolVar(&f.practice, "practice", false, "report environment.practice: true (no auto matches, unrated bot games)")
	fs.Int64Var(&f.onceMatch, "once-match", 0, "handle only this match id (negative for human games; other challenges are left alone) and exit when it is over")
	fs.Float64Var(&f.maxRuntime, "max-runtime", 0, "exit with code 3 after this many seconds (0: no limit)")
	fs.BoolVar(&f.noStream, "no-stream", false, "poll only, without the event stream")
	fs.StringVar(&f.api, "api", flipsight.DefaultAPI, "agent API URL (HTTPS)")
	fs.StringVar(&f.streamURL, "stream-url", flipsight.DefaultStream, "event stream URL (HTTPS, on the API host)")
	// No cap by default: our engine plans its clock (at most half the
	// budget a move, and its fail-low extension within three quarters of
	// it), and the connector kills it at the budget anyway. The official
	// connector's 10 s guards engines that do not plan; for ours it
	// halved the first exact solve's time.
	fs.Float64Var(&f.maxThink, "max-think-seconds", 0, "cap per move in seconds (0: no cap, remaining − 0.75 s, the engine plans its clock; max 300)")
	fs.UintVar(&f.ttBits, "tt-bits", 19, "built-in engine: log2 of transposition-table entries (10–26); engine:tt-bits=N says it in --engine")
	fs.BoolVar(&f.ponder, "ponder", false, "built-in engine: think on the opponent's time, on cores no leg is searching with (a search takes them back at once)")
	fs.IntVar(&f.threads, "threads", runtime.GOMAXPROCS(0), "built-in engine: cores its legs share (1–64): a leg searches on every core free when it starts, and gives a core back when another leg starts")
	fs.BoolVar(&f.verbose, "v", false, "debug logging")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return &f, nil
}

// check checks the flags' values.
func (f *flags) check() error {
	if err := checkURLs(f.api, f.streamURL); err != nil {
		return err
	}
	switch {
	case f.maxThink < 0 || f.maxThink > 300:
		return fmt.Errorf("--max-think-seconds %v outside 0–300", f.maxThink)
	case f.maxRuntime < 0:
		return fmt.Errorf("--max-runtime %v is negative", f.maxRuntime)
	case len(f.engineName) > 120 || strings.ContainsAny(f.engineName, `/\`):
		return errors.New("--engine-name must be at most 120 characters and contain no path")
	case len(f.cpuName) > 120:
		return errors.New("--cpu-name must be at most 120 characters")
	case f.ttBits < 10 || f.ttBits > 26:
		return fmt.Errorf("--tt-bits %d outside 10–26", f.ttBits)
	case f.threads < 1 || f.threads > 64:
		return fmt.Errorf("--threads %d outside 1–64", f.threads)
	case f.nbEngine && f.engineSpec == "":
		return errors.New("--engine-nboard needs an --engine command")
	case f.nbDepth < 0:
		return fmt.Errorf("--nboard-depth %d is negative", f.nbDepth)
	}
	return nil
}

// engine is the player the flags name, started one per leg, and its
// name for the environment report. The built-in engine's legs share the
// cores of --threads: a leg searches on both while the other waits for
// the opponent, and on one while both search; each leg has its own
// searcher and table.
func (f *flags) engine(stderr io.Writer) (func() wire.Engine, string, error) {
	p, err := f.player()
	if err != nil {
		return nil, "", fmt.Errorf("--engine: %w", err)
	}
	name := "gamebot othello (Go, native)"
	switch p.Kind {
	case players.KindNBoard:
		name = fmt.Sprintf("NBoard engine command (%d chars)", len(p.Command))
	case players.KindCommand:
		name = fmt.Sprintf("engine command (%d chars)", len(p.Command))
	}
	if p.Kind == players.KindEngine {
		go othello.Preload(p.Engine) // while the connector logs in and looks for matches
	}
	cores := othello.NewCores(f.threads)
	return func() wire.Engine {
		// The leg's mode is not known yet: the connector asks an NBoard
		// engine std positions only.
		e, err := p.Start(players.Leg{Mode: othello.Std, Timed: true, Stderr: stderr, Cores: cores})
		if err != nil {
			return wire.Failed(err)
		}
		return e
	}, name, nil
}

// player reads --engine, the built-in engine's flags and the older
// NBoard flags.
func (f *flags) player() (players.Player, error) {
	if f.nbEngine {
		return players.NBoard(f.engineSpec, f.engineSpec, f.nbDir, f.nbDepth), nil
	}
	builtin := []spec.Option{{Key: "tt-bits", Value: fmt.Sprint(f.ttBits)}, {Key: "threads", Value: fmt.Sprint(f.threads)}, {Key: "ponder", Value: fmt.Sprint(f.ponder)}}
	if f.engineSpec == "" {
		return players.Engine("engine", builtin...)
	}
	sp, err := spec.Parse(f.engineSpec)
	if err == nil && sp.Is(players.KindEngine) {
		opts, err := sp.Options()
		if err != nil {
			return players.Player{}, err
		}
		return players.Engine(sp.Name(), append(builtin, opts...)...)
	}
	return players.Parse(f.engineSpec)
}

func checkURLs(api, stream string) error {
	a, err := url.Parse(api)
	if err != nil || a.Scheme != "https" || a.Host == "" {
		return fmt.Errorf("--api %q: an https:// URL is required", api)
	}
	s, err := url.Parse(stream)
	if err != nil || s.Scheme != "https" || s.Host == "" {
		return fmt.Errorf("--stream-url %q: an https:// URL is required", stream)
	}
	if s.Host != a.Host {
		return fmt.Errorf("--stream-url host %q must be the API host %q", s.Host, a.Host)
	}
	return nil
}
