package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/giretra/remote"
	"github.com/botarena/gamebot/giretra/report"
	"github.com/botarena/gamebot/giretra/wire"
	"github.com/botarena/gamebot/internal/cli"
)

const usageText = `giretra-ref: a local Giretra referee, faithful to the Giretra engine.

Usage (giretra-manage's commands, spelled as the engine spells them, plus ours):
  giretra-ref validate  <bot> [flags]             protocol check (target 151, bot at Bottom+Top, opponent RandomPlayer)
  giretra-ref benchmark [bot-a] [bot-b] [flags]   strength (target 500, Colour sweep = 25×multiplier;
                                                  defaults DeterministicPlayer vs CalculatingPlayer)
  giretra-ref swiss     [bots…] [flags]           referee.Swiss tournament (target 1000, 1000 rounds; default: every agent)
  giretra-ref compare   -baseline A -candidate B [opponents…]
                                                  regression gate: both versions on the same deals, stops
                                                  when the difference is clear, exit 1 if B is worse
  giretra-ref show      <record> [-match N] [-deal N]   replay a recorded deal card by card
  giretra-ref report    <dir> -o report.html      one self-contained HTML page from a -record folder
  giretra-ref losses    <dir> <reference dir>    the deals a better player (the bot told every hand)
                                                  did better on, classed by the first decision that differs

A bot is an http(s) URL of a running server, a folder with bot.meta.json
(launched as the engine does: init, PORT, LAUNCHER_PID, GET /health every
200 ms, smoke-test session), an engine agent (RandomPlayer/Kialasoa,
CalculatingPlayer/Razazavavy, DeterministicPlayer/Eva, BadPlayer/Sakabelou),
one of our agents (bad, random, calculating, eva, noisy-eva, bold-eva), our bot in
this process (bot[:OPTIONS], giretra-strength's players), or the AgentName
or DisplayName of a bot in external-bots/*/bot.meta.json of the checkout
around the working directory (-bots DIR to look elsewhere). NAME=BOT names
it NAME in the reports.

Exit status: 0 pass, 1 violations/crashes (validate), an aborted run, or a
worse candidate (compare), 2 usage or infrastructure error (init, launch,
health) or an interrupted run.

Run "giretra-ref <command> -h" for a command's flags. Flags may follow the
bots; -x and --x are the same flag; a boolean flag may be followed by true
or false (--shuffle false), as in giretra-manage.
`

// run is the command: args are the mode, then flags and bots in any order.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) < 1 {
		printUsage(stderr)
		return usageErr("missing command")
	}
	switch args[0] {
	case "show":
		return runShow(args[1:], stdout, stderr)
	case "report":
		return runReport(args[1:], stdout, stderr)
	case "losses":
		return runLosses(args[1:], stdout, stderr)
	}
	o, err := parseOptions(args[0], args[1:], stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if o.drawnSeed {
		fmt.Fprintf(stderr, "giretra-ref: seed %d\n", o.Seed)
	}
	if o.mode == "help" {
		printUsage(stdout)
		return nil
	}
	// The bar is drawn only where a person watches: a terminal, outside CI.
	var bar *progressBar
	if !o.noProgress && getenv("CI") == "" && cli.IsTerminal(stderr) {
		bar = &progressBar{w: stderr}
		o.Progress = bar.draw
	}
	o.Log = func(msg string) { fmt.Fprintf(stderr, "giretra-ref: %s\n", msg) }
	o.Registry = players.NewRegistry(o.botsDir, func(msg string) { fmt.Fprintf(stderr, "Warning: %s\n", msg) })
	err = play(ctx, o, stdout, stderr)
	bar.finish()
	var se *players.SpecError
	if errors.As(err, &se) {
		return usageErr("%v", err)
	}
	return err
}

// play runs a command that plays matches and prints its report: as JSON
// with -json, else as text. The error is the exit status's: errFailed
// when the run failed, the interrupt when a signal cut it short, then a
// record that could not be written.
func play(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	emit := func(rep any, text func()) error {
		if o.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		text()
		return nil
	}
	switch o.mode {
	case "validate":
		return playValidate(ctx, o, emit, stdout)
	case "benchmark":
		return playBenchmark(ctx, o, emit, stdout)
	case "swiss":
		return playSwiss(ctx, o, emit, stdout, stderr)
	case "compare":
		return playCompare(ctx, o, emit, stdout)
	}
	return usageErr("unknown command %q", o.mode)
}

// emitter prints a report: as JSON with -json, else by text.
type emitter func(rep any, text func()) error

