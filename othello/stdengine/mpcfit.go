package stdengine

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/botarena/gamebot/othello/bitboard"
)

// Fitting the ProbCut error model: on positions of games played by this
// engine, search each to every depth up to a maximum (without ProbCut) and
// solve it when it is near the end, and regress log σ of deep − shallow
// on the empties and the depth.

// Position is a position to search: mover, opponent, whether white moves.
type Position struct {
	P, O  uint64
	White bool
}

// ErrorSample is one measurement of deep − shallow (discs) at a position
// with Empties empties: Depth is the deep search's depth (Exact: the
// final score), Shallow the shallow one's.
type ErrorSample struct {
	Empties, Depth, Shallow int
	Exact                   bool
	Deep, Diff              int
}

// SelfPlayPositions plays n games from FlipSight's random 12-disc openings
// (8 random moves) with a depth-2 search and a random move one time in
// eight, and returns one position per game with empties in [minE, maxE]
// (drawn uniformly among the game's positions in that range).
func SelfPlayPositions(rng *rand.Rand, model *Model, n, minE, maxE int) []Position {
	s := NewSearcher(model, 16)
	var out []Position
	for len(out) < n {
		p, o, white := uint64(startP), uint64(startO), false
		var cands []Position
		for ply := 0; ; ply++ {
			m := bitboard.Moves(p, o)
			if m == 0 {
				if bitboard.Moves(o, p) == 0 {
					break
				}
				p, o, white = o, p, !white
				continue
			}
			e := 64 - count(p|o)
			if ply >= 8 && e >= minE && e <= maxE {
				cands = append(cands, Position{p, o, white})
			}
			moves := movesList(p, o)
			sq := moves[rng.IntN(len(moves))]
			if ply >= 8 && rng.IntN(8) != 0 {
				sq = s.Search(context.Background(), p, o, white, moves, Limits{MaxDepth: 2, MidgameSel: SelExact}).Move
			}
			f := bitboard.Flips(sq, p, o)
			p, o, white = o&^f, p|f|1<<uint(sq), !white
		}
		if len(cands) > 0 {
			out = append(out, cands[rng.IntN(len(cands))])
		}
	}
	return out
}

const (
	startP = 1<<28 | 1<<35 // black's discs at the start: d5, e4
	startO = 1<<27 | 1<<36
)

func movesList(p, o uint64) []int {
	var l []int
	for m := bitboard.Moves(p, o); m != 0; m &= m - 1 {
		l = append(l, trailing(m))
	}
	return l
}

// MeasureErrors searches pos to depths 1…maxDepth without ProbCut (one
// table for the position) and returns deep − shallow for every depth ≥
// mpcMinDepth; when the position has at most solveAt empties it also
// solves it and compares the exact score with the endgame's shallow depth.
func (s *Searcher) MeasureErrors(ctx context.Context, pos Position, maxDepth, solveAt int) []ErrorSample {
	s.Clear()
	s.ctx, s.aborted, s.sel = ctx, false, SelExact
	defer func() { s.ctx = nil }()
	b, w := pos.P, pos.O
	if pos.White {
		b, w = w, b
	}
	s.feat[0] = s.model.lay.featuresOf(b, w)
	empties := 64 - count(pos.P|pos.O)
	v := make([]int, maxDepth+1)
	for d := 0; d <= maxDepth && d < empties; d++ {
		v[d] = s.search(pos.P, pos.O, 0, pos.White, -64, 64, d)
	}
	var out []ErrorSample
	for d := mpcMinDepth; d <= maxDepth && d < empties; d++ {
		ds := mpcShallow(d)
		out = append(out, ErrorSample{Empties: empties, Depth: d, Shallow: ds, Deep: v[d], Diff: v[d] - v[ds]})
	}
	if empties <= solveAt {
		ds := endShallow(empties)
		if ds >= 0 && ds <= maxDepth && ds < empties {
			exact := s.endgame(pos.P, pos.O, 0, pos.White, -64, 64, empties)
			out = append(out, ErrorSample{Empties: empties, Depth: empties, Shallow: ds, Exact: true, Deep: exact, Diff: exact - v[ds]})
		}
	}
	if s.aborted {
		return nil
	}
	return out
}

