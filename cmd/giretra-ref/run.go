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

	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/meta"
)

const usageText = `giretra-ref: a local Giretra referee, faithful to the Giretra engine.

Usage (giretra-manage's commands, spelled as the engine spells them, plus ours):
  giretra-ref validate  <bot> [flags]             protocol check (target 151, bot at Bottom+Top, opponent RandomPlayer)
  giretra-ref benchmark [bot-a] [bot-b] [flags]   strength (target 500, Colour sweep = 25×multiplier;
                                                  defaults DeterministicPlayer vs CalculatingPlayer)
  giretra-ref swiss     [bots…] [flags]           Swiss tournament (target 1000, 1000 rounds; default: every agent)
  giretra-ref compare   -baseline A -candidate B [opponents…]
                                                  regression gate: both versions on the same deals, stops
                                                  when the difference is clear, exit 1 if B is worse
  giretra-ref show      <record> [-match N] [-deal N]   replay a recorded deal card by card
  giretra-ref report    <dir> -o report.html      one self-contained HTML page from a -record folder

A bot is an http(s) URL of a running server, a folder with bot.meta.json
(launched as the engine does: init, PORT, LAUNCHER_PID, GET /health every
200 ms, smoke-test session), an engine agent (RandomPlayer/Kialasoa,
CalculatingPlayer/Razazavavy, DeterministicPlayer/Eva), one of our agents
(random, calculating, eva, noisy-eva), or the AgentName or DisplayName of a
bot in external-bots/*/bot.meta.json of the checkout around the working
directory (-bots DIR to look elsewhere).

Exit status: 0 pass, 1 violations/crashes (validate), an aborted run, or a
worse candidate (compare), 2 usage or infrastructure error (init, launch,
health) or an interrupted run.

Run "giretra-ref <command> -h" for a command's flags. Flags may follow the
bots; -x and --x are the same flag; a boolean flag may be followed by true
or false (--shuffle false), as in giretra-manage.
`

// runEnv is what run reads (the environment) and writes to.
type runEnv struct {
	getenv func(string) string
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
	shuffle     bool // false: decks from an unseeded stream, as giretra-manage --shuffle false
	seats       string
	concurrency int
	dialect     wire.Dialect
	dialectName string
	notify      *[6]bool
	opponent    string
	partner     string
	limitMS     int
	verbose     bool
	determinism bool
	duplicate   bool
	json        bool
	noProgress  bool
	eloK        float64
	elo1, elo2  float64
	recordDir   string
	botsDir     string
	decisionTO  time.Duration
	notifyTO    time.Duration

	// swiss
	rounds                int
	eloInit               float64
	kMax, kMin, kHalfLife float64
	baseline, candidate   string // compare
	margin, alpha, beta   float64
	minPairs              int
	reg                   *registry
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + " (see giretra-ref help)" }

func usageErr(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// run is the command: args are the mode, then flags and bots in any order.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	env := &runEnv{getenv: getenv, stdout: stdout, stderr: stderr}
	if len(args) < 1 {
		printUsage(stderr)
		return usageErr("missing command")
	}
	switch args[0] {
	case "show":
		return runShow(args[1:], env)
	case "report":
		return runReport(args[1:], env)
	}
	o, err := parseOptions(args[0], args[1:], stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
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
	case "swiss":
		return runSwiss(ctx, o, env)
	case "compare":
		return runCompare(ctx, o, env)
	}
	return usageErr("unknown command %q", o.mode)
}

func printUsage(w io.Writer) { fmt.Fprint(w, usageText) }

// alias registers name as another spelling of the flag target.
func alias(fs *flag.FlagSet, name, target string) {
	f := fs.Lookup(target)
	fs.Var(f.Value, name, "same as -"+target)
}

