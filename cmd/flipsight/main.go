// Command flipsight connects a bot to FlipSight (othelloclub.com) directly:
// it speaks the agent API and the event stream, accepts challenges, and
// plays every game mode with the built-in Go engine (or an --engine command
// speaking the official connector's JSON-line protocol, or with
// --engine-nboard an NBoard engine, std only).
//
// The token is read only from the environment variable FS_BOT_TOKEN.
// Exit codes: 0 normal, 2 token missing or rejected, 3 --max-runtime
// reached, 1 other errors.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/nboard"
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
	fs := flag.NewFlagSet("flipsight", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stderr = jsonline.SyncWriter(stderr) // the log and every engine process share it
	engineCmd := fs.String("engine", "", "engine command speaking the JSON-line protocol (default: the built-in Go engine), one process per leg")
	nbEngine := fs.Bool("engine-nboard", false, "the --engine command speaks NBoard (std only; other modes get the first legal move), e.g. NTest")
	nbDepth := fs.Int("nboard-depth", 0, "NBoard engine: set depth N (0: the engine's default)")
	nbDir := fs.String("nboard-dir", "", "NBoard engine: working directory (where it finds its data)")
	engineName := fs.String("engine-name", "", "engine name for the environment report (≤120 chars, no paths)")
	cpuName := fs.String("cpu-name", "", "CPU name for the environment report (≤120 chars; default auto-detected)")
	practice := fs.Bool("practice", false, "report environment.practice: true (no auto matches, unrated bot games)")
	onceMatch := fs.Int64("once-match", 0, "handle only this match id (negative for human games; other challenges are left alone) and exit when it is over")
	maxRuntime := fs.Float64("max-runtime", 0, "exit with code 3 after this many seconds (0: no limit)")
	noStream := fs.Bool("no-stream", false, "poll only, without the event stream")
	api := fs.String("api", flipsight.DefaultAPI, "agent API URL (HTTPS)")
	streamURL := fs.String("stream-url", flipsight.DefaultStream, "event stream URL (HTTPS, on the API host)")
	// No cap by default: our engine plans its clock (at most half the
	// budget a move, and its fail-low extension within three quarters of
	// it), and the connector kills it at the budget anyway. The official
	// connector's 10 s guards engines that do not plan; for ours it
	// halved the first exact solve's time.
	maxThink := fs.Float64("max-think-seconds", 0, "cap per move in seconds (0: no cap, remaining − 0.75 s, the engine plans its clock; max 300)")
	ttBits := fs.Uint("tt-bits", 19, "built-in engine: log2 of transposition-table entries (10–26)")
	ponder := fs.Bool("ponder", false, "built-in engine: think on the opponent's time, on cores no leg is searching with (a search takes them back at once)")
	threads := fs.Int("threads", runtime.GOMAXPROCS(0), "built-in engine: cores its legs share (1–64): a leg searches on every core free when it starts, and gives a core back when another leg starts")
	verbose := fs.Bool("v", false, "debug logging")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	token := strings.TrimSpace(getenv("FS_BOT_TOKEN"))
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if token == "" || !strings.HasPrefix(token, "fsbm_") || strings.ContainsAny(token, " \t\r\n") {
		logger.Error(errToken.Error())
		return errToken
	}
	if err := checkURLs(*api, *streamURL); err != nil {
		return err
	}
	if *maxThink < 0 || *maxThink > 300 {
		return fmt.Errorf("--max-think-seconds %v outside 0–300", *maxThink)
	}
	if *maxRuntime < 0 {
		return fmt.Errorf("--max-runtime %v is negative", *maxRuntime)
	}
	if len(*engineName) > 120 || strings.ContainsAny(*engineName, `/\`) {
		return errors.New("--engine-name must be at most 120 characters and contain no path")
	}
	if len(*cpuName) > 120 {
		return errors.New("--cpu-name must be at most 120 characters")
	}
	if *ttBits < 10 || *ttBits > 26 {
		return fmt.Errorf("--tt-bits %d outside 10–26", *ttBits)
	}
	if *threads < 1 || *threads > 64 {
		return fmt.Errorf("--threads %d outside 1–64", *threads)
	}
	if *nbEngine && *engineCmd == "" {
		return errors.New("--engine-nboard needs an --engine command")
	}
	if *nbDepth < 0 {
		return fmt.Errorf("--nboard-depth %d is negative", *nbDepth)
	}
	// One engine per leg.
	var newEngine func() wire.Engine
	name := "gamebot othello (Go, native)"
	switch {
	case *nbEngine:
		newEngine = func() wire.Engine {
			return &nboard.Engine{Command: *engineCmd, Dir: *nbDir, Depth: *nbDepth, Stderr: stderr}
		}
		name = fmt.Sprintf("NBoard engine command (%d chars)", len(*engineCmd))
	case *engineCmd != "":
		newEngine = func() wire.Engine { return &jsonline.Engine{Command: *engineCmd, Stderr: stderr} }
		name = fmt.Sprintf("engine command (%d chars)", len(*engineCmd))
	default:
		// One engine, one searcher and its table, per (match, leg): the two
		// legs of a match never take each other's table. They share the
		// cores: a leg searches on both while the other waits for the
		// opponent, and on one while both search.
		cores := othello.NewCores(*threads)
		newEngine = func() wire.Engine {
			e := othello.NewEngine(othello.EngineOptions{TTBits: *ttBits, Pool: 1, Threads: *threads, Cores: cores})
			if *ponder {
				return &wire.Pondering{E: e}
			}
			return wire.InProcess{E: e}
		}
	}
	env := flipsight.Environment{CPU: *cpuName, OS: osName(), Engine: *engineName, Practice: *practice}
	if env.CPU == "" {
		env.CPU = detectCPU()
	}
	if env.Engine == "" {
		env.Engine = name
	}
	o := flipsight.Options{
		Client:     &flipsight.Client{HTTP: client, API: *api, Stream: *streamURL, Token: token},
		NewEngine:  newEngine,
		Env:        env,
		Logger:     logger,
		NoStream:   *noStream,
		OnceMatch:  *onceMatch,
		MaxRuntime: time.Duration(*maxRuntime * float64(time.Second)),
		MaxThink:   time.Duration(*maxThink * float64(time.Second)),
	}
	logger.Info("connecting to FlipSight", "api", *api, "stream", !*noStream, "engine", env.Engine)
	err := flipsight.NewAgent(o).Run(ctx)
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

func osName() string { return truncate(runtime.GOOS+"/"+runtime.GOARCH, 120) }

// detectCPU reads the CPU model from /proc/cpuinfo (Linux), else the
// architecture and core count.
func detectCPU() string {
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				return truncate(fmt.Sprintf("%s (%d threads)", strings.TrimSpace(v), runtime.NumCPU()), 120)
			}
		}
	}
	return truncate(fmt.Sprintf("%s, %d threads", runtime.GOARCH, runtime.NumCPU()), 120)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
