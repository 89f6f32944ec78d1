package battleship

import (
	"math"
	"math/rand/v2"
)

// The weighing of one explanation of the hits: how many ways the ships
// it leaves free fit the cells it leaves unknown, counted per ship
// incrementally over the search (kill, leaf, finish) or afresh
// (evaluate), or by sampling whole free fleets (evaluateSampled); and the
// scores used when no explanation is found (fallback, evaluateLoose).

// Incremental counting of the free ships' placements. The base
// placements are those over unknown cells; an explanation's ships take
// some unknown cells, which kills every base placement through them. kill
// (d = 1) records the placements through cell c as dead, counting each
// once however many taken cells it holds; d = -1 undoes it. A complete
// explanation then costs only its dead placements (leaf), and the cell
// probabilities are assembled once at the end (finish).
func (t *targeter) kill(c, d int) {
	w := t.r.W
	x, y := c%w, c/w
	for _, l := range t.lens {
		t.work += 2 * l
		for off := range l {
			if sx := x - off; sx >= 0 && sx+l <= w && int(t.baseR[y*w+sx]) >= l {
				t.killOne(l, int32((y*w+sx)*2), d)
			}
		}
		if l == 1 {
			continue
		}
		for off := range l {
			if sy := y - off; sy >= 0 && sy+l <= t.r.H && int(t.baseD[sy*w+x]) >= l {
				t.killOne(l, int32((sy*w+x)*2+1), d)
			}
		}
	}
}

func (t *targeter) killOne(l int, id int32, d int) {
	n := t.dead[l][id]
	t.dead[l][id] = n + int32(d)
	switch {
	case d > 0 && n == 0:
		t.destroyed[l]++
		t.dstack = append(t.dstack, deadRef{l: uint8(l), id: id})
	case d < 0 && n == 1:
		t.destroyed[l]--
	}
}

type deadRef struct {
	l  uint8
	id int32
}

// base computes the unknown cells' free runs and the base placements per
// length (no explanation ship taken).
func (t *targeter) base() {
	t.freeRuns(t.baseR, t.baseD) // no cell is covered yet
	t.lens = t.lens[:0]
	for l := 1; l <= MaxLen; l++ {
		t.cntBase[l], t.destroyed[l], t.coefA[l] = 0, 0, 0
		if t.r.Fleet[l] == 0 {
			continue
		}
		t.lens = append(t.lens, l)
		t.dead[l] = grow(t.dead[l], 2*t.n)
		t.wdes[l] = grow(t.wdes[l], 2*t.n)
		clear(t.dead[l])
		clear(t.wdes[l])
	}
	for _, c := range t.free {
		rr, rd := int(t.baseR[c]), int(t.baseD[c])
		for _, l := range t.lens {
			if rr >= l {
				t.cntBase[l]++
			}
			if l > 1 && rd >= l {
				t.cntBase[l]++
			}
		}
	}
	t.dstack = t.dstack[:0]
}

// leaf weights one complete explanation by the number of ways to place
// the remaining ships on the cells it leaves free (per ship, overlaps
// between free ships ignored) and accumulates it: its own unknown cells
// count fully; its free ships' density is the base density (coefA) less
// its dead placements (wdes), assembled by finish.
func (t *targeter) leaf() {
	t.work += len(t.dstack) + 8
	lw := 0.0
	var a [MaxLen + 1]float64
	for _, l := range t.lens {
		k := t.rem[l]
		if k == 0 {
			continue
		}
		cnt := t.cntBase[l] - t.destroyed[l]
		if cnt < k {
			return // the remaining ships do not fit
		}
		lw += logChoose(cnt, k)
		a[l] = float64(k) / float64(cnt)
	}
	t.covers++
	if len(t.stack) > 0 {
		t.hunting = false
	}
	if math.IsInf(t.ref, -1) || lw > t.ref+leafRescale {
		if !math.IsInf(t.ref, -1) {
			sc := math.Exp(t.ref - lw)
			for _, c := range t.free {
				t.acc[c] *= sc
			}
			t.sumW *= sc
			for _, l := range t.lens {
				t.coefA[l] *= sc
				for i := range t.wdes[l] {
					t.wdes[l][i] *= sc
				}
			}
		}
		t.ref = lw
	}
	wt := math.Exp(lw - t.ref)
	t.sumW += wt
	for _, l := range t.lens {
		t.coefA[l] += wt * a[l]
	}
	for _, c := range t.stack {
		t.acc[c] += wt
	}
	for _, d := range t.dstack {
		if v := a[d.l]; v != 0 {
			t.wdes[d.l][d.id] += wt * v
		}
	}
	t.finished = false
}

// leafRescale bounds how far a leaf's log-weight may exceed the reference
// before every accumulator is rescaled (exp(700) is near float64's limit).
const leafRescale = 600

// finish adds the free ships' density accumulated by leaf: every base
// placement of length l covers its cells with weight coefA[l] less what
// the explanations that killed it took back.
func (t *targeter) finish() {
	if t.finished {
		return
	}
	t.finished = true
	w := t.r.W
	for _, l := range t.lens {
		ca := t.coefA[l]
		for _, s := range t.free {
			if int(t.baseR[s]) >= l {
				if v := ca - t.wdes[l][s*2]; v != 0 {
					for k := range int32(l) {
						t.acc[s+k] += v
					}
				}
			}
			if l > 1 && int(t.baseD[s]) >= l {
				if v := ca - t.wdes[l][s*2+1]; v != 0 {
					for k := range int32(l) {
						t.acc[int(s)+int(k)*w] += v
					}
				}
			}
		}
	}
	for _, c := range t.free {
		t.acc[c] = max(t.acc[c], 0)
	}
}

// freeRuns writes, for every cell, the length of the run of unknown cells
// not covered by an explanation ship that starts there, to the right and
// downwards, capped at MaxLen.
func (t *targeter) freeRuns(right, down []uint8) {
	w, h := t.r.W, t.r.H
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			c := y*w + x
			if t.state[c] != cellUnknown || t.cov[c] {
				right[c], down[c] = 0, 0
				continue
			}
			rr, rd := uint8(1), uint8(1)
			if x+1 < w {
				rr += right[c+1]
			}
			if y+1 < h {
				rd += down[c+w]
			}
			right[c], down[c] = min(rr, MaxLen), min(rd, MaxLen)
		}
	}
}

// evaluate weights one complete explanation of the hits by the number of
// ways to place the remaining ships on the free cells, and adds its cell
// probabilities to the accumulator.
func (t *targeter) evaluate() {
	w := t.r.W
	t.work += t.n
	t.freeRuns(t.runR, t.runD)
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
