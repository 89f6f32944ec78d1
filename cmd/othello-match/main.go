// Command othello-match plays local two-leg FlipSight matches between two
// engines — commands speaking the connector's --engine JSON-line protocol
// (or NBoard), or this binary's own engine in process (player.go):
// random 12-disc starts, colours swapped between the legs, both legs at
// once (-sequential: one after the other), a clock per leg per colour,
// adjudication of legs lost on time or by an illegal answer. It prints
// one line per match and a summary: A's score (draws half) with its 95%
// interval and the Elo difference it implies.
// The openings come from -seed (default 1; 0 draws a seed and prints it).
// Interrupted (SIGINT, SIGTERM), it summarises the matches finished.
//
//	othello-match -mode std -n 200 -a "othello-engine" -b "othello-engine -depth 4"
//	othello-match -mode grand -n 20 -a engine -b engine:depth=2
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/internal/stats"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/match"
	"github.com/botarena/gamebot/othello/record"
	othelloreport "github.com/botarena/gamebot/othello/report"
	"github.com/botarena/gamebot/othello/wire"
)

func main() { cli.Main("othello-match", run, cli.Status{Err: errFailures, Code: 3}) }

// errFailures is returned when engine A lost a leg on time, by an illegal
// move or by an engine failure (exit code 3).
var errFailures = errors.New("engine A had failures")

