// Command giretra-train makes the data of the Giretra bid evaluator
// (giretra/bidmodel) and fits it.
//
//	giretra-train gen -dir DATA -chunks 200 -seed 46001       # decisions, resumable
//	giretra-train fit -dir DATA -valid 20 -o giretra/bidmodel/model.bin.gz
//	giretra-train check -dir DATA -from 0 -chunks 20 -model FILE
//	giretra-train calib -records RUNS/bot     # real play against heuristic playouts
//
// gen deals deals at tables of the policies the bot's behaviour model
// knows and, at every bid decision with a choice, values each offered
// action on the true deal after the rest of the negotiation and a playout
// (giretra/bot's GenBidDeal). A chunk's decisions depend only on -seed and
// its number: chunks are written whole or not at all, a chunk that exists
// is skipped, and -from/-chunks give a range, so a stopped run goes on
// when started again and machines can share a generation by ranges. fit
// is deterministic for its flags (single-threaded, the order from -seed);
// its first -valid chunks are held out, and it prints the error and the
// choices on them. check compares a model's choices with the heuristic's
// on chunks it was not fitted on. calib measures, on recorded matches, how
// much better each class of contracts ended in real play than the
// heuristic playouts the bid simulation and the data value it by (the
// bot's playoutBias).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/botarena/gamebot/giretra/bidmodel"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/train"
	"github.com/botarena/gamebot/internal/chunks"
	"github.com/botarena/gamebot/internal/cli"
)

func main() { cli.Main("giretra-train", run) }

func run(ctx context.Context, args []string, _ func(string) string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: giretra-train gen|fit|check|calib [flags]")
	}
	switch args[0] {
	case "gen":
		return gen(ctx, args[1:], stderr)
	case "fit":
		return fit(ctx, args[1:], stdout, stderr)
	case "check":
		return check(args[1:], stdout, stderr)
	case "calib":
		return calib(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown subcommand %q: want gen, fit, check or calib", args[0])
}

func gen(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg train.GenConfig
	fs.StringVar(&cfg.Dir, "dir", "", "directory of the chunk files (created)")
	fs.IntVar(&cfg.From, "from", 0, "first chunk of this run's range")
	n := fs.Int("chunks", 100, "chunks to have from -from on when done")
	fs.IntVar(&cfg.Deals, "deals", 2000, "deals per chunk")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the deals (required: a resumed run needs the same one)")
	fs.IntVar(&cfg.Concurrency, "concurrency", 2, "chunks made at once")
	fs.Float64Var(&cfg.Options.Explore, "explore", 0.1, "chance a seat bids a random option on the negotiation's path")
	fs.Float64Var(&cfg.Options.Long, "long", 0.3, "share of deals of a match to 500 (the others: 151)")
	fs.BoolVar(&cfg.Options.CardModels, "card-models", false, "in the playouts, seats bidding as Eva or Calculating play their cards as it does")
	fs.BoolVar(&cfg.Options.Calibrated, "calibrated", false, "raise each value by the bot's measured real-play gain over the heuristic for the finished contract's class")
	fs.IntVar(&cfg.Options.SolveFrom, "solve-from", 0, "in the playouts, seats of our kind play the deal's end exactly from this many cards (0: the heuristic throughout)")
	learned := fs.String("learned", "", "a bid model (a file, or embedded) that bids for the seats of our heuristic's kind: a later round of the data")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *learned != "" {
		m, err := readModel(*learned)
		if err != nil {
			return err
		}
		cfg.Options.Learned, cfg.Options.LearnedDigest = m, m.Digest()
	}
	cfg.To = cfg.From + *n
	total := 0
	cfg.ProgressChunks = func(d chunks.Done) {
		total += d.Items
		fmt.Fprintf(stderr, "chunk %d: %d decisions (%d chunks this run, %.0f decisions/s)\n",
			d.Chunk, d.Items, d.Written, float64(total)/d.Elapsed.Seconds())
	}
	rep, err := train.Generate(ctx, cfg)
	fmt.Fprintf(stderr, "this run: %d chunks, %d decisions in %s\n", rep.Chunks, rep.Items, rep.Elapsed.Round(time.Second))
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("interrupted (every chunk written is complete; run again to go on): %w", err)
	}
	return err
}

