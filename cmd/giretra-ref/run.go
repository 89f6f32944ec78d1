package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/enginehttp"
	"github.com/botarena/gamebot/meta"
)

const usageText = `giretra-ref: a local Giretra referee, faithful to the Giretra engine.

Usage:
  giretra-ref validate  [flags] <bot>           protocol check (target 151, bot at Bottom+Top)
  giretra-ref benchmark [flags] <bot-a> <bot-b> strength (target 500, Colour sweep = 25×multiplier)

A bot is an http(s) URL of a running server, a folder with bot.meta.json
(launched as the engine does: init, PORT, LAUNCHER_PID, GET /health every
200 ms, smoke-test session), or an in-process agent: random, calculating, eva.

Exit status: 0 pass, 1 violations/crashes (validate) or an aborted benchmark,
2 usage or infrastructure error (init, launch, health).

Flags (both modes; they may follow the bots):
`

// runEnv is where run writes.
type runEnv struct {
	stdout io.Writer
	stderr io.Writer
}

// options are the parsed command line.
type options struct {
	mode        string
	args        []string
	matches     int
	target      int
	sweep       int
	seed        int64
	seeded      bool // -seed was given: session seeds are sent to bots
	drawnSeed   bool // -seed 0: the seed was drawn at random
	seats       string
	concurrency int
	dialect     wire.Dialect
	dialectName string
	notify      *[6]bool
	opponent    string
	limitMS     int
	verbose     bool
	determinism bool
	json        bool
	noProgress  bool
	eloK        float64
	decisionTO  time.Duration
	notifyTO    time.Duration
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + " (see giretra-ref help)" }

func usageErr(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// run is the command: args are the mode, then flags and bots in any order.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	env := &runEnv{stdout: stdout, stderr: stderr}
	if len(args) < 1 {
		printUsage(stderr)
		return usageErr("missing mode")
	}
	o, err := parseOptions(args[0], args[1:], stderr)
	if err != nil {
		return err
	}
	if o.drawnSeed {
		fmt.Fprintf(stderr, "giretra-ref: seed %d\n", o.seed)
	}
	switch o.mode {
	case "help":
		printUsage(stdout)
		return nil
	case "validate":
		return runValidate(ctx, o, env)
	case "benchmark":
		return runBenchmark(ctx, o, env)
	}
	return usageErr("unknown mode %q", o.mode)
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, usageText)
	fs, _ := newFlagSet("validate", &options{}, w)
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func newFlagSet(mode string, o *options, w io.Writer) (*flag.FlagSet, func() error) {
	fs := flag.NewFlagSet(mode, flag.ContinueOnError)
	fs.SetOutput(w)
	defMatches, defTarget, defSweep := 100, 151, 0
	if mode == "benchmark" {
		defMatches, defTarget, defSweep = 1000, 500, 25
	}
	fs.IntVar(&o.matches, "n", defMatches, "number of matches (validate 100, benchmark 1000)")
	fs.IntVar(&o.target, "target", defTarget, "target score (validate 151, benchmark 500)")
	fs.IntVar(&o.sweep, "sweep", defSweep, "match points × multiplier for a Colour sweep (benchmark 25); 0 = the sweep wins the match (validate)")
	fs.Int64Var(&o.seed, "seed", 1, "seed for decks, opponents and session seeds (0: a random seed, printed); session seeds are sent to bots only when -seed is given, as the engine does")
	fs.StringVar(&o.seats, "seats", "team1", "where the (first) bot sits: team1 (Bottom+Top), team2 (Left+Right), alternate")
	fs.IntVar(&o.concurrency, "concurrency", 1, "matches played at once (each has its own sessions)")
	dialect := fs.String("dialect", "engine", "wire shapes sent to bot servers: engine or seed (the seed document's)")
	notify := fs.String("notify", "", `notifications sent to bots given by URL: "all" (default), "none", or a comma list such as deal-started,negotiation-completed (folders use bot.meta.json)`)
	fs.StringVar(&o.opponent, "opponent", "random", "validate: the opponent at Left+Right (agent, URL or folder)")
	fs.IntVar(&o.limitMS, "timeout", 0, "validate: decision time limit in ms; slower decisions are violations (0 = none)")
	fs.BoolVar(&o.verbose, "v", false, "list every violation, crash and warning")
	fs.BoolVar(&o.determinism, "d", false, "validate: replay twice against a fresh seeded random opponent and compare the bot's decisions")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.BoolVar(&o.noProgress, "no-progress", false, "no progress bar (it is only drawn when stderr is a terminal)")
	fs.Float64Var(&o.eloK, "k", 24, "benchmark: Elo K factor")
	fs.DurationVar(&o.decisionTO, "decision-timeout", enginehttp.DecisionTimeout, "HTTP timeout of decisions and session creation")
	fs.DurationVar(&o.notifyTO, "notify-timeout", enginehttp.NotifyTimeout, "HTTP timeout of notifications")
	check := func() error {
		fs.Visit(func(f *flag.Flag) { o.seeded = o.seeded || f.Name == "seed" })
		if o.seed == 0 {
			o.seed, o.drawnSeed = rand.Int64N(1_000_000_000)+1, true
		}
		switch strings.ToLower(*dialect) {
		case "engine":
			o.dialect, o.dialectName = wire.Engine, "engine"
		case "seed":
			o.dialect, o.dialectName = wire.Seed, "seed"
		default:
			return usageErr("bad -dialect %q (engine or seed)", *dialect)
		}
		switch strings.ToLower(*notify) {
		case "", "all":
		case "none":
			o.notify = &[6]bool{}
		default:
			l := strings.Split(*notify, ",")
			for i := range l {
				l[i] = strings.TrimSpace(l[i])
			}
			n := meta.EventSet(l)
			o.notify = &n
		}
		switch o.seats {
		case "team1", "team2", "alternate":
		default:
			return usageErr("bad -seats %q (team1, team2 or alternate)", o.seats)
		}
		if o.matches < 1 || o.target < 1 || o.sweep < 0 || o.concurrency < 1 {
			return usageErr("-n, -target and -concurrency must be positive, -sweep not negative")
		}
		return nil
	}
	return fs, check
}

