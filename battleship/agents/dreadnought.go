package agents

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/botarena/gamebot/battleship"
)

// dreadnought is the adaptive design of "Dreadnought 1.2" (Stack Overflow
// question 1631414, contest of 2009), adapted to botsarena as
// docs/battleship.md §6.4 describes. Per opponent name and
// board size it remembers where the opponent shot early (each shot k of a
// game adds max(1, T-k)) and how often its own shots hit each cell. It
// places the best of 100 uniformly random fleets scored by that shot map
// (ships touching cost extra, plus a little noise), and shoots from an
// exact list of hypotheses about the ships it has hit, hunting by a
// placement density weighted by a smoothed per-cell hit rate.
type dreadnought struct {
	opt dreadnoughtOptions
	mem memo[dnMemory]
}

type dreadnoughtOptions struct {
	label string
	// noDefense keeps the shot map empty (placement does not learn);
	// noOffense keeps the hit rates flat (shooting does not learn).
	noDefense, noOffense bool
	// decay multiplies the memory at the end of each game (1 = the
	// original, which never forgets).
	decay float64
	// exact replaces the 2009 shooter by this module's exact-posterior
	// shooter, with the learnt hit rates as its prior (hit rate over the
	// fleet's share of the board): a stronger learner than the original,
	// not fooled by touching ships (ours, not a published design).
	exact bool
}

// Dreadnought's constants (docs/battleship.md §6.4).
const (
	dnFleets     = 100  // random fleets scored per placement
	dnTouchCost  = 20   // per ordered pair of touching ships
	dnNoise      = 15   // uniform integer noise in [0, dnNoise)
	dnPseudo     = 25.0 // pseudo-shots A of the hit-rate prior
	dnNearHit    = 0.2  // hunt: a position next to a hit or sunk cell
	dnTouchPrior = 0.5  // target: per ordered pair of touching ships
	dnMaxHyp     = 100_000
)

// unknownCellWeight is the weight of a hypothesised ship of length L with u unknown
// cells (docs/battleship.md §6.4; rows 1 and 6 extend the original table).
var unknownCellWeight = [battleship.MaxLen + 1][]float64{
	1: {1},
	2: {1, 1.0 / 16},
	3: {1, 1.0 / 4, 1.0 / 32},
	4: {1, 1.0 / 4, 1.0 / 8, 1.0 / 32},
	5: {1, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32},
	6: {1, 1.0 / 4, 1.0 / 8, 1.0 / 16, 1.0 / 32, 1.0 / 32},
}

type dnMemory struct {
	shots        []float64 // S: the opponent's early shots, weighted by earliness
	hits, misses []float64 // our shots' outcomes per cell
	games        int
}

func newDreadnought(opt dreadnoughtOptions) *dreadnought {
	if opt.label == "" {
		opt.label = "dreadnought"
	}
	if opt.decay <= 0 || opt.decay > 1 {
		opt.decay = 1
	}
	return &dreadnought{opt: opt}
}

func (d *dreadnought) Name() string { return d.opt.label }

func (d *dreadnought) NewGame(opponent string, r battleship.Rules, rng *rand.Rand) Game {
	g := &dnGame{d: d, key: memoKey(opponent, r), b: newBoard(r), rng: rng,
		hyps: [][]dnShip{{}}, score: make([]float64, r.Cells()), post: make([]float64, r.Cells())}
	n := r.Cells()
	// The hit-rate prior and the shot map, read once per game.
	g.hist = make([]float64, n)
	g.shotMap = make([]float64, n)
	prior := float64(r.Fleet.Area()) * dnPseudo / float64(n)
	d.mem.with(g.key, func() *dnMemory { return newDNMemory(n) }, func(m *dnMemory) {
		for c := range n {
			g.hist[c] = (m.hits[c] + prior) / (m.hits[c] + m.misses[c] + dnPseudo)
		}
		copy(g.shotMap, m.shots)
	})
	return g
}

func newDNMemory(n int) *dnMemory {
	return &dnMemory{shots: make([]float64, n), hits: make([]float64, n), misses: make([]float64, n)}
}

// dnShip is one hypothesised ship.
type dnShip struct {
	start int32
	l     int8
	vert  bool
}

type dnGame struct {
	d       *dreadnought
	key     string
	b       *board
	rng     *rand.Rand
	hist    []float64  // smoothed hit rate per cell
	prior   []float64  // exact: hist relative to the fleet's share
	shotMap []float64  // S at the start of the game
	hyps    [][]dnShip // every partial fleet explaining the hits so far
	score   []float64
	post    []float64
}

