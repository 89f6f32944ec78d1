package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/botarena/gamebot/othello/stdengine"
)

// mpc fits the std engine's ProbCut error model: positions from self-play
// games, each searched to every depth up to -depth without ProbCut (and
// solved at -solve-at empties or fewer); it prints σ per empties band and
// depth pair and the fitted coefficients for othello/stdengine's defaultErrors.
func mpc(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mpc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 400, "positions")
	depth := fs.Int("depth", 12, "deepest search")
	solveAt := fs.Int("solve-at", 24, "also solve positions with at most this many empties")
	minE := fs.Int("min-empties", 14, "fewest empties of a position")
	maxE := fs.Int("max-empties", 54, "most empties of a position")
	seed := fs.Uint64("seed", 1001, "seed of the self-play games (0: a random seed, printed)")
	modelName := fs.String("model", "embedded", "the evaluation: a model file, or embedded")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *depth < 3 || *minE < 1 || *maxE > 60 || *minE > *maxE {
		return errors.New("mpc: -n ≥ 1, -depth ≥ 3 and 1 ≤ -min-empties ≤ -max-empties ≤ 60 are required")
	}
	drawSeed(seed, stderr)
	model, err := stdengine.ReadModel(*modelName)
	if err != nil {
		return err
	}
	positions := stdengine.SelfPlayPositions(rand.New(rand.NewPCG(*seed, 1)), model, *n, *minE, *maxE)
	s := stdengine.NewSearcher(model, 20)
	var samples []stdengine.ErrorSample
	for i, pos := range positions {
		samples = append(samples, s.MeasureErrors(ctx, pos, *depth, *solveAt)...)
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d positions: %w", i, ctx.Err())
		}
		if (i+1)%50 == 0 {
			fmt.Fprintf(stderr, "%d positions\n", i+1)
		}
	}
	stdengine.FitErrorModel(samples, stdout)
	return nil
}
