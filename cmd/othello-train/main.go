// Command othello-train fits the std engine's evaluation
// (othello/stdengine/eval.bin.gz) from its own self-play games.
//
//	othello-train gen -dir /data/std -chunks 400          # self-play data, resumable
//	othello-train fit -dir /data/std -o othello/stdengine/eval.bin.gz
//	othello-train check -dir /data/other -model m.gz      # error by empties
//	othello-train mpc                                     # the ProbCut error model
//	othello-train recode -model old.gz -o new.gz          # a model in the current encoding
//
// gen plays games from FlipSight's random 12-disc openings (plus a few
// random moves) with the std engine at a fixed depth, exact from
// -solve-at empties, and writes every searched position labelled with the
// final disc difference for its mover and the search's own score. The
// games come in numbered chunk files (-games each): a chunk is written
// whole or not at all, and a chunk that exists is skipped, so gen can be
// stopped (SIGINT, SIGTERM) and started again with the same flags to go
// on. A chunk's games depend only on -seed and its number, so the data is
// the same at any -concurrency. fit runs a least-squares fit of the
// weights by stochastic gradient descent, deterministic for a seed
// (-seed, default 1; 0 draws one and prints it); interrupted, it writes
// no model. check prints a model's error against the final results of a
// directory's chunks, by empties (exact values below the self-play's
// -solve-at), to compare models on games neither was fitted on.
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
	"strings"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello/stdengine"
	"github.com/botarena/gamebot/othello/train"
)

func main() { cli.Main("othello-train", run) }

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: othello-train gen|valid|fit|check|mpc|openings|recode [flags]")
	}
	switch args[0] {
	case "gen":
		return gen(ctx, args[1:], stderr)
	case "fit":
		return fit(ctx, args[1:], stdout, stderr)
	case "check":
		return check(args[1:], stdout, stderr)
	case "openings":
		return openingsCmd(ctx, args[1:], stderr)
	case "valid":
		return valid(ctx, args[1:], stderr)
	case "mpc":
		return mpc(ctx, args[1:], stdout, stderr)
	case "recode":
		return recode(args[1:], stderr)
	}
	return fmt.Errorf("unknown subcommand %q: want gen, valid, fit, check, mpc, openings or recode", args[0])
}

