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

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/players"
)

func main() { cli.Main("othello-engine", run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("othello-engine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// The engine's options are those of an engine spec (othello/players):
	// -depth 8 here is engine:depth=8 in othello-match's -a.
	engine := players.Flags(fs, "engine")
	verbose := fs.Bool("v", false, "log every move (depth, score, nodes) to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	p, err := engine()
	if err != nil {
		return fmt.Errorf("-%w", err)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	go othello.Preload(p.Engine)
	eng := othello.NewEngine(*p.Engine)
	if p.Ponder {
		return jsonline.ServePondering(ctx, eng, stdin, stdout, logger)
	}
	return jsonline.Serve(ctx, eng, stdin, stdout, logger)
}
