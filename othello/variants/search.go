// Package variants is the generic searcher: iterative-deepening PVS, a
// transposition table, a hand-written evaluation per mode and an exact
// endgame solver, on 8×8 (Searcher8) and 10×10 (Searcher10) bitboards.
// As othello/doc.go says, it plays grand and octagon, reversi's centre
// phase and its endings (where the 32-disc limit decides), and anti only
// when StdSettings.GenericAnti asks for it (the reference the anti model
// is measured against); std never. The othello package states each
// mode's rules and sets its limits from the clock. It imports no engine:
// only the board primitives of othello/bitboard.
//
// search8.go and solve8.go (the exact solver) are written once for 8×8;
// search10_gen.go and solve10_gen.go are generated from them (go generate
// ./othello/variants) by renaming.
package variants

import (
	"slices"
	"time"
)

//go:generate go run ./internal/gensearch

// Rules are what the searcher needs to know of the game it plays; the
// othello package states them for each mode.
type Rules struct {
	// Misere: the side with fewer discs wins (anti).
	Misere bool
	// Reversi: classic Reversi (8×8 only): the four centre squares are
	// filled first, without flips, and a side that has placed MaxPlaced
	// discs has no move.
	Reversi   bool
	MaxPlaced int
	// Blocked are the squares no disc can hold (octagon).
	Blocked []int
}

func (r Rules) same(q Rules) bool {
	return r.Misere == q.Misere && r.Reversi == q.Reversi && r.MaxPlaced == q.MaxPlaced && slices.Equal(r.Blocked, q.Blocked)
}

func (r Rules) clone() Rules {
	r.Blocked = slices.Clone(r.Blocked)
	return r
}

// Limits bound a search.
type Limits struct {
	// MaxDepth caps the depth (a search that reaches the end solves).
	MaxDepth int
	// Soft: no new iteration starts after 60% of this much time (0: none).
	Soft time.Duration
	// Deadline abandons the running iteration (zero: none).
	Deadline time.Time
	// ExactEmpties: from this many empties on, the root solves exactly
	// once a midgame iteration of depth 10 is in hand (0: never before
	// MaxDepth reaches the end).
	ExactEmpties int
}

// Result is what a search found.
type Result struct {
	Move  int     // best move (square)
	Score float64 // expected final disc difference for the side to move (estimate unless Exact)
	Depth int     // completed depth (≥ empties: a solve)
	Exact bool    // Score is the proven final score
	Nodes uint64  // nodes searched
}

// Score units and search constants shared by both board sizes.
const (
	discScale        = 100   // score units per disc
	infScore         = 30000 // above every score
	maxEval          = 6000  // static evaluations stay below a 60-disc win
	exactDepth       = 1000  // TT depth of an exact (to the end) result, plus its empties
	shallowEmpties   = 6     // solver without table or move generation up to this
	ttEmpties        = 8     // solver uses the table from this many empties
	stabilityEmpties = 6     // solver tries the stability cutoff from here
	etcEmpties       = 10    // solver tries enhanced transposition cutoffs from here
	parityBonus      = 128   // solver ordering: odd-region bonus
	aspiration       = 300   // root aspiration half-window
	rootSolveAfter   = 10    // the root tries an exact solve after this depth
)

// rootResult is the outcome of a search.
type rootResult struct {
	move  int
	score int // scaled units, side to move
	depth int // completed depth; ≥ empties means exact
	exact bool
	nodes uint64
}

func (r rootResult) result() Result {
	return Result{Move: r.move, Score: float64(r.score) / discScale, Depth: r.depth, Exact: r.exact, Nodes: r.nodes}
}