func newFlagSet(mode string, o *options, w io.Writer) (*flag.FlagSet, func() error) {
	fs := flag.NewFlagSet(mode, flag.ContinueOnError)
	fs.SetOutput(w)
	defMatches, defTarget, defSweep := 100, 151, 0
	switch mode {
	case "benchmark":
		defMatches, defTarget, defSweep = 1000, 500, 25
	case "swiss":
		defMatches, defTarget, defSweep = 0, 1000, 25
	case "compare":
		defMatches, defTarget, defSweep = 500, 500, 25
	}
	fs.Usage = func() {
		fmt.Fprintf(w, "giretra-ref %s: flags (-x and --x are the same; giretra-manage's spellings are aliases)\n", mode)
		fs.PrintDefaults()
	}
	if mode != "swiss" {
		nText := "number of matches (validate 100, benchmark 1000)"
		if mode == "compare" {
			nText = "at most this many deal sequences (each played by both versions, in both seatings, against every opponent)"
		}
		fs.IntVar(&o.matches, "n", defMatches, nText)
		alias(fs, "matches", "n")
	}
	fs.IntVar(&o.target, "target", defTarget, "target score (validate 151, benchmark and compare 500, swiss 1000)")
	alias(fs, "t", "target")
	fs.IntVar(&o.sweep, "sweep", defSweep, "match points × multiplier for a Colour sweep (benchmark, swiss, compare 25); 0 = the sweep wins the match (validate)")
	fs.Int64Var(&o.seed, "seed", 1, "seed for decks, opponents and session seeds (0: a random seed, printed); session seeds are sent to bots only when -seed is given, as the engine does")
	alias(fs, "s", "seed")
	fs.BoolVar(&o.shuffle, "shuffle", true, "decks from the seeded stream; --shuffle false draws them from an unseeded one, as giretra-manage does (not reproducible)")
	fs.IntVar(&o.concurrency, "concurrency", 1, "matches played at once (each has its own sessions)")
	dialect := fs.String("dialect", "engine", "wire shapes sent to bot servers: engine or seed (the seed document's)")
	notify := fs.String("notify", "", `notifications sent to bots given by URL: "all" (default), "none", or a comma list such as deal-started,negotiation-completed (folders use bot.meta.json)`)
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.BoolVar(&o.noProgress, "no-progress", false, "no progress bar (it is only drawn when stderr is a terminal)")
	fs.DurationVar(&o.decisionTO, "decision-timeout", remote.DecisionTimeout, "HTTP timeout of decisions and session creation")
	fs.DurationVar(&o.notifyTO, "notify-timeout", remote.NotifyTimeout, "HTTP timeout of notifications")
	fs.StringVar(&o.recordDir, "record", "", "write a game record per match (JSON Lines) into this folder: hands, cut, bids, tricks, scores, every HTTP exchange")
	fs.StringVar(&o.botsDir, "bots", "", "folder whose subfolders hold bot.meta.json (default: external-bots/ of the checkout around the working directory)")
	fs.BoolVar(&o.verbose, "v", false, "list every violation, crash and warning")
	if mode != "swiss" {
		fs.StringVar(&o.seats, "seats", "team1", "where the (first) bot sits: team1 (Bottom+Top), team2 (Left+Right), alternate")
		fs.StringVar(&o.partner, "partner", "", "the first bot's partner (an agent, URL or folder): the bot plays one seat of its team (Bottom or Left), the partner the other")
	}
	switch mode {
	case "validate":
		fs.StringVar(&o.opponent, "opponent", "random", "the opponent at Left+Right (agent, URL or folder; giretra-manage's default RandomPlayer)")
		alias(fs, "o", "opponent")
		fs.IntVar(&o.limitMS, "timeout", 0, "decision time limit in ms; slower decisions are violations (0 = none)")
		fs.BoolVar(&o.determinism, "d", false, "replay twice against a fresh seeded random opponent and compare the bot's decisions")
		alias(fs, "determinism", "d")
		alias(fs, "verbose", "v")
	case "benchmark":
		fs.Float64Var(&o.eloK, "k", 24, "Elo K factor")
		alias(fs, "k-factor", "k")
		fs.Float64Var(&o.elo1, "elo1", 1200, "initial Elo of the first bot (Team 1)")
		fs.Float64Var(&o.elo2, "elo2", 1200, "initial Elo of the second bot (Team 2)")
		fs.BoolVar(&o.duplicate, "duplicate", false, "duplicate format: each deal sequence is played twice, seats swapped, with the same cuts; paired results with 95% intervals")
	case "swiss":
		fs.IntVar(&o.rounds, "r", 1000, "number of rounds")
		alias(fs, "rounds", "r")
		fs.Float64Var(&o.eloInit, "elo", 1200, "initial Elo of every participant")
		fs.Float64Var(&o.kMax, "k", 40, "maximum Elo K factor (early rounds)")
		alias(fs, "k-max", "k")
		fs.Float64Var(&o.kMin, "k-min", 4, "minimum Elo K factor (late rounds)")
		fs.Float64Var(&o.kHalfLife, "k-half-life", 30, "matches until K is halfway between max and min")
	case "compare":
		fs.StringVar(&o.baseline, "baseline", "", "the version to compare against (URL, folder or agent)")
		fs.StringVar(&o.candidate, "candidate", "", "the new version (URL, folder or agent)")
		fs.Float64Var(&o.margin, "margin", 0.1, "the smallest difference in match win rate worth detecting (0.1 = 10 points)")
		fs.Float64Var(&o.alpha, "alpha", 0.05, "error rate of each sequential test")
		fs.IntVar(&o.minPairs, "min", 16, "deal sequences played before the test may stop")
	}
	check := func() error {
		fs.Visit(func(f *flag.Flag) { o.seeded = o.seeded || f.Name == "seed" || f.Name == "s" })
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
		case "", "team1", "team2", "alternate":
		default:
			return usageErr("bad -seats %q (team1, team2 or alternate)", o.seats)
		}
		if o.duplicate {
			o.seats = "alternate"
			o.matches += o.matches % 2 // whole pairs
		}
		if mode == "swiss" && o.rounds < 1 || mode != "swiss" && o.matches < 1 || o.target < 1 || o.sweep < 0 || o.concurrency < 1 {
			return usageErr("-n (-r), -target and -concurrency must be positive, -sweep not negative")
		}
		if mode == "compare" && (o.margin <= 0 || o.margin >= 1 || o.alpha <= 0 || o.alpha >= 0.5) {
			return usageErr("-margin must be in (0, 1), -alpha in (0, 0.5)")
		}
		o.beta = o.alpha
		o.reg = &registry{botsDir: o.botsDir, warnings: w}
		return nil
	}
	return fs, check
}

