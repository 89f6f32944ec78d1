package othello

//go:generate go run ./internal/gensearch

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