func (g *dnGame) cells(s dnShip, f func(c int) bool) {
	step := 1
	if s.vert {
		step = g.b.r.W
	}
	for i, c := 0, int(s.start); i < int(s.l); i, c = i+1, c+step {
		if !f(c) {
			return
		}
	}
}

func (g *dnGame) covers(s dnShip, c int) bool {
	in := false
	g.cells(s, func(cc int) bool { in = cc == c; return !in })
	return in
}

// Place keeps the lowest score of dnFleets uniformly random fleets
// (docs/battleship.md §6.4, placement).
func (g *dnGame) Place() ([]battleship.Ship, error) {
	r := g.b.r
	top := 0.0
	for _, v := range g.shotMap {
		top = max(top, v)
	}
	m := top + 1
	var best []battleship.Ship
	bestScore := math.Inf(1)
	for range dnFleets {
		f, err := uniformFleet(r, g.rng)
		if err != nil {
			return nil, err
		}
		s := 0.0
		for _, sh := range f {
			for i := range sh.L {
				c := sh.Y*r.W + sh.X + i
				if sh.Vertical {
					c = (sh.Y+i)*r.W + sh.X
				}
				s += math.Floor(100 * g.shotMap[c] / m)
			}
		}
		s += dnTouchCost * 2 * float64(touchingPairs(r, f))
		s += float64(g.rng.IntN(dnNoise))
		if s < bestScore {
			best, bestScore = f, s
		}
	}
	return best, nil
}

// touchingPairs counts unordered pairs of ships with edge-adjacent cells.
func touchingPairs(r battleship.Rules, f []battleship.Ship) int {
	owner := make([]int, r.Cells())
	for i, s := range f {
		for k := range s.L {
			c := s.Y*r.W + s.X + k
			if s.Vertical {
				c = (s.Y+k)*r.W + s.X
			}
			owner[c] = i + 1
		}
	}
	seen := map[[2]int]bool{}
	for c, o := range owner {
		if o == 0 {
			continue
		}
		x, y := c%r.W, c/r.W
		if x+1 < r.W {
			if p := owner[c+1]; p != 0 && p != o {
				seen[[2]int{min(o, p), max(o, p)}] = true
			}
		}
		if y+1 < r.H {
			if p := owner[c+r.W]; p != 0 && p != o {
				seen[[2]int{min(o, p), max(o, p)}] = true
			}
		}
	}
	return len(seen)
}

// end folds the game into the memory (the referee tells it the game is
// over; on the arena a port would fold the histories incrementally).
func (g *dnGame) End(yours, his []battleship.Strike) {
	r := g.b.r
	t := max(1, int(math.Round(50*float64(r.Cells())/100))) // T = 50 on 10x10, half the cells
	g.d.mem.with(g.key, func() *dnMemory { return newDNMemory(r.Cells()) }, func(m *dnMemory) {
		if g.d.opt.decay < 1 {
			for c := range m.shots {
				m.shots[c] *= g.d.opt.decay
				m.hits[c] *= g.d.opt.decay
				m.misses[c] *= g.d.opt.decay
			}
		}
		m.games++
		if !g.d.opt.noDefense {
			for k, s := range his {
				if s.OK && s.X < r.W && s.Y < r.H {
					m.shots[s.Y*r.W+s.X] += float64(max(1, t-k))
				}
			}
		}
		if !g.d.opt.noOffense {
			for _, s := range yours {
				if !s.OK || s.X >= r.W || s.Y >= r.H {
					continue
				}
				if s.Result == battleship.Miss {
					m.misses[s.Y*r.W+s.X]++
				} else {
					m.hits[s.Y*r.W+s.X]++
				}
			}
		}
	})
}

func (g *dnGame) Shoot(yours, _ []battleship.Strike) (int, int) {
	if g.d.opt.exact {
		r := g.b.r
		if g.prior == nil {
			share := float64(r.Fleet.Area()) / float64(r.Cells())
			g.prior = make([]float64, len(g.hist))
			for c, h := range g.hist {
				g.prior[c] = h / share
			}
		}
		return battleship.NextShot(r, yours, g.rng, battleship.TargetOptions{Prior: g.prior})
	}
	g.b.fold(yours, g.apply)
	if len(g.hyps) == 0 {
		// An inconsistent history (it cannot happen against a valid
		// fleet): start again from nothing known and hunt.
		g.hyps = [][]dnShip{{}}
	}
	hunt := false
	for _, h := range g.hyps {
		if g.allSunk(h) {
			hunt = true
			break
		}
	}
	if hunt {
		g.huntMap()
	} else {
		g.targetMap()
	}
	return g.b.pick(g.score, g.rng)
}

