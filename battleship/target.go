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
// option samples whole free fleets instead). The most probable cell is
// shot, ties broken at random. While hunting (no ship known to be hit and
// afloat) only one residue class of x+y modulo the shortest remaining ship
// is shot, a complete search pattern that finds small ships sooner.
//
// The answer is always on the board, and an unshot cell while one remains,
// whatever the history (an inconsistent history falls back to heuristics).
func NextShot(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) (x, y int) {
	if r.W < 1 || r.H < 1 || r.W > MaxSide || r.H > MaxSide {
		return 0, 0
	}
	t := targeterPool.Get().(*targeter)
	defer targeterPool.Put(t)
	t.analyze(r, shots, rng, opt)
	c := t.choose(rng)
	return c % r.W, c / r.W
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
		t.search(0)
	}
}

type targeter struct {
	r        Rules
	n        int
	maxNodes int
	maxWork  int
	samples  int
	hunting  bool
	minLen   int
	rng      *rand.Rand
	stamp    []uint32
	gen      uint32
	plc      [MaxLen + 1][]int32

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
	t.hunting, t.minLen = true, MaxLen
	t.stamp = grow(t.stamp, n)
	clear(t.stamp)
	t.gen = 0
	t.state = grow(t.state, n)
	t.when = grow(t.when, n)
	t.cov = grow(t.cov, n)
	t.acc = grow(t.acc, n)
	t.runR = grow(t.runR, n)
	t.runD = grow(t.runD, n)
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
	inClass := func(int32) bool { return true }
	if t.hunting && t.minLen >= 2 {
		// Hunting (no ship is known to be hit and afloat): shoot only one
		// residue class of x+y modulo the shortest remaining length. Every
		// ship crosses every class, so the class is a complete search
		// pattern; the class with the highest mean probability per unshot
		// cell is kept, which makes the choice stable from shot to shot.
		m := t.minLen
		var sum [MaxLen]float64
		var cnt [MaxLen]int
		for _, c := range t.free {
			sum[(int(c)%t.r.W+int(c)/t.r.W)%m] += t.acc[c]
			cnt[(int(c)%t.r.W+int(c)/t.r.W)%m]++
		}
		k := 0
		for i := range m {
			if cnt[i] > 0 && (cnt[k] == 0 || sum[i]/float64(cnt[i]) > sum[k]/float64(cnt[k])) {
				k = i
			}
		}
		classTop := 0.0
		for _, c := range t.free {
			if (int(c)%t.r.W+int(c)/t.r.W)%m == k {
				classTop = max(classTop, t.acc[c])
			}
		}
		if classTop > 0 {
			top = classTop
			inClass = func(c int32) bool { return (int(c)%t.r.W+int(c)/t.r.W)%m == k }
		}
	}
	cut := top * (1 - 1e-9)
	pick, seen := -1, 0
	for _, c := range t.free {
		if t.acc[c] >= cut && inClass(c) {
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
		t.evaluate()
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
	mark := len(t.stack)
	for i, c := 0, start; i < l; i, c = i+1, c+step {
		t.cov[c] = true
		if t.state[c] == cellUnknown {
			t.stack = append(t.stack, int32(c))
		}
	}
	t.rem[l]--
	t.search(from)
	t.rem[l]++
	for i, c := 0, start; i < l; i, c = i+1, c+step {
		t.cov[c] = false
	}
	t.stack = t.stack[:mark]
}

// evaluate weights one complete explanation of the hits by the number of
// ways to place the remaining ships on the free cells, and adds its cell
// probabilities to the accumulator.
func (t *targeter) evaluate() {
	w, h := t.r.W, t.r.H
	t.work += t.n
	// Free runs to the right and downwards, capped at MaxLen.
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			c := y*w + x
			if t.state[c] != cellUnknown || t.cov[c] {
				t.runR[c], t.runD[c] = 0, 0
				continue
			}
			rr, rd := uint8(1), uint8(1)
			if x+1 < w {
				rr += t.runR[c+1]
			}
			if y+1 < h {
				rd += t.runD[c+w]
			}
			t.runR[c], t.runD[c] = min(rr, MaxLen), min(rd, MaxLen)
		}
	}
	// Placements per length.
	var cnt [MaxLen + 1]int
	for _, c := range t.free {
		if t.cov[c] {
			continue
		}
		rr, rd := int(t.runR[c]), int(t.runD[c])
		for l := 1; l <= rr; l++ {
			cnt[l]++
		}
		for l := 2; l <= rd; l++ {
			cnt[l]++
		}
	}
	if t.samples > 0 && t.rem.Ships() > 0 {
		t.evaluateSampled(cnt)
		return
	}
	lw := 0.0
	var ph, pv [MaxLen + 1]float64 // prefix sums of rem[l]/cnt[l]
	for l := 1; l <= MaxLen; l++ {
		a := 0.0
		if k := t.rem[l]; k > 0 {
			if cnt[l] < k {
				return // the remaining ships do not fit
			}
			lw += logChoose(cnt[l], k)
			a = float64(k) / float64(cnt[l])
		}
		ph[l] = ph[l-1] + a
		if l == 1 {
			pv[l] = 0
		} else {
			pv[l] = pv[l-1] + a
		}
	}
	// Expected number of free ships covering each free cell.
	for _, c := range t.free {
		t.dens[c] = 0
	}
	for _, c := range t.free {
		if rr := int(t.runR[c]); rr > 0 {
			for k := range rr {
				t.dens[int(c)+k] += ph[rr] - ph[k]
			}
		}
		if rd := int(t.runD[c]); rd > 1 {
			for k := range rd {
				t.dens[int(c)+k*w] += pv[rd] - pv[k]
			}
		}
	}
	t.add(lw, t.dens)
}