func fit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "directory of the chunk files")
	valid := fs.Int("valid", 10, "first chunks held out to measure the fit")
	maxChunks := fs.Int("chunks", 0, "chunks fitted on after the held-out ones (0: all)")
	out := fs.String("o", "", "model file to write")
	var opt bidmodel.FitOptions
	fs.IntVar(&opt.Epochs, "epochs", 6, "passes over the data")
	fs.Float64Var(&opt.Rate, "rate", 0.001, "Adam's step")
	fs.IntVar(&opt.Batch, "batch", 256, "examples per step")
	fs.Float64Var(&opt.L2, "l2", 1e-5, "weight decay")
	fs.Uint64Var(&opt.Seed, "seed", 1, "seed of the initial weights and the order")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *out == "" {
		return errors.New("fit: -dir and -o are required")
	}
	held, _, err := train.ReadDir(*dir, 0, *valid)
	if err != nil {
		return err
	}
	decs, n, err := train.ReadDir(*dir, *valid, *maxChunks)
	if err != nil {
		return err
	}
	ex := train.Examples(decs)
	fmt.Fprintf(stderr, "fit: %d chunks, %d decisions, %d actions; %d held-out decisions\n", n, len(decs), ex.Len(), len(held))
	opt.Progress = func(epoch int, rmse float64) {
		fmt.Fprintf(stderr, "epoch %d: training RMSE %.2f\n", epoch, rmse)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	m, err := bidmodel.Fit(ex, opt)
	if err != nil {
		return err
	}
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		return err
	}
	printChoices(stdout, train.Compare(m, held))
	return nil
}

func check(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "directory of the chunk files")
	from := fs.Int("from", 0, "first chunk read")
	n := fs.Int("chunks", 10, "chunks read")
	model := fs.String("model", "embedded", "model file, or embedded")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m, err := readModel(*model)
	if err != nil {
		return err
	}
	decs, _, err := train.ReadDir(*dir, *from, *n)
	if err != nil {
		return err
	}
	printChoices(stdout, train.Compare(m, decs))
	return nil
}

func calib(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("calib", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("records", "", "a folder of match records (giretra-strength -record)")
	var opt train.CalibOptions
	fs.IntVar(&opt.SolveFrom, "solve-from", 0, "the subject team's seats play the deal's end exactly from this many cards (0: the heuristic throughout)")
	fs.BoolVar(&opt.EvaOpponents, "eva-opponents", false, "the other team's seats play as Eva rather than by the heuristic")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("calib: -records is required")
	}
	ms, err := record.ReadDir(*dir)
	if err != nil {
		return err
	}
	if len(ms) == 0 {
		return fmt.Errorf("calib: no record in %s", *dir)
	}
	fmt.Fprintf(stdout, "%d matches; real result − playout of the same deal, from the announcer's side (us: the records' subject team)\n", len(ms))
	for _, r := range train.Calibrate(ms, opt) {
		fmt.Fprintf(stdout, "%-20s n=%5d %+7.2f ± %.2f\n", r.Class, r.N, r.Mean, r.CI95)
	}
	return nil
}

// readModel reads a model file, or the embedded model.
func readModel(name string) (*bidmodel.Model, error) {
	if name == "embedded" {
		return bidmodel.Embedded(), nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return bidmodel.Load(b)
}

func printChoices(w io.Writer, c train.Choices) {
	fmt.Fprintf(w, "%d decisions; mean value on the true deal of the action chosen, match points: model %+.3f, heuristic %+.3f, hindsight best %+.3f; model − heuristic %+.3f; same choice %.1f%%; model RMSE %.2f\n",
		c.Decisions, c.Model, c.Heuristic, c.Best, c.Model-c.Heuristic, 100*c.Agree, c.RMSE)
}