func (g *dnGame) sunk(s dnShip) bool {
	sunk := false
	g.cells(s, func(c int) bool { sunk = g.b.state[c] == cSunk; return !sunk })
	return sunk
}

func (g *dnGame) allSunk(h []dnShip) bool {
	for _, s := range h {
		if !g.sunk(s) {
			return false
		}
	}
	return true
}

func (g *dnGame) used(h []dnShip) battleship.Fleet {
	var u battleship.Fleet
	for _, s := range h {
		u[s.l]++
	}
	return u
}

// apply updates the hypotheses with one new result (docs/battleship.md
// §6.4, shooting).
func (g *dnGame) apply(c int, res battleship.Result) {
	switch res {
	case battleship.Miss:
		g.b.state[c] = cMiss
		g.hyps = slices.DeleteFunc(g.hyps, func(h []dnShip) bool {
			return slices.ContainsFunc(h, func(s dnShip) bool { return g.covers(s, c) })
		})
		return
	case battleship.Hit:
		g.b.state[c] = cHit
	default:
		g.b.state[c] = cSunk
	}
	var out [][]dnShip
	for _, h := range g.hyps {
		i := slices.IndexFunc(h, func(s dnShip) bool { return g.covers(s, c) })
		if i < 0 {
			// A new ship through c: every other cell unknown and free;
			// a sink can only be a 1-ship, a plain hit a longer ship.
			out = g.extend(out, h, c, res == battleship.Sunk)
			continue
		}
		unknown, hitsOnly := 0, true
		g.cells(h[i], func(cc int) bool {
			switch {
			case cc == c:
			case g.b.state[cc] == cUnknown:
				unknown++
				hitsOnly = false
			case g.b.state[cc] != cHit:
				hitsOnly = false
			}
			return true
		})
		if res == battleship.Hit && unknown > 0 || res == battleship.Sunk && hitsOnly {
			out = append(out, h)
		}
	}
	if len(out) > dnMaxHyp {
		slices.SortFunc(out, func(a, b []dnShip) int { return cmp.Compare(g.weight(b), g.weight(a)) })
		out = out[:dnMaxHyp]
	}
	g.hyps = out
}

func (g *dnGame) extend(out [][]dnShip, h []dnShip, c int, sink bool) [][]dnShip {
	r := g.b.r
	w := r.W
	x, y := c%w, c/w
	used := g.used(h)
	occupied := func(cc int) bool {
		return slices.ContainsFunc(h, func(s dnShip) bool { return g.covers(s, cc) })
	}
	for l := 1; l <= battleship.MaxLen; l++ {
		if used[l] >= r.Fleet[l] || (sink != (l == 1)) {
			continue
		}
		for vert := range 2 {
			if l == 1 && vert == 1 {
				continue
			}
			dx, dy, step := 1, 0, 1
			if vert == 1 {
				dx, dy, step = 0, 1, w
			}
			for off := range l {
				sx, sy := x-off*dx, y-off*dy
				if sx < 0 || sy < 0 || sx+(l-1)*dx >= w || sy+(l-1)*dy >= r.H {
					continue
				}
				start := sy*w + sx
				ok := true
				for i, cc := 0, start; i < l; i, cc = i+1, cc+step {
					if cc != c && (g.b.state[cc] != cUnknown || occupied(cc)) {
						ok = false
						break
					}
				}
				if ok {
					nh := make([]dnShip, len(h), len(h)+1)
					copy(nh, h)
					out = append(out, append(nh, dnShip{start: int32(start), l: int8(l), vert: vert == 1}))
				}
			}
		}
	}
	return out
}

// weight is a hypothesis's weight: per ship q(L, unknown cells), and 1/2 per
// ordered pair of touching ships.
func (g *dnGame) weight(h []dnShip) float64 {
	p := 1.0
	for i, s := range h {
		u := 0
		g.cells(s, func(c int) bool {
			if g.b.state[c] == cUnknown {
				u++
			}
			return true
		})
		p *= unknownCellWeight[s.l][min(u, int(s.l)-1)]
		for _, t := range h[i+1:] {
			if g.touch(s, t) {
				p *= dnTouchPrior * dnTouchPrior
			}
		}
	}
	return p
}