// FitErrorModel fits the error model to samples: σ² of each group (an
// empties band of 4 and a depth; the endgame by empties band) is the mean
// squared difference, and log σ is regressed on the group's mean empties
// and depth, weighted by the group's size. It writes the groups and the
// fit to w.
func FitErrorModel(samples []ErrorSample, w io.Writer) ErrorModel {
	groups, keys := groupErrors(samples)
	// Weighted least squares of log σ on (1, e/60, d/60), and of the
	// endgame's log σ on (1, e/60).
	var mid [3][4]float64
	var end [2][3]float64
	for _, k := range keys {
		g := groups[k]
		if g.n < 8 {
			continue
		}
		n := float64(g.n)
		e, sigma := g.describe(w, k)
		y := math.Log(max(sigma, 0.25))
		if k.exact {
			x := [2]float64{1, e / 60}
			for i := range 2 {
				for j := range 2 {
					end[i][j] += n * x[i] * x[j]
				}
				end[i][2] += n * x[i] * y
			}
			continue
		}
		x := [3]float64{1, e / 60, float64(k.depth) / 60}
		for i := range 3 {
			for j := range 3 {
				mid[i][j] += n * x[i] * x[j]
			}
			mid[i][3] += n * x[i] * y
		}
	}
	m := defaultErrors
	if c, ok := solve3(mid); ok {
		m.A, m.B, m.C = c[0], c[1], c[2]
	}
	if det := end[0][0]*end[1][1] - end[0][1]*end[1][0]; math.Abs(det) > 1e-9 {
		m.D = (end[0][2]*end[1][1] - end[0][1]*end[1][2]) / det
		m.E = (end[0][0]*end[1][2] - end[1][0]*end[0][2]) / det
	}
	fmt.Fprintf(w, "fit: ErrorModel{A: %.3f, B: %.3f, C: %.3f, D: %.3f, E: %.3f}\n", m.A, m.B, m.C, m.D, m.E)
	return m
}

// errKey is a group of error samples: an empties band of 4 and a depth,
// or, in the endgame, the band alone.
type errKey struct {
	band, depth int
	exact       bool
}

// errGroup sums a group's samples.
type errGroup struct {
	n                int
	sumE, sum2, sum  float64
	sx, sy, sxx, sxy float64 // deep vs shallow regression
}

// groupErrors groups the samples; the keys come in the order the fit
// writes them: the midgame's, most empties first, by depth, then the
// endgame's.
func groupErrors(samples []ErrorSample) (map[errKey]*errGroup, []errKey) {
	groups := map[errKey]*errGroup{}
	for _, x := range samples {
		k := errKey{x.Empties / 4, x.Depth, x.Exact}
		if x.Exact {
			k.depth = 0
		}
		g := groups[k]
		if g == nil {
			g = &errGroup{}
			groups[k] = g
		}
		g.n++
		g.sumE += float64(x.Empties)
		d := float64(x.Diff)
		g.sum += d
		g.sum2 += d * d
		sh := float64(x.Deep - x.Diff)
		g.sx += sh
		g.sy += float64(x.Deep)
		g.sxx += sh * sh
		g.sxy += sh * float64(x.Deep)
	}
	keys := make([]errKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.exact != b.exact {
			return !a.exact
		}
		if a.band != b.band {
			return a.band > b.band
		}
		return a.depth < b.depth
	})
	return groups, keys
}

// describe writes group k's line to w: its mean empties, size, mean
// difference, σ and the slope of deep on shallow; it returns the mean
// empties and σ.
func (g *errGroup) describe(w io.Writer, k errKey) (e, sigma float64) {
	n := float64(g.n)
	e = g.sumE / n
	sigma = math.Sqrt(g.sum2 / n)
	slope := (n*g.sxy - g.sx*g.sy) / max(n*g.sxx-g.sx*g.sx, 1e-9)
	if k.exact {
		fmt.Fprintf(w, "endgame  empties %4.1f shallow %2d: n %4d mean %+.2f σ %.2f slope %.2f\n", e, endShallow(int(e+0.5)), g.n, g.sum/n, sigma, slope)
	} else {
		fmt.Fprintf(w, "midgame  empties %4.1f depth %2d/%-2d: n %4d mean %+.2f σ %.2f slope %.2f\n", e, k.depth, mpcShallow(k.depth), g.n, g.sum/n, sigma, slope)
	}
	return e, sigma
}

// solve3 solves a 3×3 linear system given as an augmented matrix.
func solve3(a [3][4]float64) ([3]float64, bool) {
	for c := range 3 {
		piv := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) < 1e-12 {
			return [3]float64{}, false
		}
		a[c], a[piv] = a[piv], a[c]
		for r := range 3 {
			if r != c {
				f := a[r][c] / a[c][c]
				for k := c; k < 4; k++ {
					a[r][k] -= f * a[c][k]
				}
			}
		}
	}
	return [3]float64{a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]}, true
}