type tally struct {
	matches, wins, losses, draws int
	discs                        [2]int
	failures                     [2]map[string]int
	maxMove                      [2]time.Duration
	used                         [2]time.Duration
	moves                        [2]int
	scores                       []float64 // A's score per match: 1 win, 0.5 draw, 0 loss
	margins                      []float64 // A's discs minus B's per match
	verdict                      stats.Verdict
	llr                          float64
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	stderr = jsonline.SyncWriter(stderr) // shared by every engine process
	modes := fs.String("mode", "std", "game mode: std, anti, grand, octagon, reversi, or all")
	n := fs.Int("n", 10, "matches per mode")
	engA := fs.String("a", "", "engine A: a command (run with /bin/sh -c, one process per leg), or engine[:key=value,…] for the built-in engine in process (depth, movetime, tt-bits, std-sel, std-selective, without, model, threads, generic-anti, ponder)")
	engB := fs.String("b", "", "engine B, as -a")
	clock := fs.Duration("clock", 60*time.Second, "clock per leg per colour")
	maxThink := fs.Duration("max-think", 10*time.Second, "budget_ms cap (the connector's --max-think-seconds)")
	clockB := fs.Duration("b-clock", 0, "engine B's own clock per leg (0: -clock), e.g. for a fixed-depth reference engine")
	maxThinkB := fs.Duration("b-max-think", 0, "engine B's own budget_ms cap (0: -max-think)")
	seed := fs.Uint64("seed", 1, "random seed for the openings (0: a random seed, printed)")
	par := fs.Int("concurrency", 1, "matches played at once")
	seq := fs.Bool("sequential", false, "play each match's legs one after the other, not at once: with -concurrency 1 one engine searches at a time (an engine with threads=N has the cores to itself, as on FlipSight while the opponent thinks elsewhere)")
	quiet := fs.Bool("q", false, "print only the summary")
	bNBoard := fs.Bool("b-nboard", false, "engine B speaks NBoard (std only), e.g. NTest: -b 'ntest x' -b-nboard")
	nbDepth := fs.Int("nboard-depth", 0, "NBoard engine B: set depth N (0: engine default)")
	nbDir := fs.String("nboard-dir", "", "NBoard engine B: working directory (where it finds its data)")
	sprtFlag := fs.String("sprt", "", "stop early on a sequential test of A−B Elo: \"elo0,elo1\" (α = β = 0.05), e.g. \"0,30\"")
	recordDir := fs.String("record", "", "write each match's two legs to this folder (othello/record: othello-match report reads them)")
	if len(args) > 0 && args[0] == "report" {
		return report(args[1:], stderr)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *recordDir != "" {
		if err := os.MkdirAll(*recordDir, 0o755); err != nil {
			return err
		}
	}
	if *engA == "" || *engB == "" {
		return errors.New("both -a and -b engines are required")
	}
	a, err := match.ParsePlayer(*engA)
	if err != nil {
		return fmt.Errorf("-a: %w", err)
	}
	b, err := match.ParsePlayer(*engB)
	if err != nil {
		return fmt.Errorf("-b: %w", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *bNBoard && b.InProc != nil:
		return errors.New("-b-nboard needs an NBoard engine command as -b, not the built-in engine")
	case !*bNBoard && (set["nboard-depth"] || set["nboard-dir"]):
		return errors.New("-nboard-depth and -nboard-dir are for an NBoard engine B: add -b-nboard")
	case *nbDepth < 0:
		return fmt.Errorf("-nboard-depth %d is negative", *nbDepth)
	}
	b.NBoard, b.NBDir, b.NBDepth = *bNBoard, *nbDir, *nbDepth
	if *n < 1 || *par < 1 {
		return errors.New("-n and -concurrency must be at least 1")
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *seed == 0 {
		*seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "othello-match: seed %d\n", *seed)
	}
	var sprt *stats.SPRT
	if *sprtFlag != "" {
		var e0, e1 float64
		if _, err := fmt.Sscanf(*sprtFlag, "%g,%g", &e0, &e1); err != nil || e0 >= e1 {
			return fmt.Errorf("-sprt %q: want \"elo0,elo1\" with elo0 < elo1", *sprtFlag)
		}
		sprt = new(stats.EloSPRT(e0, e1, 0.05, 0.05))
	}
	if *clockB < 0 || *maxThinkB < 0 {
		return errors.New("-b-clock and -b-max-think must not be negative")
	}
	var list []othello.Mode
	if *modes == "all" {
		list = othello.Modes()
	} else {
		for _, name := range strings.Split(*modes, ",") {
			m, err := othello.ParseMode(strings.TrimSpace(name))
			if err != nil {
				return err
			}
			list = append(list, m)
		}
	}
	failedA := false
	for _, mode := range list {
		if *bNBoard && mode != othello.Std {
			return fmt.Errorf("NBoard engines play std only, not %v", mode)
		}
		lim := limits{clock: *clock, maxThink: *maxThink, clockB: *clockB, maxThinkB: *maxThinkB, record: *recordDir, sequential: *seq}
		t := playMode(ctx, mode, *n, *par, *seed, [2]match.Player{a, b}, lim, sprt, *quiet, stdout, stderr)
		printSummary(stdout, mode, t)
		failedA = failedA || len(t.failures[0]) > 0
		if ctx.Err() != nil {
			fmt.Fprintf(stdout, "interrupted: the %s summary covers the %d matches finished\n", mode, t.matches)
			return fmt.Errorf("interrupted: %w", ctx.Err())
		}
	}
	if failedA {
		return errFailures
	}
	return nil
}

// limits are the clocks and budget caps of a run.
type limits struct {
	clock, maxThink, clockB, maxThinkB time.Duration
	record                             string // the records' folder ("": none)
	sequential                         bool   // legs one after the other
}

func playMode(ctx context.Context, mode othello.Mode, n, par int, seed uint64, players [2]match.Player, lim limits, sprt *stats.SPRT, quiet bool, stdout, stderr io.Writer) *tally {
	t := &tally{failures: [2]map[string]int{{}, {}}}
	decided := make(chan struct{}) // closed when the sequential test decides
	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rng := rand.New(rand.NewPCG(seed, uint64(i)*1000+uint64(mode)))
				start, opening := match.RandomOpening(mode, rng)
				cfg := match.Config{
					Mode: mode, Clock: lim.clock, MaxThink: lim.maxThink, ClockB: lim.clockB, MaxThinkB: lim.maxThinkB, MatchID: int64(i + 1), Sequential: lim.sequential,
					NewEngine: func(p, _ int) wire.Engine { return players[p].NewEngine(stderr) },
				}
				began := time.Now()
				res := match.Play(ctx, cfg, start, opening)
				if ctx.Err() != nil {
					// Cut short (its legs were adjudicated as engine
					// failures): not a result.
					continue
				}
				if lim.record != "" {
					if err := writeRecords(lim.record, mode, i, res.Records(cfg, [2]string{players[0].Spec, players[1].Spec}, began)); err != nil {
						fmt.Fprintf(stderr, "othello-match: record: %v\n", err)
					}
				}
				mu.Lock()
				t.add(res)
				if !quiet {
					printMatch(stdout, mode, i, res)
				}
				if sprt != nil && t.verdict == stats.Continue {
					if t.llr, t.verdict = sprt.Test(t.scores); t.verdict != stats.Continue {
						close(decided)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range n {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		case <-decided:
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return t
}

func (t *tally) add(r match.Result) {
	t.matches++
	switch r.Winner {
	case 0:
		t.wins++
		t.scores = append(t.scores, 1)
	case 1:
		t.losses++
		t.scores = append(t.scores, 0)
	default:
		t.draws++
		t.scores = append(t.scores, 0.5)
	}
	t.discs[0] += r.Totals[0]
	t.discs[1] += r.Totals[1]
	t.margins = append(t.margins, float64(r.Totals[0]-r.Totals[1]))
	for _, l := range r.Legs {
		for c := range 2 {
			p := l.BlackParticipant
			if c == 1 {
				p = 1 - p
			}
			t.maxMove[p] = max(t.maxMove[p], l.MaxMove[c])
			t.used[p] += l.Used[c]
		}
		if l.Failed != 0 {
			p := l.BlackParticipant
			if l.Failed == othello.White {
				p = 1 - p
			}
			t.failures[p][l.Failure]++
		}
		// Moves per participant: black moves first, so it has the extra one.
		bm := (l.Moves + 1) / 2
		t.moves[l.BlackParticipant] += bm
		t.moves[1-l.BlackParticipant] += l.Moves - bm
	}
}

func printMatch(w io.Writer, mode othello.Mode, i int, r match.Result) {
	win := "draw"
	switch r.Winner {
	case 0:
		win = "A"
	case 1:
		win = "B"
	}
	var notes []string
	for leg, l := range r.Legs {
		if l.Failed != 0 {
			notes = append(notes, fmt.Sprintf("leg %d: %s lost by %s (%s)", leg, colourName(l.Failed), l.Failure, l.FailureDetail))
		}
	}
	fmt.Fprintf(w, "%s #%d: A %d – B %d, winner %s; legs %v %v %s\n", mode, i+1, r.Totals[0], r.Totals[1], win,
		r.Legs[0].Result, r.Legs[1].Result, strings.Join(notes, "; "))
}

func colourName(c int) string {
	if c == othello.Black {
		return "black"
	}
	return "white"
}

func printSummary(w io.Writer, mode othello.Mode, t *tally) {
	mean := func(p int) time.Duration {
		if t.moves[p] == 0 {
			return 0
		}
		return t.used[p] / time.Duration(t.moves[p])
	}
	fmt.Fprintf(w, "== %s: %d matches: A won %d, lost %d, drew %d; discs A %d, B %d\n", mode, t.matches, t.wins, t.losses, t.draws, t.discs[0], t.discs[1])
	if t.matches > 0 {
		// Per-match scores, not a binomial count: a draw is half a win.
		s := stats.MeanCI(t.scores)
		fmt.Fprintf(w, "   A scored %.1f%% [%.1f%% – %.1f%%] (95%%), Elo %+.0f [%+.0f, %+.0f]\n", 100*s.Mean, 100*max(0, s.Lo), 100*min(1, s.Hi),
			stats.EloDiff(s.Mean), stats.EloDiff(s.Lo), stats.EloDiff(s.Hi))
		d := stats.MeanCI(t.margins)
		fmt.Fprintf(w, "   A's disc margin per match %+.2f [%+.2f, %+.2f] (95%%)\n", d.Mean, d.Lo, d.Hi)
	}
	if t.verdict != stats.Continue {
		fmt.Fprintf(w, "   sequential test: %v after %d matches (LLR %.2f)\n", t.verdict, t.matches, t.llr)
	}
	for p, name := range []string{"A", "B"} {
		fmt.Fprintf(w, "   %s: failures %v; mean answer %v, longest %v\n", name, t.failures[p], mean(p).Round(time.Millisecond), t.maxMove[p].Round(time.Millisecond))
	}
}

// writeRecords writes a match's legs to dir, a file a match.
func writeRecords(dir string, mode othello.Mode, i int, legs [2]record.Leg) error {
	var b bytes.Buffer
	for k := range legs {
		if err := record.Append(&b, &legs[k]); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-match-%04d.jsonl", mode, i+1)), b.Bytes(), 0o644)
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
	var b bytes.Buffer
	if err := othelloreport.Write(&b, legs, othelloreport.Options{Tool: "othello-match report"}); err != nil {
		return err
	}
	return os.WriteFile(*out, b.Bytes(), 0o644)
}