// parseOptions parses flags wherever they appear among the bots.
func parseOptions(mode string, args []string, stderr io.Writer) (*options, error) {
	o := &options{mode: mode}
	switch mode {
	case "help", "-h", "--help", "-help":
		o.mode = "help"
		return o, nil
	case "validate", "benchmark":
	default:
		return nil, usageErr("unknown mode %q", mode)
	}
	fs, check := newFlagSet(mode, o, stderr)
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageErr("%v", err)
		}
		if fs.NArg() == 0 {
			break
		}
		o.args = append(o.args, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if err := check(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *options) plan() *plan {
	return &plan{matches: o.matches, target: o.target, sweep: o.sweep, seed: o.seed, seeded: o.seeded,
		seats: o.seats, concurrency: o.concurrency, limitMS: o.limitMS}
}

// openSides opens both teams; on failure the first is closed again.
func (o *options) openSides(ctx context.Context, specA, specB string, logw io.Writer) (*side, *side, error) {
	so := sideOptions{dialect: o.dialect, notify: o.notify, concurrency: o.concurrency, decisionTO: o.decisionTO, notifyTO: o.notifyTO}
	a, err := openSide(ctx, specA, so, logw)
	if err != nil {
		return nil, nil, err
	}
	b, err := openSide(ctx, specB, so, logw)
	if err != nil {
		a.close()
		return nil, nil, err
	}
	if a.name == b.name {
		a.name, b.name = a.name+" (a)", b.name+" (b)"
	}
	return a, b, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// progress draws a one-line bar on stderr when it is a terminal.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	total int
	done  int
	aWins int
	errs  int
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(env *runEnv, o *options, total int) *progress {
	on := !o.noProgress && os.Getenv("CI") == "" && isTerminal(env.stderr)
	return &progress{w: env.stderr, on: on, total: total}
}

func (p *progress) update(r *matchRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if r.Err != nil {
		if !errors.Is(r.Err, context.Canceled) {
			p.errs++
		}
	} else if r.Result.Winner == r.ATeam {
		p.aWins++
	}
	if !p.on {
		return
	}
	const width = 30
	n := p.done * width / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d  first bot won %d  errors %d ", strings.Repeat("#", n), strings.Repeat(".", width-n), p.done, p.total, p.aWins, p.errs)
}

func (p *progress) finish() {
	if p.on && p.done > 0 {
		fmt.Fprintln(p.w)
	}
}
