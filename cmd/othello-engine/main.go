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
)

func main() { cli.Main("othello-engine", run) }

// stdin is where the requests come from (tests swap it).
var stdin io.Reader = os.Stdin

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.Int("depth", 0, "fixed search depth (0: time managed from remaining_ms)")
	moveTime := fs.Duration("movetime", 0, "fixed time per move instead of time management (still capped by budget_ms)")
	ttBits := fs.Uint("tt-bits", 19, "log2 of transposition-table entries (10–26)")
	verbose := fs.Bool("v", false, "log every move (depth, score, nodes) to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *ttBits < 10 || *ttBits > 26 {
		return fmt.Errorf("-tt-bits %d outside 10–26", *ttBits)
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
	eng := othello.NewEngine(othello.EngineOptions{TTBits: *ttBits, MaxDepth: *depth, FixedTime: *moveTime, Pool: 1})
	return jsonline.Serve(ctx, eng, stdin, stdout, logger)
}
