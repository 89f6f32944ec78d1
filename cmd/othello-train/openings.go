package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/botarena/gamebot/othello/openings"
	"github.com/botarena/gamebot/othello/stdengine"
)

// openingsCmd makes the XOT-style list (othello/openings/xot.txt):
// random 8-move std openings our engine scores within -max-abs discs.
func openingsCmd(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("openings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "file to write (one opening a line)")
	seed := fs.Uint64("seed", 0, "seed of the random openings (0: a random seed, printed)")
	var opt openings.Options
	fs.IntVar(&opt.N, "n", 1000, "openings to keep")
	fs.IntVar(&opt.Plies, "plies", 8, "moves of an opening")
	fs.IntVar(&opt.Depth, "depth", 12, "depth of the search that judges an opening")
	fs.IntVar(&opt.MaxAbs, "max-abs", 1, "keep an opening scored within this many discs of even")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || opt.N < 1 || opt.Plies < 1 || opt.Depth < 1 || opt.MaxAbs < 0 {
		return errors.New("openings: -o, -n ≥ 1, -plies ≥ 1, -depth ≥ 1 and -max-abs ≥ 0 are required")
	}
	drawSeed(seed, stderr)
	s := stdengine.NewSearcher(stdengine.Embedded(), 20)
	list := openings.Generate(ctx, s, rand.New(rand.NewPCG(*seed, 8)), opt, func(kept, tried int) {
		if kept%100 == 0 {
			fmt.Fprintf(stderr, "%d kept of %d tried\n", kept, tried)
		}
	})
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted after %d openings, none written: %w", len(list), ctx.Err())
	}
	header := fmt.Sprintf("# XOT-style std openings: random 8-move openings our std engine scores within %d disc(s) of even at depth %d,\n# one per position up to symmetry (othello-train openings -n %d -depth %d -max-abs %d -seed %d).\n", opt.MaxAbs, opt.Depth, opt.N, opt.Depth, opt.MaxAbs, *seed)
	return os.WriteFile(*out, append([]byte(header), openings.Format(list)...), 0o644)
}
