// Command othello-engine is an Othello engine for the FlipSight connector's
// --engine option (all five game modes): it reads one JSON request per line
// on stdin and answers one {"move": N} line per request on stdout, flushed,
// until stdin ends. Logs go to stderr only.
//
//	python3 tools/bot_match_client.py --engine "othello-engine"
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/stdengine"
)

func main() { cli.Main("othello-engine", run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.Int("depth", 0, "fixed search depth (0: time managed from remaining_ms)")
	moveTime := fs.Duration("movetime", 0, "fixed time per move instead of time management (still capped by budget_ms)")
	ttBits := fs.Uint("tt-bits", 19, "log2 of transposition-table entries (10–26)")
	threads := fs.Int("threads", 1, "std: searchers at once, a parallel search (1–64); the connector runs an engine per leg, each with its own")
	ponder := fs.Bool("ponder", false, "std and anti: think on the opponent's time (between an answer and the next request), on one more thread")
	verbose := fs.Bool("v", false, "log every move (depth, score, nodes) to stderr")
	set := othello.DefaultStd()
	fs.IntVar(&set.MidgameSel, "std-sel", set.MidgameSel, "std: midgame ProbCut selectivity, 0 (1.0σ) … 4 (2.6σ); 5: no ProbCut")
	fs.IntVar(&set.ProbableSolves, "std-selective", set.ProbableSolves, "std: probable solves from this many empties before the exact solve (0: none)")
	without := fs.String("without", "", "std: parts of the search to switch off, to measure them: comma-separated etc, stability, sort-search, incremental")
	model := fs.String("model", "", "evaluation model file: a std or an anti model, replacing the embedded one of its game")
	fs.BoolVar(&set.GenericAnti, "generic-anti", false, "anti: play with the generic searcher and its hand-written evaluation instead of the std engine with the anti model")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if set.MidgameSel < 0 || set.MidgameSel > stdengine.SelExact || set.ProbableSolves < 0 {
		return fmt.Errorf("-std-sel %d outside 0–%d or -std-selective %d negative", set.MidgameSel, stdengine.SelExact, set.ProbableSolves)
	}
	var err error
	if set.Without, err = stdengine.ParseWithout(*without); err != nil {
		return fmt.Errorf("-without: %w", err)
	}
	if *model != "" {
		b, err := os.ReadFile(*model)
		if err != nil {
			return err
		}
		m, err := stdengine.DecodeModel(b)
		if err != nil {
			return fmt.Errorf("-model %s: %w", *model, err)
		}
		if m.Misere {
			set.AntiModel = m
		} else {
			set.Model = m
		}
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *ttBits < 10 || *ttBits > 26 {
		return fmt.Errorf("-tt-bits %d outside 10–26", *ttBits)
	}
	if *threads < 1 || *threads > 64 {
		return fmt.Errorf("-threads %d outside 1–64", *threads)
	}
	if *depth < 0 || *depth > 64 {
		return fmt.Errorf("-depth %d outside 0–64", *depth)
	}
	if *moveTime < 0 || *moveTime > 5*time.Minute {
		return fmt.Errorf("-movetime %v outside 0–5m", *moveTime)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	eng := othello.NewEngine(othello.EngineOptions{TTBits: *ttBits, MaxDepth: *depth, FixedTime: *moveTime, Pool: 1, Std: &set, Threads: *threads})
	if *ponder {
		return jsonline.ServePondering(ctx, eng, stdin, stdout, logger)
	}
	return jsonline.Serve(ctx, eng, stdin, stdout, logger)
}