// recode writes a model file again as Encode writes models now: the same
// weights, in the encoding the engine loads fastest.
func recode(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("recode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("model", "", "model file to read (any encoding DecodeModel reads)")
	out := fs.String("o", "", "model file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *out == "" || fs.NArg() > 0 {
		return errors.New("recode wants -model and -o, and no arguments")
	}
	m, err := stdengine.ReadModel(*in)
	if err != nil {
		return err
	}
	return writeModel(*out, m)
}

// writeModel writes m to the file name as Encode writes models.
func writeModel(name string, m *stdengine.Model) error {
	var buf bytes.Buffer
	if err := m.Encode(&buf); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

func gen(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := train.GenConfig{}
	fs.StringVar(&cfg.Dir, "dir", "", "directory of the chunk files (created)")
	fs.IntVar(&cfg.Chunks, "chunks", 100, "chunks to have in the directory when done")
	fs.IntVar(&cfg.Games, "games", 2000, "games per chunk")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the games (required: a resumed run needs the same one)")
	fs.IntVar(&cfg.Concurrency, "concurrency", 2, "chunks played at once")
	fs.UintVar(&cfg.TTBits, "tt-bits", 20, "log2 of each worker's table entries")
	modelName := fs.String("model", "embedded", "the evaluation to play with: a model file, or embedded")
	anti := fs.Bool("anti", false, "play the misère game (anti); without -model, with an evaluation of zeros (a first round)")
	opt := &cfg.Options
	fs.IntVar(&opt.Depth, "depth", 6, "midgame search depth")
	fs.IntVar(&opt.Sel, "sel", 1, "midgame selectivity (0 … 5; 5: no ProbCut)")
	fs.IntVar(&opt.SolveAt, "solve-at", 18, "empties from which play is exact")
	fs.IntVar(&opt.RandomMax, "random", 1, "up to this many random moves injected after the 8-move opening")
	fs.IntVar(&opt.RandomSpan, "random-span", 24, "plies after the opening in which they are injected")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var err error
	if *anti && *modelName == "embedded" {
		l := stdengine.EmbeddedAnti().Layout()
		cfg.Model, err = stdengine.NewModel(l, make([]int16, stdengine.NumStages*l.StageLen()), true)
	} else {
		cfg.Model, err = stdengine.ReadModel(*modelName)
	}
	if err != nil {
		return err
	}
	if cfg.Model.Misere != *anti {
		return fmt.Errorf("gen: -model %s is not a model of the game -anti=%v asks for", *modelName, *anti)
	}
	total := 0
	rep, err := train.Generate(ctx, cfg, func(d train.ChunkDone) {
		total += d.Items
		fmt.Fprintf(stderr, "chunk %d: %d positions (%d chunks this run, %.0f positions/s)\n",
			d.Chunk, d.Items, d.Written, float64(total)/d.Elapsed.Seconds())
	})
	fmt.Fprintf(stderr, "this run: %d chunks, %d positions in %s\n", rep.Chunks, rep.Items, rep.Elapsed.Round(time.Second))
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted (every chunk written is complete; run again to go on): %w", err)
	}
	return err
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
	dirs := fs.String("dir", "", "directories of chunk files (comma-separated)")
	out := fs.String("o", "", "model file to write")
	seed := fs.Uint64("seed", 1, "seed of the sample order (0: a random seed, printed)")
	var opt train.FitOptions
	fs.IntVar(&opt.Epochs, "epochs", 8, "passes over the data")
	fs.Float64Var(&opt.Rate, "rate", 0.003, "learning rate")
	fs.Float64Var(&opt.L2, "l2", 1e-5, "weight decay per update")
	fs.Float64Var(&opt.ScoreWeight, "score-weight", 0.5, "weight of the self-play search score in the label (0: game results only)")
	fs.BoolVar(&opt.Mirror, "mirror", true, "also train on each position's mirror image")
	fs.Float64Var(&opt.Holdout, "holdout", 0.03, "fraction of samples (the last chunks) kept out to measure the error")
	maxGames := fs.Int("games", 0, "read the first this many games of each directory (0: all): the data a shorter generation made")
	init := fs.String("init", "", "start from this model file (\"embedded\": the engine's own) instead of zero")
	anti := fs.Bool("anti", false, "the chunks are games of anti: fit a model of the misère game")
	fs.BoolVar(&opt.NoMobility, "no-mobility", false, "no mobility weight: the search evaluates leaves without generating moves")
	fs.BoolVar(&opt.Tie, "tie", false, "fit a pattern configuration and its mirror image as one weight")
	fs.IntVar(&opt.PerWeight, "per-weight", 0, "scale each pattern weight's step by K/min(n, K), n the positions reading it (0: one step for all)")
	layout := fs.String("layout", "", "the pattern set to fit, v3 or v4 (default: the -init model's, else the embedded model's)")
	fs.IntVar(&opt.Anchors, "anchors", 0, "fit this many weight sets a parity of the empties, each stage interpolated between the two around it (0: one set a stage)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *init != "" {
		m, err := stdengine.ReadModel(*init)
		if err != nil {
			return err
		}
		if m.Misere != *anti {
			return fmt.Errorf("fit: -init %s is not a model of the game -anti=%v asks for", *init, *anti)
		}
		opt.Init = m.Weights()
		opt.Layout = m.Layout()
	}
	if *layout != "" {
		l, ok := stdengine.Layouts[*layout]
		if !ok {
			return fmt.Errorf("fit: no layout %q (v3, v4)", *layout)
		}
		if opt.Init != nil && l != opt.Layout {
			return fmt.Errorf("fit: -init %s has layout %s, not %s", *init, opt.Layout.Name(), l.Name())
		}
		opt.Layout = l
	}
	if opt.Layout == nil {
		opt.Layout = stdengine.Embedded().Layout()
		if *anti {
			opt.Layout = stdengine.EmbeddedAnti().Layout()
		}
	}
	if *dirs == "" || *out == "" {
		return errors.New("fit: -dir and -o are required")
	}
	drawSeed(seed, stderr)
	samples, err := train.ReadGameDirs(strings.Split(*dirs, ","), *maxGames)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d samples\n", len(samples))
	opt.Log = func(ep int, fitted, holdout float64) {
		fmt.Fprintf(stdout, "epoch %d: rmse %.3f discs (held-out games %.3f)\n", ep+1, fitted, holdout)
	}
	w, err := train.Fit(ctx, samples, opt, rand.New(rand.NewPCG(*seed, 0)))
	if err != nil {
		return fmt.Errorf("fit interrupted, no model written: %w", err)
	}
	m, err := stdengine.NewModel(opt.Layout, w, *anti)
	if err != nil {
		return err
	}
	return writeModel(*out, m)
}

// loadModel reads a model file, or the engine's own for "embedded".

func check(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dirs := fs.String("dir", "", "directories of game chunks (comma-separated): the label is the game's result")
	valid := fs.String("valid", "", "a directory of validation chunks (othello-train valid): the label is an exact or deep search score")
	model := fs.String("model", "", "model file (default: the embedded model)")
	tail := fs.Float64("tail", 1, "fraction of the samples to use, from the end (fit's -holdout takes the same games)")
	maxE := fs.Int("max-empties", 50, "last empties row to print")
	cut := fs.Int("cut", 20, "the summary's two bands: up to this many empties, and above")
	mobDirs := fs.String("mobility-table", "", "also fit an NTest-style mobility table (a weight per stage and pair of move counts) to the model's residuals on these chunk directories, and print the bands with it added")
	scoreWeight := fs.Float64("score-weight", 0.5, "with -mobility-table: the labels' blend, as fit's")
	shrink := fs.Float64("shrink", 20, "with -mobility-table: a cell's correction is its residuals' sum over (positions + this)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*dirs == "") == (*valid == "") || !(*tail > 0 && *tail <= 1) {
		return errors.New("check: one of -dir and -valid is required, and -tail must be in (0, 1]")
	}
	var samples []train.Sample
	var err error
	if *valid != "" {
		var n int
		samples, n, err = train.ReadValid(*valid)
		if err == nil && n == 0 {
			err = fmt.Errorf("no validation chunks in %s", *valid)
		}
	} else {
		samples, err = train.ReadGameDirs(strings.Split(*dirs, ","), 0)
	}
	if err != nil {
		return err
	}
	samples = samples[len(samples)-int(float64(len(samples))**tail):]
	name := *model
	if name == "" {
		name = "embedded"
	}
	m, err := stdengine.ReadModel(name)
	if err != nil {
		return err
	}
	st := train.ModelErrors(samples, m)
	fmt.Fprintf(stdout, "%d samples\nempties  positions  rmse(discs)\n", len(samples))
	for e, s := range st[:min(max(*maxE, 0), 60)+1] {
		if s.N > 0 {
			fmt.Fprintf(stdout, "%7d  %9d  %6.2f\n", e, s.N, s.RMSE)
		}
	}
	low, high := train.Bands(st, *cut)
	fmt.Fprintf(stdout, "≤ %d empties: %d positions, rmse %.3f\n> %d empties: %d positions, rmse %.3f\n", *cut, low.N, low.RMSE, *cut, high.N, high.RMSE)
	if *mobDirs == "" {
		return nil
	}
	fitted, err := train.ReadGameDirs(strings.Split(*mobDirs, ","), 0)
	if err != nil {
		return err
	}
	tab := train.FitMobilityTable(fitted, m, train.FitOptions{ScoreWeight: *scoreWeight}, *shrink)
	low, high = train.Bands(train.EvalErrors(samples, func(x *train.Sample) float64 {
		return m.Eval(x.P, x.O, false) + tab.Correction(x.P, x.O, int(x.Empties))
	}), *cut)
	fmt.Fprintf(stdout, "with a mobility table from %d positions: ≤ %d rmse %.3f, > %d rmse %.3f\n", len(fitted), *cut, low.RMSE, *cut, high.RMSE)
	return nil
}

func valid(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("valid", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := train.ValidConfig{Model: stdengine.Embedded()}
	fs.StringVar(&cfg.Dir, "dir", "", "directory of the validation chunks (created)")
	fs.IntVar(&cfg.Chunks, "chunks", 100, "chunks to have in the directory when done")
	fs.IntVar(&cfg.Games, "games", 10, "games per chunk")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the games (required; never one a training set uses)")
	fs.IntVar(&cfg.Concurrency, "concurrency", 1, "chunks made at once")
	opt := &cfg.Options
	opt.Game = train.GenOptions{Depth: 6, Sel: 1, SolveAt: 18, RandomMax: 1, RandomSpan: 24}
	fs.IntVar(&opt.PerGame, "per-game", 4, "positions drawn from each game")
	fs.IntVar(&opt.MinE, "min-empties", 4, "fewest empties of a position")
	fs.IntVar(&opt.MaxE, "max-empties", 54, "most empties of a position")
	fs.IntVar(&opt.ExactAt, "exact-at", 20, "positions with at most this many empties are solved exactly")
	fs.IntVar(&opt.Depth, "depth", 16, "the others are searched this deep")
	fs.IntVar(&opt.Sel, "sel", 2, "at this selectivity (0 … 5; 5: no ProbCut)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	err := train.MakeValid(ctx, cfg, func(d train.ChunkDone) {
		fmt.Fprintf(stderr, "valid chunk %d: %d positions (%s)\n", d.Chunk, d.Items, d.Elapsed.Round(time.Second))
	})
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted (every chunk written is complete; run again to go on): %w", err)
	}
	return err
}