// spectreBools rewrites "-flag true|false" as "-flag=true|false" for the
// boolean flags of fs: giretra-manage (Spectre.Console) lets a boolean
// flag take the next word as its value, Go's flag package does not.
func spectreBools(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		name := strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || strings.Contains(name, "=") || i+1 >= len(args) {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			continue
		}
		if v := strings.ToLower(args[i+1]); v == "true" || v == "false" {
			out[len(out)-1] = a + "=" + v
			i++
		}
	}
	return out
}

// parseOptions parses flags wherever they appear among the bots.
func parseOptions(mode string, args []string, stderr io.Writer) (*options, error) {
	o := &options{mode: mode}
	switch mode {
	case "help", "-h", "--help", "-help":
		o.mode = "help"
		return o, nil
	case "validate", "benchmark", "swiss", "compare":
	default:
		return nil, usageErr("unknown command %q", mode)
	}
	fs, check := newFlagSet(mode, o, stderr)
	var err error
	if o.args, err = parseInterleaved(fs, spectreBools(fs, args)); err != nil {
		return nil, err
	}
	if err := check(); err != nil {
		return nil, err
	}
	return o, nil
}

// parseInterleaved parses flags wherever they appear among the
// positional arguments, which it returns. -h is flag.ErrHelp, any other
// problem a usage error.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return nil, usageErr("%v", err)
	}
	return pos, err
}

// parseOne parses a command that takes one positional argument.
func parseOne(fs *flag.FlagSet, args []string, what string) (string, error) {
	arg, err := cli.ParseOne(fs, args, what)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return "", usageErr("%v", err)
	}
	return arg, err
}

// emit prints a report: as JSON with -json, else as text.
func emit(o *options, env *runEnv, rep any, text func(io.Writer)) error {
	if o.json {
		return writeJSON(env.stdout, rep)
	}
	text(env.stdout)
	return nil
}

// ending is a run's error once its report is out: errFailed (exit 1)
// when it failed, the interrupt (exit 2) when a signal cut it short.
func ending(ctx context.Context, failed bool) error {
	switch {
	case failed:
		return errFailed
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return nil
}

// plan is the run-wide rules of the matches.
func (o *options) plan(command string) *plan {
	p := &plan{command: command, matches: o.matches, target: o.target, sweep: o.sweep, seed: o.seed, seeded: o.seeded,
		seats: o.seats, concurrency: o.concurrency, limitMS: o.limitMS, recordDir: o.recordDir, dialect: o.dialect,
		deckSeed: o.seed + 50000}
	if !o.shuffle {
		p.deckSeed = rand.Int64()
	}
	return p
}

// sideOptions are the flags that shape HTTP sides.
func (o *options) sideOptions() sideOptions {
	return sideOptions{dialect: o.dialect, notify: o.notify, concurrency: o.concurrency, decisionTO: o.decisionTO, notifyTO: o.notifyTO}
}

// open opens one bot of the command line.
func (o *options) open(ctx context.Context, spec string, logw io.Writer) (*side, error) {
	bs, err := o.reg.resolve(spec)
	if err != nil {
		return nil, err
	}
	return openSide(ctx, spec, bs, o.sideOptions(), logw)
}

// openSides opens both teams (and the first one's partner); on failure
// those already open are closed again.
func (o *options) openSides(ctx context.Context, specA, specB string, logw io.Writer) (*side, *side, *side, error) {
	a, err := o.open(ctx, specA, logw)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := o.open(ctx, specB, logw)
	if err != nil {
		a.close()
		return nil, nil, nil, err
	}
	if a.name == b.name {
		a.name, b.name = a.name+" (a)", b.name+" (b)"
	}
	var partner *side
	if o.partner != "" {
		if partner, err = o.open(ctx, o.partner, logw); err != nil {
			a.close()
			b.close()
			return nil, nil, nil, err
		}
		if partner.name == a.name || partner.name == b.name {
			partner.name += " (partner)"
		}
	}
	return a, b, partner, nil
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
	on := !o.noProgress && env.getenv("CI") == "" && isTerminal(env.stderr)
	return &progress{w: env.stderr, on: on, total: total}
}

func (p *progress) update(r *matchRecord) bool {
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
		return true
	}
	const width = 30
	n := min(width, p.done*width/max(1, p.total))
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d  first bot won %d  errors %d ", strings.Repeat("#", n), strings.Repeat(".", width-n), p.done, p.total, p.aWins, p.errs)
	return true
}

func (p *progress) finish() {
	if p.on && p.done > 0 {
		fmt.Fprintln(p.w)
	}
}