// add accumulates one explanation of log-weight lw whose free cells have
// ship probabilities dens (its own covered unknown cells count fully).
func (t *targeter) add(lw float64, dens []float64) {
	t.covers++
	if len(t.stack) > 0 {
		t.hunting = false
	}
	for l := 1; l <= MaxLen; l++ {
		if t.rem[l] > 0 {
			t.minLen = min(t.minLen, l)
			break
		}
	}
	if lw > t.ref {
		if !math.IsInf(t.ref, -1) {
			s := math.Exp(t.ref - lw)
			for _, c := range t.free {
				t.acc[c] *= s
			}
			t.sumW *= s
		}
		t.ref = lw
	}
	wt := math.Exp(lw - t.ref)
	t.sumW += wt
	for _, c := range t.free {
		if !t.cov[c] {
			t.acc[c] += wt * dens[c]
		}
	}
	for _, c := range t.stack {
		t.acc[c] += wt
	}
}

// logChoose is log(n choose k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// fallback scores unshot cells when no explanation was found (an
// inconsistent history or a search budget exhausted before the first one):
// next to unexplained hits first, in line with two hits best, else by the
// free-placement density of the whole fleet.
func (t *targeter) fallback(rng *rand.Rand) int {
	w, h := t.r.W, t.r.H
	clear(t.cov)
	t.stack = t.stack[:0]
	t.rem = t.r.Fleet
	if t.rem.Ships() == 0 {
		t.rem[1] = 1
	}
	saved := t.ref
	t.ref = math.Inf(-1)
	clear(t.acc)
	t.evaluateLoose()
	t.ref = saved
	bonus := func(c int) float64 {
		x, y := c%w, c/w
		s := 0.0
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx < 0 || ny < 0 || nx >= w || ny >= h || t.state[ny*w+nx] != cellHit {
				continue
			}
			s += 10
			mx, my := nx+d[0], ny+d[1]
			if mx >= 0 && my >= 0 && mx < w && my < h && t.state[my*w+mx] == cellHit {
				s += 10
			}
		}
		return s
	}
	bestScore, pick, seen := -1.0, int(t.free[0]), 0
	for _, c := range t.free {
		s := t.acc[c] + bonus(int(c))
		switch {
		case s > bestScore*(1+1e-9):
			bestScore, pick, seen = s, int(c), 1
		case s >= bestScore*(1-1e-9):
			seen++
			if rng.IntN(seen) == 0 {
				pick = int(c)
			}
		}
	}
	return pick
}

// evaluateLoose fills acc with the placement density of t.rem over the
// unshot cells, dropping the longest ships until the rest fit.
func (t *targeter) evaluateLoose() {
	for l := MaxLen; l >= 1; l-- {
		for t.rem[l] > 0 {
			before := t.covers
			t.evaluate()
			if t.covers > before {
				return
			}
			t.rem[l]--
		}
	}
}

// evaluateSampled estimates, for the current explanation, the number of
// ways to place the remaining ships on the free cells and each free cell's
// probability, by drawing every remaining ship uniformly among its free
// placements and rejecting overlapping draws.
func (t *targeter) evaluateSampled(cnt [MaxLen + 1]int) {
	w := t.r.W
	lw := 0.0
	for l := 1; l <= MaxLen; l++ {
		t.plc[l] = t.plc[l][:0]
		k := t.rem[l]
		if k == 0 {
			continue
		}
		if cnt[l] < k {
			return
		}
		a, _ := math.Lgamma(float64(k + 1))
		lw += float64(k)*math.Log(float64(cnt[l])) - a
		for _, c := range t.free {
			if t.cov[c] {
				continue
			}
			if int(t.runR[c]) >= l {
				t.plc[l] = append(t.plc[l], c<<1)
			}
			if l > 1 && int(t.runD[c]) >= l {
				t.plc[l] = append(t.plc[l], c<<1|1)
			}
		}
	}
	for _, c := range t.free {
		t.dens[c] = 0
	}
	accepted := 0
	t.work += t.samples * t.rem.Ships() * 4
	for range t.samples {
		t.gen++
		ok := true
		for l := MaxLen; l >= 1 && ok; l-- {
			for range t.rem[l] {
				p := t.plc[l][t.rng.IntN(len(t.plc[l]))]
				c, step := int(p>>1), 1
				if p&1 == 1 {
					step = w
				}
				for i := 0; i < l; i, c = i+1, c+step {
					if t.stamp[c] == t.gen {
						ok = false
						break
					}
					t.stamp[c] = t.gen
				}
				if !ok {
					break
				}
			}
		}
		if !ok {
			continue
		}
		accepted++
		for _, c := range t.free {
			if t.stamp[c] == t.gen {
				t.dens[c]++
			}
		}
	}
	if accepted == 0 {
		return
	}
	inv := 1 / float64(accepted)
	for _, c := range t.free {
		t.dens[c] *= inv
	}
	t.add(lw+math.Log(float64(accepted)/float64(t.samples)), t.dens)
}

// probabilities returns, for every cell, the probability that a ship
// covers it given the history (shot cells are 0), as NextShot computes it.
// nil if no consistent configuration was found.
func probabilities(r Rules, shots []Strike, rng *rand.Rand, opt TargetOptions) []float64 {
	t := targeterPool.Get().(*targeter)
	defer targeterPool.Put(t)
	t.analyze(r, shots, rng, opt)
	if t.covers == 0 || !(t.sumW > 0) {
		return nil
	}
	out := make([]float64, r.Cells())
	for _, c := range t.free {
		out[c] = t.acc[c] / t.sumW
	}
	return out
}