// outcome is the error of a run whose report is printed: errFailed when
// it failed, the interrupt when a signal cut it short, else err.
func outcome(ctx context.Context, failed bool, err error) error {
	switch {
	case failed:
		return errFailed
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return err
}

func playValidate(ctx context.Context, o *options, emit emitter, stdout io.Writer) error {
	if len(o.args) != 1 {
		return usageErr("validate needs exactly one bot (URL, folder or agent name)")
	}
	rep, err := referee.Validate(ctx, referee.ValidateConfig{Setup: o.Setup, Bot: o.args[0], Opponent: o.opponent, Matches: o.matches,
		MaxDecisionTime: time.Duration(o.limitMS) * time.Millisecond, Determinism: o.determinism})
	if rep == nil {
		return err
	}
	if perr := emit(rep, func() { report.ValidateText(stdout, rep, o.verbose) }); perr != nil {
		return perr
	}
	return outcome(ctx, rep.Failed(), err)
}

func playBenchmark(ctx context.Context, o *options, emit emitter, stdout io.Writer) error {
	if len(o.args) > 2 {
		return usageErr("benchmark takes at most two bots (URL, folder or agent name each)")
	}
	c := referee.BenchmarkConfig{Setup: o.Setup, Matches: o.matches, K: o.eloK, EloA: o.elo1, EloB: o.elo2, Duplicate: o.duplicate}
	if len(o.args) > 0 {
		c.A = o.args[0]
	}
	if len(o.args) > 1 {
		c.B = o.args[1]
	}
	rep, err := referee.Benchmark(ctx, c)
	if rep == nil {
		return err
	}
	if perr := emit(rep, func() { report.BenchmarkText(stdout, rep) }); perr != nil {
		return perr
	}
	return outcome(ctx, rep.Aborted != "", err)
}

func playSwiss(ctx context.Context, o *options, emit emitter, stdout, stderr io.Writer) error {
	c := referee.SwissConfig{Setup: o.Setup, Bots: o.args, Rounds: o.rounds, Elo: o.eloInit, KMax: o.kMax, KMin: o.kMin, KHalfLife: o.kHalfLife}
	if !o.json {
		c.Round = func(r referee.SwissRound) { report.SwissRoundText(stdout, &c, r) }
	}
	rep, err := referee.Swiss(ctx, c)
	if errors.Is(err, referee.ErrTooFewEntrants) {
		fmt.Fprintf(stdout, "Error: At least 2 agent factories are required for a Swiss tournament.\nAvailable: %s\n", o.Registry.Available())
		return errFailed
	}
	if err != nil {
		return err
	}
	if err := emit(rep, func() { report.SwissText(stdout, rep) }); err != nil {
		return err
	}
	if rep.Error != "" {
		fmt.Fprintf(stderr, "Error: %s\n", rep.Error)
	}
	return outcome(ctx, rep.Error != "", nil)
}

func playCompare(ctx context.Context, o *options, emit emitter, stdout io.Writer) error {
	if o.baseline == "" || o.candidate == "" {
		return usageErr("compare needs -baseline and -candidate")
	}
	rep, err := referee.Compare(ctx, referee.CompareConfig{Setup: o.Setup, Baseline: o.baseline, Candidate: o.candidate, Opponents: o.args,
		MaxPairs: o.matches, Margin: o.margin, Alpha: o.alpha, Beta: o.alpha, MinPairs: o.minPairs})
	if rep == nil {
		return err
	}
	if perr := emit(rep, func() { report.CompareText(stdout, rep) }); perr != nil {
		return perr
	}
	return outcome(ctx, rep.Aborted != "" || rep.Verdict == referee.VerdictWorse, err)
}

func printUsage(w io.Writer) { fmt.Fprint(w, usageText) }

// alias registers name as another spelling of the flag target.
func alias(fs *flag.FlagSet, name, target string) {
	f := fs.Lookup(target)
	fs.Var(f.Value, name, "same as -"+target)
}

// options are the parsed command line: the shared setup and each
// command's own flags.
type options struct {
	referee.Setup
	mode       string
	args       []string // the bots
	drawnSeed  bool     // -seed 0: the seed was drawn at random
	botsDir    string
	json       bool
	noProgress bool
	verbose    bool
	matches    int

	opponent    string // validate
	limitMS     int
	determinism bool

	eloK, elo1, elo2 float64 // benchmark
	duplicate        bool

	rounds                         int // swiss
	eloInit, kMax, kMin, kHalfLife float64

	baseline, candidate string // compare
	margin, alpha       float64
	minPairs            int
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
	fs.IntVar(&o.Target, "target", defTarget, "target score (validate 151, benchmark and compare 500, swiss 1000)")
	alias(fs, "t", "target")
	fs.IntVar(&o.Sweep, "sweep", defSweep, "match points × multiplier for a Colour sweep (benchmark, swiss, compare 25); 0 = the sweep wins the match (validate)")
	fs.Int64Var(&o.Seed, "seed", 1, "seed for decks, opponents and session seeds (0: a random seed, printed); session seeds are sent to bots only when -seed is given, as the engine does")
	alias(fs, "s", "seed")
	fs.BoolVar(&o.Shuffle, "shuffle", true, "decks from the seeded stream; --shuffle false draws them from an unseeded one, as giretra-manage does (not reproducible)")
	fs.IntVar(&o.Concurrency, "concurrency", 1, "matches played at once (each has its own sessions)")
	dialect := fs.String("dialect", "engine", "wire shapes sent to bot servers: engine or seed (the seed document's)")
	notify := fs.String("notify", "", `notifications sent to bots given by URL: "all" (default), "none", or a comma list such as deal-started,negotiation-completed (folders use bot.meta.json)`)
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.BoolVar(&o.noProgress, "no-progress", false, "no progress bar (it is only drawn when stderr is a terminal)")
	fs.DurationVar(&o.DecisionTimeout, "decision-timeout", remote.DecisionTimeout, "HTTP timeout of decisions and session creation")
	fs.DurationVar(&o.NotifyTimeout, "notify-timeout", remote.NotifyTimeout, "HTTP timeout of notifications")
	fs.StringVar(&o.RecordDir, "record", "", "write a game record per match (JSON Lines) into this folder: hands, cut, bids, tricks, scores, every HTTP exchange")
	fs.StringVar(&o.botsDir, "bots", "", "folder whose subfolders hold bot.meta.json (default: external-bots/ of the checkout around the working directory)")
	fs.BoolVar(&o.verbose, "v", false, "list every violation, crash and warning")
	if mode != "swiss" {
		fs.StringVar(&o.Seats, "seats", "team1", "where the (first) bot sits: team1 (Bottom+Top), team2 (Left+Right), alternate")
		fs.StringVar(&o.Partner, "partner", "", "the first bot's partner (an agent, URL or folder): the bot plays one seat of its team (Bottom or Left), the partner the other")
	}
	commandFlags(fs, mode, o)
	return fs, func() error { return o.check(fs, mode, *dialect, *notify) }
}

// commandFlags are each command's own flags.
func commandFlags(fs *flag.FlagSet, mode string, o *options) {
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
}

// check completes the options once the flags are parsed (the seeds, the
// dialect, the notifications) and refuses values out of range.
func (o *options) check(fs *flag.FlagSet, mode, dialect, notify string) error {
	fs.Visit(func(f *flag.Flag) { o.Seeded = o.Seeded || f.Name == "seed" || f.Name == "s" })
	if o.Seed == 0 {
		o.Seed, o.drawnSeed = rand.Int64N(1_000_000_000)+1, true
	}
	if !o.Shuffle {
		o.DeckSeed = rand.Int64() // not reproducible, as giretra-manage --shuffle false
	}
	switch strings.ToLower(dialect) {
	case "engine":
		o.Dialect = wire.Engine
	case "seed":
		o.Dialect = wire.Seed
	default:
		return usageErr("bad -dialect %q (engine or seed)", dialect)
	}
	switch strings.ToLower(notify) {
	case "", "all":
	case "none":
		o.Notify = &[6]bool{}
	default:
		var n [6]bool
		for name := range strings.SplitSeq(notify, ",") {
			k, ok := giretra.ParseEventKind(strings.ToLower(strings.TrimSpace(name)))
			if !ok {
				return usageErr("-notify: unknown notification %q (deal-started, negotiation-completed, card-played, trick-completed, deal-ended, match-ended)", name)
			}
			n[k] = true
		}
		o.Notify = &n
	}
	switch o.Seats {
	case "", "team1", "team2", "alternate":
	default:
		return usageErr("bad -seats %q (team1, team2 or alternate)", o.Seats)
	}
	if mode == "swiss" && o.rounds < 1 || mode != "swiss" && o.matches < 1 || o.Target < 1 || o.Sweep < 0 || o.Concurrency < 1 {
		return usageErr("-n (-r), -target and -concurrency must be positive, -sweep not negative")
	}
	if mode == "compare" && (o.margin <= 0 || o.margin >= 1 || o.alpha <= 0 || o.alpha >= 0.5) {
		return usageErr("-margin must be in (0, 1), -alpha in (0, 0.5)")
	}
	return nil
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

// usageError is a command line the referee cannot run: exit status 2,
// and a pointer to the help.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg + " (see giretra-ref help)" }

func usageErr(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }
