package train

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"

	"github.com/botarena/gamebot/internal/chunks"
	"github.com/botarena/gamebot/othello/bitboard"
	"github.com/botarena/gamebot/othello/stdengine"
)

// GenOptions control self-play.
type GenOptions struct {
	Depth   int `json:"depth"`    // midgame search depth
	Sel     int `json:"sel"`      // midgame selectivity (stdengine.SelExact: no ProbCut)
	SolveAt int `json:"solve_at"` // empties from which play is exact
	// RandomMax random moves (0 … RandomMax, uniformly) are injected
	// after the 8-move random opening, each at a ply drawn uniformly from
	// the RandomSpan plies that follow it: positions the engine's own play
	// would never reach, as Egaroucid makes its data. A position's game
	// result labels it only after the game's last random move.
	RandomMax  int `json:"random_max"`
	RandomSpan int `json:"random_span"`
}

const openingPlies = 8 // FlipSight's random opening

// Game plays one game from a random FlipSight opening with s, the table
// cleared first so that a game depends only on rng (and s's model), and
// returns its record (false when ctx ends it). The game is s's: std, or
// anti when s plays the misère game.
func Game(ctx context.Context, rng *rand.Rand, opt GenOptions, s *stdengine.Searcher) (GameRecord, bool) {
	s.Clear()
	random := make(map[int]bool, openingPlies+opt.RandomMax)
	for ply := range openingPlies {
		random[ply] = true
	}
	for range rng.IntN(opt.RandomMax + 1) {
		random[openingPlies+rng.IntN(max(opt.RandomSpan, 1))] = true
	}
	p, o, white := uint64(1<<28|1<<35), uint64(1<<27|1<<36), false
	var g GameRecord
	var moves []int
	for ply := 0; ; ply++ {
		m := bitboard.Moves(p, o)
		if m == 0 {
			if bitboard.Moves(o, p) == 0 {
				break
			}
			p, o, white = o, p, !white
			ply--
			continue
		}
		moves = moves[:0]
		for mm := m; mm != 0; mm &= mm - 1 {
			moves = append(moves, bits.TrailingZeros64(mm))
		}
		var rec Ply
		if random[ply] {
			rec = Ply{Square: int8(moves[rng.IntN(len(moves))]), Random: true}
		} else {
			empties := 64 - bits.OnesCount64(p|o)
			lim := stdengine.Limits{MaxDepth: opt.Depth, MidgameSel: opt.Sel}
			if empties <= opt.SolveAt {
				lim.MaxDepth = 64
			}
			r := s.Search(ctx, p, o, white, moves, lim)
			if ctx.Err() != nil {
				return GameRecord{}, false
			}
			rec = Ply{Square: int8(r.Move), Score: int8(max(-64, min(64, r.Score))), Exact: r.Exact}
		}
		g.Moves = append(g.Moves, rec)
		f := bitboard.Flips(int(rec.Square), p, o)
		p, o, white = o&^f, p|f|1<<uint(rec.Square), !white
	}
	return g, true
}

// ModelDigest names a model's weights and game, so that a chunk says
// which model played it.
func ModelDigest(m *stdengine.Model) string {
	h := sha256.New()
	if m.Misere {
		h.Write([]byte{1})
	}
	w := m.Weights()
	buf := make([]byte, 0, 2*len(w))
	for _, v := range w {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// GenChunk plays the games of chunk h.Chunk (h.Games × Game, seeded by
// h.Seed and the chunk's number) with s and writes them to
// GamesName(dir, h.Chunk) through a temporary file, so that a chunk file
// is either complete or absent. It does nothing when the chunk exists: a
// stopped generation resumes where it stopped. It returns the number of
// searched positions written.
func GenChunk(ctx context.Context, dir string, h ChunkHeader, s *stdengine.Searcher) (int, error) {
	name := GamesName(dir, h.Chunk)
	if chunks.Exists(name) {
		return 0, nil
	}
	games := make([]GameRecord, 0, h.Games)
	n := 0
	for g := range h.Games {
		rng := rand.New(rand.NewPCG(h.Seed, uint64(h.Chunk)*1_000_003+uint64(g)))
		rec, ok := Game(ctx, rng, h.Options, s)
		if !ok {
			return 0, ctx.Err()
		}
		for _, m := range rec.Moves {
			if !m.Random {
				n++
			}
		}
		games = append(games, rec)
	}
	err := chunks.WriteAtomic(dir, name, func(w io.Writer) error { return WriteGames(w, h, games) })
	if err != nil {
		return 0, err
	}
	return n, nil
}

// GenConfig is a generation: chunks 0 … Chunks−1 of Games games each in
// Dir, played by Concurrency searchers with Model.
type GenConfig struct {
	Dir         string
	Chunks      int
	Games       int
	Seed        uint64
	Concurrency int
	TTBits      uint
	Model       *stdengine.Model
	Options     GenOptions
}

// ChunkDone is the progress Generate and MakeValid report after each
// chunk they wrote; Items counts its searched positions.
type ChunkDone = chunks.Done

// GenReport is what a generation did; Items counts the positions.
type GenReport = chunks.Report

// Generate writes the chunks of cfg that do not exist yet. A chunk's
// games depend only on the seed, its number, the options and the model,
// so the data is the same at any concurrency and a stopped run resumes
// where it stopped. progress, when not nil, is called after each chunk,
// one call at a time. When ctx ends it, Generate returns ctx's error and
// every chunk file it left is complete.
func Generate(ctx context.Context, cfg GenConfig, progress func(ChunkDone)) (GenReport, error) {
	if cfg.Dir == "" || cfg.Chunks < 1 || cfg.Games < 1 || cfg.Games > 1<<20 || cfg.Concurrency < 1 || cfg.Model == nil {
		return GenReport{}, errors.New("gen: a directory, a model, chunks ≥ 1, games ≥ 1 and concurrency ≥ 1 are required")
	}
	if o := cfg.Options; o.Depth < 1 || o.Sel < 0 || o.Sel > stdengine.SelExact || o.SolveAt < 0 || o.RandomMax < 0 || o.RandomSpan < 0 {
		return GenReport{}, errors.New("gen: depth ≥ 1, sel in 0…5, and solve-at, random and random-span ≥ 0 are required")
	}
	if cfg.Seed == 0 {
		return GenReport{}, errors.New("gen: a seed must be given (a resumed run needs the same seed)")
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return GenReport{}, err
	}
	digest := ModelDigest(cfg.Model)
	return chunks.Run(ctx, 0, cfg.Chunks, cfg.Concurrency, func() chunks.Worker {
		s := stdengine.NewSearcher(cfg.Model, cfg.TTBits)
		return func(ctx context.Context, i int) (int, error) {
			h := ChunkHeader{Seed: cfg.Seed, Chunk: i, Games: cfg.Games, Misere: cfg.Model.Misere, Model: digest, Options: cfg.Options}
			return GenChunk(ctx, cfg.Dir, h, s)
		}
	}, progress)
}