func (g *dnGame) touch(s, t dnShip) bool {
	w := g.b.r.W
	near := false
	g.cells(s, func(a int) bool {
		g.cells(t, func(b int) bool {
			ax, ay, bx, by := a%w, a/w, b%w, b/w
			near = (ax == bx && (ay-by == 1 || by-ay == 1)) || (ay == by && (ax-bx == 1 || bx-ax == 1))
			return !near
		})
		return !near
	})
	return near
}

// targetMap weights each unknown cell by the hypotheses whose afloat ships
// cover it ("finish sinking").
func (g *dnGame) targetMap() {
	clear(g.score)
	for _, h := range g.hyps {
		p := g.weight(h)
		for _, s := range h {
			g.cells(s, func(c int) bool {
				if g.b.state[c] == cUnknown {
					g.score[c] += p
				}
				return true
			})
		}
	}
}

// huntMap is the hunting density of docs/battleship.md §6.4: per remaining ship, the
// placements over unknown (or possibly live hit) cells, each orientation of
// mass 1, a fifth next to known hits, weighted by the hit-rate prior and
// normalised per ship.
func (g *dnGame) huntMap() {
	rem, live := g.afloat()
	clear(g.score)
	for l := 1; l <= battleship.MaxLen; l++ {
		if rem[l] == 0 {
			continue
		}
		clear(g.post)
		g.spread(l, live)
		sum := 0.0
		for _, v := range g.post {
			sum += v
		}
		if sum > 0 {
			for c, v := range g.post {
				g.score[c] += float64(rem[l]) * v / sum
			}
		}
	}
}

// afloat is, over the hypotheses, the most ships of each length that may
// still be afloat, and the hit cells that may belong to one.
func (g *dnGame) afloat() (battleship.Fleet, []bool) {
	r := g.b.r
	live := make([]bool, r.Cells())
	var rem battleship.Fleet
	for _, h := range g.hyps {
		u := g.used(h)
		for l := 1; l <= battleship.MaxLen; l++ {
			rem[l] = max(rem[l], r.Fleet[l]-u[l])
		}
		for _, s := range h {
			if !g.sunk(s) {
				g.cells(s, func(c int) bool {
					if g.b.state[c] == cHit {
						live[c] = true
					}
					return true
				})
			}
		}
	}
	return rem, live
}

// spread adds to g.post the mass of every placement of a ship of length
// l over open cells (unknown, or a live hit), each orientation of mass 1.
func (g *dnGame) spread(l int, live []bool) {
	r := g.b.r
	w := r.W
	open := func(c int) bool { return g.b.state[c] == cUnknown || live[c] }
	for vert := range 2 {
		if l == 1 && vert == 1 {
			continue
		}
		dx, dy, step := 1, 0, 1
		if vert == 1 {
			dx, dy, step = 0, 1, w
		}
		if (dx == 1 && l > w) || (dy == 1 && l > r.H) {
			continue
		}
		base := 1 / float64((r.W-l*dx+dx)*(r.H-l*dy+dy))
		for y := 0; y+dy*(l-1) < r.H; y++ {
			for x := 0; x+dx*(l-1) < w; x++ {
				start := y*w + x
				ok, near := true, false
				for i, c := 0, start; i < l; i, c = i+1, c+step {
					if !open(c) {
						ok = false
						break
					}
					near = near || g.nearHit(c)
				}
				if !ok {
					continue
				}
				p := base
				if near {
					p *= dnNearHit
				}
				for i, c := 0, start; i < l; i, c = i+1, c+step {
					if g.b.state[c] != cHit {
						g.post[c] += p * g.hist[c]
					}
				}
			}
		}
	}
}

// nearHit reports a cell next to a hit or sunk cell.
func (g *dnGame) nearHit(c int) bool {
	r := g.b.r
	w := r.W
	x, y := c%w, c/w
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		nx, ny := x+d[0], y+d[1]
		if nx >= 0 && ny >= 0 && nx < w && ny < r.H {
			if st := g.b.state[ny*w+nx]; st == cHit || st == cSunk {
				return true
			}
		}
	}
	return false
}
