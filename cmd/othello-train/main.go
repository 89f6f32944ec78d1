// Command othello-train fits the std-mode pattern evaluation of the othello
// package (othello/pattern8.bin.gz) from self-play games.
//
//	othello-train gen -n 40000 -o /tmp/std.samples       # self-play data
//	othello-train fit -i /tmp/std.samples -o othello/pattern8.bin.gz
//	othello-train check -i /tmp/other.samples            # error by empties
//
// gen plays games from FlipSight's random 12-disc openings (plus a few
// random moves) with a fixed-depth search, solves them exactly from
// -solve-at empties, and writes every searched position labelled with the
// final disc difference for its mover. fit runs a least-squares fit of the
// pattern weights by stochastic gradient descent; it is deterministic for
// a seed (-seed, default 1; 0 draws one and prints it). gen is
// deterministic for a seed with -concurrency 1; with more, the games are
// the same openings but each worker's transposition table carries over
// between its games and the file order follows timing. Interrupted
// (SIGINT, SIGTERM), gen keeps the games written and says how many; fit
// stops without writing a model. check prints
// a model's error against the final results of a samples file, by empties
// (exact values below the self-play's -solve-at), to compare models on
// games neither was fitted on.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/train"
)

func main() { cli.Main("othello-train", run) }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: othello-train gen|fit|check|mpc [flags]")
	}
	switch args[0] {
	case "gen":
		return gen(ctx, args[1:], stderr)
	case "fit":
		return fit(ctx, args[1:], stdout, stderr)
	case "check":
		return check(args[1:], stdout, stderr)
	case "mpc":
		return mpc(ctx, args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown subcommand %q: want gen, fit, check or mpc", args[0])
}

func gen(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	games := fs.Int("n", 10000, "games to play")
	out := fs.String("o", "", "output file (appended to)")
	seed := fs.Uint64("seed", 1, "seed of the openings (0: a random seed, printed)")
	concurrency := fs.Int("concurrency", 2, "games played at once")
	var opt train.GenOptions
	fs.IntVar(&opt.Depth, "depth", 4, "midgame search depth")
	fs.IntVar(&opt.SolveAt, "solve-at", 14, "empties from which play is exact")
	fs.IntVar(&opt.RandomMax, "random", 4, "up to this many random moves after the opening")
	fs.BoolVar(&opt.UsePattern, "pattern", false, "play with the embedded pattern model instead of the hand-written evaluation")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *games < 1 || *concurrency < 1 {
		return errors.New("gen: -o, -n ≥ 1 and -concurrency ≥ 1 are required")
	}
	drawSeed(seed, stderr)
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	var mu sync.Mutex
	var werr error
	done, samples := 0, 0
	start := time.Now()
	next := make(chan int)
	var wg sync.WaitGroup
	for range *concurrency {
		wg.Go(func() {
			s := train.NewEngine(opt)
			for g := range next {
				rng := rand.New(rand.NewPCG(*seed, uint64(g)))
				batch := train.SelfPlayGame(ctx, rng, opt, s)
				if ctx.Err() != nil {
					continue // cut short: SelfPlayGame kept nothing of it
				}
				mu.Lock()
				if werr == nil && len(batch) > 0 {
					werr = train.WriteSamples(f, batch)
				}
				done++
				samples += len(batch)
				if done%500 == 0 {
					fmt.Fprintf(stderr, "%d games, %d positions, %.0f games/s\n", done, samples, float64(done)/time.Since(start).Seconds())
				}
				mu.Unlock()
			}
		})
	}
	for g := range *games {
		if ctx.Err() != nil {
			break
		}
		next <- g
	}
	close(next)
	wg.Wait()
	fmt.Fprintf(stderr, "done: %d games, %d positions in %s\n", done, samples, time.Since(start).Round(time.Second))
	if werr == nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted after %d of %d games: %w", done, *games, ctx.Err())
	}
	return werr
}

// drawSeed applies the seed rule of every command: 0 draws a seed, which
// is printed so that the run can be repeated.
func drawSeed(seed *uint64, stderr io.Writer) {
	if *seed == 0 {
		*seed = rand.Uint64N(1_000_000_000) + 1
		fmt.Fprintf(stderr, "othello-train: seed %d\n", *seed)
	}
}

func fit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("i", "", "samples file (from gen)")
	out := fs.String("o", "", "model file to write")
	seed := fs.Uint64("seed", 1, "seed of the sample order (0: a random seed, printed)")
	var opt train.FitOptions
	fs.IntVar(&opt.Epochs, "epochs", 8, "passes over the data")
	fs.Float64Var(&opt.Rate, "rate", 0.003, "learning rate")
	fs.Float64Var(&opt.L2, "l2", 1e-5, "weight decay per update")
	fs.Float64Var(&opt.ScoreWeight, "score-weight", 0, "weight of the self-play search score in the label (0: game results only)")
	fs.BoolVar(&opt.Mirror, "mirror", false, "also train on each position's mirror image")
	fs.Float64Var(&opt.Holdout, "holdout", 0.05, "fraction of samples (the last games) kept out to measure the error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return errors.New("fit: -i and -o are required")
	}
	drawSeed(seed, stderr)
	samples, err := readSamplesFile(*in)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d samples\n", len(samples))
	opt.Log = func(ep int, fitted, holdout float64) {
		fmt.Fprintf(stdout, "epoch %d: rmse %.3f discs (held-out games %.3f)\n", ep+1, fitted, holdout)
	}
	w, err := train.FitPatterns(ctx, samples, opt, rand.New(rand.NewPCG(*seed, 0)))
	if err != nil {
		return fmt.Errorf("fit interrupted, no model written: %w", err)
	}
	o, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := othello.EncodePatternModel(o, w); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

func check(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("i", "", "samples file (from gen)")
	model := fs.String("model", "", "model file (default: the embedded model)")
	tail := fs.Float64("tail", 1, "fraction of the samples to use, from the end (fit's -holdout takes the same games)")
	maxE := fs.Int("max-empties", 40, "last empties row to print")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || !(*tail > 0 && *tail <= 1) {
		return errors.New("check: -i is required and -tail must be in (0, 1]")
	}
	samples, err := readSamplesFile(*in)
	if err != nil {
		return err
	}
	samples = samples[len(samples)-int(float64(len(samples))**tail):]
	var mb []byte
	if *model != "" {
		if mb, err = os.ReadFile(*model); err != nil {
			return err
		}
	}
	st, err := train.ModelErrors(samples, mb)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d samples\nempties  positions  rmse(discs)\n", len(samples))
	for e, s := range st[:min(max(*maxE, 0), 60)+1] {
		if s.N > 0 {
			fmt.Fprintf(stdout, "%7d  %9d  %6.2f\n", e, s.N, s.RMSE)
		}
	}
	return nil
}

func readSamplesFile(name string) ([]train.Sample, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return train.ReadSamples(f)
}
