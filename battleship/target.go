package battleship

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// TargetOptions bound the work of one shot decision.
type TargetOptions struct {
	// MaxNodes bounds the search over the ships that explain the hits
	// (0 = default).
	MaxNodes int
	// MaxWork bounds the cell-work spent weighting explanations, in cell
	// visits (0 = default).
	MaxWork int
	// Samples, if positive, replaces the per-ship counting of the free
	// ships by that many rejection samples of whole free fleets per
	// explanation (exact in the limit: overlaps between free ships count).
	Samples int
	// Prior, if it has one entry per cell, multiplies the odds that a ship
	// covers each cell (1 = no opinion): what past games say about where
	// this opponent puts its ships.
	Prior []float64
	// Spread, while hunting, shoots uniformly among the cells whose
	// probability is within this fraction of the best (0 = exact ties
	// only), so that the opening is not the same every game.
	Spread float64
}

const (
	defaultTargetNodes = 15_000
	defaultTargetWork  = 400_000
)

var targeterPool = sync.Pool{New: func() any { return new(targeter) }}

// NextShot returns the cell to shoot next, given the rules and this
// player's shot history (chronological, as the arena sends it).
//
// It computes, for every unshot cell, the probability that a ship covers it
// over the fleet configurations consistent with every result: the ships that
// cover the hit cells are enumerated exactly (each "hit and sunk" is a ship
// of a remaining length made of hit cells and shot last at that cell; each
// plain hit belongs to a ship with an unshot cell; ships may touch and a
// sunk result does not say which ship), and each such explanation is
// weighted by the number of ways to place the remaining ships on the unshot
// cells (counted per ship, overlaps between free ships ignored; the Samples
// option samples whole free fleets instead). The odds of each cell are
// multiplied by opt.Prior (what past games say about this opponent's
// placement). The most probable cell is shot, ties broken at random; while
// hunting (no ship known to be hit and afloat), any cell within opt.Spread
// of the best may be shot, so that the opening varies from game to game.
//
// The answer is always on the board, and an unshot cell while one remains,
// whatever the history (an inconsistent history falls back to heuristics).
func NextShot(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) (x, y int) {
	c, _ := nextShot(r, shots, rng, opt)
	return c % max(r.W, 1), c / max(r.W, 1)
}

// nextShot is NextShot's cell, and the probability the posterior gave it
// before opt.Prior (-1 when no consistent explanation was found).
func nextShot(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) (cell int, p0 float64) {
	if r.W < 1 || r.H < 1 || r.W > MaxSide || r.H > MaxSide {
		return 0, -1
	}
	t := targeterPool.Get().(*targeter)
	defer targeterPool.Put(t)
	t.analyze(r, shots, rng, opt)
	t.applyPrior(opt.Prior)
	c := t.choose(rng)
	p0 = -1
	if t.covers > 0 && t.sumW > 0 && len(t.free) > 0 && !t.fellBack {
		p := min(1, t.acc[c]/t.sumW)
		if w := t.priorAt(opt.Prior, c); w != 1 {
			p = p / (p + w*(1-p)) // undo the odds multiplication
		}
		p0 = p
	}
	return c, p0
}

// applyPrior multiplies each unshot cell's odds by the prior's weight.
func (t *targeter) applyPrior(w []float64) {
	if len(w) != t.n || t.covers == 0 || !(t.sumW > 0) {
		return
	}
	for _, c := range t.free {
		p := min(1, t.acc[c]/t.sumW)
		if p <= 0 || p >= 1 {
			continue
		}
		q := w[c] * p
		t.acc[c] = q / (q + 1 - p) * t.sumW
	}
}

func (t *targeter) priorAt(w []float64, c int) float64 {
	if len(w) != t.n || w[c] <= 0 {
		return 1
	}
	return w[c]
}

// analyze computes the weight of every unshot cell for this history.
func (t *targeter) analyze(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) {
	t.reset(r, opt)
	t.rng = rng
	observe(r, shots, t.state, t.when)
	for c := range t.n {
		if t.state[c] == cellUnknown {
			t.free = append(t.free, int32(c))
		}
	}
	if len(t.free) == 0 {
		return
	}
	for c := range t.n {
		if t.state[c] == cellSunk {
			t.hits = append(t.hits, int32(c))
		}
	}
	slices.SortFunc(t.hits, func(a, b int32) int { return int(t.when[a] - t.when[b]) })
	for c := range t.n {
		if t.state[c] == cellHit {
			t.hits = append(t.hits, int32(c))
		}
	}
	// More hit cells than the fleet has cells: inconsistent, do not search.
	if t.r.Fleet.Ships() > 0 && len(t.hits) <= t.r.Fleet.Area() {
		t.base()
		t.search(0)
		t.finish()
	}
}

