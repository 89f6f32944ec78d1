package agents

import (
	"math"
	"math/rand/v2"

	"github.com/botarena/gamebot/battleship"
)

// dgAgent is the textbook probability-density shooter (N. Berry,
// DataGenetics, "Battleship", 2011), adapted to botsarena's unnamed sunk
// ships as docs/battleship.md §6.3 describes: every
// placement of every remaining ship that avoids known water adds
// count·K^hits to the unknown cells it covers, the densest unknown cell is
// shot (ties at random); a "hit and sunk" is read the natural human way
// (the longest remaining ship along the longer run of hits through it).
// It places uniformly at random among valid fleets and learns nothing.
type dgAgent struct{}

// dgHitWeight is K of docs/battleship.md §6.3: a placement covering h live
// hits weighs K^h.
const dgHitWeight = 100

func (dgAgent) Name() string { return "dg-density" }

func (dgAgent) NewGame(_ string, r battleship.Rules, rng *rand.Rand) Game {
	return &dgGame{b: newBoard(r), rem: r.Fleet, resolved: make([]bool, r.Cells()), dens: make([]float64, r.Cells()), rng: rng}
}

type dgGame struct {
	b        *board
	rem      battleship.Fleet // ships not yet read as sunk
	resolved []bool           // hit cells attributed to sunk ships
	dens     []float64
	rng      *rand.Rand
}

func (g *dgGame) Place() ([]battleship.Ship, error) { return uniformFleet(g.b.r, g.rng) }

func (*dgGame) End(_, _ []battleship.Strike) {}

func (g *dgGame) blocked(c int) bool {
	st := g.b.state[c]
	return st == cMiss || st == cSunk || g.resolved[c]
}

func (g *dgGame) live(c int) bool { return g.b.state[c] == cHit && !g.resolved[c] }

func (g *dgGame) Shoot(yours, _ []battleship.Strike) (int, int) {
	g.b.fold(yours, g.apply)
	r := g.b.r
	w, h := r.W, r.H
	clear(g.dens)
	for l := 1; l <= battleship.MaxLen; l++ {
		m := g.rem[l]
		if m == 0 {
			continue
		}
		for vert := range 2 {
			if l == 1 && vert == 1 {
				continue
			}
			step, dx, dy := 1, 1, 0
			if vert == 1 {
				step, dx, dy = w, 0, 1
			}
			for y := 0; y+dy*(l-1) < h; y++ {
				for x := 0; x+dx*(l-1) < w; x++ {
					start := y*w + x
					ok, hits := true, 0
					for i, c := 0, start; i < l; i, c = i+1, c+step {
						if g.blocked(c) {
							ok = false
							break
						}
						if g.b.state[c] == cHit {
							hits++
						}
					}
					if !ok || hits == l {
						continue
					}
					wt := float64(m) * math.Pow(dgHitWeight, float64(min(hits, 6)))
					for i, c := 0, start; i < l; i, c = i+1, c+step {
						if g.b.state[c] == cUnknown {
							g.dens[c] += wt
						}
					}
				}
			}
		}
	}
	return g.b.pick(g.dens, g.rng)
}

// apply folds one new result into the state (a sink is read as
// docs/battleship.md §6.3 says).
func (g *dgGame) apply(c int, res battleship.Result) {
	switch res {
	case battleship.Miss:
		g.b.state[c] = cMiss
		return
	case battleship.Hit:
		g.b.state[c] = cHit
		return
	}
	g.b.state[c] = cSunk
	g.resolved[c] = true
	r := g.b.r
	w := r.W
	x, y := c%w, c/w
	// The longest contiguous run of live hits through c, per axis.
	run := func(dx, dy int) (lo, hi int) {
		for lo = 0; ; lo++ {
			nx, ny := x-(lo+1)*dx, y-(lo+1)*dy
			if nx < 0 || ny < 0 || !g.live(ny*w+nx) {
				break
			}
		}
		for hi = 0; ; hi++ {
			nx, ny := x+(hi+1)*dx, y+(hi+1)*dy
			if nx >= w || ny >= r.H || !g.live(ny*w+nx) {
				break
			}
		}
		return lo, hi
	}
	hlo, hhi := run(1, 0)
	vlo, vhi := run(0, 1)
	// Candidates along an axis: a remaining length l and a window of l
	// cells through c inside the run of live hits (the longest l first,
	// then the leftmost/topmost window).
	along := func(lo, hi, dx, dy int) (l, start int, ok bool) {
		for l = min(lo+hi+1, battleship.MaxLen); l >= 2; l-- {
			if g.rem[l] == 0 {
				continue
			}
			for off := lo; off >= 0; off-- { // off cells of the window before c
				if off+1+hi >= l && l-1-off >= 0 && l-1-off <= hi {
					return l, (y-off*dy)*w + x - off*dx, true
				}
			}
		}
		return 0, 0, false
	}
	axes := [2][4]int{{hlo, hhi, 1, 0}, {vlo, vhi, 0, 1}}
	if vlo+vhi > hlo+hhi {
		axes[0], axes[1] = axes[1], axes[0]
	}
	for _, a := range axes {
		if l, start, ok := along(a[0], a[1], a[2], a[3]); ok {
			step := 1
			if a[3] == 1 {
				step = w
			}
			for i, cc := 0, start; i < l; i, cc = i+1, cc+step {
				g.resolved[cc] = true
			}
			g.rem[l]--
			g.orphans()
			return
		}
	}
	if g.rem[1] > 0 {
		g.rem[1]--
	} else {
		for l := 1; l <= battleship.MaxLen; l++ { // inconsistent: drop the smallest
			if g.rem[l] > 0 {
				g.rem[l]--
				break
			}
		}
	}
	g.orphans()
}

// orphans resolves live hits that no remaining ship can cover any more.
func (g *dgGame) orphans() {
	r := g.b.r
	w := r.W
	for c := range g.b.state {
		if !g.live(c) {
			continue
		}
		x, y := c%w, c/w
		covered := false
		for l := 1; l <= battleship.MaxLen && !covered; l++ {
			if g.rem[l] == 0 {
				continue
			}
			for _, d := range [2][2]int{{1, 0}, {0, 1}} {
				if l == 1 && d[1] == 1 {
					continue
				}
				for off := range l {
					sx, sy := x-off*d[0], y-off*d[1]
					if sx < 0 || sy < 0 || sx+(l-1)*d[0] >= w || sy+(l-1)*d[1] >= r.H {
						continue
					}
					ok := true
					for i := range l {
						if g.blocked((sy+i*d[1])*w + sx + i*d[0]) {
							ok = false
							break
						}
					}
					if ok {
						covered = true
						break
					}
				}
				if covered {
					break
				}
			}
		}
		if !covered {
			g.resolved[c] = true
		}
	}
}
