package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/botarena/gamebot/giretra/referee"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/botarena/gamebot/giretra/remote"
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
one of our agents (bad, random, calculating, eva, noisy-eva), or the
AgentName or DisplayName of a
bot in external-bots/*/bot.meta.json of the checkout around the working
directory (-bots DIR to look elsewhere).

Exit status: 0 pass, 1 violations/crashes (validate), an aborted run, or a
worse candidate (compare), 2 usage or infrastructure error (init, launch,
health) or an interrupted run.

Run "giretra-ref <command> -h" for a command's flags. Flags may follow the
bots; -x and --x are the same flag; a boolean flag may be followed by true
or false (--shuffle false), as in giretra-manage.
`

// run is the command: args are the mode, then flags and bots in any order.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	env := &referee.Env{Getenv: getenv, Stdout: stdout, Stderr: stderr}
	if len(args) < 1 {
		printUsage(stderr)
		return referee.UsageErr("missing command")
	}
	switch args[0] {
	case "show":
		return runShow(args[1:], env)
	case "report":
		return runReport(args[1:], env)
	case "losses":
		return runLosses(args[1:], env)
	}
	o, err := parseOptions(args[0], args[1:], stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if o.DrawnSeed {
		fmt.Fprintf(stderr, "giretra-ref: seed %d\n", o.Seed)
	}
	switch o.Mode {
	case "help":
		printUsage(stdout)
		return nil
	case "validate":
		return referee.Validate(ctx, o, env)
	case "benchmark":
		return referee.Benchmark(ctx, o, env)
	case "swiss":
		return referee.Swiss(ctx, o, env)
	case "compare":
		return referee.Compare(ctx, o, env)
	}
	return referee.UsageErr("unknown command %q", o.Mode)
}

func printUsage(w io.Writer) { fmt.Fprint(w, usageText) }

// alias registers name as another spelling of the flag target.
func alias(fs *flag.FlagSet, name, target string) {
	f := fs.Lookup(target)
	fs.Var(f.Value, name, "same as -"+target)
}

func newFlagSet(mode string, o *referee.Options, w io.Writer) (*flag.FlagSet, func() error) {
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
		fs.IntVar(&o.Matches, "n", defMatches, nText)
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
	fs.BoolVar(&o.JSON, "json", false, "print the report as JSON")
	fs.BoolVar(&o.NoProgress, "no-progress", false, "no progress bar (it is only drawn when stderr is a terminal)")
	fs.DurationVar(&o.DecisionTO, "decision-timeout", remote.DecisionTimeout, "HTTP timeout of decisions and session creation")
	fs.DurationVar(&o.NotifyTO, "notify-timeout", remote.NotifyTimeout, "HTTP timeout of notifications")
	fs.StringVar(&o.RecordDir, "record", "", "write a game record per match (JSON Lines) into this folder: hands, cut, bids, tricks, scores, every HTTP exchange")
	fs.StringVar(&o.BotsDir, "bots", "", "folder whose subfolders hold bot.meta.json (default: external-bots/ of the checkout around the working directory)")
	fs.BoolVar(&o.Verbose, "v", false, "list every violation, crash and warning")
	if mode != "swiss" {
		fs.StringVar(&o.Seats, "seats", "team1", "where the (first) bot sits: team1 (Bottom+Top), team2 (Left+Right), alternate")
		fs.StringVar(&o.Partner, "partner", "", "the first bot's partner (an agent, URL or folder): the bot plays one seat of its team (Bottom or Left), the partner the other")
	}
	switch mode {
	case "validate":
		fs.StringVar(&o.Opponent, "opponent", "random", "the opponent at Left+Right (agent, URL or folder; giretra-manage's default RandomPlayer)")
		alias(fs, "o", "opponent")
		fs.IntVar(&o.LimitMS, "timeout", 0, "decision time limit in ms; slower decisions are violations (0 = none)")
		fs.BoolVar(&o.Determinism, "d", false, "replay twice against a fresh seeded random opponent and compare the bot's decisions")
		alias(fs, "determinism", "d")
		alias(fs, "verbose", "v")
	case "benchmark":
		fs.Float64Var(&o.EloK, "k", 24, "Elo K factor")
		alias(fs, "k-factor", "k")
		fs.Float64Var(&o.Elo1, "elo1", 1200, "initial Elo of the first bot (Team 1)")
		fs.Float64Var(&o.Elo2, "elo2", 1200, "initial Elo of the second bot (Team 2)")
		fs.BoolVar(&o.Duplicate, "duplicate", false, "duplicate format: each deal sequence is played twice, seats swapped, with the same cuts; paired results with 95% intervals")
	case "swiss":
		fs.IntVar(&o.Rounds, "r", 1000, "number of rounds")
		alias(fs, "rounds", "r")
		fs.Float64Var(&o.EloInit, "elo", 1200, "initial Elo of every participant")
		fs.Float64Var(&o.KMax, "k", 40, "maximum Elo K factor (early rounds)")
		alias(fs, "k-max", "k")
		fs.Float64Var(&o.KMin, "k-min", 4, "minimum Elo K factor (late rounds)")
		fs.Float64Var(&o.KHalfLife, "k-half-life", 30, "matches until K is halfway between max and min")
	case "compare":
		fs.StringVar(&o.Baseline, "baseline", "", "the version to compare against (URL, folder or agent)")
		fs.StringVar(&o.Candidate, "candidate", "", "the new version (URL, folder or agent)")
		fs.Float64Var(&o.Margin, "margin", 0.1, "the smallest difference in match win rate worth detecting (0.1 = 10 points)")
		fs.Float64Var(&o.Alpha, "alpha", 0.05, "error rate of each sequential test")
		fs.IntVar(&o.MinPairs, "min", 16, "deal sequences played before the test may stop")
	}
	check := func() error {
		fs.Visit(func(f *flag.Flag) { o.Seeded = o.Seeded || f.Name == "seed" || f.Name == "s" })
		if o.Seed == 0 {
			o.Seed, o.DrawnSeed = rand.Int64N(1_000_000_000)+1, true
		}
		switch strings.ToLower(*dialect) {
		case "engine":
			o.Dialect, o.DialectName = wire.Engine, "engine"
		case "seed":
			o.Dialect, o.DialectName = wire.Seed, "seed"
		default:
			return referee.UsageErr("bad -dialect %q (engine or seed)", *dialect)
		}
		switch strings.ToLower(*notify) {
		case "", "all":
		case "none":
			o.Notify = &[6]bool{}
		default:
			l := strings.Split(*notify, ",")
			for i := range l {
				l[i] = strings.TrimSpace(l[i])
			}
			n := referee.EventSet(l)
			o.Notify = &n
		}
		switch o.Seats {
		case "", "team1", "team2", "alternate":
		default:
			return referee.UsageErr("bad -seats %q (team1, team2 or alternate)", o.Seats)
		}
		if o.Duplicate {
			o.Seats = "alternate"
			o.Matches += o.Matches % 2 // whole pairs
		}
		if mode == "swiss" && o.Rounds < 1 || mode != "swiss" && o.Matches < 1 || o.Target < 1 || o.Sweep < 0 || o.Concurrency < 1 {
			return referee.UsageErr("-n (-r), -target and -concurrency must be positive, -sweep not negative")
		}
		if mode == "compare" && (o.Margin <= 0 || o.Margin >= 1 || o.Alpha <= 0 || o.Alpha >= 0.5) {
			return referee.UsageErr("-margin must be in (0, 1), -alpha in (0, 0.5)")
		}
		o.Beta = o.Alpha
		o.Registry = referee.NewRegistry(o.BotsDir, w)
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
func parseOptions(mode string, args []string, stderr io.Writer) (*referee.Options, error) {
	o := &referee.Options{Mode: mode}
	switch mode {
	case "help", "-h", "--help", "-help":
		o.Mode = "help"
		return o, nil
	case "validate", "benchmark", "swiss", "compare":
	default:
		return nil, referee.UsageErr("unknown command %q", mode)
	}
	fs, check := newFlagSet(mode, o, stderr)
	var err error
	if o.Args, err = parseInterleaved(fs, spectreBools(fs, args)); err != nil {
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
		return nil, referee.UsageErr("%v", err)
	}
	return pos, err
}

// parseOne parses a command that takes one positional argument.
func parseOne(fs *flag.FlagSet, args []string, what string) (string, error) {
	arg, err := cli.ParseOne(fs, args, what)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return "", referee.UsageErr("%v", err)
	}
	return arg, err
}