type targeter struct {
	r        Rules
	n        int
	maxNodes int
	maxWork  int
	samples  int
	spread   float64
	fellBack bool
	hunting  bool
	rng      *rand.Rand
	stamp    []uint32
	gen      uint32
	plc      [MaxLen + 1][]int32
	scan     bool // evaluate every explanation by a full scan (tests)
	finished bool

	// incremental counting (kill, leaf, finish)
	lens         []int
	baseR, baseD []uint8
	cntBase      [MaxLen + 1]int
	destroyed    [MaxLen + 1]int
	dead         [MaxLen + 1][]int32
	wdes         [MaxLen + 1][]float64
	coefA        [MaxLen + 1]float64
	dstack       []deadRef

	state []uint8
	when  []int32
	cov   []bool
	hits  []int32 // cells to explain: sunk cells by time, then hit cells
	rem   Fleet
	stack []int32 // unknown cells covered by the current explanation

	// accumulation over explanations, scaled by exp(-ref)
	acc     []float64
	sumW    float64
	ref     float64
	covers  int
	nodes   int
	work    int
	aborted bool

	runR, runD []uint8
	dens       []float64
	free       []int32
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (t *targeter) reset(r Rules, opt TargetOptions) {
	n := r.Cells()
	t.r, t.n = r, n
	t.maxNodes = cmpOr(opt.MaxNodes, defaultTargetNodes)
	t.maxWork = cmpOr(opt.MaxWork, defaultTargetWork)
	t.samples = opt.Samples
	t.spread = min(max(opt.Spread, 0), 0.9)
	t.fellBack = false
	t.hunting = true
	t.stamp = grow(t.stamp, n)
	clear(t.stamp)
	t.gen = 0
	t.state = grow(t.state, n)
	t.when = grow(t.when, n)
	t.cov = grow(t.cov, n)
	t.acc = grow(t.acc, n)
	t.runR = grow(t.runR, n)
	t.runD = grow(t.runD, n)
	t.baseR = grow(t.baseR, n)
	t.baseD = grow(t.baseD, n)
	t.finished = true
	t.dens = grow(t.dens, n)
	clear(t.cov)
	clear(t.acc)
	t.hits = t.hits[:0]
	t.stack = t.stack[:0]
	t.free = t.free[:0]
	t.rem = r.Fleet
	t.ref = math.Inf(-1)
	t.sumW = 0
	t.covers, t.nodes, t.work, t.aborted = 0, 0, 0, false
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func (t *targeter) choose(rng *rand.Rand) int {
	if len(t.free) == 0 {
		// Every cell has been shot: a repeat is legal, an off-board shot
		// is not.
		return 0
	}
	if t.covers > 0 {
		if c, ok := t.best(rng); ok {
			return c
		}
	}
	t.fellBack = true
	return t.fallback(rng)
}

// best returns the unshot cell with the largest accumulated weight.
func (t *targeter) best(rng *rand.Rand) (int, bool) {
	top := 0.0
	for _, c := range t.free {
		top = max(top, t.acc[c])
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return 0, false
	}
	cut := top * (1 - 1e-9)
	if t.hunting && t.spread > 0 {
		cut = top * (1 - t.spread)
	}
	pick, seen := -1, 0
	for _, c := range t.free {
		if t.acc[c] >= cut {
			seen++
			if rng.IntN(seen) == 0 {
				pick = int(c)
			}
		}
	}
	return pick, pick >= 0
}

// search enumerates the sets of ships that explain every hit cell.
// Hits before index from are covered on the current path.
func (t *targeter) search(from int) {
	if t.aborted {
		return
	}
	t.nodes++
	if t.nodes > t.maxNodes || t.work > t.maxWork {
		t.aborted = true
		return
	}
	c := -1
	for from < len(t.hits) {
		if h := t.hits[from]; !t.cov[h] {
			c = int(h)
			break
		}
		from++
	}
	if c < 0 {
		if t.scan || t.samples > 0 {
			t.evaluate()
		} else {
			t.leaf()
		}
		return
	}
	w := t.r.W
	x, y := c%w, c/w
	for l := 1; l <= MaxLen; l++ {
		if t.rem[l] == 0 {
			continue
		}
		for off := range l {
			sx := x - off
			if sx >= 0 && sx+l <= w {
				t.try(y*w+sx, 1, l, from)
			}
		}
		if l == 1 {
			continue
		}
		for off := range l {
			sy := y - off
			if sy >= 0 && sy+l <= t.r.H {
				t.try(sy*w+x, w, l, from)
			}
		}
	}
}

// try places a ship of length l at start/step if it is consistent with
// the observations and the ships already in the explanation, recurses, and
// undoes.
func (t *targeter) try(start, step, l, from int) {
	sunk, unknown := 0, 0
	var sunkAt, lastHit int32 = -1, -1
	for i, c := 0, start; i < l; i, c = i+1, c+step {
		if t.cov[c] {
			return
		}
		switch t.state[c] {
		case cellWater:
			return
		case cellUnknown:
			unknown++
		case cellHit:
			lastHit = max(lastHit, t.when[c])
		case cellSunk:
			sunk++
			sunkAt = t.when[c]
		}
	}
	switch {
	case sunk > 1:
		return
	case sunk == 1 && (unknown > 0 || lastHit > sunkAt):
		// A sunk ship is entirely shot, and the sunk shot is its last.
		return
	case sunk == 0 && unknown == 0:
		// Every cell hit but never sunk: impossible.
		return
	}
	mark, dmark := len(t.stack), len(t.dstack)
	for i, c := 0, start; i < l; i, c = i+1, c+step {
		t.cov[c] = true
		if t.state[c] == cellUnknown {
			t.stack = append(t.stack, int32(c))
			t.kill(c, 1)
		}
	}
	t.rem[l]--
	t.search(from)
	t.rem[l]++
	for i, c := 0, start; i < l; i, c = i+1, c+step {
		t.cov[c] = false
	}
	for _, c := range t.stack[mark:] {
		t.kill(int(c), -1)
	}
	t.stack = t.stack[:mark]
	t.dstack = t.dstack[:dmark]
}
