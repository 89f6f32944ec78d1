// Command othello-match plays othello/match's Campaign, two-leg FlipSight
// matches between two players named as othello/players reads them, from
// random starts (-seed; 0 draws one and prints it), and prints a line a
// match and a mode's summary: A's score (draws half), its 95% interval,
// the Elo difference it implies. Interrupted, it sums up what finished.
// report writes recorded legs as a page; losses solves recorded std legs
// at a few stages of the endgame, to say how many match points the two
// sides' endgames gave away; solve times two players' exact solves of
// FFO #40–#49 (or of self-play positions), side by side.
//
//	othello-match -mode std -n 200 -a "othello-engine" -b "othello-engine -depth 4"
//	othello-match -mode grand -n 20 -a engine -b engine:depth=2
//	othello-match losses -empties 22,20,18 records/
//	othello-match solve -a 'jsonline:othello-engine -depth 64 -threads 1' -b 'nboard:/opt/ntest/ntest x' -b-depth 24,25:26,26:27
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/stats"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/match"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
	othelloreport "github.com/botarena/gamebot/othello/report"
)

func main() { cli.Main("othello-match", run, cli.Status{Err: errFailures, Code: 3}) }

// errFailures is returned when engine A lost a leg on time, by an illegal
// move or by an engine failure (exit code 3).
var errFailures = errors.New("engine A had failures")

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "report" {
		return report(args[1:], stderr)
	}
	if len(args) > 0 && args[0] == "losses" {
		return losses(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "solve" {
		return solve(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("othello-match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stderr = jsonline.SyncWriter(stderr) // shared by every engine process
	cfg := match.CampaignConfig{Stderr: stderr}
	modes := fs.String("mode", "std", "game mode: std, anti, grand, octagon, reversi, a list of them, or all")
	fs.IntVar(&cfg.N, "n", 10, "matches per mode")
	engA := fs.String("a", "", "player A, as othello/players reads it: engine[:key=value,…] (this binary's engine in process: "+players.OptionNames()+"), jsonline:COMMAND, nboard[:depth=N,dir=D]:COMMAND, or a command (run with /bin/sh -c, one process per leg)")
	engB := fs.String("b", "", "player B, as -a")
	fs.DurationVar(&cfg.Clock, "clock", 60*time.Second, "clock per leg per colour")
	fs.DurationVar(&cfg.MaxThink, "max-think", 10*time.Second, "budget_ms cap (the connector's --max-think-seconds)")
	fs.DurationVar(&cfg.ClockB, "b-clock", 0, "engine B's own clock per leg (0: -clock), e.g. for a fixed-depth reference engine")
	fs.DurationVar(&cfg.MaxThinkB, "b-max-think", 0, "engine B's own budget_ms cap (0: -max-think)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed for the openings (0: a random seed, printed)")
	fs.IntVar(&cfg.Concurrency, "concurrency", 1, "matches played at once")
	fs.BoolVar(&cfg.Sequential, "sequential", false, "play each match's legs one after the other, not at once: with -concurrency 1 one engine searches at a time (an engine with threads=N has the cores to itself, as on FlipSight while the opponent thinks elsewhere)")
	quiet := fs.Bool("q", false, "print only the summary")
	bNBoard := fs.Bool("b-nboard", false, "the older form of -b nboard:COMMAND: the -b command speaks NBoard (std only)")
	nbDepth := fs.Int("nboard-depth", 0, "with -b-nboard: set depth N (0: the engine's default); nboard:depth=N:COMMAND says it in -b")
	nbDir := fs.String("nboard-dir", "", "with -b-nboard: the engine's working directory; nboard:dir=D:COMMAND says it in -b")
	sprtFlag := fs.String("sprt", "", "stop early on a sequential test of A−B Elo: \"elo0,elo1\" (α = β = 0.05), e.g. \"0,30\"")
	fs.StringVar(&cfg.Record, "record", "", "write each match's two legs to this folder (othello/record: othello-match report reads them)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if cfg.Players, err = playersOf(*engA, *engB, *bNBoard, *nbDir, *nbDepth); err != nil {
		return err
	}
	if cfg.Modes, err = othello.ParseModes(*modes); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	case cfg.N < 1 || cfg.Concurrency < 1:
		return errors.New("-n and -concurrency must be at least 1")
	case cfg.ClockB < 0 || cfg.MaxThinkB < 0:
		return errors.New("-b-clock and -b-max-think must not be negative")
	}
	if cfg.SPRT, err = sprtOf(*sprtFlag); err != nil {
		return err
	}
	if cfg.Record != "" {
		if err := os.MkdirAll(cfg.Record, 0o755); err != nil {
			return err
		}
	}
	if cfg.Seed == 0 {
		cfg.Seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "othello-match: seed %d\n", cfg.Seed)
	}
	rep, err := match.Campaign(ctx, cfg, func(e match.Event) {
		switch {
		case e.Err != nil:
			fmt.Fprintf(stderr, "othello-match: record: %v\n", e.Err)
		case e.Result != nil && !*quiet:
			printMatch(stdout, e.Mode, e.Match, *e.Result)
		case e.Result == nil:
			printSummary(stdout, e.Tally)
		}
	})
	switch {
	case ctx.Err() != nil && rep != nil:
		t := rep.Modes[len(rep.Modes)-1]
		fmt.Fprintf(stdout, "interrupted: the %s summary covers the %d matches finished\n", t.Mode, t.Matches)
		return fmt.Errorf("interrupted: %w", ctx.Err())
	case err != nil:
		return err
	case rep.FailedA():
		return errFailures
	}
	return nil
}

// playersOf reads -a and -b (and -b-nboard, the older form of nboard:).
func playersOf(a, b string, bNBoard bool, dir string, depth int) ([2]players.Player, error) {
	var out [2]players.Player
	if a == "" || b == "" {
		return out, errors.New("both -a and -b engines are required")
	}
	for i, text := range []string{a, b} {
		p, err := players.Parse(text)
		if err != nil {
			return out, fmt.Errorf("-%c: %w", 'a'+i, err)
		}
		out[i] = p
	}
	switch {
	case bNBoard && out[1].Kind != players.KindCommand:
		return out, errors.New("-b-nboard needs an NBoard engine command as -b, not the built-in engine")
	case !bNBoard && (depth != 0 || dir != ""):
		return out, errors.New("-nboard-depth and -nboard-dir are for an NBoard engine B: add -b-nboard")
	case depth < 0:
		return out, fmt.Errorf("-nboard-depth %d is negative", depth)
	case bNBoard:
		out[1] = players.NBoard(b, out[1].Command, dir, depth)
	}
	return out, nil
}

// sprtOf reads -sprt ("": none).
func sprtOf(s string) (*stats.SPRT, error) {
	var e0, e1 float64
	if s == "" {
		return nil, nil
	} else if _, err := fmt.Sscanf(s, "%g,%g", &e0, &e1); err != nil || e0 >= e1 {
		return nil, fmt.Errorf("-sprt %q: want \"elo0,elo1\" with elo0 < elo1", s)
	}
	return new(stats.EloSPRT(e0, e1, 0.05, 0.05)), nil
}

func printMatch(w io.Writer, mode othello.Mode, i int, r match.Result) {
	win := map[int]string{0: "A", 1: "B", -1: "draw"}[r.Winner]
	var notes []string
	for leg, l := range r.Legs {
		if l.Failed != 0 {
			notes = append(notes, fmt.Sprintf("leg %d: %s lost by %s (%s)", leg, record.WinnerName(l.Failed), l.Failure, l.FailureDetail))
		}
	}
	fmt.Fprintf(w, "%s #%d: A %d – B %d, winner %s; legs %v %v %s\n", mode, i+1, r.Totals[0], r.Totals[1], win,
		r.Legs[0].Result, r.Legs[1].Result, strings.Join(notes, "; "))
}

func printSummary(w io.Writer, t *match.Tally) {
	fmt.Fprintf(w, "== %s: %d matches: A won %d, lost %d, drew %d; discs A %d, B %d\n", t.Mode, t.Matches, t.Wins, t.Losses, t.Draws, t.Discs[0], t.Discs[1])
	if t.Matches > 0 {
		// Per-match scores, not a binomial count: a draw is half a win.
		s := stats.MeanCI(t.Scores)
		fmt.Fprintf(w, "   A scored %.1f%% [%.1f%% – %.1f%%] (95%%), Elo %+.0f [%+.0f, %+.0f]\n", 100*s.Mean, 100*max(0, s.Lo), 100*min(1, s.Hi),
			stats.EloDiff(s.Mean), stats.EloDiff(s.Lo), stats.EloDiff(s.Hi))
		d := stats.MeanCI(t.Margins)
		fmt.Fprintf(w, "   A's disc margin per match %+.2f [%+.2f, %+.2f] (95%%)\n", d.Mean, d.Lo, d.Hi)
	}
	if t.Verdict != stats.Continue {
		fmt.Fprintf(w, "   sequential test: %v after %d matches (LLR %.2f)\n", t.Verdict, t.Matches, t.LLR)
	}
	for p, name := range []string{"A", "B"} {
		fmt.Fprintf(w, "   %s: failures %v; mean answer %v, longest %v\n", name, t.Failures[p], t.MeanAnswer(p).Round(time.Millisecond), t.MaxMove[p].Round(time.Millisecond))
	}
}

// report writes the leg viewer (othello/report) of record files and
// folders: othello-match report -o legs.html FILE|DIR…
func report(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-match report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "othello-report.html", "the page to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("report: name record files or folders (othello-match -record, gamebot play's records/othello)")
	}
	legs, err := record.ReadPaths(fs.Args()...)
	if err != nil {
		return err
	}
	return othelloreport.WriteFile(*out, legs, othelloreport.Options{Tool: "othello-match report"})
}

// losses: where recorded std matches were won and lost, against perfect
// play from a few stages of the endgame (match.Losses).
func losses(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-match losses", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stages := fs.String("empties", "22,20,18", "the stages: solve each leg at the first position with at most this many empties (comma-separated)")
	workers := fs.Int("workers", 2, "solves at once")
	ttBits := fs.Uint("tt-bits", 20, "log2 of each solver's table entries")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("losses: name the record folders of othello-match -record (each folder one run: matches pair by number within it)")
	}
	empties, err := emptiesList(*stages, 30)
	if err != nil {
		return err
	}
	if *workers < 1 || *ttBits < 10 || *ttBits > 26 {
		return errors.New("-workers must be at least 1 and -tt-bits from 10 to 26")
	}
	var matches [][2]record.Leg
	for _, dir := range fs.Args() {
		legs, err := record.ReadPaths(dir)
		if err != nil {
			return err
		}
		m, err := match.PairLegs(legs)
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		matches = append(matches, m...)
	}
	if len(matches) == 0 {
		return errors.New("losses: no matches in those folders")
	}
	res, err := match.Losses(ctx, matches, empties, *workers, *ttBits)
	if err != nil {
		return err
	}
	a := matches[0][0].Players[0].Name
	n := float64(len(matches))
	fmt.Fprintf(stdout, "%d matches: A (%s) scored %.1f%% as played\n", len(matches), a, 100*res[0].PlayedA/n)
	for _, st := range res {
		fmt.Fprintf(stdout, "  perfect play from %d empties: %.1f%%; after it A's legs lost %+d discs net (%.2f a leg), %d legs ended worse for A, %d better\n",
			st.Empties, 100*st.SolvedA/n, st.DiscsA, float64(st.DiscsA)/(2*n), st.WorseA, st.BetterA)
	}
	return nil
}

// emptiesList reads an -empties flag: comma-separated numbers of empty
// squares from 1 to most.
func emptiesList(text string, most int) ([]int, error) {
	var empties []int
	for _, f := range strings.Split(text, ",") {
		e, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || e < 1 || e > most {
			return nil, fmt.Errorf("-empties %q: want numbers from 1 to %d", text, most)
		}
		empties = append(empties, e)
	}
	return empties, nil
}
