package othello

//go:generate go run ./internal/gensearch

// Score units and search constants shared by both board sizes.
const (
	discScale          = 100   // score units per disc
	infScore           = 30000 // above every score
	maxEval            = 6000  // static evaluations stay below a 60-disc win
	exactDepth         = 1000  // TT depth of an exact (to the end) result, plus its empties
	shallowEmpties     = 6     // solver without table or move generation up to this
	ttEmpties          = 8     // solver uses the table from this many empties
	stabilityEmpties   = 6     // solver tries the stability cutoff from here
	etcEmpties         = 10    // solver tries enhanced transposition cutoffs from here
	parityBonus        = 128   // solver ordering: odd-region bonus
	evalOrderEmpties   = 12    // solver orders by the trained evaluation from here
	evalOrderWeight    = 64    // … weighted so that 4 discs weigh as one reply
	searchOrderEmpties = 18    // … and by a shallow search from here (EndgameSet24 at 22 empties: 162 M → 121 M nodes)
	searchOrderDepth   = 2     // … of this depth (4: no fewer nodes, more time)
	searchOrderWeight  = 256   // … weighted so that a disc weighs as one reply
	aspiration         = 300   // root aspiration half-window
	probcutDepth       = 4     // ProbCut from this depth (trained evaluation only)
	probcutMargin      = 600   // ProbCut margin: 1.5–4 standard deviations (margins of 1.5 or 2 by empties lost in self-play)
	rootSolveAfter     = 10    // the root tries an exact solve after this depth
)

// rootResult is the outcome of a search.
type rootResult struct {
	move  int
	score int // scaled units, side to move
	depth int // completed depth; ≥ empties means exact
	exact bool
	nodes uint64
}

// probcutShallow is the depth of ProbCut's shallow search for a deep
// search of depth d: about half, with the same parity (odd and even depths
// differ by a bias of a few discs).
func probcutShallow(d int) int {
	ds := d / 2
	if (d-ds)&1 == 1 {
		ds--
	}
	return ds
}
