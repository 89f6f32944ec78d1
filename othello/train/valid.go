package train

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"github.com/botarena/gamebot/internal/chunks"
	"github.com/botarena/gamebot/othello/bitboard"
	"github.com/botarena/gamebot/othello/stdengine"
)

// ValidOptions make a validation set: positions of self-play games
// labelled by the best search there is time for, so that two models (or
// two kinds of training data) are compared on what the position is
// worth, not on one game's result.
type ValidOptions struct {
	Game    GenOptions // how the games the positions come from are played
	PerGame int        // positions drawn from each game
	MinE    int        // fewest empties of a drawn position
	MaxE    int        // most empties
	ExactAt int        // positions with at most this many empties are solved exactly
	Depth   int        // the others are searched this deep …
	Sel     int        // … at this selectivity
}

// ValidChunk makes validation chunk i: games × Game (seeded by seed and
// i, as gen's chunks are), PerGame positions drawn from each, each
// labelled afresh (a cleared table) — the exact score up to ExactAt
// empties, a Depth-deep search above. Final and Score are the label. It
// writes ValidName(dir, i) whole or not at all and does nothing when it
// exists.
func ValidChunk(ctx context.Context, dir string, i, games int, seed uint64, opt ValidOptions, s *stdengine.Searcher) (int, error) {
	name := ValidName(dir, i)
	if _, err := os.Stat(name); err == nil {
		return 0, nil
	}
	var out []Sample
	var buf []Sample
	for g := range games {
		rng := rand.New(rand.NewPCG(seed, uint64(i)*1_000_003+uint64(g)))
		rec, ok := Game(ctx, rng, opt.Game, s)
		if !ok {
			return 0, ctx.Err()
		}
		var err error
		buf, err = rec.Samples(s.Misere(), buf[:0])
		if err != nil {
			return 0, err
		}
		var pool []Sample
		for _, x := range buf {
			if int(x.Empties) >= opt.MinE && int(x.Empties) <= opt.MaxE {
				pool = append(pool, x)
			}
		}
		for k := 0; k < opt.PerGame && len(pool) > 0; k++ {
			j := rng.IntN(len(pool))
			x := pool[j]
			pool[j] = pool[len(pool)-1]
			pool = pool[:len(pool)-1]
			lab, exact, ok := label(ctx, s, x.P, x.O, opt)
			if !ok {
				return 0, ctx.Err()
			}
			out = append(out, Sample{P: x.P, O: x.O, Empties: x.Empties, Final: int8(lab), Score: int8(lab), Exact: exact})
		}
	}
	err := chunks.WriteAtomic(dir, name, func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if err := WriteSamples(zw, out); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// ValidConfig is a validation set: chunks 0 … Chunks−1 of Games games
// each in Dir, made by Concurrency searchers with Model.
type ValidConfig struct {
	Dir         string
	Chunks      int
	Games       int
	Seed        uint64
	Concurrency int
	Model       *stdengine.Model
	Options     ValidOptions
}

// MakeValid writes the validation chunks of cfg that do not exist yet,
// as Generate writes game chunks: resumable, the same at any
// concurrency; progress, when not nil, is called after each chunk, one
// call at a time.
func MakeValid(ctx context.Context, cfg ValidConfig, progress func(ChunkDone)) error {
	o := cfg.Options
	if cfg.Dir == "" || cfg.Seed == 0 || cfg.Chunks < 1 || cfg.Games < 1 || cfg.Concurrency < 1 || cfg.Model == nil ||
		o.PerGame < 1 || o.Depth < 1 || o.Sel < 0 || o.Sel > stdengine.SelExact || o.MinE < 1 || o.MaxE > 60 || o.MinE > o.MaxE {
		return errors.New("valid: a directory, a model, a seed, chunks/games/per-game/depth ≥ 1, sel in 0…5 and 1 ≤ min-empties ≤ max-empties ≤ 60 are required")
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return err
	}
	_, err := chunks.Run(ctx, 0, cfg.Chunks, cfg.Concurrency, func() chunks.Worker {
		s := stdengine.NewSearcher(cfg.Model, 22)
		return func(ctx context.Context, i int) (int, error) {
			return ValidChunk(ctx, cfg.Dir, i, cfg.Games, cfg.Seed, o, s)
		}
	}, progress)
	return err
}

// label searches p against o from a cleared table (the colours do not
// matter to the std evaluation). p has a move: the positions come from
// searched moves.
func label(ctx context.Context, s *stdengine.Searcher, p, o uint64, opt ValidOptions) (int, bool, bool) {
	s.Clear()
	var moves []int
	for m := bitboard.Moves(p, o); m != 0; m &= m - 1 {
		moves = append(moves, bits.TrailingZeros64(m))
	}
	empties := 64 - bits.OnesCount64(p|o)
	lim := stdengine.Limits{MaxDepth: opt.Depth, MidgameSel: opt.Sel}
	if empties <= opt.ExactAt {
		lim = stdengine.Limits{MaxDepth: 64, MidgameSel: stdengine.SelExact}
	}
	r := s.Search(ctx, p, o, false, moves, lim)
	if ctx.Err() != nil {
		return 0, false, false
	}
	return max(-64, min(64, r.Score)), r.Exact, true
}

const validSuffix = ".samples.gz"

// ValidName is the file of validation chunk i in dir.
func ValidName(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("valid-%06d%s", i, validSuffix))
}

// ReadValid reads every validation chunk in dir, in chunk order.
func ReadValid(dir string) ([]Sample, int, error) {
	names, err := filepath.Glob(filepath.Join(dir, "valid-*"+validSuffix))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(names)
	var all []Sample
	for _, n := range names {
		s, err := readSamplesFile(n)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", n, err)
		}
		all = append(all, s...)
	}
	return all, len(names), nil
}

func readSamplesFile(name string) ([]Sample, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, err
	}
	return ReadSamples(io.LimitReader(zr, maxChunkBytes))
}
